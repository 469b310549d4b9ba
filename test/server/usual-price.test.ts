/** Usual price and demand: the rules (domain/usual-price.ts) and the two catalogue endpoints. */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../sdk/contract/index.ts';
import { demandRows, recentOrders, usualPrice } from '../../server/domain/usual-price.ts';
import type { OrderRecord } from '../../server/store/records/orders.ts';
import { call, expectError, makeApp, newSeller, sandbox, setStatus, type SellerCreated } from './helpers.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';

const SUB = {
  service: 'netflix',
  tariff: 'standard',
  productType: 'account',
  deliveryMethod: 'credentials',
  priceRub: 500,
  slaMinutes: 30,
  guaranteeDays: 30,
};
const RATE = { rateLimit: NO_RATE_LIMIT };
const DAY = 24 * 60 * 60 * 1000;

describe('usualPrice (median)', () => {
  it.each([
    [[], null],
    [[100], null],
    [[100, 200], null],
    [[300, 100, 200], 200],
    [[100, 200, 300, 400, 1000], 300],
    [[100, 200, 300, 400], 250],
    [[100, 101, 200, 300], 151],
    [[1, 2, 3, 4], 3],
    [[99, 100, 100, 101], 100],
  ])('%j → %s', (prices, expected) => {
    expect(usualPrice(prices)).toBe(expected);
  });
});

describe('recentOrders and demandRows', () => {
  const now = new Date('2026-06-30T12:00:00.000Z');
  const order = (service: string, status: OrderStatus, ageDays: number, isTest = false) =>
    ({ service, productType: 'account', status, isTest, createdAt: new Date(now.getTime() - ageDays * DAY).toISOString() }) as OrderRecord;

  it('counts orders of the last 30 days that became business, per market', () => {
    const orders = [
      order('a', 'awaiting_delivery', 1),
      order('a', 'completed', 29.9),
      order('a', 'refunded', 2),
      order('a', 'awaiting_payment', 1),
      order('a', 'cancelled', 1),
      order('a', 'completed', 30.1),
      order('a', 'completed', -1),
      order('b', 'delivered', 3, true),
    ];
    expect(Object.fromEntries(recentOrders(orders, 'real', now))).toEqual({ 'a\u0000account': 3 });
    expect(Object.fromEntries(recentOrders(orders, 'test', now))).toEqual({ 'b\u0000account': 1 });
  });

  it('sorts by orders, then live cards, then service and type; cuts at top', () => {
    const pairs = ['c', 'a', 'b', 'd'].map((service) => ({ service, productType: 'account' as const }));
    const orders = new Map([
      ['b\u0000account', 5],
      ['d\u0000account', 2],
    ]);
    const prices = new Map([['c\u0000account', [10, 20, 30]]]);
    const rows = demandRows(pairs, orders, prices, 3);
    expect(rows).toEqual([
      { service: 'b', productType: 'account', orders30d: 5, liveCards: 0, usualPriceRub: null },
      { service: 'd', productType: 'account', orders30d: 2, liveCards: 0, usualPriceRub: null },
      { service: 'c', productType: 'account', orders30d: 0, liveCards: 3, usualPriceRub: 20 },
    ]);
  });
});

describe('GET /catalog/usual-price', () => {
  let app: FastifyInstance;
  let sellers: SellerCreated[];

  beforeEach(async () => {
    app = await makeApp(RATE);
    sellers = [];
    for (let i = 0; i < 4; i++) sellers.push(await newSeller(app, { admission: 'complete' }));
  });
  afterEach(async () => {
    await app.close();
  });

  /** A switched-on card at `price`. */
  async function live(s: SellerCreated, price: number, body: object = SUB): Promise<number> {
    const res = await call(app, s.apiKey, 'POST', '/api/v1/listings', { ...body, priceRub: price });
    expect(res.status, res.text).toBe(201);
    const on = await call(app, s.apiKey, 'POST', `/api/v1/listings/${res.body.number}/state`, { active: true });
    expect(on.status, on.text).toBe(200);
    return res.body.number;
  }

  const price = async (key: string, service = 'netflix', productType = 'account') =>
    (await call(app, key, 'GET', `/api/v1/catalog/usual-price?service=${service}&productType=${productType}`)).body;

  it('null under three live cards; the count is answered', async () => {
    const key = sellers[0]!.apiKey;
    expect(await price(key)).toEqual({ service: 'netflix', productType: 'account', usualPriceRub: null, liveCards: 0 });
    await live(sellers[0]!, 400);
    await live(sellers[1]!, 500);
    expect(await price(key)).toEqual({ service: 'netflix', productType: 'account', usualPriceRub: null, liveCards: 2 });
    await live(sellers[2]!, 900);
    expect(await price(key)).toEqual({ service: 'netflix', productType: 'account', usualPriceRub: 500, liveCards: 3 });
  });

  it('the median of an even count is the rounded mean of the middle two, across sellers', async () => {
    await live(sellers[0]!, 100);
    await live(sellers[1]!, 301);
    await live(sellers[2]!, 200);
    await live(sellers[3]!, 5000);
    expect(await price(sellers[0]!.apiKey)).toMatchObject({ usualPriceRub: 251, liveCards: 4 });
  });

  it('counts only the asked service and product type', async () => {
    for (const s of sellers.slice(0, 3)) await live(s, 500);
    await live(sellers[3]!, 10, { ...SUB, tariff: 'basic' }); // another tariff of the same type counts
    await live(sellers[3]!, 10, { ...SUB, productType: 'subscription', deliveryMethod: 'own_account' });
    expect(await price(sellers[0]!.apiKey)).toMatchObject({ usualPriceRub: 500, liveCards: 4 });
    expect(await price(sellers[0]!.apiKey, 'netflix', 'subscription')).toMatchObject({ usualPriceRub: null, liveCards: 1 });
    expect(await price(sellers[0]!.apiKey, 'spotify', 'account')).toMatchObject({ usualPriceRub: null, liveCards: 0 });
  });

  it('switched-off, hidden and deleted cards are not live; switching back on counts again', async () => {
    const [a, b, c] = [await live(sellers[0]!, 100), await live(sellers[1]!, 200), await live(sellers[2]!, 300)];
    const d = await live(sellers[3]!, 400);
    expect(await price(sellers[0]!.apiKey)).toMatchObject({ liveCards: 4, usualPriceRub: 250 });
    await call(app, sellers[0]!.apiKey, 'POST', `/api/v1/listings/${a}/state`, { active: false });
    expect(await price(sellers[0]!.apiKey)).toMatchObject({ liveCards: 3, usualPriceRub: 300 });
    await call(app, sellers[3]!.apiKey, 'DELETE', `/api/v1/listings/${d}`);
    expect(await price(sellers[0]!.apiKey)).toMatchObject({ liveCards: 2, usualPriceRub: null });
    // A card with orders is hidden by delete: not live either.
    const doc = await app.service.store.seller(sellers[1]!.sellerId);
    doc.orders.ord_hidden1 = { id: 'ord_hidden1', number: b } as OrderRecord;
    expect((await call(app, sellers[1]!.apiKey, 'DELETE', `/api/v1/listings/${b}`)).body.result).toBe('hidden');
    expect(await price(sellers[0]!.apiKey)).toMatchObject({ liveCards: 1 });
    await call(app, sellers[0]!.apiKey, 'POST', `/api/v1/listings/${a}/state`, { active: true });
    await call(app, sellers[1]!.apiKey, 'POST', `/api/v1/listings/${b}/state`, { active: true });
    expect(await price(sellers[0]!.apiKey)).toMatchObject({ liveCards: 3, usualPriceRub: 200 });
    expect(c).toBeGreaterThan(0);
  });

  it('a price change of a live card is reflected at once', async () => {
    const a = await live(sellers[0]!, 100);
    await live(sellers[1]!, 200);
    await live(sellers[2]!, 300);
    expect(await price(sellers[3]!.apiKey)).toMatchObject({ usualPriceRub: 200 });
    const { service: _s, tariff: _t, ...update } = SUB;
    await call(app, sellers[0]!.apiKey, 'PATCH', `/api/v1/listings/${a}`, { ...update, priceRub: 1000 });
    expect(await price(sellers[3]!.apiKey)).toMatchObject({ usualPriceRub: 300 });
  });

  it('test cards are excluded for a real seller and the only ones counted for a test key', async () => {
    for (const s of sellers.slice(0, 3)) await live(s, 100);
    const t1 = await newSeller(app, { admission: 'complete', mode: 'test' });
    const t2 = await newSeller(app, { admission: 'none', mode: 'test' });
    await live(t1, 900);
    await live(t2, 700);
    // A real seller's card marked test joins the test market.
    const marked = await live(sellers[3]!, 800);
    await call(app, sellers[3]!.apiKey, 'POST', `/api/v1/listings/${marked}/test`, { isTest: true });
    // A live seller without papers makes test cards too.
    const newcomer = await newSeller(app, { admission: 'none' });
    await live(newcomer, 1);
    expect(await price(sellers[0]!.apiKey)).toMatchObject({ usualPriceRub: 100, liveCards: 3 });
    expect(await price(newcomer.apiKey)).toMatchObject({ usualPriceRub: 100, liveCards: 3 });
    // Test market: 900, 700, 800 and the newcomer's 1.
    expect(await price(t1.apiKey)).toMatchObject({ usualPriceRub: 750, liveCards: 4 });
  });

  it('a blocked seller’s cards are not live', async () => {
    for (const s of sellers.slice(0, 3)) await live(s, 100);
    await live(sellers[3]!, 200);
    await setStatus(app, sellers[3]!.sellerId, 'blocked');
    expect(await price(sellers[0]!.apiKey)).toMatchObject({ liveCards: 3, usualPriceRub: 100 });
  });

  it.each([
    ['?productType=account', 'query.service'],
    ['?service=netflix', 'query.productType'],
    ['?service=netflix&productType=vip', 'query.productType'],
    ['?service=Not%20A%20Slug&productType=account', 'query.service'],
    ['?service=netflix&productType=account&top=3', 'top'],
  ])('a missing or malformed filter %s → 400 naming %s', async (q, field) => {
    const res = await call(app, sellers[0]!.apiKey, 'GET', `/api/v1/catalog/usual-price${q}`);
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain(field);
  });

  it('needs the catalog scope', async () => {
    const s = await newSeller(app, { scopes: ['listings'] });
    expectError(await call(app, s.apiKey, 'GET', '/api/v1/catalog/usual-price?service=netflix&productType=account'), 403, 'scope');
  });
});

describe('GET /catalog/demand', () => {
  let app: FastifyInstance;
  let a: SellerCreated;
  let b: SellerCreated;

  beforeEach(async () => {
    app = await makeApp(RATE);
    a = await newSeller(app, { admission: 'complete' });
    b = await newSeller(app, { admission: 'complete' });
  });
  afterEach(async () => {
    await app.close();
  });

  let seq = 0;
  async function orders(s: SellerCreated, service: string, productType: string, count: number, opts: { status?: OrderStatus; ageDays?: number; isTest?: boolean } = {}) {
    const doc = await app.service.store.seller(s.sellerId);
    const at = new Date(app.service.clock.nowMs() - (opts.ageDays ?? 1) * DAY).toISOString();
    for (let i = 0; i < count; i++) {
      const id = `ord_demand${++seq}`;
      doc.orders[id] = { id, number: 1, service, productType, status: opts.status ?? 'completed', isTest: opts.isTest ?? false, createdAt: at, updatedAt: at } as OrderRecord;
    }
  }

  const demand = async (key: string, q = '') => {
    const res = await call(app, key, 'GET', `/api/v1/catalog/demand${q}`);
    expect(res.status, res.text).toBe(200);
    return res.body.items as { service: string; productType: string; orders30d: number; liveCards: number; usualPriceRub: number | null }[];
  };

  it('top 10 by default, most ordered first, across sellers, with live cards and usual price', async () => {
    await orders(a, 'netflix', 'account', 3);
    await orders(b, 'netflix', 'account', 2);
    await orders(b, 'spotify', 'code', 4);
    await orders(a, 'steam-wallet', 'credits', 1);
    for (const [s, p] of [[a, 300], [b, 400], [b, 500]] as const) {
      const n = (await call(app, s.apiKey, 'POST', '/api/v1/listings', { ...SUB, priceRub: p })).body.number;
      await call(app, s.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true });
    }
    const items = await demand(a.apiKey);
    expect(items).toHaveLength(10);
    expect(items.slice(0, 3)).toEqual([
      { service: 'netflix', productType: 'account', orders30d: 5, liveCards: 3, usualPriceRub: 400 },
      { service: 'spotify', productType: 'code', orders30d: 4, liveCards: 0, usualPriceRub: null },
      { service: 'steam-wallet', productType: 'credits', orders30d: 1, liveCards: 0, usualPriceRub: null },
    ]);
    expect(items.slice(3).every((i) => i.orders30d === 0)).toBe(true);
  });

  it('top, service and productType filters', async () => {
    await orders(a, 'netflix', 'account', 3);
    await orders(a, 'netflix', 'subscription', 2);
    await orders(a, 'spotify', 'code', 4);
    expect((await demand(a.apiKey, '?top=1')).map((i) => i.service)).toEqual(['spotify']);
    // Every product type the position offers is answered, the unordered ones last.
    expect((await demand(a.apiKey, '?service=netflix')).map((i) => [i.productType, i.orders30d])).toEqual([
      ['account', 3],
      ['subscription', 2],
      ['code', 0],
    ]);
    expect(await demand(a.apiKey, '?service=netflix&productType=account')).toEqual([
      { service: 'netflix', productType: 'account', orders30d: 3, liveCards: 0, usualPriceRub: null },
    ]);
    expect((await demand(a.apiKey, '?productType=code&top=100')).every((i) => i.productType === 'code')).toBe(true);
  });

  it('counts only the last 30 days on the server clock, and not unpaid or cancelled orders', async () => {
    await orders(a, 'netflix', 'account', 2, { ageDays: 29 });
    await orders(a, 'netflix', 'account', 1, { ageDays: 31 });
    await orders(a, 'netflix', 'account', 1, { status: 'awaiting_payment' });
    await orders(a, 'netflix', 'account', 1, { status: 'cancelled' });
    await orders(a, 'netflix', 'account', 1, { status: 'refunded' });
    expect((await demand(a.apiKey, '?service=netflix&productType=account'))[0]!.orders30d).toBe(3);
    await sandbox(app, 'POST', '/clock/advance', { seconds: 2 * 24 * 3600 });
    expect((await demand(a.apiKey, '?service=netflix&productType=account'))[0]!.orders30d).toBe(1);
  });

  it('test orders count only for a test key, real ones only for a real key', async () => {
    const t = await newSeller(app, { mode: 'test', admission: 'complete' });
    await orders(a, 'netflix', 'account', 2);
    await orders(t, 'netflix', 'account', 5, { isTest: true });
    expect((await demand(a.apiKey, '?service=netflix&productType=account'))[0]!.orders30d).toBe(2);
    expect((await demand(t.apiKey, '?service=netflix&productType=account'))[0]!.orders30d).toBe(5);
  });

  it.each([
    ['?top=0', 'query.top'],
    ['?top=101', 'query.top'],
    ['?productType=vip', 'query.productType'],
    ['?service=BAD!', 'query.service'],
  ])('%s → 400 naming %s', async (q, field) => {
    const res = await call(app, a.apiKey, 'GET', `/api/v1/catalog/demand${q}`);
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain(field);
  });
});
