/**
 * Work mode and presence (spec rule 5: the API cannot claim that the seller is present; presence is
 * decided by the marketplace). Pure functions over the seller's document and a moment in time.
 *
 * Presence, in this order:
 *   - `offline` while do-not-disturb is on, or the moment falls inside the quiet hours;
 *   - `away` while the seller is at capacity (open orders ≥ capacity);
 *   - `online` otherwise.
 *
 * Quiet hours `{from, to, tz}` are wall-clock times in the IANA zone `tz`; `from` is inside, `to` is
 * not (`[from, to)`). A range whose `from` is later than its `to` crosses midnight (`23:00`–`07:00`).
 * Equal `from` and `to` is an empty range: never quiet.
 *
 * The sandbox's order helper refuses a new order with `do_not_disturb` while {@link isDoNotDisturb}
 * holds (do-not-disturb or quiet hours) and with `capacity` while {@link atCapacity} holds.
 */
import type { OrderStatus } from '../../sdk/contract/index.ts';
import type { WorkModeRecord } from '../store/records/account.ts';
import type { SellerDoc } from '../store/docs.ts';

export type Presence = 'online' | 'away' | 'offline';

/** Order states that occupy the seller (count against the capacity). */
export const OPEN_STATUSES: readonly OrderStatus[] = ['awaiting_confirmation', 'awaiting_delivery', 'disputed'];

/** How many of the seller's orders are open (waiting for the seller or disputed). */
export function openOrders(doc: Pick<SellerDoc, 'orders'>): number {
  let n = 0;
  for (const order of Object.values(doc.orders)) if (OPEN_STATUSES.includes(order.status)) n++;
  return n;
}

/** Whether the seller has as many open orders as the capacity allows (never, without a capacity). */
export function atCapacity(doc: Pick<SellerDoc, 'orders' | 'workMode'>): boolean {
  const { capacity } = doc.workMode;
  return capacity !== null && openOrders(doc) >= capacity;
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Minutes since local midnight of `now` in the zone `tz`. */
export function localMinutes(now: Date, tz: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return (hour % 24) * 60 + minute;
}

/** Whether `now` falls inside the quiet hours (see the module comment for the range rules). */
export function inQuietHours(quiet: WorkModeRecord['quietHours'], now: Date): boolean {
  if (!quiet) return false;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to) return false;
  const t = localMinutes(now, quiet.tz);
  return from < to ? t >= from && t < to : t >= from || t < to;
}

/** Do-not-disturb is on, or the quiet hours are running: no new orders, presence `offline`. */
export function isDoNotDisturb(doc: Pick<SellerDoc, 'workMode'>, now: Date): boolean {
  return doc.workMode.doNotDisturb || inQuietHours(doc.workMode.quietHours, now);
}

/** Alias of {@link isDoNotDisturb}. */
export const doNotDisturb = isDoNotDisturb;

/** The presence the marketplace shows for the seller at `now`. */
export function presenceOf(doc: Pick<SellerDoc, 'orders' | 'workMode'>, now: Date): Presence {
  if (isDoNotDisturb(doc, now)) return 'offline';
  if (atCapacity(doc)) return 'away';
  return 'online';
}
