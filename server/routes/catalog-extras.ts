/**
 * Catalogue extras: the usual price of a position and the demand of the last 30 days, over every
 * active seller's live cards and orders at the time of the call (an update, a deletion or a switch
 * is reflected at once). They are read from the server's market aggregates (`svc.market`, server/domain/market.ts), kept
 * in step with every change, so a call costs about the size of its answer, not the size of the store.
 */
import type { ProductType } from '../../sdk/contract/index.ts';
import type { Caller } from '../auth.ts';
import { sellerStanding } from '../domain/cards.ts';
import { DEMAND_TOP_DEFAULT, demandRows, pairKey, usualPriceOfSorted, type MarketView } from '../domain/usual-price.ts';
import { apiHandlers } from '../http/handlers.ts';

/** A test key (or a test seller) sees the test market; everyone else the real one. */
const viewOf = (caller: Caller): MarketView => (sellerStanding(caller).testMode ? 'test' : 'real');

export const catalogExtraHandlers = apiHandlers({
  'catalog.usualPrice': ({ svc, caller }, { query }) => {
    const book = svc.market.book(viewOf(caller));
    const prices = book.prices.get(pairKey(query.service, query.productType)) ?? [];
    return { service: query.service, productType: query.productType, usualPriceRub: usualPriceOfSorted(prices), liveCards: prices.length };
  },

  'catalog.demand': ({ svc, caller, now }, { query }) => {
    const book = svc.market.book(viewOf(caller));
    const orders = book.ordersIn(now);
    const offered = svc.store.shared.catalog.flatMap((p) => p.productTypes.map((productType) => ({ service: p.slug, productType })));
    const ordered = [...orders.keys()].map((k) => {
      const [service, productType] = k.split('\u0000') as [string, ProductType];
      return { service, productType };
    });
    const pairs = [...offered, ...ordered].filter(
      (p) => (!query.service || p.service === query.service) && (!query.productType || p.productType === query.productType),
    );
    return { items: demandRows(pairs, orders, book.prices, query.top ?? DEMAND_TOP_DEFAULT) };
  },
});
