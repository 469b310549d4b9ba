/**
 * Stats, clients, rating and payouts, computed from the orders and reviews in the seller's document
 * (the definitions are in server/domain/stats.ts). Orders are put straight into the document so that
 * every state and moment can be chosen; the clock is fixed at Wednesday 2026-03-11 12:00 UTC.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../sdk/contract/index.ts';
import { Client, Payout, Rating, Stats } from '../../sdk/contract/index.ts';
import { Clock } from '../../server/clock.ts';
import { clientsOf, completedAt, FEE_PERCENT, netOf, payoutsOf, periodStart, ratingOf, releasedAt, statsOf, wasDisputed, weekStart, withMoments } from '../../server/domain/stats.ts';
import { newId } from '../../server/ids.ts';
import { FIXTURE_ACCOUNTS, FIXTURE_BIK, FIXTURE_INNS } from '../../server/seed/registry.ts';
import { newSellerDoc } from '../../server/store/docs.ts';
import { orderRecord } from '../helpers/fixtures.ts';
import type { OrderRecord } from '../../server/store/records/orders.ts';
import { call, expectError, issueKey, makeApp, newSeller, sandbox, type SellerCreated } from './helpers.ts';

const NOW = Date.parse('2026-03-11T12:00:00.000Z');

let app: FastifyInstance;
let seller: SellerCreated;

beforeEach(async () => {
  app = await makeApp({ clock: new Clock(0, () => NOW) });
  seller = await newSeller(app, { admission: 'complete', sellerType: 'ip' });
});
afterEach(async () => {
  await app.close();
});

interface Spec {
  number: number;
  priceRub: number;
  status: OrderStatus;
  paidAt: string | null;
  /** The order's last change (for a completed order: when it completed). */
  updatedAt?: string;
  buyer?: string;
  isTest?: boolean;
  disputeReplied?: boolean;
}

function order(s: Spec): OrderRecord {
  const created = s.paidAt ?? '2026-03-01T00:00:00.000Z';
  return orderRecord({
    number: s.number,
    tariff: 'premium',
    productType: 'subscription',
    deliveryMethod: 'own_account',
    priceRub: s.priceRub,
    status: s.status,
    isTest: s.isTest ?? false,
    createdAt: created,
    paidAt: s.paidAt,
    updatedAt: s.updatedAt ?? created,
    buyer: { id: s.buyer ?? 'b1', test: s.isTest ?? false },
    disputeReplied: s.disputeReplied ?? false,
  });
}

/** The book of the live seller; letters name the orders in the expectations below. */
const BOOK = {
  A: { number: 1001, priceRub: 1000, status: 'completed', paidAt: '2026-03-11T08:00:00.000Z', updatedAt: '2026-03-11T09:00:00.000Z', buyer: 'b1' },
  B: { number: 1001, priceRub: 500, status: 'delivered', paidAt: '2026-03-10T10:00:00.000Z', buyer: 'b2' },
  C: { number: 1002, priceRub: 2000, status: 'refunded', paidAt: '2026-03-09T01:00:00.000Z', buyer: 'b1', disputeReplied: true },
  D: { number: 1002, priceRub: 3000, status: 'completed', paidAt: '2026-03-02T10:00:00.000Z', updatedAt: '2026-03-04T10:00:00.000Z', buyer: 'b3' },
  E: { number: 1003, priceRub: 800, status: 'completed', paidAt: '2026-02-20T10:00:00.000Z', updatedAt: '2026-02-25T10:00:00.000Z', buyer: 'b1' },
  F: { number: 1003, priceRub: 900, status: 'awaiting_payment', paidAt: null, buyer: 'b5' },
  G: { number: 1001, priceRub: 400, status: 'declined', paidAt: '2026-03-11T09:00:00.000Z', buyer: 'b2' },
  H: { number: 1002, priceRub: 700, status: 'disputed', paidAt: '2026-03-11T10:00:00.000Z', buyer: 'b3' },
  I: { number: 1003, priceRub: 500, status: 'cancelled', paidAt: '2026-03-05T10:00:00.000Z', buyer: 'b4' },
  T: { number: 1004, priceRub: 600, status: 'completed', paidAt: '2026-03-11T07:00:00.000Z', updatedAt: '2026-03-11T07:30:00.000Z', buyer: 'tb', isTest: true },
} satisfies Record<string, Spec>;
type Letter = keyof typeof BOOK;

/** Puts orders into a seller's document; answers their ids by letter. */
async function addBook(owner: SellerCreated, specs: Partial<Record<string, Spec>> = BOOK): Promise<Record<string, string>> {
  const doc = await app.service.store.seller(owner.sellerId);
  const ids: Record<string, string> = {};
  for (const [letter, spec] of Object.entries(specs)) {
    const o = order(spec!);
    doc.orders[o.id] = o;
    app.service.store.shared.orderIndex[o.id] = owner.sellerId;
    ids[letter] = o.id;
  }
  return ids;
}

const get = (path: string, key = seller.apiKey) => call(app, key, 'GET', `/api/v1${path}`);

describe('GET /stats', () => {
  beforeEach(async () => {
    await addBook(seller);
  });

  it('today: orders paid since 00:00 UTC', async () => {
    const res = await get('/stats?period=today');
    expect(res.status).toBe(200);
    expect(Stats.parse(res.body)).toEqual({
      period: 'today',
      revenueRub: 1000,
      orders: 3, // A, G, H (T is a test order)
      completed: 1,
      refunded: 1, // G declined
      averageRub: 1000,
      listings: [
        { number: 1001, revenueRub: 1000, orders: 2 },
        { number: 1002, revenueRub: 0, orders: 1 },
      ],
    });
  });

  it('week: since Monday 00:00 UTC', async () => {
    expect((await get('/stats?period=week')).body).toEqual({
      period: 'week',
      revenueRub: 1500, // A + B (delivered counts)
      orders: 5,
      completed: 1,
      refunded: 2, // C refunded, G declined
      averageRub: 750,
      listings: [
        { number: 1001, revenueRub: 1500, orders: 3 },
        { number: 1002, revenueRub: 0, orders: 2 },
      ],
    });
  });

  it('month: since the 1st 00:00 UTC', async () => {
    expect((await get('/stats?period=month')).body).toEqual({
      period: 'month',
      revenueRub: 4500,
      orders: 7,
      completed: 2,
      refunded: 3, // C, G, I (cancelled after payment)
      averageRub: 1500,
      listings: [
        { number: 1001, revenueRub: 1500, orders: 3 },
        { number: 1002, revenueRub: 3000, orders: 3 },
        { number: 1003, revenueRub: 0, orders: 1 },
      ],
    });
  });

  it('all (also the default), never-paid orders left out; sort=revenue orders cards by revenue', async () => {
    const all = {
      period: 'all',
      revenueRub: 5300,
      orders: 8,
      completed: 3,
      refunded: 3,
      averageRub: 1325,
      listings: [
        { number: 1001, revenueRub: 1500, orders: 3 },
        { number: 1002, revenueRub: 3000, orders: 3 },
        { number: 1003, revenueRub: 800, orders: 2 },
      ],
    };
    expect((await get('/stats?period=all')).body).toEqual(all);
    expect((await get('/stats')).body).toEqual(all);
    const byRevenue = (await get('/stats?period=all&sort=revenue')).body;
    expect(byRevenue.listings.map((l: { number: number }) => l.number)).toEqual([1002, 1001, 1003]);
  });

  it('periods follow the server clock', async () => {
    await sandbox(app, 'POST', '/clock/advance', { seconds: 86_400 }); // Thursday: nothing paid today
    expect((await get('/stats?period=today')).body).toMatchObject({ orders: 0, revenueRub: 0, averageRub: 0, listings: [] });
    expect((await get('/stats?period=week')).body.orders).toBe(5);
  });

  it('a seller without orders: zeros', async () => {
    const fresh = await newSeller(app);
    expect((await get('/stats?period=all', fresh.apiKey)).body).toEqual({
      period: 'all',
      revenueRub: 0,
      orders: 0,
      completed: 0,
      refunded: 0,
      averageRub: 0,
      listings: [],
    });
  });

  it('a bad period or sort → 400; the stats scope is needed', async () => {
    expectError(await get('/stats?period=year'), 400, 'bad_request');
    expectError(await get('/stats?sort=orders'), 400, 'bad_request');
    const k = await issueKey(app, seller.apiKey, ['orders']);
    const res = await get('/stats', k.key);
    expectError(res, 403, 'scope');
    expect(res.body.detail).toMatchObject({ needed: 'stats' });
  });

  it('a test key counts the test orders only', async () => {
    const tester = await newSeller(app, { mode: 'test' });
    await addBook(tester, { T: BOOK.T, A: BOOK.A });
    expect((await get('/stats?period=today', tester.apiKey)).body).toMatchObject({ orders: 1, revenueRub: 600, listings: [{ number: 1004, revenueRub: 600, orders: 1 }] });
  });
});

describe('GET /clients', () => {
  it('pseudonymous buyers by spend, with limit, skip and total; no buyer id anywhere', async () => {
    await addBook(seller);
    const res = await get('/clients');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4); // b1, b2, b3, b4 (b5 never paid, tb is a test buyer)
    const items = res.body.items.map((c: unknown) => Client.parse(c));
    expect(items.map((c: { orders: number; spentRub: number; lastOrderAt: string }) => [c.orders, c.spentRub, c.lastOrderAt])).toEqual([
      [2, 3700, BOOK.H.paidAt], // b3: D + H
      [3, 1800, BOOK.A.paidAt], // b1: A + E (C refunded)
      [2, 500, BOOK.G.paidAt], // b2: B (G declined)
      [1, 0, BOOK.I.paidAt], // b4: cancelled
    ]);
    for (const b of ['b1', 'b2', 'b3', 'b4', 'tb']) expect(res.text).not.toMatch(new RegExp(`"${b}"`));
    const names = items.map((c: { client: string }) => c.client);
    expect(new Set(names).size).toBe(4);

    const page = await get('/clients?limit=2&skip=1');
    expect(page.body.total).toBe(4);
    expect(page.body.items.map((c: { client: string }) => c.client)).toEqual(names.slice(1, 3));
    expect((await get('/clients?skip=10')).body).toEqual({ items: [], total: 4 });
  });

  it('a pseudonym is stable for the seller and differs between sellers', async () => {
    const other = await newSeller(app, { admission: 'complete' });
    await addBook(seller, { A: BOOK.A });
    await addBook(other, { A: BOOK.A });
    const mine = (await get('/clients')).body.items[0].client;
    expect((await get('/clients')).body.items[0].client).toBe(mine);
    const theirs = (await get('/clients', other.apiKey)).body.items[0].client;
    expect(theirs).not.toBe(mine);
  });

  it('bad paging → 400', async () => {
    expectError(await get('/clients?limit=0'), 400, 'bad_request');
    expectError(await get('/clients?limit=201'), 400, 'bad_request');
    expectError(await get('/clients?skip=-1'), 400, 'bad_request');
    expectError(await get('/clients?cursor=abc'), 400, 'bad_request');
  });
});

describe('GET /rating', () => {
  it('no reviews: score null; no orders: dispute rate 0', async () => {
    expect(Rating.parse((await get('/rating')).body)).toEqual({ score: null, reviews: 0, positive: 0, negative: 0, completedOrders: 0, disputeRate: 0 });
  });

  it('from reviews (through the sandbox) and orders; test orders and their reviews left out', async () => {
    const ids = await addBook(seller);
    for (const [letter, stars] of [['A', 5], ['D', 4], ['E', 1], ['T', 1]] as [Letter, number][]) {
      const res = await sandbox(app, 'POST', `/orders/${ids[letter]}/review`, { stars, text: `review of ${letter}` });
      expect(res.status, res.text).toBe(200);
    }
    expect((await get('/rating')).body).toEqual({
      score: 3.33, // (5 + 4 + 1) / 3
      reviews: 3,
      positive: 2,
      negative: 1,
      completedOrders: 3, // A, D, E
      disputeRate: 0.25, // C (a lost dispute) and H of 8 paid orders
    });
  });
});

describe('GET /payouts', () => {
  it('one payout a week of completed orders, less the fee; past weeks paid on the Monday after, this week scheduled', async () => {
    await addBook(seller);
    const res = await get('/payouts');
    expect(res.status).toBe(200);
    const items = res.body.items.map((p: unknown) => Payout.parse(p));
    const tail = FIXTURE_ACCOUNTS.ip.slice(-4);
    expect(items.map(({ id: _id, ...rest }: { id: string }) => rest)).toEqual([
      { amountRub: 900, status: 'scheduled', method: 'account', accountTail: tail, createdAt: BOOK.A.updatedAt, paidAt: null },
      { amountRub: 2700, status: 'paid', method: 'account', accountTail: tail, createdAt: BOOK.D.updatedAt, paidAt: '2026-03-09T00:00:00.000Z' },
      { amountRub: 720, status: 'paid', method: 'account', accountTail: tail, createdAt: BOOK.E.updatedAt, paidAt: '2026-03-02T00:00:00.000Z' },
    ]);
    expect(res.body.nextCursor).toBeNull();
    // stable ids, paging newest first
    const p1 = await get('/payouts?limit=2');
    expect(p1.body.items.map((p: { id: string }) => p.id)).toEqual(items.slice(0, 2).map((p: { id: string }) => p.id));
    const p2 = await get(`/payouts?limit=2&cursor=${p1.body.nextCursor}`);
    expect(p2.body.items.map((p: { id: string }) => p.id)).toEqual([items[2].id]);
    expect(p2.body.nextCursor).toBeNull();
  });

  it('the week ends: the scheduled payout becomes paid; orders completed later join the new week', async () => {
    await addBook(seller, { A: BOOK.A });
    await sandbox(app, 'POST', '/clock/advance', { seconds: 5 * 86_400 }); // Monday 2026-03-16 12:00
    const items = (await get('/payouts')).body.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ amountRub: 900, status: 'paid', paidAt: '2026-03-16T00:00:00.000Z' });
    await addBook(seller, { K: { number: 1001, priceRub: 1234, status: 'completed', paidAt: '2026-03-15T10:00:00.000Z', updatedAt: '2026-03-16T11:00:00.000Z' } });
    const after = (await get('/payouts')).body.items;
    expect(after.map((p: { amountRub: number; status: string }) => [p.amountRub, p.status])).toEqual([
      [1234 - 123, 'scheduled'],
      [900, 'paid'],
    ]);
  });

  it('without payout details past weeks fail; details filled later pay them at that moment', async () => {
    const bare = await newSeller(app, { admission: 'none' });
    await addBook(bare, { A: BOOK.A, D: BOOK.D });
    const before = (await get('/payouts', bare.apiKey)).body.items;
    expect(before.map((p: { status: string; paidAt: string | null; method: string; accountTail: string | null }) => [p.status, p.paidAt, p.method, p.accountTail])).toEqual([
      ['scheduled', null, 'account', null],
      ['failed', null, 'account', null],
    ]);
    await call(app, bare.apiKey, 'PUT', '/api/v1/papers/status', { sellerType: 'ip', inn: FIXTURE_INNS.ip });
    await sandbox(app, 'POST', '/clock/advance', { seconds: 3600 });
    const set = await call(app, bare.apiKey, 'PUT', '/api/v1/papers/payout', { method: 'account', account: FIXTURE_ACCOUNTS.ip, bik: FIXTURE_BIK, name: 'ИП Петров' });
    expect(set.body.filled).toBe(true);
    const after = (await get('/payouts', bare.apiKey)).body.items;
    expect(after.map((p: { status: string; paidAt: string | null; accountTail: string | null }) => [p.status, p.paidAt, p.accountTail])).toEqual([
      ['scheduled', null, FIXTURE_ACCOUNTS.ip.slice(-4)],
      ['paid', '2026-03-11T13:00:00.000Z', FIXTURE_ACCOUNTS.ip.slice(-4)],
    ]);
    expect(after.map((p: { id: string }) => p.id)).toEqual(before.map((p: { id: string }) => p.id));
  });

  it('test orders pay nothing to a live key; a test key sees its simulated payouts', async () => {
    await addBook(seller, { T: BOOK.T });
    expect((await get('/payouts')).body.items).toEqual([]);
    const tester = await newSeller(app, { mode: 'test', admission: 'complete' });
    await addBook(tester, { T: BOOK.T });
    expect((await get('/payouts', tester.apiKey)).body.items.map((p: { amountRub: number }) => p.amountRub)).toEqual([540]);
  });

  it('needs the payouts scope', async () => {
    const k = await issueKey(app, seller.apiKey, ['stats']);
    const res = await get('/payouts', k.key);
    expectError(res, 403, 'scope');
    expect(res.body.detail).toMatchObject({ needed: 'payouts' });
  });
});

describe('through the order flow (sandbox buyer, seller API)', () => {
  const ok = async (res: Promise<{ status: number; body: any; text: string }>, status = 200) => {
    const r = await res;
    expect(r.status, r.text).toBe(status);
    return r.body;
  };
  const sb = (id: string, action: string, body?: unknown) => ok(sandbox(app, 'POST', `/orders/${id}/${action}`, body));
  const advance = (seconds: number) => sandbox(app, 'POST', '/clock/advance', { seconds });

  /** A card of 300 ₽ with a 7-day guarantee; an order of it paid, delivered and accepted. */
  async function completedOrder(): Promise<string> {
    const card = { service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 300, slaMinutes: 60, guaranteeDays: 7 };
    const number = (await ok(call(app, seller.apiKey, 'POST', '/api/v1/listings', card), 201)).number;
    await ok(call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active: true }));
    const id = (await ok(sandbox(app, 'POST', '/orders', { number }), 201)).id;
    await sb(id, 'pay');
    await ok(call(app, seller.apiKey, 'POST', `/api/v1/orders/${id}/deliver`, {}));
    await sb(id, 'accept');
    return id;
  }

  it('money is released when the guarantee ends; a dispute after completion and its refund count; later messages move nothing', async () => {
    const kept = await completedOrder();
    const lost = await completedOrder();
    await sb(lost, 'dispute', { text: 'The code does not work' });
    await sb(lost, 'resolve', { winner: 'buyer' });

    expect((await get('/stats?period=week')).body).toMatchObject({ orders: 2, completed: 1, refunded: 1, revenueRub: 300, averageRub: 300 });
    expect((await get('/rating')).body).toMatchObject({ completedOrders: 1, disputeRate: 0.5 });
    const client = (await get('/clients')).body;
    expect(client.total).toBe(2);
    // the guarantee of the kept order runs until Wednesday 2026-03-18 12:00: nothing released yet
    expect((await get('/payouts')).body.items).toEqual([]);

    await advance(7 * 86_400 + 3600); // Wednesday 2026-03-18 13:00
    expect((await get('/payouts')).body.items.map((p: { amountRub: number; status: string; createdAt: string }) => [p.amountRub, p.status, p.createdAt])).toEqual([
      [270, 'scheduled', '2026-03-18T12:00:00.000Z'],
    ]);

    await advance(5 * 86_400); // Monday 2026-03-23 13:00: the week ended
    await sb(kept, 'message', { text: 'Thanks again!' }); // the order changes after its release
    const items = (await get('/payouts')).body.items;
    expect(items.map((p: { amountRub: number; status: string; paidAt: string | null }) => [p.amountRub, p.status, p.paidAt])).toEqual([
      [270, 'paid', '2026-03-23T00:00:00.000Z'],
    ]);
  });
});

describe('the computations (pure)', () => {
  const now = new Date(NOW);

  it('period starts in UTC', () => {
    expect(periodStart('today', now)?.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    expect(periodStart('week', now)?.toISOString()).toBe('2026-03-09T00:00:00.000Z');
    expect(periodStart('month', now)?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(periodStart('all', now)).toBeNull();
    expect(weekStart(new Date('2026-03-15T23:59:59.999Z')).toISOString()).toBe('2026-03-09T00:00:00.000Z'); // Sunday
    expect(weekStart(new Date('2026-03-16T00:00:00.000Z')).toISOString()).toBe('2026-03-16T00:00:00.000Z'); // Monday
    expect(weekStart(new Date('2026-01-01T10:00:00.000Z')).toISOString()).toBe('2025-12-29T00:00:00.000Z'); // across a year
  });

  it('the fee', () => {
    expect(FEE_PERCENT).toBe(10);
    expect(netOf(1000)).toBe(900);
    expect(netOf(1234)).toBe(1111);
    expect(netOf(5)).toBe(4); // 0.5 rounds up
  });

  it('completedAt prefers a kept completion moment; wasDisputed sees current and past disputes', () => {
    const o = order(BOOK.A);
    expect(completedAt(o)).toBe(BOOK.A.updatedAt);
    expect(completedAt({ ...o, completedAt: '2026-03-10T00:00:00.000Z' } as OrderRecord)).toBe('2026-03-10T00:00:00.000Z');
    expect(completedAt(order(BOOK.B))).toBeNull();
    expect(wasDisputed(order(BOOK.H))).toBe(true);
    expect(wasDisputed(order(BOOK.C))).toBe(true);
    expect(wasDisputed({ ...order(BOOK.A), disputedAt: '2026-03-10T00:00:00.000Z' } as OrderRecord)).toBe(true);
    expect(wasDisputed(order(BOOK.A))).toBe(false);
  });

  it('withMoments takes completion and dispute moments from the outbox, without changing the records', () => {
    const a = order(BOOK.A);
    const h = order(BOOK.H);
    const ev = (kind: 'order.completed' | 'order.dispute', id: string, at: string) => ({ id: newId('evt'), kind, data: { order: id, number: 1, status: 'completed' }, at });
    const out = withMoments([a, h], [
      ev('order.completed', a.id, '2026-03-01T00:00:00.000Z'),
      ev('order.dispute', a.id, '2026-03-02T00:00:00.000Z'),
      ev('order.completed', a.id, '2026-03-03T00:00:00.000Z'),
    ]);
    expect(out[0]).toMatchObject({ completedAt: '2026-03-03T00:00:00.000Z', disputedAt: '2026-03-02T00:00:00.000Z' });
    expect(out[1]).toBe(h);
    expect((a as { completedAt?: string }).completedAt).toBeUndefined();
    expect(wasDisputed(out[0]!)).toBe(true);
  });

  it('releasedAt: completed and past the guarantee', () => {
    const o = order(BOOK.A);
    expect(releasedAt(o)).toBe(BOOK.A.updatedAt);
    expect(releasedAt({ ...o, guaranteeUntil: '2026-03-20T00:00:00.000Z' })).toBe('2026-03-20T00:00:00.000Z');
    expect(releasedAt({ ...o, guaranteeUntil: '2026-03-01T00:00:00.000Z' })).toBe(BOOK.A.updatedAt);
    expect(releasedAt(order(BOOK.B))).toBeNull();
  });

  it('a completion moment kept on the order decides the payout week', () => {
    const o = { ...order(BOOK.A), updatedAt: '2026-03-11T11:00:00.000Z', completedAt: '2026-03-06T10:00:00.000Z' } as OrderRecord;
    const papers = newSellerDoc('sel_x').papers;
    papers.payoutFilledAt = '2026-01-01T00:00:00.000Z';
    const [p] = payoutsOf([o], papers, { sellerId: 'sel_x', mode: 'live', now });
    expect(p).toMatchObject({ status: 'paid', paidAt: '2026-03-09T00:00:00.000Z', createdAt: '2026-03-06T10:00:00.000Z' });
  });

  it('statsOf, clientsOf and ratingOf over plain records', () => {
    const orders = Object.values(BOOK).map((s) => order(s as Spec));
    expect(statsOf(orders, { period: 'all', mode: 'live', now }).revenueRub).toBe(5300);
    expect(statsOf(orders, { period: 'all', mode: 'test', now }).revenueRub).toBe(600);
    const clients = clientsOf(orders, { mode: 'live', pseudonym: (id) => `p-${id}` });
    expect(clients.map((c) => c.client)).toEqual(['p-b3', 'p-b1', 'p-b2', 'p-b4']);
    const byId = Object.fromEntries(orders.map((o) => [o.id, o]));
    const a = orders[0]!;
    const review = { id: 'rev_1', order: a.id, number: a.number, stars: 4, text: '', reply: null, at: a.paidAt! };
    expect(ratingOf(byId, [review, { ...review, id: 'rev_2', stars: 5 }], 'live')).toMatchObject({ score: 4.5, reviews: 2, positive: 2, negative: 0 });
    expect(ratingOf(byId, [review, { ...review, id: 'rev_2', stars: 3 }, { ...review, id: 'rev_3', stars: 3 }], 'live').score).toBe(3.33);
  });
});
