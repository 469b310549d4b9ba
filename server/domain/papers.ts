/**
 * Admission papers and payout details: the rules, free of HTTP. Each change answers either its
 * result or a {@link Refusal} (server/domain/refusal.ts) with the field at fault and a sentence.
 *
 * - Nickname: 3–32 characters (the contract checks the characters), unique among all sellers by
 *   {@link nicknameKey} (case, invisible characters, full-width forms and look-alike letters of other
 *   scripts do not make a new nickname: `іvаn` with Cyrillic letters is `ivan`) (`shared.nicknames`,
 *   key → seller id; the old one is released on change;
 *   an index in memory, derived from the sellers' papers at start, so only the seller's document
 *   needs writing),
 *   and never a contact detail (a phone number as a nickname is refused with `contacts`).
 * - Offer: accepting again keeps the first acceptance time.
 * - Status: the INN must fit the seller type (`inn_bad`); the registry name comes from the fixture
 *   registry; a changed type or INN needs a new registry confirmation.
 * - Registry confirmation: needs a status (`no_status`); a repeat answers `already: true`.
 * - Payout: `validatePayout` decides (the spec's six kinds). The full account number (or the SBP
 *   phone) is kept only sealed (AES-GCM, AAD `payout:<seller id>`); only the last four digits of an
 *   account are kept in clear, and only they are ever answered.
 */
import { PAYOUT_KINDS, type SellerType } from '../../sdk/contract/index.ts';
import { validateInn, validatePayout, type CheckFailure, type PayoutInput } from '../../sdk/validate/bank.ts';
import { registryName } from '../seed/registry.ts';
import type { Sealer } from '../store/crypto.ts';
import type { PapersRecord, SharedDoc } from '../store/docs.ts';
import { missingPapers, payoutFilled, type MissingPaper } from './admission.ts';
import { contactsRefusal } from './contacts-rule.ts';
import { refuse, type Refusal, type RefusalDetails } from './refusal.ts';

type PayoutKind = (typeof PAYOUT_KINDS)[number];
const isPayoutKind = (kind: string): kind is PayoutKind => (PAYOUT_KINDS as readonly string[]).includes(kind);
import { nicknameKey } from '../../sdk/text-fold.ts';

/** AAD of the sealed payout account or phone. */
export const payoutAad = (sellerId: string): string => `payout:${sellerId}`;

export interface PapersView {
  nickname: string | null;
  offerAccepted: boolean;
  sellerType: SellerType | null;
  inn: string | null;
  registryName: string | null;
  registryConfirmed: boolean;
  payout: { method: 'account' | 'sbp' | null; accountTail: string | null; filled: boolean };
  complete: boolean;
  missing: MissingPaper[];
}

export function payoutView(p: PapersRecord): PapersView['payout'] {
  return { method: p.payout?.method ?? null, accountTail: p.payout?.accountTail ?? null, filled: payoutFilled(p) };
}

export function papersView(p: PapersRecord): PapersView {
  const missing = missingPapers(p);
  return {
    nickname: p.nickname,
    offerAccepted: p.offerAcceptedAt !== null,
    sellerType: p.sellerType,
    inn: p.inn,
    registryName: p.registryName,
    registryConfirmed: p.registryConfirmed,
    payout: payoutView(p),
    complete: missing.length === 0,
    missing,
  };
}

/** Sets the nickname, keeping `shared.nicknames` in step (the old one is released). */
export function setNickname(shared: SharedDoc, sellerId: string, p: PapersRecord, nickname: string): { nickname: string } | Refusal<'contacts' | 'nickname_taken'> {
  const contacts = contactsRefusal(nickname, 'nickname');
  if (contacts) return contacts;
  const lower = nicknameKey(nickname);
  // Own keys only: `constructor` or `__proto__` is a nickname like any other, not a taken one.
  const owner = Object.hasOwn(shared.nicknames, lower) ? shared.nicknames[lower] : undefined;
  if (owner !== undefined && owner !== sellerId) return refuse('nickname_taken', { field: 'nickname' }, 'this nickname belongs to another seller');
  if (p.nickname !== null) {
    const old = nicknameKey(p.nickname);
    if (old !== lower && shared.nicknames[old] === sellerId) delete shared.nicknames[old];
  }
  Object.defineProperty(shared.nicknames, lower, { value: sellerId, enumerable: true, writable: true, configurable: true });
  p.nickname = nickname;
  return { nickname };
}

/** Accepts the seller offer; a repeat keeps the first acceptance time. */
export function acceptOffer(p: PapersRecord, now: Date): { offerAccepted: true; acceptedAt: string } {
  p.offerAcceptedAt ??= now.toISOString();
  return { offerAccepted: true, acceptedAt: p.offerAcceptedAt };
}

export interface StatusAnswer {
  sellerType: SellerType;
  inn: string;
  registryName: string;
  needsConfirm: boolean;
}

/** Sets the seller type and INN; a change of either needs the registry name confirmed again. */
export function setStatus(p: PapersRecord, sellerType: SellerType, inn: string): StatusAnswer | Refusal<'inn_bad'> {
  const check = validateInn(inn, sellerType);
  if (!check.ok) return refuse('inn_bad', refusalOf(check), check.detail);
  const changed = p.sellerType !== sellerType || p.inn !== inn;
  p.sellerType = sellerType;
  p.inn = inn;
  p.registryName = registryName(inn, sellerType);
  if (changed) p.registryConfirmed = false;
  return { sellerType, inn, registryName: p.registryName, needsConfirm: !p.registryConfirmed };
}

export function confirmRegistry(p: PapersRecord): { confirmed: boolean; already: boolean } | Refusal<'no_status'> {
  if (!p.sellerType || !p.inn || !p.registryName) {
    return refuse('no_status', { field: 'status' }, 'set the seller type and INN first (PUT /papers/status)');
  }
  if (p.registryConfirmed) return { confirmed: true, already: true };
  p.registryConfirmed = true;
  return { confirmed: true, already: false };
}

/** A failed check of the SDK's validators as the details of the refusal of the same kind. */
function refusalOf(check: CheckFailure): RefusalDetails<never> {
  const { ok: _ok, kind: _kind, detail: _detail, ...values } = check;
  // The check's reason is the contract's reason of its kind (sdk/validate/bank.ts `CheckFailure`).
  return values as RefusalDetails<never>;
}

/**
 * Checks and stores payout details. The account (or phone) is sealed; the answer carries the
 * method, the account's last four digits (null for SBP) and whether the details suffice.
 */
export function setPayout(
  sealer: Sealer,
  sellerId: string,
  p: PapersRecord,
  body: PayoutInput,
  now: Date,
): PapersView['payout'] | Refusal<PayoutKind> {
  const check = validatePayout(body, p.sellerType);
  if (!check.ok) {
    // The body's schema admits only the two methods, so every failure left is a payout refusal.
    if (!isPayoutKind(check.kind)) throw new Error(`setPayout: not a payout refusal: ${check.kind}`);
    return refuse(check.kind, refusalOf(check), check.detail);
  }
  const secret = body.method === 'account' ? body.account! : body.phone!;
  const wasFilled = payoutFilled(p);
  p.payout = {
    method: body.method,
    sealed: sealer.seal(secret, payoutAad(sellerId)),
    accountTail: body.method === 'account' ? secret.slice(-4) : null,
    bik: body.method === 'account' ? body.bik! : null,
    name: body.name!,
    kpp: p.sellerType === 'company' ? body.kpp! : null,
  };
  // Papers without the field (sandbox fixtures) count as filled since always while they stay filled.
  if (!wasFilled && payoutFilled(p)) p.payoutFilledAt ??= now.toISOString();
  return payoutView(p);
}
