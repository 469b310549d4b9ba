/**
 * The market aggregates behind `GET /catalog/usual-price` and `GET /catalog/demand`: per market
 * view (real, test) and per pair (service, product type), the sorted prices of the live cards and
 * the sorted creation times of the orders that count as demand (server/domain/usual-price.ts holds
 * the rules). A call then costs about the size of its answer (a binary search per pair, the median
 * read off the sorted prices), not a scan of every card and order of every seller.
 *
 * Derived, never written: built at start from the stored documents (like the key, card and order
 * indexes, server/store/store.ts `deriveIndexes`) and kept in step with them:
 *
 * - every seller's `cards` and `orders` maps report each key they see change (a record set,
 *   deleted, or changed inside, server/store/shards.ts `watchers`); the key is noted as pending;
 * - the pending keys are settled on the next turn of the event loop (after the running handler's
 *   synchronous changes), and by a read before it answers: each key's contribution is recomputed
 *   from its record as it is then (or removed when the record is gone), so the aggregate is a
 *   function of the records and never of the path a change took;
 * - a seller's status (only an active seller's offers and orders are public) is checked again for
 *   every seller with pending keys and for a seller whose status was set
 *   ({@link Market.sellerStatusSet}); a seller that changes between active and not is derived again;
 * - a seller's documents opened again (a new seller, or documents reloaded) are derived again.
 *
 * Settling costs the number of keys changed since the last settle, so its cost is spread over the
 * changes themselves.
 */
import type { SellerEntry } from '../store/docs.ts';
import type { SellerFiles } from '../store/seller-files.ts';
import type { Store } from '../store/store.ts';
import type { CardRecord } from '../store/records/listings.ts';
import type { OrderRecord } from '../store/records/orders.ts';
import { DEMAND_WINDOW_MS, isLive, NOT_DEMAND, pairKey, type MarketView } from './usual-price.ts';

/** One record's part in the aggregates: which sorted list holds which value. */
interface Entry {
  view: MarketView;
  pair: string;
  value: number;
}

/** Below this many values a bulk change of one list is done value by value. */
const BULK = 32;
/** Over this many pending keys (and an eighth of the seller's parts) a seller is derived again whole. */
const REDERIVE_AT = 1024;

/** Sorted lists of numbers (a multiset each) by pair. */
export class SortedBags {
  readonly lists = new Map<string, number[]>();

  add(pair: string, value: number): void {
    const list = this.lists.get(pair);
    if (!list) this.lists.set(pair, [value]);
    else list.splice(upperBound(list, value), 0, value);
  }

  remove(pair: string, value: number): void {
    const list = this.lists.get(pair);
    if (!list) return;
    const i = lowerBound(list, value);
    if (list[i] !== value) return;
    list.splice(i, 1);
    if (list.length === 0) this.lists.delete(pair);
  }

  addMany(pair: string, values: number[]): void {
    if (values.length < BULK) {
      for (const v of values) this.add(pair, v);
      return;
    }
    const merged = (this.lists.get(pair) ?? []).concat(values).sort((a, b) => a - b);
    this.lists.set(pair, merged);
  }

  removeMany(pair: string, values: number[]): void {
    if (values.length < BULK) {
      for (const v of values) this.remove(pair, v);
      return;
    }
    const list = this.lists.get(pair);
    if (!list) return;
    const counts = new Map<number, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    const kept = list.filter((v) => {
      const n = counts.get(v);
      if (!n) return true;
      counts.set(v, n - 1);
      return false;
    });
    if (kept.length === 0) this.lists.delete(pair);
    else this.lists.set(pair, kept);
  }
}

/** First index whose value is >= `v`. */
export function lowerBound(list: readonly number[], v: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is > `v` (the count of values <= `v`). */
export function upperBound(list: readonly number[], v: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const viewOfRecord = (isTest: boolean): MarketView => (isTest ? 'test' : 'real');

/** One string per pair, shared by every entry of it (200,000 entries need not hold 200,000 copies). */
const pairs = new Map<string, string>();
function pairOf(service: string, productType: string): string {
  const key = pairKey(service, productType as never);
  const known = pairs.get(key);
  if (known !== undefined) return known;
  if (pairs.size < 100_000) pairs.set(key, key);
  return key;
}

/** A card's part: its price, when it is live. */
export function cardEntry(card: CardRecord | undefined): Entry | null {
  if (!card || !isLive(card)) return null;
  return { view: viewOfRecord(card.isTest), pair: pairOf(card.service, card.productType), value: card.priceRub };
}

/** An order's part: its creation time, when it became business. */
export function orderEntry(order: OrderRecord | undefined): Entry | null {
  if (!order || NOT_DEMAND.includes(order.status)) return null;
  const at = Date.parse(order.createdAt);
  if (!Number.isFinite(at)) return null;
  return { view: viewOfRecord(order.isTest), pair: pairOf(order.service, order.productType), value: at };
}

type Kind = 'cards' | 'orders';
const KINDS: readonly Kind[] = ['cards', 'orders'];
const ENTRY_OF: Record<Kind, (record: never) => Entry | null> = { cards: cardEntry, orders: orderEntry };

/** One seller's parts in the aggregates, and the keys changed since they were last settled. */
interface SellerPart {
  readonly sellerId: string;
  files: SellerFiles;
  /** Whether its parts are in the aggregates (the seller was active when last settled). */
  active: boolean;
  readonly entries: Record<Kind, Map<string, Entry>>;
  readonly pending: Record<Kind, Set<string>>;
  unwatch: () => void;
}

/** What one view of the market holds: prices of live cards and times of orders, sorted, by pair. */
export interface MarketBook {
  /** Prices of the live cards by pair, sorted ascending. Read only. */
  readonly prices: ReadonlyMap<string, readonly number[]>;
  /** Orders in the demand window ending at `now`, by pair (pairs with none left out). */
  ordersIn(now: Date): Map<string, number>;
}

export class Market {
  readonly #sellers: () => Readonly<Record<string, SellerEntry>>;
  readonly #books: Record<MarketView, { prices: SortedBags; orders: SortedBags }> = {
    real: { prices: new SortedBags(), orders: new SortedBags() },
    test: { prices: new SortedBags(), orders: new SortedBags() },
  };
  readonly #parts = new Map<string, SellerPart>();
  readonly #dirty = new Set<SellerPart>();
  /** Run by {@link detach} (the store's watch of opened documents). */
  readonly #stops: (() => void)[] = [];
  #scheduled = false;
  #detached = false;

  /** `sellers`: the sellers and their status as they are now (the shared document's `sellers`). */
  constructor(sellers: () => Readonly<Record<string, SellerEntry>>) {
    this.#sellers = sellers;
  }

  /** Runs `stop` when the market is detached. */
  onDetach(stop: () => void): void {
    this.#stops.push(stop);
  }

  /** Takes (or takes again) a seller's documents: its parts are derived from them now. */
  attach(sellerId: string, files: SellerFiles): void {
    const old = this.#parts.get(sellerId);
    if (old) {
      this.#drop(old);
      old.unwatch();
      this.#dirty.delete(old);
    }
    const part: SellerPart = {
      sellerId,
      files,
      active: false,
      entries: { cards: new Map(), orders: new Map() },
      pending: { cards: new Set(), orders: new Set() },
      unwatch: () => undefined,
    };
    const watchers = KINDS.map((kind) => {
      const watch = (key: string) => {
        part.pending[kind].add(key);
        this.#dirty.add(part);
        this.#schedule();
      };
      files.sections[kind].watchers.add(watch);
      return () => files.sections[kind].watchers.delete(watch);
    });
    part.unwatch = () => watchers.forEach((stop) => stop());
    this.#parts.set(sellerId, part);
    this.#derive(part);
  }

  /** Stops following every seller (the server closes). */
  detach(): void {
    this.#detached = true;
    for (const stop of this.#stops.splice(0)) stop();
    for (const part of this.#parts.values()) part.unwatch();
    this.#parts.clear();
    this.#dirty.clear();
  }

  /** A seller's status was set: its parts are checked at the next settle. */
  sellerStatusSet(sellerId: string): void {
    const part = this.#parts.get(sellerId);
    if (part) {
      this.#dirty.add(part);
      this.#schedule();
    }
  }

  /**
   * Settles soon after a change (once the running handler's synchronous changes are done), so the
   * work is spread over the changes and a read never pays for a long quiet backlog.
   */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (!this.#detached) this.#settle();
    });
  }

  /** The market as a caller of `view` sees it now (pending changes settled first). */
  book(view: MarketView): MarketBook {
    this.#settle();
    const { prices, orders } = this.#books[view];
    return {
      prices: prices.lists,
      ordersIn(now: Date): Map<string, number> {
        const to = now.getTime();
        const from = to - DEMAND_WINDOW_MS;
        const out = new Map<string, number>();
        for (const [pair, times] of orders.lists) {
          // orders created in (from, to]
          const n = upperBound(times, to) - upperBound(times, from);
          if (n > 0) out.set(pair, n);
        }
        return out;
      },
    };
  }

  #isActive(sellerId: string): boolean {
    const sellers = this.#sellers();
    return Object.hasOwn(sellers, sellerId) && sellers[sellerId]!.status === 'active';
  }

  #settle(): void {
    if (this.#dirty.size === 0) return;
    for (const part of this.#dirty) {
      if (part.active !== this.#isActive(part.sellerId)) {
        this.#drop(part);
        this.#derive(part);
        continue;
      }
      if (part.active && KINDS.some((kind) => part.pending[kind].size > REDERIVE_AT && part.pending[kind].size * 8 > part.entries[kind].size)) {
        // A bulk change (records written straight into the documents): one sort beats many inserts.
        this.#drop(part);
        this.#derive(part);
        continue;
      }
      for (const kind of KINDS) {
        const pending = part.pending[kind];
        if (part.active) for (const key of pending) this.#update(part, kind, key);
        pending.clear();
      }
    }
    this.#dirty.clear();
  }

  #bags(kind: Kind, view: MarketView): SortedBags {
    return kind === 'cards' ? this.#books[view].prices : this.#books[view].orders;
  }

  /** One key's part again, from its record as it is now. */
  #update(part: SellerPart, kind: Kind, key: string): void {
    const raw = part.files.sections[kind].raw as Record<string, never>;
    const next = Object.hasOwn(raw, key) ? ENTRY_OF[kind](raw[key]!) : null;
    const entries = part.entries[kind];
    const before = entries.get(key);
    if (before && next && before.view === next.view && before.pair === next.pair && before.value === next.value) return;
    if (before) {
      this.#bags(kind, before.view).remove(before.pair, before.value);
      entries.delete(key);
    }
    if (next) {
      this.#bags(kind, next.view).add(next.pair, next.value);
      entries.set(key, next);
    }
  }

  /** Takes every part of a seller out of the aggregates. */
  #drop(part: SellerPart): void {
    for (const kind of KINDS) {
      this.#bulk(kind, part.entries[kind].values(), 'removeMany');
      part.entries[kind].clear();
    }
    part.active = false;
  }

  /** Derives a seller's parts from all its records (none when it is not active). */
  #derive(part: SellerPart): void {
    for (const kind of KINDS) part.pending[kind].clear();
    part.active = this.#isActive(part.sellerId);
    if (!part.active) return;
    for (const kind of KINDS) {
      const raw = part.files.sections[kind].raw as Record<string, never>;
      const entries = part.entries[kind];
      for (const key of Object.keys(raw)) {
        const entry = ENTRY_OF[kind](raw[key]!);
        if (entry) entries.set(key, entry);
      }
      this.#bulk(kind, entries.values(), 'addMany');
    }
  }

  #bulk(kind: Kind, entries: Iterable<Entry>, how: 'addMany' | 'removeMany'): void {
    const groups = new Map<string, { view: MarketView; pair: string; values: number[] }>();
    for (const e of entries) {
      const id = `${e.view}\u0000${e.pair}`;
      const group = groups.get(id);
      if (group) group.values.push(e.value);
      else groups.set(id, { view: e.view, pair: e.pair, values: [e.value] });
    }
    for (const g of groups.values()) this.#bags(kind, g.view)[how](g.pair, g.values);
  }
}

/**
 * Builds the market aggregates from every seller's documents in `store` and keeps them in step
 * (documents opened later are taken as they open). `buildApp` builds one per server (`svc.market`)
 * and detaches it when the server closes.
 */
export async function buildMarket(store: Store): Promise<Market> {
  const market = new Market(() => store.shared.sellers);
  // Documents opened while the existing ones load are taken as they open (attach replaces).
  market.onDetach(store.watchOpens((id, files) => market.attach(id, files)));
  for (const id of await store.sellerIds()) market.attach(id, await store.sellerDb(id));
  return market;
}
