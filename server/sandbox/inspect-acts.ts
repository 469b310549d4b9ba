/**
 * Sandbox: what the inspector does for a seller that the rest of the sandbox lacks: create a card,
 * refill it with generated units, switch it on or off, send a delivery again. Each goes through the
 * domain function the API uses (server/domain/card-create.ts, cards.ts `setState`, stock.ts
 * `addUnits`, the webhook outbox's `attempt`), never around it. Generated units are sealed like any
 * other and never answered.
 */
import { sellerStanding, setState } from '../domain/cards.ts';
import { addCard } from '../domain/card-create.ts';
import { refuse } from '../domain/refusal.ts';
import { addUnits, stockCounts } from '../domain/stock.ts';
import { sandboxHandlers, type CallContext } from '../http/handlers.ts';
import { base62 } from '../ids.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { CardRecord } from '../store/records/listings.ts';
import { resend } from '../webhooks/outbox.ts';
import { deliveryView } from './inspect-views.ts';

/** A seller's document, marked to be written; 404 when there is no such seller. */
async function sellerDoc(ctx: CallContext, sellerId: string): Promise<SellerDoc> {
  if (!Object.hasOwn(ctx.svc.store.shared.sellers, sellerId)) throw ctx.notFound('seller', sellerId);
  return ctx.tx.seller(sellerId);
}

/** A card by its number and its seller's document (marked to be written); 404 when absent. */
async function findCard(ctx: CallContext, number: number): Promise<{ doc: SellerDoc; card: CardRecord }> {
  const index = ctx.svc.store.shared.cardIndex;
  const sellerId = Object.hasOwn(index, String(number)) ? index[String(number)] : undefined;
  const doc = sellerId ? await ctx.tx.seller(sellerId) : undefined;
  const card = doc && Object.hasOwn(doc.cards, String(number)) ? doc.cards[String(number)] : undefined;
  if (!doc || !card) throw ctx.notFound('card', number);
  return { doc, card };
}

/** A generated stock unit: random, so that a refill never counts duplicates. */
const generatedUnit = (): string => `sandbox-unit-${base62(24)}`;

export const inspectActSandboxHandlers = sandboxHandlers({
  'sandbox.createCard': async (ctx, { params, body }) => {
    const doc = await sellerDoc(ctx, params.sellerId);
    const mode = ctx.svc.store.shared.sellers[params.sellerId]!.mode;
    // The sandbox acts as the seller with a key of the seller's own mode.
    const standing = sellerStanding({ seller: { mode }, key: { mode }, doc });
    return addCard(ctx.svc, ctx.tx, doc, standing, body, ctx.now);
  },

  'sandbox.refill': async (ctx, { params, body }) => {
    const { doc, card } = await findCard(ctx, params.number);
    const units = Array.from({ length: body.count }, generatedUnit);
    const { added } = addUnits(ctx.svc.sealer, doc, card.number, units, ctx.now);
    if (added > 0) card.updatedAt = ctx.now.toISOString();
    return { number: card.number, added, ...stockCounts(doc, card.number) };
  },

  'sandbox.setCardState': async (ctx, { params, body }) => {
    const { doc, card } = await findCard(ctx, params.number);
    return setState(card, body, stockCounts(doc, card.number).free, ctx.now) ?? { number: card.number, isActive: card.isActive, autoIssue: card.autoIssue };
  },

  /**
   * One more attempt of the same delivery, now (server/webhooks/outbox.ts `resend`): `deliveredAt`
   * keeps the first success, and a failed resend queues no retry. Answers the delivery after it.
   */
  'sandbox.resendDelivery': async (ctx, { params }) => {
    const doc = await sellerDoc(ctx, params.sellerId);
    const d = doc.deliveries.find((x) => x.id === params.id);
    if (!d) throw ctx.notFound('delivery', params.id);
    const status = doc.hooks?.status ?? 'off';
    if (status !== 'active') {
      return refuse('state_moved', { reason: `hooks_${status}` }, `the subscription is ${status}: resume or set it before sending again`);
    }
    await resend(ctx.svc, doc, d);
    return deliveryView(d);
  },
});
