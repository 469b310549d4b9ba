/**
 * What a seller (API) or a buyer and the marketplace (sandbox) may do to an order, each as one
 * domain function: it checks the order's state and the text rules, then changes the order through
 * server/domain/orders.ts, or answers a {@link Refusal} and changes nothing. Routes find the order
 * and shape the answer; they do not restate where an action works.
 * Every function here is synchronous: call it after the handler's last await.
 */
import { NEEDS_NEXT_CHARGE } from '../../sdk/contract/index.ts';
import type { ServerContext } from '../context.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { MessageRecord, OrderRecord } from '../store/records/orders.ts';
import { contactsRefusal, noteRejection } from './contacts-rule.ts';
import { addMessage, applyAction, canBuyerPutVault, canMessage, canPutVault, nextStatus, touched, vaultAad, type OrderAction } from './orders.ts';
import { refuse, type Refusal } from './refusal.ts';
import type { z } from 'zod';
import type { ApiOperations } from '../../sdk/contract/index.ts';

/** Where each action works, in words: the sentence of its `state_moved`. */
const WHERE: Readonly<Record<OrderAction, string>> = {
  pay: 'only an order awaiting payment can be paid',
  confirm: 'only an order awaiting confirmation can be confirmed',
  decline: 'only an order awaiting confirmation or delivery can be declined',
  deliver: 'only an order awaiting delivery can be delivered',
  cancel: 'only an order not yet delivered can be cancelled',
  accept: 'only a delivered order can be accepted',
  dispute: 'a dispute can be opened on a delivered order, or a completed one while its guarantee runs',
  resolveForSeller: 'only a disputed order can be resolved',
  resolveForBuyer: 'only a disputed order can be resolved',
  expirePayment: 'only an order awaiting payment past its payment window expires',
  missDeadline: 'only an order past its delivery deadline misses it',
  endGuarantee: 'only a delivered order past its guarantee completes',
};

/** The refusal when the order is not in a state the action works in; names the current status. */
const stateMoved = (order: OrderRecord, what: string): Refusal<'state_moved'> =>
  refuse('state_moved', { status: order.status }, `the order is ${order.status}: ${what}; read it again before retrying`);

/** `state_moved` when `action` cannot move the order at `now`; null when it can. Changes nothing. */
function actionRefusal(order: OrderRecord, action: OrderAction, now: Date): Refusal<'state_moved'> | null {
  return nextStatus(order, action, now) === null ? stateMoved(order, WHERE[action]) : null;
}

/** Applies `action` (server/domain/orders.ts `applyAction`), or answers `state_moved`. */
export function act(svc: ServerContext, doc: SellerDoc, order: OrderRecord, action: OrderAction, now: Date): Refusal<'state_moved'> | null {
  return applyAction(svc, doc, order, action, now) ? null : stateMoved(order, WHERE[action]);
}

// ---------------------------------------------------------------------------------------------
// The seller's actions

/** Declines with a reason, which goes to the buyer as the seller's message. */
export function decline(svc: ServerContext, doc: SellerDoc, order: OrderRecord, reason: string, now: Date): Refusal<'state_moved' | 'contacts'> | null {
  const refusal = actionRefusal(order, 'decline', now) ?? contactsRefusal(reason, 'reason') ?? act(svc, doc, order, 'decline', now);
  if (refusal) return refusal;
  addMessage(svc, doc, order, 'seller', reason, now);
  return null;
}

/**
 * Delivers: a subscription or an account needs the date of the next charge at the vendor. A note
 * goes to the buyer as the seller's message, unless it holds contacts: then the delivery passes
 * and `noteRejected` says why the note was not sent.
 */
export function deliver(
  svc: ServerContext,
  doc: SellerDoc,
  order: OrderRecord,
  body: z.output<ApiOperations['orders.deliver']['body']>,
  now: Date,
): Refusal<'state_moved' | 'need_next_charge'> | { noteRejected: string | null } {
  const moved = actionRefusal(order, 'deliver', now);
  if (moved) return moved;
  if (NEEDS_NEXT_CHARGE.includes(order.productType) && body.nextChargeDay === undefined) {
    return refuse(
      'need_next_charge',
      { field: 'nextChargeDay', reason: 'required' },
      `body.nextChargeDay: required to deliver a ${order.productType} (the date of the next charge at the vendor, YYYY-MM-DD)`,
    );
  }
  if (body.nextChargeDay !== undefined) order.nextChargeDay = body.nextChargeDay;
  const refusal = act(svc, doc, order, 'deliver', now);
  if (refusal) return refusal;
  const note = body.note?.trim();
  if (!note) return { noteRejected: null };
  const noteRejected = noteRejection(note, order.id);
  order.noteRejected = noteRejected; // kept for the inspector's timeline
  if (noteRejected === null) {
    order.note = note;
    addMessage(svc, doc, order, 'seller', note, now);
  }
  return { noteRejected };
}

/** A message from the seller (or, in the sandbox, the buyer: no contact rule for the buyer's side). */
export function message(svc: ServerContext, doc: SellerDoc, order: OrderRecord, from: 'buyer', text: string, now: Date): Refusal<'state_moved'> | MessageRecord;
export function message(svc: ServerContext, doc: SellerDoc, order: OrderRecord, from: MessageRecord['from'], text: string, now: Date): Refusal<'state_moved' | 'contacts'> | MessageRecord;
export function message(svc: ServerContext, doc: SellerDoc, order: OrderRecord, from: MessageRecord['from'], text: string, now: Date): Refusal<'state_moved' | 'contacts'> | MessageRecord {
  if (!canMessage(order.status)) return stateMoved(order, 'a closed order takes no messages');
  const refusal = from === 'seller' ? contactsRefusal(text, 'text') : null;
  return refusal ?? addMessage(svc, doc, order, from, text, now);
}

/** The seller's credentials for the buyer; after delivery they are handed over at once. A new put replaces the vault. */
export function putSellerVault(svc: ServerContext, doc: SellerDoc, order: OrderRecord, secret: string, now: Date): Refusal<'state_moved'> | { opened: boolean } {
  if (!canPutVault(order.status)) return stateMoved(order, 'credentials can be put only into a paid order that is not yet completed or closed');
  const handedOver = order.status === 'delivered' || order.status === 'disputed';
  order.vaults.seller = { sealed: svc.sealer.seal(secret, vaultAad(order.id, 'seller')), opened: handedOver, at: now.toISOString() };
  touched(svc, doc, order, now);
  return { opened: handedOver };
}

/** Opens the buyer's vault for the seller, once. Null: the buyer has put nothing. */
export function revealBuyerVault(svc: ServerContext, doc: SellerDoc, order: OrderRecord, now: Date): Refusal<'already_opened'> | { secret: string } | null {
  const vault = order.vaults.buyer;
  if (!vault) return null;
  if (vault.opened) return refuse('already_opened', {}, "the buyer's vault was already read; it can be read once");
  const secret = svc.sealer.open(vault.sealed, vaultAad(order.id, 'buyer'));
  vault.opened = true;
  touched(svc, doc, order, now);
  return { secret };
}

/** The seller's answer to a dispute. */
export function replyToDispute(svc: ServerContext, doc: SellerDoc, order: OrderRecord, text: string, now: Date): Refusal<'not_disputed' | 'contacts'> | null {
  if (order.status !== 'disputed') return refuse('not_disputed', { status: order.status }, `the order is ${order.status}, not disputed`);
  const refusal = contactsRefusal(text, 'text');
  if (refusal) return refusal;
  order.disputeReplied = true;
  addMessage(svc, doc, order, 'seller', text, now);
  return null;
}

// ---------------------------------------------------------------------------------------------
// The buyer's actions (sandbox)

/** The buyer opens a dispute; its opening text comes with `order.dispute`, not as `order.message`. */
export function openDispute(svc: ServerContext, doc: SellerDoc, order: OrderRecord, text: string, now: Date): Refusal<'state_moved'> | null {
  const refusal = act(svc, doc, order, 'dispute', now);
  if (refusal) return refusal;
  addMessage(svc, doc, order, 'buyer', text, now, { quiet: true });
  return null;
}

/** The buyer's credentials for the seller, while the order is open; the seller can read new contents once. */
export function putBuyerVault(svc: ServerContext, doc: SellerDoc, order: OrderRecord, secret: string, now: Date): Refusal<'state_moved'> | null {
  if (!canBuyerPutVault(order.status)) return stateMoved(order, 'credentials can be put only into an open order');
  order.vaults.buyer = { sealed: svc.sealer.seal(secret, vaultAad(order.id, 'buyer')), opened: false, at: now.toISOString() };
  touched(svc, doc, order, now);
  return null;
}
