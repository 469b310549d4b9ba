/**
 * Sandbox: the buyer's side of orders (buy, pay, cancel, accept, message, vault, dispute) and the
 * marketplace's dispute resolution. The buyer is a pseudonymous internal id that no answer shows.
 * Each handler loads the seller's document, then hands the order to its domain action
 * (server/domain/order-actions.ts), which checks and changes it with no await.
 */
import { act, message, openDispute, putBuyerVault } from '../domain/order-actions.ts';
import { messageView, orderCreated, orderWithMessages, settle, type OrderAction } from '../domain/orders.ts';
import { isRefusal, refuse } from '../domain/refusal.ts';
import { atCapacity, isDoNotDisturb } from '../domain/work-mode.ts';
import { sandboxHandlers, type CallContext } from '../http/handlers.ts';
import { base62, newId } from '../ids.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { OrderRecord } from '../store/records/orders.ts';

/** The order and its seller's document (marked to be written), settled to `now`; 404 when absent. */
async function findOrder(ctx: CallContext, id: string): Promise<{ doc: SellerDoc; order: OrderRecord }> {
  const { orderIndex } = ctx.svc.store.shared;
  const sellerId = Object.hasOwn(orderIndex, id) ? orderIndex[id] : undefined;
  const doc = sellerId ? await ctx.tx.seller(sellerId) : undefined;
  const order = doc && Object.hasOwn(doc.orders, id) ? doc.orders[id] : undefined;
  if (!doc || !order) throw ctx.notFound('order', id);
  settle(ctx.svc, doc, order, ctx.now);
  return { doc, order };
}

/** A buyer or marketplace action on an order; `state_moved` when the order is elsewhere. */
const action = (name: OrderAction) => async (ctx: CallContext, { params }: { params: { id: string } }) => {
  const { doc, order } = await findOrder(ctx, params.id);
  return act(ctx.svc, doc, order, name, ctx.now) ?? orderWithMessages(doc, order);
};

export const orderSandboxHandlers = sandboxHandlers({
  'sandbox.createOrder': async (ctx, { body }) => {
    // Read only: the card and order indexes are derived in memory, never written with the order.
    const shared = ctx.svc.store.shared;
    const number = String(body.number);
    const sellerId = Object.hasOwn(shared.cardIndex, number) ? shared.cardIndex[number] : undefined;
    const doc = sellerId ? await ctx.tx.seller(sellerId) : undefined;
    const card = doc && Object.hasOwn(doc.cards, number) ? doc.cards[number] : undefined;
    if (!doc || !card || card.hidden) throw ctx.notFound('card', number);
    const testBuyer = body.testBuyer ?? false;
    if (!card.isActive) return refuse('inactive', {}, `card ${number} is switched off`);
    if (card.isTest && !testBuyer) return refuse('test_card', {}, `card ${number} is a test card: only a test buyer (testBuyer: true) can buy it`);
    if (!card.isTest && testBuyer) return refuse('real_card', {}, `card ${number} is a real card: a test buyer can buy only test cards`);
    if (isDoNotDisturb(doc, ctx.now)) return refuse('do_not_disturb', {}, 'the seller takes no new orders now (do-not-disturb or quiet hours)');
    if (atCapacity(doc)) return refuse('capacity', { max: doc.workMode.capacity ?? undefined }, `the seller is at capacity (${doc.workMode.capacity} open orders)`);
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

  'sandbox.pay': action('pay'),
  'sandbox.cancel': action('cancel'),
  'sandbox.accept': action('accept'),
  'sandbox.resolve': async (ctx, { params, body }) => {
    const { doc, order } = await findOrder(ctx, params.id);
    return act(ctx.svc, doc, order, body.winner === 'seller' ? 'resolveForSeller' : 'resolveForBuyer', ctx.now) ?? orderWithMessages(doc, order);
  },

  'sandbox.dispute': async (ctx, { params, body }) => {
    const { doc, order } = await findOrder(ctx, params.id);
    return openDispute(ctx.svc, doc, order, body.text, ctx.now) ?? orderWithMessages(doc, order);
  },

  'sandbox.message': async (ctx, { params, body }) => {
    const { doc, order } = await findOrder(ctx, params.id);
    const outcome = message(ctx.svc, doc, order, 'buyer', body.text, ctx.now);
    return isRefusal(outcome) ? outcome : messageView(outcome);
  },

  'sandbox.vault': async (ctx, { params, body }) => {
    const { doc, order } = await findOrder(ctx, params.id);
    return putBuyerVault(ctx.svc, doc, order, body.secret, ctx.now) ?? orderWithMessages(doc, order);
  },
});
