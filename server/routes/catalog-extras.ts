/**
 * Catalogue extras: the usual price of a position and the demand of the last 30 days, computed
 * from every seller's live cards and orders at the time of the call (so an update, a deletion or a
 * switch is reflected at once, with no index to keep in step).
 */
import type { ProductType } from '../../sdk/contract/index.ts';
import type { Caller } from '../auth.ts';
import type { ServerContext } from '../context.ts';
import { sellerStanding } from '../domain/cards.ts';
import { DEMAND_TOP_DEFAULT, demandRows, livePrices, pairKey, recentOrders, usualPrice, type MarketView } from '../domain/usual-price.ts';
import { apiHandlers } from '../http/handlers.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { CardRecord } from '../store/records/listings.ts';

/** A test key (or a test seller) sees the test market; everyone else the real one. */
const viewOf = (caller: Caller): MarketView => (sellerStanding(caller).testMode ? 'test' : 'real');

/** Documents of the active sellers (a blocked seller's offers and orders are not public). */
async function activeSellerDocs(svc: ServerContext, ids: Iterable<string>): Promise<SellerDoc[]> {
  const sellers = svc.store.shared.sellers;
  const unique = [...new Set(ids)].filter((id) => sellers[id]?.status === 'active');
  return Promise.all(unique.map((id) => svc.store.seller(id)));
}

/** Every card of every active seller that has one. */
async function allCards(svc: ServerContext): Promise<CardRecord[]> {
  const docs = await activeSellerDocs(svc, Object.values(svc.store.shared.cardIndex));
  return docs.flatMap((d) => Object.values(d.cards));
}

export const catalogExtraHandlers = apiHandlers({
  'catalog.usualPrice': async ({ svc, caller }, { query }) => {
    const prices = livePrices(await allCards(svc), viewOf(caller)).get(pairKey(query.service, query.productType)) ?? [];
    return { service: query.service, productType: query.productType, usualPriceRub: usualPrice(prices), liveCards: prices.length };
  },

  'catalog.demand': async ({ svc, caller, now }, { query }) => {
    const view = viewOf(caller);
    const docs = await activeSellerDocs(svc, Object.keys(svc.store.shared.sellers));
    const prices = livePrices(docs.flatMap((d) => Object.values(d.cards)), view);
    const orders = recentOrders(docs.flatMap((d) => Object.values(d.orders)), view, now);
    const offered = svc.store.shared.catalog.flatMap((p) => p.productTypes.map((productType) => ({ service: p.slug, productType })));
    const ordered = [...orders.keys()].map((k) => {
      const [service, productType] = k.split('\u0000') as [string, ProductType];
      return { service, productType };
    });
    const pairs = [...offered, ...ordered].filter(
      (p) => (!query.service || p.service === query.service) && (!query.productType || p.productType === query.productType),
    );
    return { items: demandRows(pairs, orders, prices, query.top ?? DEMAND_TOP_DEFAULT) };
  },
});
