/**
 * Orders: list, read, confirm, decline, deliver, messages, vaults, dispute reply (scope `orders`).
 * Only the caller's own orders are found (rule 7); answers are built by `orderView` (rule 4).
 * Every changing handler first settles a deadline that has come (the clock may not have run yet),
 * then checks and changes the order with no await in between.
 */
import { NEEDS_NEXT_CHARGE, PAGE_LIMIT_DEFAULT, type Order, type OrderStatus } from '../../sdk/contract/index.ts';
import { findContacts, type ContactKind } from '../../sdk/contacts.ts';
import { installOrderClock } from '../domain/order-clock.ts';
import {
  addMessage,
  applyAction,
  canMessage,
  canPutVault,
  messageView,
  needsAction,
  orderView,
  orderWithMessages,
  settle,
  touched,
  vaultAad,
  type OrderAction,
} from '../domain/orders.ts';
import { badRequest, Refused } from '../http/errors.ts';
import { apiHandlers, type ApiContext } from '../http/handlers.ts';
import { cursorKey, cursorOf } from '../http/paging.ts';
import { creationKey, newestOrders, ordersUpdatedSince, updateKey } from '../store/order-index.ts';
import type { OrderRecord } from '../store/records/orders.ts';

const CONTACT_WORDS: Record<ContactKind, string> = {
  email: 'an e-mail address',
  phone: 'a phone number',
  messenger: 'a messenger contact',
  link: 'a link',
};

/** What the contact filter found in `text`, in words, or null when the text is clean. */
export function contactProblem(text: string): { kind: ContactKind; words: string } | null {
  const found = findContacts(text)[0];
  return found ? { kind: found.kind, words: CONTACT_WORDS[found.kind] } : null;
}

/** Refuses `text` with `contacts` when the contact filter finds anything in it. */
export function refuseContacts(text: string, field: string): void {
  const problem = contactProblem(text);
  if (problem) {
    throw new Refused('contacts', { field, reason: problem.kind }, `${field}: the text contains ${problem.words}; contacts are not allowed, write it without them`);
  }
}

/** The refusal when the order is not in a state the action works in; names the current status. */
export const stateMoved = (order: OrderRecord, what: string) =>
  new Refused('state_moved', { status: order.status }, `the order is ${order.status}: ${what}; read it again before retrying`);

/** The caller's order, settled to `now` when the call changes data; not found otherwise (rule 7). */
function ownOrder(ctx: ApiContext, id: string): OrderRecord {
  installOrderClock(ctx.svc);
  const order = Object.hasOwn(ctx.caller.doc.orders, id) ? ctx.caller.doc.orders[id] : undefined;
  if (!order) throw ctx.notFound(`no order ${id}`);
  if (ctx.op.changes) settle(ctx.svc, ctx.caller.doc, order, ctx.now);
  return order;
}

function act(ctx: ApiContext, order: OrderRecord, action: OrderAction, what: string): void {
  if (!applyAction(ctx.svc, ctx.caller.doc, order, action, ctx.now)) throw stateMoved(order, what);
}

const isOneOf = (status: OrderStatus, list: readonly OrderStatus[]) => list.includes(status);

// Cursor keys carry the order of the list they came from, so a cursor of one cannot page the other.
const BY_UPDATE = 'u|';
const BY_CREATION = 'c|';

function checkCursor(cursor: string | undefined, prefix: string): void {
  if (cursor === undefined) return;
  if (!Buffer.from(cursor, 'base64url').toString('utf8').startsWith(prefix)) {
    throw badRequest('query.cursor: not a cursor of this list (a cursor works only with the same updatedSince use it came from)');
  }
}

export const orderHandlers = apiHandlers({
  'orders.list': (ctx, { query }) => {
    installOrderClock(ctx.svc);
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

  'orders.confirm': (ctx, { params }): Order => {
    const order = ownOrder(ctx, params.id);
    act(ctx, order, 'confirm', 'only an order awaiting confirmation can be confirmed');
    return orderView(order);
  },

  'orders.decline': (ctx, { params, body }) => {
    const order = ownOrder(ctx, params.id);
    if (!isOneOf(order.status, ['awaiting_confirmation', 'awaiting_delivery'])) {
      throw stateMoved(order, 'only an order awaiting confirmation or delivery can be declined');
    }
    refuseContacts(body.reason, 'body.reason');
    act(ctx, order, 'decline', 'only an order awaiting confirmation or delivery can be declined');
    addMessage(ctx.svc, ctx.caller.doc, order, 'seller', body.reason, ctx.now);
    return orderView(order);
  },

  'orders.deliver': (ctx, { params, body }) => {
    const order = ownOrder(ctx, params.id);
    if (order.status !== 'awaiting_delivery') throw stateMoved(order, 'only an order awaiting delivery can be delivered');
    if (NEEDS_NEXT_CHARGE.includes(order.productType) && body.nextChargeDay === undefined) {
      throw new Refused(
        'need_next_charge',
        { field: 'body.nextChargeDay' },
        `body.nextChargeDay: required to deliver a ${order.productType} (the date of the next charge at the vendor, YYYY-MM-DD)`,
      );
    }
    if (body.nextChargeDay !== undefined) order.nextChargeDay = body.nextChargeDay;
    act(ctx, order, 'deliver', 'only an order awaiting delivery can be delivered');
    let noteRejected: string | null = null;
    const note = body.note?.trim();
    if (note) {
      const problem = contactProblem(note);
      if (problem) {
        noteRejected = `contacts: the note contains ${problem.words}; send it without contacts through POST /orders/${order.id}/messages`;
      } else {
        order.note = note;
        addMessage(ctx.svc, ctx.caller.doc, order, 'seller', note, ctx.now);
      }
    }
    return { order: order.id, status: order.status, noteRejected };
  },

  'orders.message': (ctx, { params, body }) => {
    const order = ownOrder(ctx, params.id);
    if (!canMessage(order.status)) throw stateMoved(order, 'a closed order takes no messages');
    refuseContacts(body.text, 'body.text');
    return messageView(addMessage(ctx.svc, ctx.caller.doc, order, 'seller', body.text, ctx.now));
  },

  'orders.vaults': (ctx, { params }) => {
    const order = ownOrder(ctx, params.id);
    const items: { side: 'own' | 'other'; opened: boolean }[] = [];
    if (order.vaults.seller) items.push({ side: 'own', opened: order.vaults.seller.opened });
    if (order.vaults.buyer) items.push({ side: 'other', opened: order.vaults.buyer.opened });
    return { items };
  },

  'orders.putVault': (ctx, { params, body }) => {
    const order = ownOrder(ctx, params.id);
    if (!canPutVault(order.status)) {
      throw stateMoved(order, 'credentials can be put only into a paid order that is not yet completed or closed');
    }
    // A new put replaces the vault; after delivery it is handed to the buyer at once.
    const handedOver = order.status === 'delivered' || order.status === 'disputed';
    order.vaults.seller = { sealed: ctx.svc.sealer.seal(body.secret, vaultAad(order.id, 'seller')), opened: handedOver, at: ctx.now.toISOString() };
    touched(ctx.svc, ctx.caller.doc, order, ctx.now);
    return { side: 'own' as const, opened: handedOver };
  },

  'orders.reveal': (ctx, { params }) => {
    const order = ownOrder(ctx, params.id);
    const vault = order.vaults.buyer;
    if (!vault) throw ctx.notFound('the buyer has put nothing into a vault of this order');
    if (vault.opened) throw new Refused('already_opened', {}, "the buyer's vault was already read; it can be read once");
    const secret = ctx.svc.sealer.open(vault.sealed, vaultAad(order.id, 'buyer'));
    vault.opened = true;
    touched(ctx.svc, ctx.caller.doc, order, ctx.now);
    return { secret };
  },

  'orders.disputeReply': (ctx, { params, body }) => {
    const order = ownOrder(ctx, params.id);
    if (order.status !== 'disputed') {
      throw new Refused('not_disputed', { status: order.status }, `the order is ${order.status}, not disputed`);
    }
    refuseContacts(body.text, 'body.text');
    order.disputeReplied = true;
    addMessage(ctx.svc, ctx.caller.doc, order, 'seller', body.text, ctx.now);
    return orderView(order);
  },
});
