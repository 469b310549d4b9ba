/**
 * What the live table of `seller orders watch` shows, as text: the order of its rows, relative times,
 * a change in words, and one frame of the table. Pure: no terminal, no clock of its own.
 */
import { cardNo, clockTime, dateTime, money, word } from '../i18n/format.ts';
import { t } from '../i18n/index.ts';
import { DEADLINE_RUNS } from '../lib/order-deadline.ts';
import { alignColumns, paint, type Cell } from '../lib/live-table.ts';
import type { Order, OrderStatus } from '../lib/records.ts';

/** Statuses after which nothing more is expected of an order (a completed one may still be disputed). */
const DONE: readonly OrderStatus[] = ['completed', 'cancelled', 'declined', 'refunded'];
/** Statuses in which the delivery deadline runs. */
const DUE = DEADLINE_RUNS;
/** Closed orders kept in the table's memory (the oldest are forgotten). */
export const KEEP_CLOSED = 200;
/** How often the table is redrawn when nothing changes (relative times, the retry countdown). */
export const REFRESH_MS = 1000;

/** What the live table shows. */
export interface WatchView {
  /** The latest version of each order seen during this watch, by id. */
  orders: Map<string, Order>;
  /** Where the watch started. */
  since: string;
  /** When a poll last succeeded (ms). */
  lastPollAt?: number | undefined;
  /** The last failed poll, until one succeeds. */
  failure?: { what: string; at: number; retryAt: number } | undefined;
  /** The last change, as a line for people. */
  lastEvent?: { at: number; text: string } | undefined;
  /** The watch has ended (the last frame). */
  stopped?: boolean | undefined;
}

/** The time of day, `HH:MM:SS` in the user's time zone (`--utc`: UTC). */
const clock = (ms: number) => clockTime(ms);

/** A duration for people: `45 s`, `12 min`, `2 h 5 min`, `3 d 4 h`. */
export function span(ms: number): string {
  const seconds = Math.floor(Math.abs(ms) / 1000);
  const unit = (key: string, n: number) => t(`units.${key}`, { n });
  if (seconds < 60) return unit('seconds', seconds);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return unit('minutes', minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${unit('hours', hours)} ${unit('minutes', minutes % 60)}` : unit('hours', hours);
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${unit('days', days)} ${unit('hours', hours % 24)}` : unit('days', days);
}

/** A deadline relative to now: `in 12 min`, `overdue 3 min`. */
export const dueIn = (at: number, now: number) => (at >= now ? t('watch.dueIn', { span: span(at - now) }) : t('watch.overdue', { span: span(now - at) }));

/** A past moment relative to now: `just now`, `12 s ago`, `3 min ago`. */
export const ago = (at: number, now: number) => (now - at < 5000 ? t('watch.justNow') : t('watch.ago', { span: span(now - at) }));

export const isOpen = (order: Order) => !DONE.includes(order.status);
/** The delivery deadline that matters now (ms), or `undefined`. */
const deadline = (order: Order) => (order.deliverBy !== null && DUE.includes(order.status) ? Date.parse(order.deliverBy) : undefined);

/**
 * The table's order: open orders first (needing action first, then the soonest delivery deadline,
 * then the latest change), then closed ones, the latest change first.
 */
export function tableOrder(orders: Iterable<Order>): Order[] {
  const byUpdate = (a: Order, b: Order) => (a.updatedAt === b.updatedAt ? a.id.localeCompare(b.id) : a.updatedAt < b.updatedAt ? 1 : -1);
  const all = [...orders];
  const open = all.filter(isOpen).sort((a, b) => {
    if (a.needsAction !== b.needsAction) return a.needsAction ? -1 : 1;
    const da = deadline(a) ?? Infinity;
    const db = deadline(b) ?? Infinity;
    return da !== db ? da - db : byUpdate(a, b);
  });
  const closed = all.filter((o) => !isOpen(o)).sort(byUpdate);
  return [...open, ...closed];
}

/** A change as a line for people: `ord_… paid → awaiting_delivery`, `ord_… delivered`. */
export function describeChange(before: Order | undefined, after: Order, message?: string): string {
  // The buyer's own words, as written.
  if (message !== undefined) return t('watch.buyerWrote', { id: after.id, text: message.replace(/\s+/g, ' ') });
  const action = after.needsAction ? t('watch.needsActionSuffix') : '';
  const status = word('orderStatus', after.status);
  if (before === undefined) return after.status === 'awaiting_payment' ? t('watch.newOrder', { id: after.id, status }) : t('watch.is', { id: after.id, status, action });
  if (before.status === after.status) return t('watch.updated', { id: after.id, status, action });
  const verbs: Partial<Record<OrderStatus, string>> = {
    awaiting_confirmation: 'paid',
    awaiting_delivery: before.status === 'awaiting_confirmation' ? 'confirmed' : 'paid',
    delivered: 'delivered',
    completed: before.status === 'disputed' ? 'resolved' : 'completed',
    disputed: 'disputed',
    cancelled: 'cancelled',
    declined: 'declined',
    refunded: 'refunded',
  };
  const verb = verbs[after.status] ?? 'moved';
  const said = t(`watch.verb.${verb}`);
  return verb === after.status ? `${after.id} ${said}` : `${after.id} ${said} → ${status}`;
}

/** The column titles (catalogue `watch.header.*`). */
const headers = () => ['id', 'card', 'status', 'action', 'price', 'deliverBy', 'updated'].map((key) => t(`watch.header.${key}`));

/** One order as table cells. */
function orderCells(order: Order, now: number): Cell[] {
  const open = isOpen(order);
  const quiet = open ? undefined : 'dim';
  const due = deadline(order);
  return [
    { text: order.id, style: quiet },
    { text: cardNo(order.number), style: quiet },
    { text: word('orderStatus', order.status), style: quiet },
    order.needsAction ? { text: t('watch.act'), style: 'yellow' } : { text: '', style: quiet },
    { text: money(order.priceRub), style: quiet },
    due === undefined ? { text: '-', style: quiet } : { text: dueIn(due, now), style: due < now ? 'red' : undefined },
    { text: ago(Date.parse(order.updatedAt), now), style: quiet },
  ];
}

/**
 * The frame of the live table: a header (counts, last poll), the column titles, the orders that fit
 * in `height` (the renderer's line budget) with `+N more` when some do not, and a footer (the last
 * change, how to stop).
 */
export function watchFrame(view: WatchView, screen: { now: number; height: number; color: boolean }): string[] {
  const { now, height, color } = screen;
  const orders = tableOrder(view.orders.values());
  const acting = orders.filter((o) => o.needsAction).length;

  const counts = `${t('watch.orders', { count: orders.length })}${acting ? t('watch.needAction', { count: acting }) : ''}`;
  let poll: string;
  if (view.failure) {
    const retry = Math.max(0, Math.ceil((view.failure.retryAt - now) / 1000));
    const when = retry > 0 ? t('watch.retryingIn', { span: t('units.seconds', { n: retry }) }) : t('watch.retryingNow');
    poll = paint(color, 'red', t('watch.pollFailed', { time: clock(view.failure.at), when, what: view.failure.what }));
  } else {
    poll = view.lastPollAt === undefined ? t('watch.firstPoll') : t('watch.lastPoll', { time: clock(view.lastPollAt) });
  }
  // The poll's state goes last: a long failure is what the width cuts.
  const header = `${paint(color, 'bold', t('watch.title'))}  ·  ${counts}  ·  ${poll}`;

  // Header, column titles and footer take three lines; `+N more` takes one when the list is cut.
  const room = Math.max(0, height - 3);
  const shown = orders.length > room ? orders.slice(0, Math.max(0, room - 1)) : orders;
  const rows: Array<Array<Cell | string>> = [headers().map((text) => ({ text, style: 'bold' as const }))];
  for (const order of shown) rows.push(orderCells(order, now));
  const lines = [header, ...alignColumns(rows, color)];
  if (orders.length === 0) lines.push(paint(color, 'dim', t('watch.noChangeSince', { since: dateTime(view.since) })));
  const hidden = orders.slice(shown.length);
  if (hidden.length > 0) {
    const hiddenActing = hidden.filter((o) => o.needsAction).length;
    lines.push(paint(color, 'dim', `${t('watch.more', { count: hidden.length })}${hiddenActing ? t('watch.moreActing', { count: hiddenActing }) : ''}`));
  }
  const last = view.lastEvent ? `${clock(view.lastEvent.at)} ${view.lastEvent.text}` : t('watch.noChanges');
  lines.push(`${paint(color, 'dim', last)}  ·  ${view.stopped ? t('watch.stopped') : t('watch.ctrlC')}`);
  return lines;
}

/** A failed poll in a few words. */
