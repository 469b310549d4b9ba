/**
 * The market aggregates behind usual price and demand (server/domain/market.ts) follow every kind
 * of change: after each step of a randomized sequence of changes (cards created, updated, switched,
 * copied, marked test or real, deleted or hidden; orders created, paid, cancelled, delivered,
 * refunded...; the clock moved past the 30-day window; sellers blocked and unblocked; records
 * changed straight in the documents) they equal a recomputation from scratch over every active
 * seller's cards and orders (server/domain/usual-price.ts `livePrices`, `recentOrders`); the HTTP
 * answers equal rows built from that recomputation; and a restart derives the same aggregates
 * from the stored documents.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProductType } from '../../sdk/contract/index.ts';
import { buildApp } from '../../server/app.ts';
import { demandRows, livePrices, recentOrders, type MarketView } from '../../server/domain/usual-price.ts';
import type { CardRecord } from '../../server/store/records/listings.ts';
import type { OrderRecord } from '../../server/store/records/orders.ts';
import { Store } from '../../server/store/store.ts';
import { CODE_CARD, NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { ADMIN, call, makeApp, newSeller, sandbox, setStatus, type Answer, type SellerCreated } from './helpers.ts';

const RATE = { rateLimit: NO_RATE_LIMIT };
const ACCOUNT_CARD = { ...CODE_CARD, productType: 'account', deliveryMethod: 'credentials' };
const NETFLIX = { ...ACCOUNT_CARD, service: 'netflix', tariff: 'standard' };

const open: FastifyInstance[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const app of open.splice(0)) await app.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every card and order of every active seller, read from the documents now. */
async function everything(app: FastifyInstance): Promise<{ cards: CardRecord[]; orders: OrderRecord[] }> {
  const { store } = app.service;
  const cards: CardRecord[] = [];
  const orders: OrderRecord[] = [];
  for (const id of await store.sellerIds()) {
    if (store.shared.sellers[id]?.status !== 'active') continue;
    const doc = await store.seller(id);
    cards.push(...Object.values(doc.cards));
    orders.push(...Object.values(doc.orders));
  }
  return { cards, orders };
}

/** The aggregates as the market keeps them and as a recomputation from scratch finds them, per view. */
async function compare(app: FastifyInstance, what: string): Promise<void> {
  const market = app.service.market;
  const now = app.service.clock.now();
  const all = await everything(app);
  for (const view of ['real', 'test'] as MarketView[]) {
    const book = market.book(view);
    const kept = { prices: Object.fromEntries(book.prices), orders: Object.fromEntries(book.ordersIn(now)) };
    const scratch = { prices: Object.fromEntries(livePrices(all.cards, view)), orders: Object.fromEntries(recentOrders(all.orders, view, now)) };
    expect(kept, `${what} (${view})`).toEqual(scratch);
  }
}

/** `GET /catalog/demand` (top 1000) as the server answers it and as rows built from scratch. */
async function compareDemand(app: FastifyInstance, key: string, view: MarketView, what: string): Promise<void> {
  const res = await call(app, key, 'GET', '/api/v1/catalog/demand?top=100');
  expect(res.status, res.text).toBe(200);
  const now = app.service.clock.now();
  const all = await everything(app);
  const orders = recentOrders(all.orders, view, now);
  const offered = app.service.store.shared.catalog.flatMap((p) => p.productTypes.map((productType) => ({ service: p.slug, productType })));
  const ordered = [...orders.keys()].map((k) => {
    const [service, productType] = k.split('\u0000') as [string, ProductType];
    return { service, productType };
  });
  expect(res.body.items, what).toEqual(demandRows([...offered, ...ordered], orders, livePrices(all.cards, view), 100));
}

interface Seller extends SellerCreated {
  cards: { number: number; productType: string }[];
  orders: string[];
}

const ORDER_STEPS: Record<string, ['api' | 'sandbox', string, unknown]> = {
  pay: ['sandbox', '/pay', undefined],
  cancel: ['sandbox', '/cancel', undefined],
  confirm: ['api', '/confirm', undefined],
  decline: ['api', '/decline', { reason: 'out of stock' }],
  deliver: ['api', '/deliver', { note: 'enjoy', nextChargeDay: '2031-01-01' }],
  accept: ['sandbox', '/accept', undefined],
  dispute: ['sandbox', '/dispute', { text: 'it does not work' }],
  'resolve for buyer': ['sandbox', '/resolve', { winner: 'buyer' }],
  'resolve for seller': ['sandbox', '/resolve', { winner: 'seller' }],
  'buyer message': ['sandbox', '/message', { text: 'a question' }],
};

/** One random change; answers its name. */
async function randomStep(app: FastifyInstance, sellers: Seller[], random: () => number): Promise<string> {
  const pick = <T>(list: readonly T[]): T | undefined => (list.length === 0 ? undefined : list[Math.floor(random() * list.length)]);
  const s = pick(sellers)!;
  const api = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => call(app, s.apiKey, method, `/api/v1${url}`, body);
  const card = pick(s.cards);
  const order = pick(s.orders);
  const r = random();
  let res: Answer | undefined;
  let what: string;
  if (r < 0.14 || card === undefined) {
    what = 'create card';
    const body = { ...pick([CODE_CARD, ACCOUNT_CARD, NETFLIX])!, priceRub: 100 + Math.floor(random() * 50) * 10 };
    res = await api('POST', '/listings', body);
    if (res.status === 201) {
      const number: number = res.body.number;
      s.cards.push({ number, productType: body.productType });
      await api('POST', `/listings/${number}/stock`, { items: [`code-${number}-a`, `code-${number}-b`, `code-${number}-c`] });
      if (random() < 0.8) await api('POST', `/listings/${number}/state`, { active: true, autoIssue: false });
    }
  } else if (r < 0.22) {
    what = 'update price';
    res = await api('PATCH', `/listings/${card.number}`, { priceRub: 100 + Math.floor(random() * 50) * 10 });
  } else if (r < 0.3) {
    what = 'switch';
    res = await api('POST', `/listings/${card.number}/state`, { active: random() < 0.6 });
  } else if (r < 0.34) {
    what = 'mark test or real';
    res = await api('POST', `/listings/${card.number}/test`, { isTest: random() < 0.5 });
  } else if (r < 0.37) {
    what = 'copy card';
    res = await api('POST', `/listings/${card.number}/copy`);
    if (res.status === 201) s.cards.push({ number: res.body.number, productType: card.productType });
  } else if (r < 0.41) {
    what = 'delete card';
    res = await api('DELETE', `/listings/${card.number}`);
    if (res.status === 200 && res.body.result === 'deleted') s.cards = s.cards.filter((c) => c !== card);
  } else if (r < 0.6) {
    what = 'create order';
    const isTest = (await call(app, s.apiKey, 'GET', `/api/v1/listings/${card.number}`)).body?.isTest === true;
    res = await sandbox(app, 'POST', '/orders', { number: card.number, testBuyer: isTest });
    if (res.status === 201) {
      s.orders.push(res.body.id);
      if (random() < 0.7) await sandbox(app, 'POST', `/orders/${res.body.id}/pay`);
    }
  } else if (r < 0.85 && order !== undefined) {
    what = pick(Object.keys(ORDER_STEPS))!;
    const [side, suffix, body] = ORDER_STEPS[what]!;
    const url = `/orders/${order}${suffix}`;
    res = side === 'api' ? await api('POST', url, body) : await sandbox(app, 'POST', url, body);
  } else if (r < 0.9) {
    what = 'clock';
    res = await sandbox(app, 'POST', '/clock/advance', { seconds: pick([60, 3600, 5 * 24 * 3600, 12 * 24 * 3600, 31 * 24 * 3600])! });
  } else if (r < 0.95) {
    what = 'seller status';
    const status = pick(['active', 'active', 'blocked', 'not_seller'] as const)!;
    await setStatus(app, s.sellerId, status);
  } else {
    // Straight in the documents, as seeding and tests do: a price, a status, a record replaced or removed.
    what = 'document change';
    const doc = await app.service.store.seller(s.sellerId);
    const c = doc.cards[String(card.number)];
    const o = order === undefined ? undefined : doc.orders[order];
    const k = random();
    if (c && k < 0.3) c.priceRub = 100 + Math.floor(random() * 50) * 10;
    else if (o && k < 0.5) o.status = pick(['completed', 'cancelled', 'refunded', 'awaiting_payment'] as const)!;
    else if (o && k < 0.7) doc.orders[o.id] = { ...o, createdAt: new Date(Date.parse(o.createdAt) - 20 * 24 * 3600 * 1000).toISOString() };
    else if (c && k < 0.85) doc.cards[String(c.number)] = { ...c, isActive: !c.isActive, hidden: false };
    else if (c) doc.cards[String(c.number)]!.hidden = !c.hidden;
  }
  if (res) expect(res.status, `${what}: ${res.text}`).toBeLessThan(500);
  return what;
}

describe('market aggregates follow every change', () => {
  it('equal a recomputation from scratch after every step of a random sequence', async () => {
    const app = await makeApp(RATE);
    open.push(app);
    const sellers: Seller[] = [];
    for (const body of [{ admission: 'complete' }, { admission: 'complete' }, { admission: 'complete' }, { mode: 'test' }, {}] as const) {
      sellers.push({ ...(await newSeller(app, body)), cards: [], orders: [] });
    }
    const random = rng(20260313);
    const seen = new Set<string>();
    for (let step = 0; step < 400; step++) {
      const what = await randomStep(app, sellers, random);
      // half the steps are compared after a turn of the event loop (settled eagerly), half by the read
      if (step % 2 === 1) await new Promise((r) => setImmediate(r));
      seen.add(what);
      await compare(app, `step ${step}: ${what}`);
      if (step % 50 === 49) {
        for (const s of sellers) await setStatus(app, s.sellerId, 'active');
        await compareDemand(app, sellers[0]!.apiKey, 'real', `demand after step ${step}`);
        await compareDemand(app, sellers[3]!.apiKey, 'test', `test demand after step ${step}`);
      }
    }
    // every kind of change happened at least once
    for (const kind of ['create card', 'update price', 'switch', 'mark test or real', 'copy card', 'delete card', 'create order', 'clock', 'seller status', 'document change', 'pay', 'cancel', 'deliver', 'resolve for buyer']) {
      expect(seen, kind).toContain(kind);
    }
    const market = app.service.market;
    expect(market.book('real').prices.size).toBeGreaterThan(0);
    expect(market.book('test').prices.size).toBeGreaterThan(0);
  });

  it('a whole section replaced, a seller reset: the aggregates follow', async () => {
    const app = await makeApp(RATE);
    open.push(app);
    const s = await newSeller(app, { admission: 'complete' });
    for (let i = 0; i < 5; i++) {
      const res = await call(app, s.apiKey, 'POST', '/api/v1/listings', { ...CODE_CARD, priceRub: 100 * (i + 1) });
      await call(app, s.apiKey, 'POST', `/api/v1/listings/${res.body.number}/stock`, { items: [`u-${i}`] });
      await call(app, s.apiKey, 'POST', `/api/v1/listings/${res.body.number}/state`, { active: true });
    }
    await compare(app, 'five cards');
    expect(app.service.market.book('real').prices.get('spotify\u0000code')).toEqual([100, 200, 300, 400, 500]);
    const doc = await app.service.store.seller(s.sellerId);
    const kept = Object.fromEntries(Object.entries(doc.cards).slice(0, 2).map(([k, v]) => [k, { ...v }]));
    doc.cards = kept;
    await compare(app, 'section replaced');
    expect(app.service.market.book('real').prices.get('spotify\u0000code')).toEqual([100, 200]);
  });

  it('a bulk change straight in the documents (thousands of records): derived again whole, equal to scratch', async () => {
    const app = await makeApp(RATE);
    open.push(app);
    const s = await newSeller(app, { admission: 'complete' });
    const other = await newSeller(app, { admission: 'complete' });
    const number = (await call(app, s.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body.number;
    await call(app, s.apiKey, 'POST', `/api/v1/listings/${number}/stock`, { items: ['u-1'] });
    await call(app, s.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active: true });
    const o = await call(app, other.apiKey, 'POST', '/api/v1/listings', { ...CODE_CARD, priceRub: 999 });
    await call(app, other.apiKey, 'POST', `/api/v1/listings/${o.body.number}/stock`, { items: ['u-1'] });
    await call(app, other.apiKey, 'POST', `/api/v1/listings/${o.body.number}/state`, { active: true });
    await compare(app, 'two cards');
    const doc = await app.service.store.seller(s.sellerId);
    const model = JSON.parse(JSON.stringify(doc.cards[String(number)]));
    for (let i = 0; i < 3000; i++) doc.cards[String(900_000 + i)] = { ...model, number: 900_000 + i, priceRub: 100 + ((i * 7919) % 1000), isActive: i % 3 !== 0 };
    await compare(app, 'bulk cards');
    for (let i = 0; i < 3000; i += 2) delete doc.cards[String(900_000 + i)];
    await compare(app, 'bulk delete');
    expect(app.service.market.book('real').prices.get('spotify\u0000code')).toContain(999);
  });

  it('a restart derives the same aggregates from the stored documents', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'seller-market-test-'));
    dirs.push(dir);
    const start = async () => {
      const app = await buildApp({ store: await Store.open({ dataDir: dir }), adminToken: ADMIN, ...RATE });
      open.push(app);
      return app;
    };
    let app = await start();
    const sellers: Seller[] = [];
    for (const body of [{ admission: 'complete' }, { admission: 'complete' }, { mode: 'test' }] as const) {
      sellers.push({ ...(await newSeller(app, body)), cards: [], orders: [] });
    }
    const random = rng(7);
    for (let step = 0; step < 120; step++) {
      const what = await randomStep(app, sellers, random);
      // changes made straight in the documents are not written by a call: write them
      if (what === 'document change') for (const s of sellers) await app.service.store.writeSeller(s.sellerId);
    }
    const before = app.service.market;
    const now = app.service.clock.now();
    const snapshot = (view: MarketView) => ({ prices: Object.fromEntries(before.book(view).prices), orders: Object.fromEntries(before.book(view).ordersIn(now)) });
    const expected = { real: snapshot('real'), test: snapshot('test') };
    await app.close();
    open.splice(open.indexOf(app), 1);
    app = await start();
    const after = app.service.market;
    expect(after).not.toBe(before);
    for (const view of ['real', 'test'] as const) {
      expect({ prices: Object.fromEntries(after.book(view).prices), orders: Object.fromEntries(after.book(view).ordersIn(now)) }).toEqual(expected[view]);
    }
    await compare(app, 'after restart');
  });
});
