/**
 * The sharded store layout (server/store/seller-files.ts, server/store/shards.ts): a seller's cards,
 * stock and orders live in shard documents beside a core document; a change marks only its record's
 * shard, through Proxy traps on the records and everything inside them.
 *
 * - After random changes through the API, the sandbox and the order clock, a restart over the same
 *   data directory reproduces exactly the same state of every seller.
 * - A nested change (an order's message, a vault, a stock unit's status) is written.
 * - Only the shard of the changed record is rewritten.
 * - An older seller file holding the sections inline loads, and moves them into shards on its next
 *   write.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { sweepOrders } from '../../server/domain/order-clock.ts';
import type { SellerDoc } from '../../server/store/docs.ts';
import type { OrderRecord } from '../../server/store/records/orders.ts';
import { rawOf } from '../../server/store/shards.ts';
import { Store, type StoreOptions } from '../../server/store/store.ts';
import { webhooksIdle } from '../../server/webhooks/outbox.ts';
import { ADMIN, call, newSeller, sandbox, type Answer, type SellerCreated } from './helpers.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';

/** Tiny shards, so that a few records spread over many files. */
const LIMITS: StoreOptions['shardLimits'] = { cards: { records: 3 }, stock: { records: 2 }, orders: { records: 4 } };

const ACCOUNT_CARD = { ...CODE_CARD, productType: 'account', deliveryMethod: 'credentials' };

let dir: string;
const open: FastifyInstance[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seller-shards-test-'));
});
afterEach(async () => {
  for (const app of open.splice(0)) await app.close();
  await rm(dir, { recursive: true, force: true });
});

async function fileApp(): Promise<FastifyInstance> {
  const store = await Store.open({ dataDir: dir, shardLimits: LIMITS });
  const app = await buildApp({ store, adminToken: ADMIN });
  open.push(app);
  return app;
}

async function close(app: FastifyInstance): Promise<void> {
  open.splice(open.indexOf(app), 1);
  await app.close();
}

/** A seller's whole state as plain data (the sharded sections included). */
async function stateOf(app: FastifyInstance, sellerId: string): Promise<unknown> {
  return JSON.parse(JSON.stringify(await app.service.store.seller(sellerId)));
}

/** Every shard file of a seller, by name. */
async function shardFiles(sellerId: string): Promise<string[]> {
  try {
    return (await readdir(path.join(dir, 'sellers', sellerId))).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
}

const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
const coreFile = (sellerId: string) => path.join(dir, 'sellers', `${sellerId}.json`);

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

function noServerError(res: Answer, what: string): Answer {
  expect(res.status, `${what}: ${res.text}`).toBeLessThan(500);
  return res;
}

/** Steps of an order's life: who takes it, how, where (after `/orders/{id}`), with what body. */
const ORDER_STEPS: Record<string, ['api' | 'sandbox', 'POST', string, unknown]> = {
  pay: ['sandbox', 'POST', '/pay', undefined],
  cancel: ['sandbox', 'POST', '/cancel', undefined],
  confirm: ['api', 'POST', '/confirm', undefined],
  decline: ['api', 'POST', '/decline', { reason: 'out of stock' }],
  deliver: ['api', 'POST', '/deliver', { note: 'enjoy' }],
  'seller message': ['api', 'POST', '/messages', { text: 'hello' }],
  'buyer message': ['sandbox', 'POST', '/message', { text: 'a question' }],
  'seller vault': ['api', 'POST', '/handover', { secret: 'login:password' }],
  'buyer vault': ['sandbox', 'POST', '/vault', { secret: 'my login' }],
  accept: ['sandbox', 'POST', '/accept', undefined],
  dispute: ['sandbox', 'POST', '/dispute', { text: 'it does not work' }],
  'dispute reply': ['api', 'POST', '/dispute/reply', { text: 'let me check' }],
  resolve: ['sandbox', 'POST', '/resolve', { winner: 'seller' }],
  'resolve for buyer': ['sandbox', 'POST', '/resolve', { winner: 'buyer' }],
  review: ['sandbox', 'POST', '/review', { stars: 4, text: 'fine' }],
};
const ORDER_STEPS_BY_STATUS: Record<string, string[]> = {
  awaiting_payment: ['pay', 'pay', 'cancel', 'buyer message'],
  awaiting_confirmation: ['confirm', 'confirm', 'decline', 'seller message', 'buyer message'],
  awaiting_delivery: ['deliver', 'deliver', 'decline', 'seller vault', 'buyer vault', 'seller message', 'buyer message', 'cancel'],
  delivered: ['accept', 'dispute', 'seller message', 'buyer message', 'buyer vault', 'seller vault'],
  disputed: ['resolve', 'resolve for buyer', 'dispute reply', 'buyer message', 'seller message'],
  completed: ['dispute', 'review', 'seller message'],
};

/** Random changes through the API, the sandbox and the clock; answers how many were accepted. */
async function randomChanges(app: FastifyInstance, sellers: SellerCreated[], random: () => number, steps: number): Promise<number> {
  const pick = <T>(list: readonly T[]): T | undefined => (list.length === 0 ? undefined : list[Math.floor(random() * list.length)]);
  /** Mostly one of the newest (still open), sometimes any. */
  const recent = <T>(list: readonly T[]): T | undefined => (random() < 0.7 ? pick(list.slice(-6)) : pick(list));
  const cards = new Map<string, { number: number; body: typeof CODE_CARD & { confirmRequired?: boolean } }[]>(sellers.map((s) => [s.sellerId, []]));
  const orders = new Map<string, { id: string; account: boolean }[]>(sellers.map((s) => [s.sellerId, []]));
  let accepted = 0;
  for (let step = 0; step < steps; step++) {
    const s = pick(sellers)!;
    const api = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => call(app, s.apiKey, method, `/api/v1${url}`, body);
    const sb = (method: 'POST', url: string, body?: unknown) => sandbox(app, method, url, body);
    const card = recent(cards.get(s.sellerId)!);
    const order = recent(orders.get(s.sellerId)!);
    const r = random();
    let res: Answer;
    let what: string;
    if (r < 0.12 || card === undefined) {
      what = 'create card';
      const body = { ...(random() < 0.6 ? CODE_CARD : ACCOUNT_CARD), confirmRequired: random() < 0.3 };
      res = await api('POST', '/listings', body);
      if (res.status === 201) {
        const number: number = res.body.number;
        cards.get(s.sellerId)!.push({ number, body });
        await api('POST', `/listings/${number}/stock`, { items: [`code-${number}-a`, `code-${number}-b`] });
        await api('POST', `/listings/${number}/state`, { active: true, autoIssue: random() < 0.5 });
      }
    } else if (r < 0.2) {
      what = 'update card';
      const { service: _s, tariff: _t, confirmRequired: _c, ...update } = card.body;
      res = await api('PATCH', `/listings/${card.number}`, { ...update, priceRub: 100 + Math.floor(random() * 900) });
    } else if (r < 0.25) {
      what = 'card state';
      res = await api('POST', `/listings/${card.number}/state`, { active: random() < 0.8, autoIssue: random() < 0.5 });
    } else if (r < 0.32) {
      what = 'refill stock';
      res = await api('POST', `/listings/${card.number}/stock`, { items: Array.from({ length: 1 + Math.floor(random() * 3) }, () => `unit-${Math.floor(random() * 1e9)}`) });
    } else if (r < 0.35) {
      what = 'delete card';
      res = await api('DELETE', `/listings/${card.number}`);
      if (res.status === 200 && res.body.result === 'deleted') cards.set(s.sellerId, cards.get(s.sellerId)!.filter((c) => c !== card));
    } else if (r < 0.5) {
      what = 'create order';
      res = await sb('POST', '/orders', { number: card.number });
      if (res.status === 201) {
        orders.get(s.sellerId)!.push({ id: res.body.id, account: card.body.productType === 'account' });
        if (random() < 0.85) noServerError(await sb('POST', `/orders/${res.body.id}/pay`), 'pay');
      }
    } else if (order === undefined) {
      what = 'clock';
      res = await sb('POST', '/clock/advance', { seconds: 60 });
    } else if (r < 0.93) {
      // a step of the order's life that its status allows (sometimes any step: a refusal)
      const status: string = (await call(app, s.apiKey, 'GET', `/api/v1/orders/${order.id}`)).body.status;
      const steps = random() < 0.1 ? Object.keys(ORDER_STEPS) : ORDER_STEPS_BY_STATUS[status] ?? ['seller message'];
      what = pick(steps)!;
      const [side, method, suffix, body] = ORDER_STEPS[what]!;
      const payload = what === 'deliver' && order.account ? { ...(body as object), nextChargeDay: '2031-01-01' } : body;
      const url = `/orders/${order.id}${suffix}`;
      res = side === 'api' ? await api(method, url, payload) : await sb('POST', url, payload);
      if (what === 'buyer vault' && res.status === 200 && random() < 0.6) noServerError(await api('POST', `/orders/${order.id}/handover/reveal`), 'reveal');
    } else {
      what = 'clock';
      res = await sb('POST', '/clock/advance', { seconds: pick([60, 600, 3600, 3600, 25 * 3600, 8 * 24 * 3600])! });
    }
    noServerError(res, what);
    if (res.status < 300) accepted++;
  }
  return accepted;
}

describe('restart over the same data directory', () => {
  it('reproduces every seller exactly after random changes through the API, the sandbox and the clock', async () => {
    let app = await fileApp();
    const sellers = [await newSeller(app, { admission: 'complete' }), await newSeller(app, { admission: 'complete' })];
    const random = rng(20261121);
    for (let round = 0; round < 3; round++) {
      const accepted = await randomChanges(app, sellers, random, 120);
      expect(accepted).toBeGreaterThan(40);
      // let the clock's sweep and the webhook outbox settle, so nothing changes while we look
      await sweepOrders(app.service, app.service.clock.now());
      await webhooksIdle(app.service);
      const before = await Promise.all(sellers.map((s) => stateOf(app, s.sellerId)));
      const shared = { seq: app.service.store.shared.seq, cards: app.service.store.shared.cardIndex, orders: app.service.store.shared.orderIndex };
      const expected = JSON.parse(JSON.stringify(shared));
      await close(app);

      app = await fileApp();
      const after = await Promise.all(sellers.map((s) => stateOf(app, s.sellerId)));
      expect(after).toEqual(before);
      expect({ seq: app.service.store.shared.seq, cards: app.service.store.shared.cardIndex, orders: app.service.store.shared.orderIndex }).toEqual(expected);
    }
    // the records really are spread over shards, and the core files hold none of them
    for (const s of sellers) {
      const files = await shardFiles(s.sellerId);
      expect(files.filter((f) => f.startsWith('cards-')).length).toBeGreaterThan(1);
      expect(files.filter((f) => f.startsWith('orders-')).length).toBeGreaterThan(1);
      expect(files.some((f) => f.startsWith('stock-'))).toBe(true);
      const core = await readJson(coreFile(s.sellerId));
      expect(core).not.toHaveProperty('cards');
      expect(core).not.toHaveProperty('orders');
      expect(core).not.toHaveProperty('stock');
    }
  });
});

describe('dirty tracking', () => {
  /** A store over `dir` with one seller holding `cards` cards and `orders` orders, written. */
  async function seeded(cards: number, orders: number): Promise<{ store: Store; doc: SellerDoc; order: (i: number) => string }> {
    const store = await Store.open({ dataDir: dir, shardLimits: LIMITS });
    const doc = await store.seller('sel_track');
    for (let i = 0; i < cards; i++) {
      const number = 1001 + i;
      doc.cards[String(number)] = { number, priceRub: 100 + i, isActive: true, image: null } as never;
      doc.stock[`${number}.0`] = { number, units: `itm_${i} x h${i} a - -` };
    }
    const order = (i: number) => `ord_${String(i).padStart(4, '0')}`;
    for (let i = 0; i < orders; i++) {
      doc.orders[order(i)] = { id: order(i), status: 'awaiting_delivery', messages: [], vaults: { seller: null, buyer: null }, buyer: { id: 'buy_1', test: false } } as unknown as OrderRecord;
    }
    await store.writeSeller('sel_track');
    return { store, doc, order };
  }

  const reopen = async () => (await Store.open({ dataDir: dir, shardLimits: LIMITS })).seller('sel_track');

  it('a nested change is written: an order message, a vault, a stock unit, a deleted field', async () => {
    const { store, doc, order } = await seeded(5, 9);
    doc.orders[order(2)]!.messages.push({ id: 'msg_1', from: 'buyer', text: 'hi', at: 't' });
    doc.orders[order(7)]!.vaults.seller = { sealed: 'v1.sealed', opened: false, at: 't' };
    doc.stock['1004.0']!.units = `itm_3 x h3 a t ${order(7)}`;
    delete (doc.cards['1002'] as Partial<{ image: unknown }>).image;
    doc.orders[order(8)]!.messages.splice(0, 0, { id: 'msg_2', from: 'seller', text: 'first', at: 't0' });
    doc.orders[order(8)]!.messages[0]!.text = 'edited';
    await store.writeSeller('sel_track');

    const again = await reopen();
    expect(again.orders[order(2)]!.messages).toEqual([{ id: 'msg_1', from: 'buyer', text: 'hi', at: 't' }]);
    expect(again.orders[order(7)]!.vaults.seller).toEqual({ sealed: 'v1.sealed', opened: false, at: 't' });
    expect(again.stock['1004.0']!.units).toBe(`itm_3 x h3 a t ${order(7)}`);
    expect(again.cards['1002']).not.toHaveProperty('image');
    expect(again.orders[order(8)]!.messages[0]!.text).toBe('edited');
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('only the shard of the changed record is rewritten', async () => {
    const { store, doc, order } = await seeded(7, 10);
    const files = await shardFiles('sel_track');
    expect(files).toEqual(['cards-0.json', 'cards-1.json', 'cards-2.json', 'orders-0.json', 'orders-1.json', 'orders-2.json', 'stock-0.json', 'stock-1.json', 'stock-2.json', 'stock-3.json']);
    const base = path.join(dir, 'sellers', 'sel_track');
    const before = new Map(await Promise.all(files.map(async (f) => [f, (await stat(path.join(base, f), { bigint: true })).mtimeNs] as const)));
    await new Promise((r) => setTimeout(r, 5));
    doc.orders[order(5)]!.status = 'delivered'; // orders 4..7: orders-1
    doc.cards['1007']!.priceRub = 999; // cards 1007..: cards-2
    await store.writeSeller('sel_track');
    for (const f of files) {
      const changed = (await stat(path.join(base, f), { bigint: true })).mtimeNs !== before.get(f);
      expect(changed, f).toBe(f === 'orders-1.json' || f === 'cards-2.json');
    }
  });

  it('a change made while a write runs is in the next write; concurrent writes all resolve with everything on disk', async () => {
    const { store, doc, order } = await seeded(3, 6);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      doc.orders[order(i % 6)]!.messages.push({ id: `msg_${i}`, from: 'buyer', text: `m${i}`, at: 't' });
      doc.cards[String(1001 + (i % 3))]!.priceRub = 1000 + i;
      doc.idempotency[`k${i}`] = { fingerprint: 'f', status: 200, body: null, createdAt: i };
      writes.push(store.writeSeller('sel_track'));
      if (i % 4 === 0) await Promise.resolve();
    }
    await Promise.all(writes);
    expect(JSON.parse(JSON.stringify(await reopen()))).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('records are stored unwrapped; a record moved or re-added keeps being tracked', async () => {
    const { store, doc, order } = await seeded(4, 5);
    // an object built from tracked parts is stored without proxies
    doc.orders['ord_copy'] = { ...doc.orders[order(1)]!, id: 'ord_copy', vaults: doc.orders[order(2)]!.vaults };
    expect(rawOf(doc.orders).ord_copy!.vaults).toBe(rawOf(doc.orders[order(2)]!.vaults));
    expect(() => structuredClone(rawOf(doc.orders).ord_copy)).not.toThrow();
    // a card deleted then put back goes back to its shard
    const card = doc.cards['1001']!;
    const home = store.sellerDb('sel_track').then((f) => f.sections.cards.homeOf('1001'));
    delete doc.cards['1001'];
    doc.cards['1001'] = card;
    card.priceRub = 4242;
    expect((await store.sellerDb('sel_track')).sections.cards.homeOf('1001')).toBe(await home);
    await store.writeSeller('sel_track');
    const again = await reopen();
    expect(again.cards['1001']!.priceRub).toBe(4242);
    expect(again.orders['ord_copy']!.id).toBe('ord_copy');
  });

  it('a whole section assigned at once (a document reset) replaces its records on disk', async () => {
    const { store, doc } = await seeded(4, 5);
    Object.assign(doc, { cards: {}, stock: {}, orders: {} });
    doc.cards['2001'] = { number: 2001, priceRub: 1 } as never;
    await store.writeSeller('sel_track');
    const again = await reopen();
    expect(Object.keys(again.cards)).toEqual(['2001']);
    expect(Object.keys(again.orders)).toEqual([]);
    expect(Object.keys(again.stock)).toEqual([]);
  });
});

describe('older seller files', () => {
  it('a seller file holding cards, stock and orders inline loads, and moves them into shards on its next write', async () => {
    let app = await fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    const numbers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(app, s.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
      numbers.push(res.body.number);
      await call(app, s.apiKey, 'POST', `/api/v1/listings/${res.body.number}/stock`, { items: [`u-${i}`] });
      await call(app, s.apiKey, 'POST', `/api/v1/listings/${res.body.number}/state`, { active: true, autoIssue: true });
    }
    const id = (await sandbox(app, 'POST', '/orders', { number: numbers[0] })).body.id;
    await sandbox(app, 'POST', `/orders/${id}/pay`);
    const state = await stateOf(app, s.sellerId);
    await close(app);

    // the layout before shards: one document with everything inline
    await writeFile(coreFile(s.sellerId), JSON.stringify(state));
    await rm(path.join(dir, 'sellers', s.sellerId), { recursive: true });

    app = await fileApp();
    expect(await stateOf(app, s.sellerId)).toEqual(state);
    expect(await shardFiles(s.sellerId)).toEqual([]);
    const delivered = await call(app, s.apiKey, 'GET', `/api/v1/orders/${id}`);
    expect(delivered.body.status).toBe('delivered');
    // the next write moves the sections out
    expect((await call(app, s.apiKey, 'PATCH', `/api/v1/listings/${numbers[1]}`, { ...CODE_CARD, priceRub: 777, service: undefined, tariff: undefined })).status).toBe(200);
    const migrated = await stateOf(app, s.sellerId);
    expect(await shardFiles(s.sellerId)).toEqual(['cards-0.json', 'cards-1.json', 'idempotency-0.json', 'keys-0.json', 'orders-0.json', 'stock-0.json', 'stock-1.json', 'stock-2.json']);
    const core = await readJson(coreFile(s.sellerId));
    expect(core).not.toHaveProperty('keys');
    expect(core).not.toHaveProperty('cards');
    expect(core).not.toHaveProperty('stock');
    expect(core).not.toHaveProperty('orders');
    await close(app);

    app = await fileApp();
    expect(await stateOf(app, s.sellerId)).toEqual(migrated);
    expect((await call(app, s.apiKey, 'GET', `/api/v1/listings/${numbers[1]}`)).body.priceRub).toBe(777);
  });

  it('a seller file holding its keys, questions, reviews, complaints and catalogue requests as lists loads, and moves them into shards on its next write', async () => {
    let app = await fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    const extra = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'second', scopes: ['catalog'] });
    const number = (await call(app, s.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body.number;
    await call(app, s.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active: true });
    const question = (await sandbox(app, 'POST', '/questions', { number, text: 'Does it renew?' })).body.id;
    const order = (await sandbox(app, 'POST', '/orders', { number })).body.id;
    await sandbox(app, 'POST', `/orders/${order}/pay`);
    await call(app, s.apiKey, 'POST', `/api/v1/orders/${order}/deliver`, {});
    await sandbox(app, 'POST', `/orders/${order}/accept`);
    await sandbox(app, 'POST', `/orders/${order}/review`, { stars: 5, text: 'Fine' });
    await call(app, s.apiKey, 'POST', '/api/v1/complaints', { order, reason: 'other', text: 'Rude.' });
    await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Tidal' });
    const state = await stateOf(app, s.sellerId);
    await close(app);

    // the layout before these lists were sections: arrays inline in the core document
    const LISTS = ['keys', 'questions', 'reviews', 'complaints', 'catalogRequests'];
    const base = path.join(dir, 'sellers', s.sellerId);
    const core = await readJson(coreFile(s.sellerId));
    for (const list of LISTS) {
      core[list] = [];
      for (const f of (await readdir(base)).filter((n) => n.startsWith(`${list}-`))) {
        core[list].push(...Object.values((await readJson(path.join(base, f))).records));
        await rm(path.join(base, f));
      }
      expect(core[list].length, list).toBeGreaterThanOrEqual(1);
    }
    await writeFile(coreFile(s.sellerId), JSON.stringify(core));

    app = await fileApp();
    expect(await stateOf(app, s.sellerId)).toEqual(state);
    expect((await call(app, extra.body.key, 'GET', '/api/v1/me')).status).toBe(200);
    expect((await call(app, s.apiKey, 'GET', '/api/v1/questions')).body.items.map((q: { id: string }) => q.id)).toEqual([question]);
    expect((await call(app, s.apiKey, 'GET', '/api/v1/reviews')).body.items).toHaveLength(1);
    expect((await call(app, s.apiKey, 'GET', '/api/v1/complaints')).body.items).toHaveLength(1);
    expect((await call(app, s.apiKey, 'GET', '/api/v1/catalog/requests')).body.items).toHaveLength(1);
    // the next write moves them out of the core
    expect((await call(app, s.apiKey, 'POST', `/api/v1/questions/${question}/answer`, { text: 'Yes, monthly.' })).status).toBe(200);
    const moved = await readJson(coreFile(s.sellerId));
    for (const list of LISTS) {
      expect(moved, list).not.toHaveProperty(list);
      expect((await shardFiles(s.sellerId)).some((f) => f.startsWith(`${list}-`)), list).toBe(true);
    }
    await close(app);
    app = await fileApp();
    expect((await call(app, s.apiKey, 'GET', '/api/v1/questions')).body.items[0]).toMatchObject({ id: question, answer: 'Yes, monthly.' });
    expect((await call(app, extra.body.key, 'GET', '/api/v1/me')).status).toBe(200);
  });

  it('after a crash between the shards and the core of a migrating write, the shards win', async () => {
    const store = await Store.open({ dataDir: dir, shardLimits: LIMITS });
    const doc = await store.seller('sel_mig');
    doc.cards['1001'] = { number: 1001, priceRub: 200 } as never;
    doc.cards['1002'] = { number: 1002, priceRub: 300 } as never;
    await store.writeSeller('sel_mig');
    // the old core file, still inline, with an older price for 1001 and a card not yet moved
    const core = await readJson(coreFile('sel_mig'));
    await writeFile(coreFile('sel_mig'), JSON.stringify({ ...core, cards: { 1001: { number: 1001, priceRub: 100 }, 1003: { number: 1003, priceRub: 50 } }, stock: {}, orders: {} }));
    const again = await (await Store.open({ dataDir: dir, shardLimits: LIMITS })).seller('sel_mig');
    expect(JSON.parse(JSON.stringify(again.cards))).toEqual({
      1001: { number: 1001, priceRub: 200 },
      1002: { number: 1002, priceRub: 300 },
      1003: { number: 1003, priceRub: 50 },
    });
  });

  it('a corrupt shard file stops the store, naming the file, untouched', async () => {
    const store = await Store.open({ dataDir: dir, shardLimits: LIMITS });
    (await store.seller('sel_bad')).cards['1001'] = { number: 1001 } as never;
    await store.writeSeller('sel_bad');
    const file = path.join(dir, 'sellers', 'sel_bad', 'cards-0.json');
    await writeFile(file, '{"records":');
    const err = await buildApp({ dataDir: dir, adminToken: ADMIN }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.name).toBe('StoreError');
    expect(err?.message).toContain(file);
    expect(await readFile(file, 'utf8')).toBe('{"records":');
  });
});
