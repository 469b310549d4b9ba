/**
 * The order state machine (gaps.md: order status table) and the one way an order changes.
 *
 * The first half is pure: which action moves which status where, deadlines, `needsAction`, and the
 * seller-facing view (built field by field: the internal buyer id never reaches it, rule 4).
 * The second half applies a change to a seller's document: every change stamps `updatedAt` through
 * {@link stampUpdate} (strictly increasing per seller, rule 6), records the event of the action,
 * and notes the order's next deadline for the clock sweep (server/domain/order-clock.ts).
 * Everything here is synchronous, so a handler that read an order changes it without interleaving.
 * `touched` and `orderCreated` also keep the seller's list index (server/store/order-index.ts).
 */
import type { EventKind, Message, Mover, Order, OrderAction, OrderStatus, OrderWithMessages } from '../../sdk/contract/index.ts';
import type { ServerContext } from '../context.ts';
import { newId } from '../ids.ts';
import type { SellerDoc } from '../store/docs.ts';
import { appendMessage, orderMessages } from '../store/message-pieces.ts';
import { noteOrderCreated, noteOrderUpdate } from '../store/order-index.ts';
import type { MessageRecord, OrderRecord } from '../store/records/orders.ts';
import type { CardRecord } from '../store/records/listings.ts';
import { recordEvent } from './events.ts';
import { afterIssue, issueUnit } from './stock.ts';

// ---------------------------------------------------------------------------------------------
// The state machine (pure)

/** An unpaid order is cancelled this long after the buyer pressed buy. */
export const PAYMENT_WINDOW_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * What moves an order (the contract's `ORDER_ACTIONS`, which the sandbox's timeline shows): the buyer pays,
 * cancels, accepts or disputes; the seller confirms, declines or delivers; the marketplace resolves a
 * dispute for the seller or the buyer; the clock expires the payment window, misses the SLA deadline
 * or ends the guarantee.
 */
export type { OrderAction };

export interface Transition {
  from: readonly OrderStatus[];
  to: OrderStatus;
}

/** Every allowed move. `pay` goes to `awaiting_confirmation` instead when the card requires confirmation. */
export const TRANSITIONS: Readonly<Record<OrderAction, Transition>> = {
  pay: { from: ['awaiting_payment'], to: 'awaiting_delivery' },
  confirm: { from: ['awaiting_confirmation'], to: 'awaiting_delivery' },
  decline: { from: ['awaiting_confirmation', 'awaiting_delivery'], to: 'declined' },
  deliver: { from: ['awaiting_delivery'], to: 'delivered' },
  cancel: { from: ['awaiting_payment', 'awaiting_confirmation', 'awaiting_delivery'], to: 'cancelled' },
  accept: { from: ['delivered'], to: 'completed' },
  // from `completed` only while the guarantee runs (see nextStatus)
  dispute: { from: ['delivered', 'completed'], to: 'disputed' },
  resolveForSeller: { from: ['disputed'], to: 'completed' },
  resolveForBuyer: { from: ['disputed'], to: 'refunded' },
  expirePayment: { from: ['awaiting_payment'], to: 'cancelled' },
  missDeadline: { from: ['awaiting_confirmation', 'awaiting_delivery'], to: 'refunded' },
  endGuarantee: { from: ['delivered'], to: 'completed' },
};

/** Who makes each move (auto-delivery is the seller's `deliver`, told apart by its caller). */
export const MOVER_OF: Readonly<Record<OrderAction, Mover>> = {
  pay: 'buyer',
  confirm: 'seller',
  decline: 'seller',
  deliver: 'seller',
  cancel: 'buyer',
  accept: 'buyer',
  dispute: 'buyer',
  resolveForSeller: 'marketplace',
  resolveForBuyer: 'marketplace',
  expirePayment: 'clock',
  missDeadline: 'clock',
  endGuarantee: 'clock',
};

/** Status moves an order keeps for its timeline (the state machine makes a handful; disputes may repeat). */
export const MOVES_KEPT = 20;

/** States in which nothing more happens to the order: no messages, no vaults, no action needed. */
export const CLOSED_STATUSES: readonly OrderStatus[] = ['cancelled', 'declined', 'refunded'];

export const isClosed = (status: OrderStatus): boolean => CLOSED_STATUSES.includes(status);

const ms = (t: string | null | undefined): number | null => (t ? Date.parse(t) : null);

/** The moment an order's deadline falls due (the clock moves it then), or null when none runs. */
export function deadlineOf(order: OrderRecord): number | null {
  switch (order.status) {
    case 'awaiting_payment':
      return Date.parse(order.createdAt) + PAYMENT_WINDOW_MS;
    case 'awaiting_confirmation':
    case 'awaiting_delivery':
      return ms(order.deliverBy);
    case 'delivered':
      return ms(order.guaranteeUntil);
    default:
      return null;
  }
}

/** The clock's action on the order at `now`, if its deadline has come (`now >= deadline`). */
export function dueAction(order: OrderRecord, now: Date): OrderAction | null {
  const due = deadlineOf(order);
  if (due === null || now.getTime() < due) return null;
  if (order.status === 'awaiting_payment') return 'expirePayment';
  if (order.status === 'delivered') return 'endGuarantee';
  return 'missDeadline';
}

/** The earliest deadline among `orders`, or null. */
export function nextDeadline(orders: Iterable<OrderRecord>): number | null {
  let next: number | null = null;
  for (const order of orders) {
    const d = deadlineOf(order);
    if (d !== null && (next === null || d < next)) next = d;
  }
  return next;
}

/** Where `action` moves the order at `now`, or null when it cannot (the order is elsewhere). */
export function nextStatus(order: OrderRecord, action: OrderAction, now: Date): OrderStatus | null {
  const rule = TRANSITIONS[action];
  if (!rule.from.includes(order.status)) return null;
  switch (action) {
    case 'pay':
      return order.confirmRequired ? 'awaiting_confirmation' : 'awaiting_delivery';
    case 'dispute':
      if (order.status === 'completed') {
        const until = ms(order.guaranteeUntil);
        if (until === null || now.getTime() >= until) return null;
      }
      return rule.to;
    case 'expirePayment':
    case 'missDeadline':
    case 'endGuarantee':
      return dueAction(order, now) === action ? rule.to : null;
    default:
      return rule.to;
  }
}

/**
 * Whether the seller has to act (gaps.md): awaiting confirmation or delivery, a dispute not yet
 * answered, or an unread buyer message. A closed order never needs action (nothing can be done).
 */
export function needsAction(order: OrderRecord): boolean {
  if (isClosed(order.status)) return false;
  if (order.status === 'awaiting_confirmation' || order.status === 'awaiting_delivery') return true;
  if (order.status === 'disputed' && !order.disputeReplied) return true;
  return order.unreadBuyerMessage;
}

/** Messages can be exchanged while the order is not closed. */
export const canMessage = (status: OrderStatus): boolean => !isClosed(status);

/** The seller may put credentials into its vault once paid and until the order is settled. */
export const canPutVault = (status: OrderStatus): boolean =>
  status === 'awaiting_confirmation' || status === 'awaiting_delivery' || status === 'delivered' || status === 'disputed';

/** The buyer may put credentials into its vault while the order is open. */
export const canBuyerPutVault = (status: OrderStatus): boolean =>
  status === 'awaiting_payment' || canPutVault(status);

/** AAD of a sealed vault: bound to the order and the side. */
export const vaultAad = (orderId: string, side: 'seller' | 'buyer'): string => `vault:${orderId}:${side}`;

/** The order as the seller sees it (contract `Order`): built field by field, no buyer identity. */
export function orderView(o: OrderRecord): Order {
  return {
    id: o.id,
    number: o.number,
    service: o.service,
    tariff: o.tariff,
    productType: o.productType,
    deliveryMethod: o.deliveryMethod,
    priceRub: o.priceRub,
    status: o.status,
    isTest: o.isTest,
    needsAction: needsAction(o),
    slaMinutes: o.slaMinutes,
    deliverBy: o.deliverBy,
    guaranteeDays: o.guaranteeDays,
    guaranteeUntil: o.guaranteeUntil,
    nextChargeDay: o.nextChargeDay,
    createdAt: o.createdAt,
    paidAt: o.paidAt,
    updatedAt: o.updatedAt,
  };
}

export const messageView = (m: MessageRecord): Message => ({ id: m.id, from: m.from, text: m.text, at: m.at });

/** The single read: the order and its conversation, oldest message first. */
export function orderWithMessages(doc: SellerDoc, o: OrderRecord): OrderWithMessages {
  return { ...orderView(o), messages: orderMessages(doc, o).map(messageView) };
}

/**
 * Sets the order's `updatedAt` to `now`, or to 1 ms after the seller's latest order update when
 * `now` is not later: per seller, no two changes share an `updatedAt` and none goes back in time,
 * so a client polling `updatedSince` (inclusive) never misses a change made while it pages.
 */
export function stampUpdate(doc: Pick<SellerDoc, 'lastOrderUpdate'>, order: OrderRecord, now: Date): string {
  let t = now.getTime();
  const last = ms(doc.lastOrderUpdate);
  if (last !== null && t <= last) t = last + 1;
  const at = new Date(t).toISOString();
  order.updatedAt = at;
  doc.lastOrderUpdate = at;
  return at;
}

// ---------------------------------------------------------------------------------------------
// Changing an order in a seller's document

/** Call after every change of an order: stamps `updatedAt` and notes its deadline for the clock (`svc.deadlines`). */
export function touched(svc: ServerContext, doc: SellerDoc, order: OrderRecord, now: Date): void {
  const at = stampUpdate(doc, order, now);
  noteOrderUpdate(doc, order);
  const due = deadlineOf(order);
  if (due !== null) svc.deadlines.note(doc.sellerId, due);
  noteOrderChange(svc, doc, order, { change: 'updated', from: null, action: null, by: null, at });
}

/** Tells the change bus (server/domain/change-bus.ts) of an order's change; published when the document is written. */
function noteOrderChange(
  svc: ServerContext,
  doc: SellerDoc,
  order: OrderRecord,
  what: { change: 'created' | 'status' | 'updated'; from: OrderStatus | null; action: OrderAction | null; by: Mover | null; at: string },
): void {
  const snapshot = () => orderView(order);
  svc.changes.note(doc.sellerId, { type: 'order', sellerId: doc.sellerId, orderId: order.id, number: order.number, to: order.status, snapshot, ...what });
}

/** Keeps a status move in the order's record (the inspector's timeline) and tells the change bus. */
function recordMove(svc: ServerContext, doc: SellerDoc, order: OrderRecord, move: { action: OrderAction; from: OrderStatus; by: Mover }, now: Date): void {
  const at = now.toISOString();
  const moves = (order.moves ??= []);
  moves.push({ at, action: move.action, from: move.from, to: order.status, by: move.by });
  if (moves.length > MOVES_KEPT) moves.splice(0, moves.length - MOVES_KEPT);
  noteOrderChange(svc, doc, order, { change: 'status', ...move, at });
}

/** The event each action records (gaps.md event kinds); the other actions record none. */
const EVENT_OF: Partial<Record<OrderAction, EventKind>> = {
  pay: 'order.paid',
  cancel: 'order.cancelled',
  expirePayment: 'order.cancelled',
  accept: 'order.completed',
  endGuarantee: 'order.completed',
  resolveForSeller: 'order.completed',
  dispute: 'order.dispute',
};

const orderData = (o: OrderRecord) => ({ order: o.id, number: o.number, status: o.status });

function recordOrderEvent(svc: ServerContext, doc: SellerDoc, order: OrderRecord, kind: EventKind, now: Date): void {
  const data = orderData(order);
  switch (kind) {
    case 'order.paid':
      recordEvent(svc, doc, kind, { ...data, slaMinutes: order.slaMinutes }, now);
      return;
    case 'order.new':
    case 'order.cancelled':
    case 'order.completed':
    case 'order.dispute':
      recordEvent(svc, doc, kind, data, now);
      return;
    default:
      throw new Error(`no order event ${kind}`);
  }
}

/**
 * Applies `action` to the order: the new status and its timestamps, auto-delivery when the order
 * comes to wait for delivery, the event, and then the `stock.out` of a stock the auto-delivery emptied. Answers false (and changes nothing) when the order is
 * not in a state the action moves.
 */
export function applyAction(svc: ServerContext, doc: SellerDoc, order: OrderRecord, action: OrderAction, now: Date, by: Mover = MOVER_OF[action]): boolean {
  const to = nextStatus(order, action, now);
  if (to === null) return false;
  const from = order.status;
  order.status = to;
  recordMove(svc, doc, order, { action, from, by }, now);
  const at = now.toISOString();
  switch (action) {
    case 'pay':
      order.paidAt = at;
      order.deliverBy = new Date(now.getTime() + order.slaMinutes * MINUTE_MS).toISOString();
      break;
    case 'deliver':
      order.deliveredAt = at;
      order.guaranteeUntil = new Date(now.getTime() + order.guaranteeDays * DAY_MS).toISOString();
      // the seller's vault is handed to the buyer with the delivery
      if (order.vaults.seller) order.vaults.seller.opened = true;
      break;
    case 'dispute':
      order.disputeReplied = false;
      break;
    default:
      break;
  }
  const issuedFrom = to === 'awaiting_delivery' ? autoDeliver(svc, doc, order, now) : undefined;
  touched(svc, doc, order, now);
  const kind = EVENT_OF[action];
  if (kind) recordOrderEvent(svc, doc, order, kind, now);
  // An emptied stock is announced after this step's own event: `order.paid` (carrying the status
  // after the auto-delivery) is recorded, and so delivered, before the `stock.out` it caused
  // (docs/decisions.md, "Event order").
  if (issuedFrom) afterIssue(svc, doc, issuedFrom, now);
  return true;
}

/**
 * Auto-delivery (gaps.md): when the card has `autoIssue`, one free stock unit goes into the
 * seller's vault for the buyer and the order is delivered; answers the card, on which the caller
 * runs `afterIssue` (an emptied stock: `stock.out` recorded, auto-delivery switched off). Without a free unit the order waits for
 * a manual delivery. Synchronous: two payments never get the same unit.
 */
function autoDeliver(svc: ServerContext, doc: SellerDoc, order: OrderRecord, now: Date): CardRecord | undefined {
  const card = doc.cards[String(order.number)];
  if (!card?.autoIssue) return undefined;
  const unit = issueUnit(svc, doc, order.number, order.id, now);
  if (unit !== null) {
    order.vaults.seller = { sealed: svc.sealer.seal(unit.secret, vaultAad(order.id, 'seller')), opened: false, at: now.toISOString() };
    order.stockItem = unit.id;
    applyAction(svc, doc, order, 'deliver', now, 'auto');
    // the card's stock counts moved
    svc.changes.note(doc.sellerId, { type: 'card', sellerId: doc.sellerId, number: card.number, at: now.toISOString() });
  }
  // The caller announces an emptied stock (`afterIssue`) once its own event is recorded.
  return card;
}

/** Applies the clock's due action, if any (an action on an order first settles it). */
export function settle(svc: ServerContext, doc: SellerDoc, order: OrderRecord, now: Date): boolean {
  const action = dueAction(order, now);
  return action !== null && applyAction(svc, doc, order, action, now);
}

/**
 * Adds a message to the order's conversation. A buyer message sets the unread flag and records
 * `order.message` unless `quiet` (the dispute's opening text comes with `order.dispute`);
 * a seller message clears the unread flag (the seller has answered).
 */
export function addMessage(
  svc: ServerContext,
  doc: SellerDoc,
  order: OrderRecord,
  from: MessageRecord['from'],
  text: string,
  now: Date,
  opts: { quiet?: boolean } = {},
): MessageRecord {
  const message: MessageRecord = { id: newId('msg'), from, text, at: now.toISOString() };
  appendMessage(doc, order, message);
  if (from === 'buyer') order.unreadBuyerMessage = true;
  if (from === 'seller') order.unreadBuyerMessage = false;
  touched(svc, doc, order, now);
  if (from === 'buyer' && !opts.quiet) {
    recordEvent(svc, doc, 'order.message', { ...orderData(order), message: { id: message.id, text: message.text, at: message.at } }, now);
  }
  return message;
}

/**
 * Stamps a freshly created order and records `order.new`. Its `createdAt` is its first `updatedAt`,
 * so creation times are unique per seller too and "newest first" is exact.
 */
export function orderCreated(svc: ServerContext, doc: SellerDoc, order: OrderRecord, now: Date): void {
  touched(svc, doc, order, now);
  order.createdAt = order.updatedAt;
  noteOrderCreated(doc, order);
  noteOrderChange(svc, doc, order, { change: 'created', from: null, action: null, by: 'buyer', at: order.createdAt });
  recordOrderEvent(svc, doc, order, 'order.new', now);
}
