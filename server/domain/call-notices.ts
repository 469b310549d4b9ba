/**
 * The change notices a call makes by what it is (server/domain/change-bus.ts): a card, the
 * subscription, a seller changed by an API or sandbox operation. Orders, deliveries of events and
 * auto-delivery note themselves where they change (server/domain/orders.ts, server/webhooks/outbox.ts);
 * what is left is said here once, by operation id, rather than in every handler. `execute` calls it
 * after a handler answered (not refused), before the call's write, which publishes the notices.
 */
import type { ServerContext } from '../context.ts';

type Subject = 'card' | 'hooks' | 'seller' | 'delivery' | 'faults';

/** What each changing operation changes, besides orders. */
const SUBJECT_OF: Readonly<Record<string, Subject>> = {
  'listings.create': 'card',
  'listings.copy': 'card',
  'listings.update': 'card',
  'listings.delete': 'card',
  'listings.setState': 'card',
  'listings.setTest': 'card',
  'listings.setImage': 'card',
  'listings.removeImage': 'card',
  'stock.refill': 'card',
  'hooks.set': 'hooks',
  'hooks.delete': 'hooks',
  'hooks.rotateSecret': 'hooks',
  'hooks.resume': 'hooks',
  'hooks.createProbe': 'hooks',
  'hooks.test': 'delivery',
  'keys.create': 'seller',
  'keys.revoke': 'seller',
  'papers.setNickname': 'seller',
  'papers.acceptOffer': 'seller',
  'papers.setStatus': 'seller',
  'papers.confirmRegistry': 'seller',
  'papers.setPayout': 'seller',
  'sandbox.createSeller': 'seller',
  'sandbox.setSellerStatus': 'seller',
  'sandbox.setAdmission': 'seller',
  'sandbox.createCard': 'card',
  'sandbox.refill': 'card',
  'sandbox.setCardState': 'card',
  // the sandbox's faults (branch `faults`): held by the server, not by a seller's document
  'sandbox.addFault': 'faults',
  'sandbox.clearFaults': 'faults',
  'sandbox.clearFault': 'faults',
  'sandbox.releaseRun': 'faults',
};

const field = (value: unknown, name: string): unknown =>
  value !== null && typeof value === 'object' && Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;

/**
 * Notes what the call `opId` changed. `sellerId` is the caller's seller (API); a sandbox call names
 * its seller in its path or answer, or its card in its path.
 */
export function noteCall(svc: ServerContext, opId: string, sellerId: string | undefined, params: unknown, answer: unknown, now: Date): void {
  const subject = SUBJECT_OF[opId];
  if (!subject) return;
  const at = now.toISOString();
  if (subject === 'faults') {
    svc.changes.publish([{ type: 'faults', at }]);
    return;
  }
  const number = Number(field(params, 'number') ?? field(answer, 'number'));
  const seller = sellerId ?? sellerOf(svc, params, answer, number);
  if (!seller) return;
  switch (subject) {
    case 'card':
      if (Number.isInteger(number)) svc.changes.note(seller, { type: 'card', sellerId: seller, number, at });
      return;
    case 'delivery': {
      const deliveryId = field(answer, 'delivery');
      if (typeof deliveryId === 'string') svc.changes.note(seller, { type: 'delivery', sellerId: seller, deliveryId, at });
      return;
    }
    default:
      svc.changes.note(seller, { type: subject, sellerId: seller, at });
  }
}

function sellerOf(svc: ServerContext, params: unknown, answer: unknown, number: number): string | undefined {
  const named = field(params, 'sellerId') ?? field(answer, 'sellerId');
  if (typeof named === 'string') return named;
  const index = svc.store.shared.cardIndex;
  return Number.isInteger(number) && Object.hasOwn(index, String(number)) ? index[String(number)] : undefined;
}
