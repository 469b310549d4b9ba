/**
 * Orders: list, read, confirm, decline, deliver, messages, vaults, dispute reply (scope `orders`).
 * Only the caller's own orders are found (rule 7); answers are built by `orderView` (rule 4).
 * Every changing handler first settles a deadline that has come (the clock may not have run yet),
 * then hands the order to its domain action (server/domain/order-actions.ts), which checks and
 * changes it with no await in between, or answers a refusal.
 */
import { PAGE_LIMIT_DEFAULT } from '../../sdk/contract/index.ts';
import { act, decline, deliver, message, putSellerVault, replyToDispute, revealBuyerVault } from '../domain/order-actions.ts';
import { messageView, needsAction, orderView, orderWithMessages, settle } from '../domain/orders.ts';
import { isRefusal } from '../domain/refusal.ts';
import { badRequest } from '../http/errors.ts';
import { apiHandlers, type ApiContext } from '../http/handlers.ts';
import { cursorKey, cursorOf } from '../http/paging.ts';
import { creationKey, newestOrders, ordersUpdatedSince, updateKey } from '../store/order-index.ts';
import type { OrderRecord } from '../store/records/orders.ts';

/** The caller's order, settled to `now` when the call changes data; not found otherwise (rule 7). */
function ownOrder(ctx: ApiContext, id: string): OrderRecord {
  const order = Object.hasOwn(ctx.caller.doc.orders, id) ? ctx.caller.doc.orders[id] : undefined;
  if (!order) throw ctx.notFound('order', id);
  if (ctx.op.changes) settle(ctx.svc, ctx.caller.doc, order, ctx.now);
  return order;
}

// Cursor keys carry the order of the list they came from, so a cursor of one cannot page the other.
const BY_UPDATE = 'u|';
const BY_CREATION = 'c|';

function checkCursor(cursor: string | undefined, prefix: string): void {
  if (cursor === undefined) return;
  if (!Buffer.from(cursor, 'base64url').toString('utf8').startsWith(prefix)) {
    throw badRequest(['query', 'cursor'], 'cursor', 'not a cursor of this list (a cursor works only with the same updatedSince use it came from)');
  }
}

export const orderHandlers = apiHandlers({
  'orders.list': (ctx, { query }) => {
    const { status, needsAction: needs, updatedSince: since, cursor } = query;
    // Walks the seller's order index (server/store/order-index.ts) from the cursor: a page costs
    // about its size; filters are applied while walking, so a filtered page may walk further.
    const walkOpts = {
      limit: query.limit ?? PAGE_LIMIT_DEFAULT,
      match: (o: OrderRecord) => (status === undefined || o.status === status) && (needs === undefined || needsAction(o) === needs),
    };
    if (since !== undefined) {
      // Polling: ascending by updatedAt, then id; updatedAt is unique and increasing per seller.
      checkCursor(cursor, BY_UPDATE);
      const after = cursor === undefined ? null : cursorKey(cursor).slice(BY_UPDATE.length);
      const { items, more } = ordersUpdatedSince(ctx.caller.doc, since, after, walkOpts);
      const last = items.at(-1);
      return { items: items.map(orderView), nextCursor: more && last ? cursorOf(`${BY_UPDATE}${updateKey(last.updatedAt, last.id)}`) : null };
    }
    checkCursor(cursor, BY_CREATION);
    const before = cursor === undefined ? null : cursorKey(cursor).slice(BY_CREATION.length);
    const { items, more } = newestOrders(ctx.caller.doc, before, walkOpts);
    const last = items.at(-1);
    return { items: items.map(orderView), nextCursor: more && last ? cursorOf(`${BY_CREATION}${creationKey(last)}`) : null };
  },

  'orders.get': (ctx, { params }) => orderWithMessages(ctx.caller.doc, ownOrder(ctx, params.id)),

  'orders.confirm': (ctx, { params }) => {
    const order = ownOrder(ctx, params.id);
    return act(ctx.svc, ctx.caller.doc, order, 'confirm', ctx.now) ?? orderView(order);
  },

  'orders.decline': (ctx, { params, body }) => {
    const order = ownOrder(ctx, params.id);
    return decline(ctx.svc, ctx.caller.doc, order, body.reason, ctx.now) ?? orderView(order);
  },

  'orders.deliver': (ctx, { params, body }) => {
    const order = ownOrder(ctx, params.id);
    const outcome = deliver(ctx.svc, ctx.caller.doc, order, body, ctx.now);
    return isRefusal(outcome) ? outcome : { order: order.id, status: order.status, noteRejected: outcome.noteRejected };
  },

  'orders.message': (ctx, { params, body }) => {
    const outcome = message(ctx.svc, ctx.caller.doc, ownOrder(ctx, params.id), 'seller', body.text, ctx.now);
    return isRefusal(outcome) ? outcome : messageView(outcome);
  },

  'orders.vaults': (ctx, { params }) => {
    const order = ownOrder(ctx, params.id);
    const items: { side: 'own' | 'other'; opened: boolean }[] = [];
    if (order.vaults.seller) items.push({ side: 'own', opened: order.vaults.seller.opened });
    if (order.vaults.buyer) items.push({ side: 'other', opened: order.vaults.buyer.opened });
    return { items };
  },

  'orders.putVault': (ctx, { params, body }) => {
    const outcome = putSellerVault(ctx.svc, ctx.caller.doc, ownOrder(ctx, params.id), body.secret, ctx.now);
    return isRefusal(outcome) ? outcome : { side: 'own' as const, opened: outcome.opened };
  },

  'orders.reveal': (ctx, { params }) => {
    const outcome = revealBuyerVault(ctx.svc, ctx.caller.doc, ownOrder(ctx, params.id), ctx.now);
    if (outcome === null) throw ctx.notFound('vault', undefined, 'the buyer has put nothing into a vault of this order');
    return outcome;
  },

  'orders.disputeReply': (ctx, { params, body }) => {
    const order = ownOrder(ctx, params.id);
    return replyToDispute(ctx.svc, ctx.caller.doc, order, body.text, ctx.now) ?? orderView(order);
  },
});
