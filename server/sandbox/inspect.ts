/**
 * Sandbox: the inspector's reads (sdk/contract/sandbox-inspect.ts): sellers, a seller's cards,
 * orders, an order's timeline, the subscription, deliveries with their attempts, the probe inbox.
 * Reads only: the documents are read, never marked to be written. Every answer is built by the
 * views of ./inspect-views.ts (no secret) and written through the contract's schema.
 */
import { PAGE_LIMIT_DEFAULT } from '../../sdk/contract/index.ts';
import { cardView } from '../routes/listings.ts';
import { orderView } from '../domain/orders.ts';
import { sandboxHandlers, type CallContext } from '../http/handlers.ts';
import { cursorKey, cursorOf, pageOf } from '../http/paging.ts';
import { creationKey, newestOrders } from '../store/order-index.ts';
import type { SellerDoc, SellerEntry } from '../store/docs.ts';
import { deliveryView, hooksView, sellerView, timelineView } from './inspect-views.ts';

/** A seller's entry and document, read only; 404 when there is no such seller. */
export async function readSeller(ctx: CallContext, sellerId: string): Promise<{ entry: SellerEntry; doc: SellerDoc }> {
  const sellers = ctx.svc.store.shared.sellers;
  // Own keys only: `__proto__` must not find Object.prototype.
  if (!Object.hasOwn(sellers, sellerId)) throw ctx.notFound('seller', sellerId);
  return { entry: sellers[sellerId]!, doc: await ctx.svc.store.seller(sellerId) };
}

const byCreation = (entry: SellerEntry) => `${entry.createdAt}|${entry.id}`;

export const inspectSandboxHandlers = sandboxHandlers({
  'sandbox.listSellers': async (ctx, { query }) => {
    const page = pageOf(Object.values(ctx.svc.store.shared.sellers), query, { key: byCreation, desc: true });
    const items = await Promise.all(page.items.map(async (entry) => sellerView(entry, await ctx.svc.store.seller(entry.id))));
    return { items, nextCursor: page.nextCursor };
  },

  'sandbox.getSeller': async (ctx, { params }) => {
    const { entry, doc } = await readSeller(ctx, params.sellerId);
    return sellerView(entry, doc);
  },

  'sandbox.sellerCards': async (ctx, { params, query }) => {
    const { doc } = await readSeller(ctx, params.sellerId);
    const page = pageOf(Object.values(doc.cards), query, { key: (c) => String(c.number).padStart(12, '0'), desc: true });
    return { items: page.items.map((c) => cardView(ctx.svc, doc, c)), nextCursor: page.nextCursor };
  },

  'sandbox.sellerOrders': async (ctx, { params, query }) => {
    const { doc } = await readSeller(ctx, params.sellerId);
    const before = query.cursor === undefined ? null : cursorKey(query.cursor);
    const { items, more } = newestOrders(doc, before, {
      limit: query.limit ?? PAGE_LIMIT_DEFAULT,
      match: (o) => query.status === undefined || o.status === query.status,
    });
    const last = items.at(-1);
    return { items: items.map(orderView), nextCursor: more && last ? cursorOf(creationKey(last)) : null };
  },

  'sandbox.orderTimeline': async (ctx, { params }) => {
    const index = ctx.svc.store.shared.orderIndex;
    const sellerId = Object.hasOwn(index, params.id) ? index[params.id] : undefined;
    const doc = sellerId ? await ctx.svc.store.seller(sellerId) : undefined;
    const order = doc && Object.hasOwn(doc.orders, params.id) ? doc.orders[params.id] : undefined;
    if (!doc || !order) throw ctx.notFound('order', params.id);
    return timelineView(doc, order, ctx.now);
  },

  'sandbox.sellerHooks': async (ctx, { params }) => hooksView(ctx.svc, (await readSeller(ctx, params.sellerId)).doc),

  'sandbox.sellerDeliveries': async (ctx, { params, query }) => {
    const { doc } = await readSeller(ctx, params.sellerId);
    const page = pageOf(doc.deliveries, query, { key: (d) => String(d.seq).padStart(12, '0'), desc: true });
    return { items: page.items.map(deliveryView), nextCursor: page.nextCursor };
  },

  'sandbox.probeInbox': async (ctx, { params, query }) => {
    const { doc } = await readSeller(ctx, params.sellerId);
    const hits = doc.probe?.hits ?? [];
    return {
      url: hooksView(ctx.svc, doc).probeUrl,
      items: hits.slice(0, query.limit ?? 50).map((h) => ({ receivedAt: h.receivedAt, headers: h.headers, body: h.body })),
    };
  },
});
