/**
 * The per-seller order index behind GET /orders (server/store/order-index.ts): after random
 * creations and updates, every walk answers exactly what a full sort of the seller's orders answers
 * (the paging the list used before the index), and a stamp made behind the index's back is noticed.
 */
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type OrderStatus } from '../../sdk/contract/index.ts';
import type { ServerContext } from '../../server/context.ts';
import { EventBus } from '../../server/domain/event-bus.ts';
import { ChangeBus } from '../../server/domain/change-bus.ts';
import { OrderDeadlines } from '../../server/domain/order-deadlines.ts';
import { needsAction, orderCreated, touched } from '../../server/domain/orders.ts';
import { cursorKey, pageOf } from '../../server/http/paging.ts';
import { newSellerDoc, type SellerDoc } from '../../server/store/docs.ts';
import {
  creationKey,
  dropOrderIndex,
  hasOrderIndex,
  newestOrders,
  orderIndexBuilds,
  ordersUpdatedSince,
  updateKey,
  type OrderWalk,
} from '../../server/store/order-index.ts';
import { orderRecord } from '../helpers/fixtures.ts';
import type { OrderRecord } from '../../server/store/records/orders.ts';

// What `touched` and `orderCreated` reach of a server: its order deadlines and its event bus.
const svc = { deadlines: new OrderDeadlines(), events: new EventBus(), changes: new ChangeBus() } as ServerContext;

/** A small deterministic generator (the failures must be reproducible). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

let n = 0;
function newOrder(doc: SellerDoc, now: Date, status: OrderStatus): OrderRecord {
  const at = now.toISOString();
  const order = orderRecord({
    id: `ord_t${String(n++).padStart(6, '0')}`,
    service: 's',
    tariff: 't',
    priceRub: 100,
    status,
    guaranteeDays: 1,
    createdAt: at,
    updatedAt: at,
    buyer: { id: 'buy_x', test: false },
  });
  doc.orders[order.id] = order;
  orderCreated(svc, doc, order, now);
  return order;
}

interface Filter {
  status?: OrderStatus;
  needsAction?: boolean;
}
const matches = (f: Filter) => (o: OrderRecord) =>
  (f.status === undefined || o.status === f.status) && (f.needsAction === undefined || needsAction(o) === f.needsAction);

/** Every page of a list through the index, as ids, following the cursors (the route's way). */
function pagesOf(doc: SellerDoc, f: Filter, limit: number, since?: string): string[][] {
  const pages: string[][] = [];
  let after: string | null = null;
  for (;;) {
    const opts = { limit, match: matches(f) };
    const walk: OrderWalk = since === undefined ? newestOrders(doc, after, opts) : ordersUpdatedSince(doc, since, after, opts);
    pages.push(walk.items.map((o) => o.id));
    const last = walk.items.at(-1);
    if (!walk.more || !last) return pages;
    after = since === undefined ? creationKey(last) : updateKey(last.updatedAt, last.id);
  }
}

/** The same pages by a full sort of every order (pageOf, as the list did before the index). */
function sortedPagesOf(doc: SellerDoc, f: Filter, limit: number, since?: string): string[][] {
  const all = Object.values(doc.orders).filter((o) => matches(f)(o) && (since === undefined || o.updatedAt >= since));
  const key = since === undefined ? (o: OrderRecord) => `c|${creationKey(o)}` : (o: OrderRecord) => `u|${updateKey(o.updatedAt, o.id)}`;
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = pageOf(all, { limit, cursor }, { key, desc: since === undefined });
    pages.push(page.items.map((o) => o.id));
    if (!page.nextCursor) return pages;
    expect(cursorKey(page.nextCursor)).toBe(key(page.items.at(-1)!));
    cursor = page.nextCursor;
  }
}

function expectSame(doc: SellerDoc, random: () => number): void {
  const filters: Filter[] = [{}, { needsAction: true }, { needsAction: false }, { status: 'awaiting_delivery' }, { status: 'completed', needsAction: false }];
  const stamps = Object.values(doc.orders).map((o) => o.updatedAt).sort();
  for (const f of filters) {
    const limit = 1 + Math.floor(random() * 40);
    expect(pagesOf(doc, f, limit)).toEqual(sortedPagesOf(doc, f, limit));
    const since = [new Date(0).toISOString(), stamps[Math.floor(random() * stamps.length)]!, stamps.at(-1)!, '9999-01-01T00:00:00.000Z'];
    for (const s of since) expect(pagesOf(doc, f, limit, s), `${JSON.stringify(f)} since ${s}`).toEqual(sortedPagesOf(doc, f, limit, s));
  }
}

describe('order index', () => {
  it('matches a full sort after random creations and updates (with clocks going back)', () => {
    const random = rng(42);
    const doc = newSellerDoc('sel_index');
    let t = Date.parse('2026-01-01T00:00:00.000Z');
    // a few orders before the index is first built (as after a start)
    for (let i = 0; i < 20; i++) newOrder(doc, new Date((t += 1000)), 'awaiting_payment');
    expect(hasOrderIndex(doc)).toBe(false);
    expectSame(doc, random);
    expect(hasOrderIndex(doc)).toBe(true);
    const builds = orderIndexBuilds();
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 40; i++) {
        // the clock may stand still or go back: stamps stay strictly increasing per seller
        t += Math.floor(random() * 3000) - 1000;
        const now = new Date(t);
        const ids = Object.keys(doc.orders);
        if (random() < 0.3) {
          newOrder(doc, now, ORDER_STATUSES[Math.floor(random() * ORDER_STATUSES.length)]!);
        } else {
          const order = doc.orders[ids[Math.floor(random() * ids.length)]!]!;
          order.status = ORDER_STATUSES[Math.floor(random() * ORDER_STATUSES.length)]!;
          order.unreadBuyerMessage = random() < 0.3;
          touched(svc, doc, order, now);
        }
      }
      expectSame(doc, random);
    }
    // kept up incrementally: nothing forced a rebuild
    expect(orderIndexBuilds()).toBe(builds);
    expect(Object.keys(doc.orders).length).toBeGreaterThan(300);
  });

  it('an unfiltered page takes the page from the cursor; nextCursor only when another order follows', () => {
    const doc = newSellerDoc('sel_page');
    let t = Date.parse('2026-02-01T00:00:00.000Z');
    const ids = Array.from({ length: 5 }, () => newOrder(doc, new Date((t += 1000)), 'completed').id);
    const all = { limit: 5, match: () => true };
    expect(newestOrders(doc, null, all)).toEqual({ items: ids.map((id) => doc.orders[id]).reverse(), more: false });
    const first = newestOrders(doc, null, { ...all, limit: 2 });
    expect(first.items.map((o) => o.id)).toEqual([ids[4], ids[3]]);
    expect(first.more).toBe(true);
    const since = ordersUpdatedSince(doc, doc.orders[ids[3]!]!.updatedAt, null, all);
    expect(since.items.map((o) => o.id)).toEqual([ids[3], ids[4]]);
    // an update moves the order to the end of the update list
    touched(svc, doc, doc.orders[ids[0]!]!, new Date(t));
    expect(ordersUpdatedSince(doc, doc.orders[ids[3]!]!.updatedAt, null, all).items.map((o) => o.id)).toEqual([ids[3], ids[4], ids[0]]);
  });

  it('a stamp or a record changed behind its back is noticed and the index rebuilt', () => {
    const doc = newSellerDoc('sel_drift');
    let t = Date.parse('2026-03-01T00:00:00.000Z');
    const ids = Array.from({ length: 5 }, () => newOrder(doc, new Date((t += 1000)), 'completed').id);
    const all = { limit: 10, match: () => true };
    const since = new Date(0).toISOString();
    ordersUpdatedSince(doc, since, null, all);
    let builds = orderIndexBuilds();
    // updatedAt moved without touched: the walk rebuilds and answers by the records
    doc.orders[ids[0]!]!.updatedAt = new Date(t + 5000).toISOString();
    expect(ordersUpdatedSince(doc, since, null, all).items.map((o) => o.id)).toEqual([...ids.slice(1), ids[0]]);
    expect(orderIndexBuilds()).toBe(++builds);
    // a record replaced by another object
    doc.orders[ids[1]!] = { ...doc.orders[ids[1]!]!, status: 'refunded' };
    expect(newestOrders(doc, null, { limit: 10, match: (o) => o.status === 'refunded' }).items.map((o) => o.id)).toEqual([ids[1]]);
    expect(orderIndexBuilds()).toBe(++builds);
    // orders written straight into the document: dropOrderIndex makes the next walk see them
    const extra = { ...doc.orders[ids[2]!]!, id: 'ord_direct', createdAt: new Date(t + 9000).toISOString(), updatedAt: new Date(t + 9000).toISOString() };
    doc.orders[extra.id] = extra;
    dropOrderIndex(doc);
    expect(newestOrders(doc, null, { limit: 1, match: () => true }).items[0]!.id).toBe('ord_direct');
    expectSame(doc, rng(7));
  });
});
