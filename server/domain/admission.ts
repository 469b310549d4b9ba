/** Seller admission: what is still missing from the papers before the seller may sell for real. */
import type { PapersRecord } from '../store/docs.ts';

export type MissingPaper = 'nickname' | 'offer' | 'status' | 'registry' | 'payout';

export function missingPapers(p: PapersRecord): MissingPaper[] {
  const missing: MissingPaper[] = [];
  if (!p.nickname) missing.push('nickname');
  if (!p.offerAcceptedAt) missing.push('offer');
  if (!p.sellerType || !p.inn) missing.push('status');
  if (!p.registryConfirmed) missing.push('registry');
  if (!payoutFilled(p)) missing.push('payout');
  return missing;
}

export function payoutFilled(p: PapersRecord): boolean {
  const d = p.payout;
  if (!d || !d.name) return false;
  if (d.method === 'sbp') return p.sellerType === 'self_employed' && d.sealed !== null;
  if (p.sellerType === 'company' && !d.kpp) return false;
  return d.bik !== null && d.accountTail !== null;
}

export const admissionComplete = (p: PapersRecord): boolean => missingPapers(p).length === 0;
