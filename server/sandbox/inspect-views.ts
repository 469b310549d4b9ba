/**
 * The inspector's views of stored records (sdk/contract/sandbox-inspect.ts), built field by field:
 * never a stock unit, a vault's contents, a key (only its prefix), a signing secret, papers beyond
 * their state, or a buyer's identity. The inspector's reads and the change stream both answer these.
 */
import type { DeliveryAttempt, InspectDelivery, InspectHooks, InspectSeller, OrderMove, OrderTimeline } from '../../sdk/contract/index.ts';
import type { ServerContext } from '../context.ts';
import { missingPapers } from '../domain/admission.ts';
import { canBuyerPutVault, canMessage, deadlineOf, messageView, needsAction, nextStatus, orderView, type OrderAction } from '../domain/orders.ts';
import type { SellerDoc, SellerEntry } from '../store/docs.ts';
import { orderMessages } from '../store/message-pieces.ts';
import type { DeliveryRecord } from '../store/records/hooks.ts';
import type { OrderRecord, VaultRecord } from '../store/records/orders.ts';
import { probeUrl } from '../webhooks/probe.ts';
import { deliveryView as subscriberDeliveryView, hookView } from '../routes/hooks.ts';
import { keyView } from '../routes/keys.ts';
import { deliveryBody } from '../webhooks/sender.ts';


export function sellerView(entry: SellerEntry, doc: SellerDoc): InspectSeller {
  const cards = Object.values(doc.cards);
  const orders = Object.values(doc.orders);
  const missing = missingPapers(doc.papers);
  return {
    sellerId: entry.id,
    status: entry.status,
    mode: entry.mode,
    createdAt: entry.createdAt,
    admission: { complete: missing.length === 0, sellerType: doc.papers.sellerType, nickname: doc.papers.nickname, missing },
    keys: Object.values(doc.keys).map(keyView),
    cards: cards.length,
    activeCards: cards.filter((c) => c.isActive).length,
    orders: orders.length,
    needsAction: orders.filter(needsAction).length,
  };
}

export function hooksView(svc: ServerContext, doc: SellerDoc): InspectHooks {
  return { ...hookView(doc), probeUrl: doc.probe ? probeUrl(svc, doc.probe.token) : null };
}

export function deliveryView(d: DeliveryRecord): InspectDelivery {
  const attemptLog: DeliveryAttempt[] = (d.attemptLog ?? []).map((a) => ({ attempt: a.attempt, at: a.at, status: a.status, error: a.error, durationMs: a.durationMs }));
  return {
    ...subscriberDeliveryView(d),
    createdAt: d.createdAt,
    eventId: d.eventId,
    data: d.data,
    attemptLog,
    body: deliveryBody(d, Math.max(1, d.attempts)),
    headers: d.lastHeaders ?? null,
  };
}

const vaultState = (v: VaultRecord | null) => (v ? { at: v.at, opened: v.opened } : null);

/** The sandbox moves (buttons) that apply to the order now, by the state machine (server/domain/orders.ts). */
function sandboxMoves(doc: SellerDoc, order: OrderRecord, now: Date): OrderTimeline['sandboxMoves'] {
  const can = (action: OrderAction) => nextStatus(order, action, now) !== null;
  const moves: OrderTimeline['sandboxMoves'] = [];
  if (can('pay')) moves.push('pay');
  if (can('cancel')) moves.push('cancel');
  if (can('accept')) moves.push('accept');
  if (canMessage(order.status)) moves.push('message');
  if (canBuyerPutVault(order.status)) moves.push('vault');
  if (can('dispute')) moves.push('dispute');
  if (can('resolveForSeller')) moves.push('resolve');
  if (order.status === 'completed' && !Object.values(doc.reviews).some((r) => r.order === order.id)) moves.push('review');
  return moves;
}

/** An order stored before moves were kept: the moves its timestamps tell. */
function movesOf(order: OrderRecord): OrderMove[] {
  if (order.moves) return order.moves;
  const moves: OrderMove[] = [];
  if (order.paidAt) moves.push({ at: order.paidAt, action: 'pay', from: 'awaiting_payment', to: 'awaiting_delivery', by: 'buyer' });
  if (order.deliveredAt) moves.push({ at: order.deliveredAt, action: 'deliver', from: 'awaiting_delivery', to: 'delivered', by: 'seller' });
  return moves;
}

const DEADLINE_KIND = { awaiting_payment: 'payment', awaiting_confirmation: 'delivery', awaiting_delivery: 'delivery', delivered: 'guarantee' } as const;

export function timelineView(doc: SellerDoc, order: OrderRecord, now: Date): OrderTimeline {
  const due = deadlineOf(order);
  const kind = Object.hasOwn(DEADLINE_KIND, order.status) ? DEADLINE_KIND[order.status as keyof typeof DEADLINE_KIND] : null;
  const review = Object.values(doc.reviews).find((r) => r.order === order.id);
  return {
    sellerId: doc.sellerId,
    order: orderView(order),
    moves: movesOf(order),
    deadline: due !== null && kind ? { kind, at: new Date(due).toISOString() } : null,
    deliveredAt: order.deliveredAt ?? null,
    messages: orderMessages(doc, order).map(messageView),
    vaults: { seller: vaultState(order.vaults.seller), buyer: vaultState(order.vaults.buyer) },
    note: order.note,
    noteRejected: order.noteRejected ?? null,
    stockIssued: order.stockItem !== null,
    review: review ? { id: review.id, number: review.number, stars: review.stars, text: review.text, reply: review.reply, at: review.at } : null,
    sandboxMoves: sandboxMoves(doc, order, now),
  };
}
