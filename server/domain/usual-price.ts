/**
 * Usual price and demand, over plain data.
 *
 * A LIVE card is switched on (`isActive`), not hidden, and its seller is active (a blocked seller's
 * offers are not public). Test and real cards are two separate markets: a real seller's key sees
 * only real cards and real orders; a test key sees only test ones.
 * The usual price is the median of the live cards' `priceRub`; null under three cards; for an even
 * count, the mean of the two middle prices rounded half up.
 */
import type { OrderStatus, ProductType } from '../../sdk/contract/index.ts';
import type { CardRecord } from '../store/records/listings.ts';
import type { OrderRecord } from '../store/records/orders.ts';

export const USUAL_PRICE_MIN_CARDS = 3;
export const DEMAND_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
export const DEMAND_TOP_DEFAULT = 10;
/** Orders that never became business do not count as demand. */
export const NOT_DEMAND: readonly OrderStatus[] = ['awaiting_payment', 'cancelled'];

/** Which market a caller sees. */
export type MarketView = 'real' | 'test';

export const isLive = (card: CardRecord): boolean => card.isActive && !card.hidden;
export const inView = (isTest: boolean, view: MarketView): boolean => isTest === (view === 'test');

/** Median of the prices rounded to whole roubles; null under `USUAL_PRICE_MIN_CARDS`. */
export function usualPrice(prices: readonly number[]): number | null {
  return usualPriceOfSorted([...prices].sort((a, b) => a - b));
}

/** {@link usualPrice} of prices already sorted ascending (the market aggregates keep them so): O(1). */
export function usualPriceOfSorted(sorted: readonly number[]): number | null {
  if (sorted.length < USUAL_PRICE_MIN_CARDS) return null;
  const mid = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[mid]!;
  return Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

export const pairKey = (service: string, productType: ProductType): string => `${service}\u0000${productType}`;

/**
 * Prices of the live cards in view, by service and product type, each list sorted ascending:
 * the definition from scratch, over every card (the server keeps it incrementally,
 * server/domain/market.ts; tests compare the two).
 */
export function livePrices(cards: Iterable<CardRecord>, view: MarketView): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const card of cards) {
    if (!isLive(card) || !inView(card.isTest, view)) continue;
    const key = pairKey(card.service, card.productType);
    const list = out.get(key);
    if (list) list.push(card.priceRub);
    else out.set(key, [card.priceRub]);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

/**
 * Orders in view placed within the 30 days up to `now` that became business, by service and
 * product type: the definition from scratch (kept incrementally in server/domain/market.ts).
 */
export function recentOrders(orders: Iterable<OrderRecord>, view: MarketView, now: Date): Map<string, number> {
  const from = now.getTime() - DEMAND_WINDOW_MS;
  const out = new Map<string, number>();
  for (const order of orders) {
    const at = Date.parse(order.createdAt);
    if (!(at > from && at <= now.getTime()) || NOT_DEMAND.includes(order.status) || !inView(order.isTest, view)) continue;
    const key = pairKey(order.service, order.productType);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

export interface DemandRow {
  service: string;
  productType: ProductType;
  orders30d: number;
  liveCards: number;
  usualPriceRub: number | null;
}

/**
 * Demand rows for the given pairs (the catalogue's offered pairs plus any pair with orders), from
 * the order counts and the live cards' prices (each list sorted ascending), most ordered first; ties by more live cards, then by service and product type, so the order is stable.
 */
export function demandRows(
  pairs: Iterable<{ service: string; productType: ProductType }>,
  orders: Map<string, number>,
  prices: ReadonlyMap<string, readonly number[]>,
  top: number,
): DemandRow[] {
  const rows = new Map<string, DemandRow>();
  for (const { service, productType } of pairs) {
    const key = pairKey(service, productType);
    if (rows.has(key)) continue;
    const list = prices.get(key) ?? [];
    rows.set(key, { service, productType, orders30d: orders.get(key) ?? 0, liveCards: list.length, usualPriceRub: usualPriceOfSorted(list) });
  }
  return [...rows.values()]
    .sort(
      (a, b) =>
        b.orders30d - a.orders30d ||
        b.liveCards - a.liveCards ||
        (a.service < b.service ? -1 : a.service > b.service ? 1 : 0) ||
        (a.productType < b.productType ? -1 : a.productType > b.productType ? 1 : 0),
    )
    .slice(0, top);
}
