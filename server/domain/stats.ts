/**
 * The seller's numbers, computed from the stored orders and reviews (pure functions; nothing is
 * canned or cached). Definitions:
 *
 * Which orders count: with a live key the real orders only (`isTest` false); with a test key the
 * test orders only — the same split as the usual price. An order "is placed" when it was paid
 * (`paidAt` set); orders never paid (awaiting payment, cancelled before paying) count nowhere.
 *
 * Stats for a period (`today`, `week`, `month` on the server clock in UTC: since 00:00 today, since
 * Monday 00:00, since the 1st 00:00; `all`: everything), over the orders paid in that period:
 *   - `orders`: how many; `completed`: how many are `completed` now; `refunded`: how many had the
 *     money returned (`refunded`, `declined`, or `cancelled` after payment);
 *   - `revenueRub`: the price snapshots of the orders whose goods were handed over and not given back
 *     (`delivered` or `completed`); `averageRub`: revenue / that number of orders, rounded (0 if none);
 *   - `listings`: per card `{number, revenueRub, orders}` (same definitions), by number, or by
 *     revenue (highest first, then number) with `sort=revenue`.
 *
 * Clients: buyers of placed orders under a per-seller pseudonym (a keyed hash of the internal buyer
 * id, never reversible, different for every seller): `orders` placed, `spentRub` over those not given
 * back, `lastOrderAt` the latest payment; ordered by spend (highest first), then latest order.
 *
 * Rating: `score` the mean of the stars rounded to two decimals (null without reviews), `positive`
 * 4–5 stars, `negative` 1–2, `completedOrders`, `disputeRate` = orders ever disputed / placed orders
 * (four decimals, 0 without orders).
 *
 * Payouts: the money of a completed order is released once it can no longer be disputed: at the
 * later of its completion and the end of its guarantee (a completed order may be disputed while the
 * guarantee runs). One payout per ISO week (Monday 00:00 UTC) of released orders; the amount is the
 * sum of the prices less the marketplace fee ({@link FEE_PERCENT} % of each order, rounded). The
 * current week's payout is `scheduled`. A week that ended is paid on the Monday after it (payday) —
 * or, when the payout details were first filled only later, at that moment — and is `failed` while
 * the details were never filled. Method and account tail are those of the current details. Ids are
 * derived from the seller and the week, so they are stable; a released order never changes again,
 * so a week's payout never changes after the week.
 *
 * Moments: an order's completion and dispute are read from `completedAt` / `disputedAt` on the order
 * when the order machinery keeps them, else from the events in the seller's outbox
 * ({@link withMoments}), else (completion only) from the order's last change.
 */
import { createHash } from 'node:crypto';
import type { KeyMode, OrderStatus } from '../../sdk/contract/index.ts';
import type { PapersRecord } from '../store/docs.ts';
import type { EventRecord } from '../store/records/events.ts';
import type { PayoutRecord, ReviewRecord } from '../store/records/account.ts';
import type { OrderRecord } from '../store/records/orders.ts';
import { payoutFilled } from './admission.ts';

export type StatsPeriod = 'today' | 'week' | 'month' | 'all';

/** Fields the order machinery may add to an order; read when present. */
export type OrderWithMoments = OrderRecord & { completedAt?: string | null; disputedAt?: string | null };

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** The marketplace's fee, per cent of each completed order, kept back from the payout. */
export const FEE_PERCENT = 10;

const REVENUE_STATUSES: readonly OrderStatus[] = ['delivered', 'completed'];
const REFUND_STATUSES: readonly OrderStatus[] = ['refunded', 'declined', 'cancelled'];

/** Whether an order counts for a key of this mode (live: real orders; test: test orders). */
export const countsFor = (order: OrderRecord, mode: KeyMode): boolean => order.isTest === (mode === 'test');

const placed = (order: OrderRecord): boolean => order.paidAt !== null;
const earns = (order: OrderRecord): boolean => REVENUE_STATUSES.includes(order.status);
const givenBack = (order: OrderRecord): boolean => REFUND_STATUSES.includes(order.status);

/** When the order completed: its own `completedAt` if kept, else (for a completed order) its last change. */
export function completedAt(order: OrderRecord): string | null {
  const o = order as OrderWithMoments;
  if (o.completedAt) return o.completedAt;
  return order.status === 'completed' ? order.updatedAt : null;
}

/**
 * The orders with `completedAt` (the latest `order.completed`) and `disputedAt` (the first
 * `order.dispute`) taken from the outbox where the order does not keep them. Copies; the records
 * are not changed.
 */
export function withMoments(orders: Iterable<OrderRecord>, events: readonly EventRecord[]): OrderWithMoments[] {
  const completed = new Map<string, string>();
  const disputed = new Map<string, string>();
  for (const e of events) {
    const id = typeof e.data['order'] === 'string' ? e.data['order'] : null;
    if (id === null) continue;
    if (e.kind === 'order.completed') completed.set(id, e.at);
    else if (e.kind === 'order.dispute' && !disputed.has(id)) disputed.set(id, e.at);
  }
  return [...orders].map((order) => {
    const o = order as OrderWithMoments;
    const c = o.completedAt ? undefined : completed.get(o.id);
    const d = o.disputedAt ? undefined : disputed.get(o.id);
    if (c === undefined && d === undefined) return o;
    return { ...o, ...(c === undefined ? {} : { completedAt: c }), ...(d === undefined ? {} : { disputedAt: d }) };
  });
}

/** When the order's money is released: completed and past its guarantee; null while not. */
export function releasedAt(order: OrderRecord): string | null {
  const done = order.status === 'completed' ? completedAt(order) : null;
  if (!done) return null;
  return order.guaranteeUntil && order.guaranteeUntil > done ? order.guaranteeUntil : done;
}

/** Whether the buyer ever opened a dispute on the order. */
export function wasDisputed(order: OrderRecord): boolean {
  const o = order as OrderWithMoments;
  return Boolean(o.disputedAt) || order.status === 'disputed' || order.disputeReplied;
}

// ---------------------------------------------------------------------------------------------
// Stats

/** Start of the period on the server clock (UTC), or null for `all`. */
export function periodStart(period: StatsPeriod, now: Date): Date | null {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (period) {
    case 'today':
      return new Date(Date.UTC(y, m, d));
    case 'week':
      return weekStart(now);
    case 'month':
      return new Date(Date.UTC(y, m, 1));
    case 'all':
      return null;
  }
}

/** Monday 00:00 UTC of the ISO week of `at`. */
export function weekStart(at: Date): Date {
  const back = (at.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - back));
}

export interface StatsResult {
  period: StatsPeriod;
  revenueRub: number;
  orders: number;
  completed: number;
  refunded: number;
  averageRub: number;
  listings: { number: number; revenueRub: number; orders: number }[];
}

export function statsOf(
  orders: Iterable<OrderRecord>,
  opts: { period: StatsPeriod; sort?: 'revenue' | undefined; mode: KeyMode; now: Date },
): StatsResult {
  const start = periodStart(opts.period, opts.now);
  const from = start?.toISOString() ?? '';
  const to = opts.now.toISOString();
  const result: StatsResult = { period: opts.period, revenueRub: 0, orders: 0, completed: 0, refunded: 0, averageRub: 0, listings: [] };
  const cards = new Map<number, { number: number; revenueRub: number; orders: number }>();
  let earning = 0;
  for (const o of orders) {
    if (!countsFor(o, opts.mode) || !placed(o) || o.paidAt! < from || o.paidAt! > to) continue;
    const card = cards.get(o.number) ?? { number: o.number, revenueRub: 0, orders: 0 };
    cards.set(o.number, card);
    result.orders++;
    card.orders++;
    if (o.status === 'completed') result.completed++;
    if (givenBack(o)) result.refunded++;
    if (earns(o)) {
      earning++;
      result.revenueRub += o.priceRub;
      card.revenueRub += o.priceRub;
    }
  }
  result.averageRub = earning > 0 ? Math.round(result.revenueRub / earning) : 0;
  result.listings = [...cards.values()].sort((a, b) =>
    opts.sort === 'revenue' ? b.revenueRub - a.revenueRub || a.number - b.number : a.number - b.number,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// Clients

export interface ClientResult {
  client: string;
  orders: number;
  spentRub: number;
  lastOrderAt: string;
}

/** Every client of the seller, most valuable first. `pseudonym` maps an internal buyer id to its per-seller name. */
export function clientsOf(orders: Iterable<OrderRecord>, opts: { mode: KeyMode; pseudonym: (buyerId: string) => string }): ClientResult[] {
  const byBuyer = new Map<string, ClientResult>();
  for (const o of orders) {
    if (!countsFor(o, opts.mode) || !placed(o)) continue;
    let c = byBuyer.get(o.buyer.id);
    if (!c) {
      c = { client: opts.pseudonym(o.buyer.id), orders: 0, spentRub: 0, lastOrderAt: o.paidAt! };
      byBuyer.set(o.buyer.id, c);
    }
    c.orders++;
    if (!givenBack(o)) c.spentRub += o.priceRub;
    if (o.paidAt! > c.lastOrderAt) c.lastOrderAt = o.paidAt!;
  }
  return [...byBuyer.values()].sort(
    (a, b) => b.spentRub - a.spentRub || (a.lastOrderAt < b.lastOrderAt ? 1 : a.lastOrderAt > b.lastOrderAt ? -1 : 0) || (a.client < b.client ? -1 : 1),
  );
}

// ---------------------------------------------------------------------------------------------
// Rating

export interface RatingResult {
  score: number | null;
  reviews: number;
  positive: number;
  negative: number;
  completedOrders: number;
  disputeRate: number;
}

const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;

export function ratingOf(orders: Record<string, OrderRecord>, reviews: Iterable<ReviewRecord>, mode: KeyMode): RatingResult {
  const counted = Object.values(orders).filter((o) => countsFor(o, mode));
  const ownReviews = [...reviews].filter((r) => {
    const order = orders[r.order];
    return order ? countsFor(order, mode) : mode === 'live';
  });
  const stars = ownReviews.reduce((sum, r) => sum + r.stars, 0);
  const placedOrders = counted.filter(placed);
  const disputed = placedOrders.filter(wasDisputed).length;
  return {
    score: ownReviews.length > 0 ? round(stars / ownReviews.length, 2) : null,
    reviews: ownReviews.length,
    positive: ownReviews.filter((r) => r.stars >= 4).length,
    negative: ownReviews.filter((r) => r.stars <= 2).length,
    completedOrders: counted.filter((o) => o.status === 'completed').length,
    disputeRate: placedOrders.length > 0 ? round(disputed / placedOrders.length, 4) : 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Payouts

/** What the seller gets for one order: the price less the fee. */
export const netOf = (priceRub: number): number => priceRub - Math.round((priceRub * FEE_PERCENT) / 100);

/** Every payout of the seller, newest first (see the module comment for the model). */
export function payoutsOf(
  orders: Iterable<OrderRecord>,
  papers: PapersRecord,
  opts: { sellerId: string; mode: KeyMode; now: Date },
): PayoutRecord[] {
  const nowIso = opts.now.toISOString();
  const weeks = new Map<number, { amountRub: number; firstAt: string }>();
  for (const o of orders) {
    const done = releasedAt(o);
    if (!countsFor(o, opts.mode) || !done || done > nowIso) continue;
    const week = weekStart(new Date(done)).getTime();
    const w = weeks.get(week) ?? { amountRub: 0, firstAt: done };
    weeks.set(week, w);
    w.amountRub += netOf(o.priceRub);
    if (done < w.firstAt) w.firstAt = done;
  }
  const filledSince = filledSinceOf(papers);
  const method = papers.payout?.method ?? 'account';
  const accountTail = papers.payout?.accountTail ?? null;
  const out: PayoutRecord[] = [];
  for (const [week, w] of weeks) {
    const payday = week + WEEK_MS;
    let status: PayoutRecord['status'] = 'scheduled';
    let paidAt: string | null = null;
    if (payday <= opts.now.getTime()) {
      if (filledSince === null) status = 'failed';
      else {
        status = 'paid';
        paidAt = new Date(Math.max(payday, filledSince)).toISOString();
      }
    }
    out.push({ id: payoutId(opts.sellerId, opts.mode, week), amountRub: w.amountRub, status, method, accountTail, createdAt: w.firstAt, paidAt });
  }
  return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/** Since when payouts could be made (ms), or null when the details were never filled. */
function filledSinceOf(papers: PapersRecord): number | null {
  if (papers.payoutFilledAt) return Date.parse(papers.payoutFilledAt);
  // Fixture papers (no record of the moment) that are filled: since always.
  if (papers.payoutFilledAt === undefined && payoutFilled(papers)) return 0;
  return null;
}

function payoutId(sellerId: string, mode: KeyMode, week: number): string {
  return `pay_${createHash('sha256').update(`${sellerId}:${mode}:${week}`).digest('hex').slice(0, 24)}`;
}
