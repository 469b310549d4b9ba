/**
 * Sandbox: the buyer's side of orders (buy, pay, cancel, accept, message, vault, dispute) and the
 * marketplace's dispute resolution. The buyer is a pseudonymous internal id that no answer shows.
 * Each handler loads the seller's document, then checks and changes the order with no await.
 */
import { installOrderClock } from '../domain/order-clock.ts';
import {
  addMessage,
  applyAction,
  canBuyerPutVault,
  canMessage,
  messageView,
  orderCreated,
  orderWithMessages,
  settle,
  touched,
  vaultAad,
  type OrderAction,
} from '../domain/orders.ts';
import { atCapacity, isDoNotDisturb } from '../domain/work-mode.ts';
import { Refused } from '../http/errors.ts';
import { sandboxHandlers, type CallContext } from '../http/handlers.ts';
import { base62, newId } from '../ids.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { OrderRecord } from '../store/records/orders.ts';
import { stateMoved } from '../routes/orders.ts';

/** The order and its seller's document (marked to be written), settled to `now`; 404 when absent. */
async function findOrder(ctx: CallContext, id: string): Promise<{ doc: SellerDoc; order: OrderRecord }> {
  installOrderClock(ctx.svc);
  const { orderIndex } = ctx.svc.store.shared;
  const sellerId = Object.hasOwn(orderIndex, id) ? orderIndex[id] : undefined;
  const doc = sellerId ? await ctx.tx.seller(sellerId) : undefined;
  const order = doc && Object.hasOwn(doc.orders, id) ? doc.orders[id] : undefined;
  if (!doc || !order) throw ctx.notFound(`no order ${id}`);
  settle(ctx.svc, doc, order, ctx.now);
  return { doc, order };
}

/** A buyer or marketplace action on an order; `state_moved` when the order is elsewhere. */
const action = (name: OrderAction, what: string) => async (ctx: CallContext, { params }: { params: { id: string } }) => {
  const { doc, order } = await findOrder(ctx, params.id);
  if (!applyAction(ctx.svc, doc, order, name, ctx.now)) throw stateMoved(order, what);
  return orderWithMessages(doc, order);
};

export const orderSandboxHandlers = sandboxHandlers({
  'sandbox.createOrder': async (ctx, { body }) => {
    installOrderClock(ctx.svc);
    // Read only: the card and order indexes are derived in memory, never written with the order.
    const shared = ctx.svc.store.shared;
    const number = String(body.number);
    const sellerId = Object.hasOwn(shared.cardIndex, number) ? shared.cardIndex[number] : undefined;
    const doc = sellerId ? await ctx.tx.seller(sellerId) : undefined;
    const card = doc && Object.hasOwn(doc.cards, number) ? doc.cards[number] : undefined;
    if (!doc || !card || card.hidden) throw ctx.notFound(`no card ${number}`);
    const testBuyer = body.testBuyer ?? false;
    if (!card.isActive) throw new Refused('inactive', {}, `card ${number} is switched off`);
    if (card.isTest && !testBuyer) throw new Refused('test_card', {}, `card ${number} is a test card: only a test buyer (testBuyer: true) can buy it`);
    if (!card.isTest && testBuyer) throw new Refused('real_card', {}, `card ${number} is a real card: a test buyer can buy only test cards`);
    if (isDoNotDisturb(doc, ctx.now)) throw new Refused('do_not_disturb', {}, 'the seller takes no new orders now (do-not-disturb or quiet hours)');
    if (atCapacity(doc)) throw new Refused('capacity', {}, `the seller is at capacity (${doc.workMode.capacity} open orders)`);
    const at = ctx.now.toISOString();
    const order: OrderRecord = {
      id: newId('ord'),
      number: card.number,
      service: card.service,
      tariff: card.tariff,
      productType: card.productType,
      deliveryMethod: card.deliveryMethod,
      priceRub: card.priceRub,
      status: 'awaiting_payment',
      isTest: card.isTest,
      confirmRequired: card.confirmRequired,
      slaMinutes: card.slaMinutes,
      deliverBy: null,
      guaranteeDays: card.guaranteeDays,
      guaranteeUntil: null,
      nextChargeDay: null,
      createdAt: at,
      paidAt: null,
      deliveredAt: null,
      updatedAt: at,
      buyer: { id: `buy_${base62(16)}`, test: testBuyer },
      messages: [],
      unreadBuyerMessage: false,
      disputeReplied: false,
      vaults: { seller: null, buyer: null },
      note: null,
      stockItem: null,
    };
    doc.orders[order.id] = order;
    shared.orderIndex[order.id] = doc.sellerId;
    orderCreated(ctx.svc, doc, order, ctx.now);
    return orderWithMessages(doc, order);
  },

  'sandbox.pay': action('pay', 'only an order awaiting payment can be paid'),
  'sandbox.cancel': action('cancel', 'only an order not yet delivered can be cancelled'),
  'sandbox.accept': action('accept', 'only a delivered order can be accepted'),
  'sandbox.resolve': async (ctx, { params, body }) => {
    const { doc, order } = await findOrder(ctx, params.id);
    const name: OrderAction = body.winner === 'seller' ? 'resolveForSeller' : 'resolveForBuyer';
    if (!applyAction(ctx.svc, doc, order, name, ctx.now)) throw stateMoved(order, 'only a disputed order can be resolved');
    return orderWithMessages(doc, order);
  },

  'sandbox.dispute': async (ctx, { params, body }) => {
    const { doc, order } = await findOrder(ctx, params.id);
    if (!applyAction(ctx.svc, doc, order, 'dispute', ctx.now)) {
      throw stateMoved(order, 'a dispute can be opened on a delivered order, or a completed one while its guarantee runs');
    }
    addMessage(ctx.svc, doc, order, 'buyer', body.text, ctx.now, { quiet: true });
    return orderWithMessages(doc, order);
  },

  'sandbox.message': async (ctx, { params, body }) => {
    const { doc, order } = await findOrder(ctx, params.id);
    if (!canMessage(order.status)) throw stateMoved(order, 'a closed order takes no messages');
    return messageView(addMessage(ctx.svc, doc, order, 'buyer', body.text, ctx.now));
  },

  'sandbox.vault': async (ctx, { params, body }) => {
    const { doc, order } = await findOrder(ctx, params.id);
    if (!canBuyerPutVault(order.status)) throw stateMoved(order, 'credentials can be put only into an open order');
    // A new put replaces the buyer's vault; the seller can read the new contents once.
    order.vaults.buyer = { sealed: ctx.svc.sealer.seal(body.secret, vaultAad(order.id, 'buyer')), opened: false, at: ctx.now.toISOString() };
    touched(ctx.svc, doc, order, ctx.now);
    return orderWithMessages(doc, order);
  },
});
