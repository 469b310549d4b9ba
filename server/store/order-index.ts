/**
 * Per-seller ordered views of the orders for `GET /orders`, so that a page costs about its own size
 * instead of a sort of every order of the seller.
 *
 * Two lists, both derived from the seller's `orders` (the only source of truth) and rebuilt from it
 * whenever there is a doubt:
 *
 * - by creation, ascending by `createdAt|id`: an order is appended when it is created
 *   ({@link noteOrderCreated}); `createdAt` is its first `updatedAt`, so it is the newest;
 * - by update, ascending by `updatedAt|id`: every stamp of `updatedAt` goes through
 *   `touched` (server/domain/orders.ts), strictly increasing per seller, so a changed order is
 *   appended at the end ({@link noteOrderUpdate}); its previous entry stays in place, stale, and is
 *   skipped by walks (and dropped by a compaction once the stale entries outnumber the live ones).
 *
 * The lists are built lazily on first use (after a start, or after they were dropped) with one sort,
 * and kept per `orders` object (a replaced `orders` object gets a fresh index). An append that would
 * break the order, a stamp made behind `touched`'s back (an entry whose `updatedAt` no longer matches
 * its record) or a record replaced in `orders` drops the index; the walk then rebuilds it. Orders
 * are never deleted. Orders written straight into `orders` without `orderCreated` (tests, seeding)
 * must be written before the first list, or the index dropped with {@link dropOrderIndex}.
 *
 * A walk starts with a binary search for the cursor (or `updatedSince`) and visits records in list
 * order; filters are applied while walking, so a filtered page walks past the records that do not
 * match (up to the whole list when few match).
 *
 * The index works on the stored objects behind the seller document's tracked `orders`
 * (server/store/shards.ts `rawOf`): building it and walking it cost no Proxy traps. So the orders a
 * walk answers are untracked: read them (for an answer), never change them; change an order through
 * `doc.orders[id]`.
 */
import type { SellerDoc } from './docs.ts';
import type { OrderRecord } from './records/orders.ts';
import { rawOf } from './shards.ts';

type Orders = SellerDoc['orders'];

interface UpdateEntry {
  /** The order's `updatedAt` when this entry was appended. */
  readonly at: string;
  readonly order: OrderRecord;
}

interface OrderIndex {
  /** Ascending by `createdAt|id`. */
  byCreation: OrderRecord[];
  /** Ascending by `at|id`; live entries are the ones in `live`. */
  byUpdate: UpdateEntry[];
  /** Order id → its current (live) entry in `byUpdate`. */
  live: Map<string, UpdateEntry>;
  /** Entries of `byUpdate` that are no longer live. */
  stale: number;
}

const indexes = new WeakMap<Orders, OrderIndex>();

/** The sort keys (without the list tag the cursors carry). */
export const creationKey = (o: OrderRecord): string => `${o.createdAt}|${o.id}`;
export const updateKey = (at: string, id: string): string => `${at}|${id}`;

const byKey = <T>(a: { k: string; v: T }, b: { k: string; v: T }) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0);

let builds = 0;
/** How many times an index was built or rebuilt in this process (tests: incremental upkeep). */
export const orderIndexBuilds = (): number => builds;

function build(orders: Orders): OrderIndex {
  builds++;
  const all = Object.values(orders);
  const byCreation = all.map((v) => ({ k: creationKey(v), v })).sort(byKey).map((e) => e.v);
  const byUpdate = all
    .map((v) => ({ k: updateKey(v.updatedAt, v.id), v }))
    .sort(byKey)
    .map((e): UpdateEntry => ({ at: e.v.updatedAt, order: e.v }));
  const live = new Map<string, UpdateEntry>();
  for (const e of byUpdate) live.set(e.order.id, e);
  return { byCreation, byUpdate, live, stale: 0 };
}

function indexOf(orders: Orders): OrderIndex {
  let ix = indexes.get(orders);
  if (!ix) indexes.set(orders, (ix = build(orders)));
  return ix;
}

/** The untracked orders of a seller document. */
const storedOrders = (doc: Pick<SellerDoc, 'orders'>): Orders => rawOf(doc.orders);

/** Forgets the seller's index (rebuilt on next use): after changing `orders` other than through `touched`/`orderCreated`. */
export function dropOrderIndex(doc: Pick<SellerDoc, 'orders'>): void {
  const orders = storedOrders(doc);
  indexes.delete(orders);
  versions.set(orders, ++versionSeq);
}

/**
 * The version of a seller's orders: a number that changes whenever anything `GET /orders` answers
 * from may have changed. Moved by this module's own upkeep: every stamp ({@link noteOrderUpdate},
 * called by `touched` for every change of an order, the clock's included), every creation
 * ({@link noteOrderCreated}), a dropped index, a walk that finds the index stale; new for a new
 * `orders` object (a reset or a reload). Values come from one process-wide sequence, so a version
 * never comes back. A kept `GET /orders` page (server/http/kept-pages.ts) is reused only while its
 * version is the current one.
 */
const versions = new WeakMap<Orders, number>();
let versionSeq = 0;

export function orderVersion(doc: Pick<SellerDoc, 'orders'>): number {
  const orders = storedOrders(doc);
  let v = versions.get(orders);
  if (v === undefined) versions.set(orders, (v = ++versionSeq));
  return v;
}

/** Whether the seller's index is built (tests). */
export const hasOrderIndex = (doc: Pick<SellerDoc, 'orders'>): boolean => indexes.has(storedOrders(doc));

/** Hook of `touched`: the order's `updatedAt` was just stamped. */
export function noteOrderUpdate(doc: Pick<SellerDoc, 'orders'>, tracked: OrderRecord): void {
  const orders = storedOrders(doc);
  versions.set(orders, ++versionSeq);
  const ix = indexes.get(orders);
  if (!ix) return;
  const order = rawOf(tracked);
  const last = ix.byUpdate.at(-1);
  if (last && !(updateKey(last.at, last.order.id) < updateKey(order.updatedAt, order.id))) {
    indexes.delete(orders);
    return;
  }
  const entry: UpdateEntry = { at: order.updatedAt, order };
  if (ix.live.has(order.id)) ix.stale++;
  ix.live.set(order.id, entry);
  ix.byUpdate.push(entry);
  if (ix.stale > 64 && ix.stale * 2 > ix.byUpdate.length) {
    ix.byUpdate = ix.byUpdate.filter((e) => ix.live.get(e.order.id) === e);
    ix.stale = 0;
  }
}

/** Hook of `orderCreated`: the order was added to `orders` with its final `createdAt`. */
export function noteOrderCreated(doc: Pick<SellerDoc, 'orders'>, tracked: OrderRecord): void {
  const orders = storedOrders(doc);
  versions.set(orders, ++versionSeq);
  const ix = indexes.get(orders);
  if (!ix) return;
  const order = rawOf(tracked);
  const last = ix.byCreation.at(-1);
  if (!Object.hasOwn(orders, order.id) || orders[order.id] !== order || (last && !(creationKey(last) < creationKey(order)))) {
    indexes.delete(orders);
    return;
  }
  ix.byCreation.push(order);
}

/** First index in [0, n) where `pred` holds (`pred` false…false true…true), or n. */
function lowerBound(n: number, pred: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export interface OrderWalk {
  /** At most `limit` matching orders, in list order. */
  items: OrderRecord[];
  /** Whether another matching order follows the last one. */
  more: boolean;
}

export interface WalkOptions {
  limit: number;
  /** Only orders it accepts are taken (status, needsAction filters). */
  match: (order: OrderRecord) => boolean;
}

class Drift extends Error {}

function current(orders: Orders, order: OrderRecord): void {
  if (!Object.hasOwn(orders, order.id) || orders[order.id] !== order) throw new Drift();
}

function walkNewest(orders: Orders, before: string | null, opts: WalkOptions): OrderWalk {
  const list = indexOf(orders).byCreation;
  const start = before === null ? list.length : lowerBound(list.length, (i) => creationKey(list[i]!) >= before);
  const items: OrderRecord[] = [];
  for (let i = start - 1; i >= 0; i--) {
    const o = list[i]!;
    current(orders, o);
    if (!opts.match(o)) continue;
    if (items.length === opts.limit) return { items, more: true };
    items.push(o);
  }
  return { items, more: false };
}

function walkUpdated(orders: Orders, since: string, after: string | null, opts: WalkOptions): OrderWalk {
  const ix = indexOf(orders);
  const list = ix.byUpdate;
  const start = lowerBound(list.length, (i) => {
    const e = list[i]!;
    return e.at >= since && (after === null || updateKey(e.at, e.order.id) > after);
  });
  const items: OrderRecord[] = [];
  for (let i = start; i < list.length; i++) {
    const e = list[i]!;
    if (ix.live.get(e.order.id) !== e) continue;
    if (e.at !== e.order.updatedAt) throw new Drift();
    current(orders, e.order);
    if (!opts.match(e.order)) continue;
    if (items.length === opts.limit) return { items, more: true };
    items.push(e.order);
  }
  return { items, more: false };
}

/** Runs a walk; when the index turns out stale, rebuilds it from `orders` and walks again. */
function walk(orders: Orders, run: () => OrderWalk): OrderWalk {
  try {
    return run();
  } catch (err) {
    if (!(err instanceof Drift)) throw err;
    indexes.delete(orders);
    // Something changed behind `touched`'s back: pages kept for the old version are not trusted.
    versions.set(orders, ++versionSeq);
    return run();
  }
}

/**
 * Newest first (descending `createdAt|id`), strictly before the key `before` (`createdAt|id` of the
 * previous page's last order) when given.
 */
export function newestOrders(doc: Pick<SellerDoc, 'orders'>, before: string | null, opts: WalkOptions): OrderWalk {
  const orders = storedOrders(doc);
  return walk(orders, () => walkNewest(orders, before, opts));
}

/**
 * Ascending `updatedAt|id`: orders updated at or after `since`, strictly after the key `after`
 * (`updatedAt|id` of the previous page's last order) when given.
 */
export function ordersUpdatedSince(doc: Pick<SellerDoc, 'orders'>, since: string, after: string | null, opts: WalkOptions): OrderWalk {
  const orders = storedOrders(doc);
  return walk(orders, () => walkUpdated(orders, since, after, opts));
}
