/** Cards through the API: create, read, list, update, delete, state, copy, test marking, image. */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '../../sdk/contract/index.ts';
import type { OrderRecord } from '../../server/store/records/orders.ts';
import { CREDITS_PACK_CARD, NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { type Answer, call, expectError, makeApp, newSeller, sandbox, type SellerCreated } from './helpers.ts';

const SUB = {
  service: 'spotify',
  tariff: 'individual',
  productType: 'subscription',
  deliveryMethod: 'own_account',
  priceRub: 299,
  slaMinutes: 60,
  guaranteeDays: 30,
  description: 'Spotify Premium на ваш аккаунт',
};
const CODE = { ...SUB, productType: 'code', deliveryMethod: 'code', description: 'Код активации Spotify на 1 месяц' };
const PACK = CREDITS_PACK_CARD;
/** The whole-body update of a SUB card. */
const { service: _s, tariff: _t, ...SUB_UPDATE } = SUB;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-fake-png-body')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('fake-jpeg-body')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([24, 0, 0, 0]), Buffer.from('WEBPVP8 fake-webp')]);

/** These tests make many calls with one key; the rate limit is tested elsewhere. */
const RATE = { rateLimit: NO_RATE_LIMIT };

let app: FastifyInstance;
let seller: SellerCreated;
let other: SellerCreated;

beforeAll(async () => {
  app = await makeApp(RATE);
  seller = await newSeller(app, { admission: 'complete' });
  other = await newSeller(app, { admission: 'complete' });
});
afterAll(async () => {
  await app.close();
});

async function create(key: string, body: object = SUB): Promise<number> {
  const res = await call(app, key, 'POST', '/api/v1/listings', body);
  expect(res.status, res.text).toBe(201);
  return res.body.number;
}

function expectRefusal(res: Answer, kind: string, details: Record<string, unknown> = {}): void {
  expectError(res, 409, 'rejected');
  expect(res.body.refusal).toMatchObject({ kind, ...details });
}

/** Puts a minimal order on a card straight into the seller's document. */
async function placeOrder(sellerId: string, number: number): Promise<void> {
  const doc = await app.service.store.seller(sellerId);
  const id = `ord_test${number}${Object.keys(doc.orders).length}`;
  const at = app.service.clock.now().toISOString();
  doc.orders[id] = { id, number, service: 'spotify', productType: 'subscription', status: 'awaiting_payment', isTest: false, priceRub: 1, createdAt: at, updatedAt: at } as OrderRecord;
}

describe('create', () => {
  it('answers 201 {number, isActive:false, isTest} and registers the card', async () => {
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/listings', { ...SUB, stock: 3, confirmRequired: true });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ number: expect.any(Number), isActive: false, isTest: false });
    expect(res.body.number).toBeGreaterThanOrEqual(1001);
    expect(app.service.store.shared.cardIndex[String(res.body.number)]).toBe(seller.sellerId);
    const got = await call(app, seller.apiKey, 'GET', `/api/v1/listings/${res.body.number}`);
    expect(got.body).toMatchObject({ ...SUB, declaredStock: 3, confirmRequired: true, isActive: false, autoIssue: false });
  });

  it('the first card of a fresh server is number 1001, then they count up', async () => {
    const fresh = await makeApp();
    try {
      const s = await newSeller(fresh, { admission: 'complete' });
      const a = await call(fresh, s.apiKey, 'POST', '/api/v1/listings', SUB);
      const b = await call(fresh, s.apiKey, 'POST', '/api/v1/listings', SUB);
      expect([a.body.number, b.body.number]).toEqual([1001, 1002]);
    } finally {
      await fresh.close();
    }
  });

  it('a card cannot be created switched on: isActive in the body is an unknown field', async () => {
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/listings', { ...SUB, isActive: true });
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain('isActive');
  });

  it('a missing required field → 400 naming it', async () => {
    const { priceRub: _p, ...body } = SUB;
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/listings', body);
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain('body.priceRub');
  });

  it('a replayed create answers the same number and makes one card', async () => {
    const headers = { 'idempotency-key': 'create-once-1' };
    const a = await call(app, seller.apiKey, 'POST', '/api/v1/listings', SUB, headers);
    const b = await call(app, seller.apiKey, 'POST', '/api/v1/listings', SUB, headers);
    expect(b.body).toEqual(a.body);
    expect(b.headers['idempotent-replayed']).toBe('true');
  });

  it.each([
    ['unknown service', { ...SUB, service: 'no-such-service' }, 'complaint', { field: 'service' }],
    ['tariff not of the position', { ...SUB, tariff: 'gold' }, 'complaint', { field: 'tariff', allowed: ['individual', 'duo', 'family'] }],
    [
      'product type not offered',
      { ...SUB, service: 'apple-music', productType: 'account', deliveryMethod: 'credentials', slaMinutes: 60, guaranteeDays: 14 },
      'type_not_available',
      { allowed: ['subscription', 'code'] },
    ],
    ['delivery method not allowed for the type', { ...SUB, deliveryMethod: 'code' }, 'complaint', { field: 'deliveryMethod', allowed: ['own_account', 'invite'] }],
    ['slaMinutes not a choice', { ...SUB, slaMinutes: 45 }, 'complaint', { field: 'slaMinutes', allowed: [30, 60, 180, 720] }],
    ['guaranteeDays not a choice', { ...SUB, guaranteeDays: 14 }, 'complaint', { field: 'guaranteeDays', allowed: [0, 7, 30, 90] }],
    ['credits without creditsType', { ...PACK, creditsType: undefined }, 'complaint', { field: 'creditsType', allowed: ['pack', 'rate'] }],
    ['pack without creditsAmount', { ...PACK, creditsAmount: undefined }, 'complaint', { field: 'creditsAmount' }],
    ['pack with creditsRate', { ...PACK, creditsRate: 2 }, 'complaint', { field: 'creditsRate' }],
    ['rate without creditsRate', { ...PACK, creditsType: 'rate', creditsAmount: undefined }, 'complaint', { field: 'creditsRate' }],
    ['rate with creditsAmount', { ...PACK, creditsType: 'rate', creditsRate: 0.9 }, 'complaint', { field: 'creditsAmount' }],
    [
      'a credits type the position lacks',
      { ...PACK, service: 'openai-api', tariff: 'balance', slaMinutes: 60, guaranteeDays: 0 },
      'complaint',
      { field: 'creditsType', allowed: ['rate'] },
    ],
    ['credits fields on a subscription', { ...SUB, creditsAmount: 5 }, 'complaint', { field: 'creditsAmount' }],
    ['contacts in the description', { ...SUB, description: 'пишите в телеграм t.me/best_seller_42' }, 'contacts', { field: 'description' }],
  ])('%s → 409 refusal', async (_name, body, kind, details) => {
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/listings', body);
    expectRefusal(res, kind, details);
    expect(res.text).not.toContain('best_seller_42');
  });

  it('credits cards with a pack or a rate are created', async () => {
    await create(seller.apiKey, PACK);
    await create(seller.apiKey, { ...PACK, creditsType: 'rate', creditsAmount: undefined, creditsRate: 0.95 });
  });

  describe('a self-employed seller', () => {
    let se: SellerCreated;
    beforeAll(async () => {
      se = await newSeller(app, { admission: 'complete', sellerType: 'self_employed' });
    });
    it('may sell a subscription via own_account or invite', async () => {
      await create(se.apiKey, SUB);
      await create(se.apiKey, { ...SUB, deliveryMethod: 'invite' });
    });
    it.each([
      ['an account', { ...SUB, productType: 'account', deliveryMethod: 'credentials' }],
      ['a code', CODE],
      ['credits', PACK],
    ])('may not sell %s → self_employed_forbidden', async (_n, body) => {
      expectRefusal(await call(app, se.apiKey, 'POST', '/api/v1/listings', body), 'self_employed_forbidden');
    });
  });

  describe('isTest on creation', () => {
    it('false for a live seller with complete admission', async () => {
      const res = await call(app, seller.apiKey, 'POST', '/api/v1/listings', SUB);
      expect(res.body.isTest).toBe(false);
    });
    it('true while the admission is incomplete', async () => {
      const s = await newSeller(app, { admission: 'none' });
      const res = await call(app, s.apiKey, 'POST', '/api/v1/listings', SUB);
      expect(res.body).toMatchObject({ isActive: false, isTest: true });
    });
    it('true for a test seller even with complete admission', async () => {
      const s = await newSeller(app, { admission: 'complete', mode: 'test' });
      const res = await call(app, s.apiKey, 'POST', '/api/v1/listings', SUB);
      expect(res.body).toMatchObject({ isActive: false, isTest: true });
    });
  });

  it('needs the listings scope', async () => {
    const s = await newSeller(app, { admission: 'complete', scopes: ['stock'] });
    expectError(await call(app, s.apiKey, 'POST', '/api/v1/listings', SUB), 403, 'scope');
  });
});

describe('read and list', () => {
  let s: SellerCreated;
  const made: number[] = [];
  beforeAll(async () => {
    s = await newSeller(app, { admission: 'complete' });
    made.push(await create(s.apiKey, SUB));
    made.push(await create(s.apiKey, CODE));
    made.push(await create(s.apiKey, PACK));
    await call(app, s.apiKey, 'POST', `/api/v1/listings/${made[0]}/state`, { active: true });
  });

  it('GET answers every card field, stock counts, image and timestamps', async () => {
    const res = await call(app, s.apiKey, 'GET', `/api/v1/listings/${made[2]}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      number: made[2],
      ...PACK,
      description: '',
      creditsRate: null,
      declaredStock: 0,
      confirmRequired: false,
      isActive: false,
      isTest: false,
      autoIssue: false,
      stock: { free: 0, issued: 0 },
      image: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
  });

  it('a foreign card and an absent card answer the same 404', async () => {
    const foreign = await call(app, other.apiKey, 'GET', `/api/v1/listings/${made[0]}`);
    const absent = await call(app, other.apiKey, 'GET', '/api/v1/listings/999999');
    expectError(foreign, 404, 'not_found');
    expectError(absent, 404, 'not_found');
    expect(foreign.body.refusal).toBeUndefined();
    expect(Object.keys(foreign.body)).toEqual(Object.keys(absent.body));
  });

  it('lists own cards newest first, filtered by active and service', async () => {
    const all = await call(app, s.apiKey, 'GET', '/api/v1/listings');
    expect(all.body.items.map((c: { number: number }) => c.number)).toEqual([...made].reverse());
    expect(all.body.nextCursor).toBeNull();
    const active = await call(app, s.apiKey, 'GET', '/api/v1/listings?active=true');
    expect(active.body.items.map((c: { number: number }) => c.number)).toEqual([made[0]]);
    const inactive = await call(app, s.apiKey, 'GET', '/api/v1/listings?active=false');
    expect(inactive.body.items.map((c: { number: number }) => c.number)).toEqual([made[2], made[1]]);
    const steam = await call(app, s.apiKey, 'GET', '/api/v1/listings?service=steam-wallet');
    expect(steam.body.items.map((c: { number: number }) => c.number)).toEqual([made[2]]);
    expect(steam.body.items[0].stock).toEqual({ free: 0, issued: 0 });
  });

  it('pages with a stable cursor', async () => {
    const first = await call(app, s.apiKey, 'GET', '/api/v1/listings?limit=2');
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    await create(s.apiKey, SUB); // a newer card does not shift the next page
    const second = await call(app, s.apiKey, 'GET', `/api/v1/listings?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((c: { number: number }) => c.number)).toEqual([made[0]]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('does not list other sellers’ cards', async () => {
    const res = await call(app, other.apiKey, 'GET', '/api/v1/listings?limit=200');
    for (const c of res.body.items) expect(made).not.toContain(c.number);
  });

  it('a malformed filter → 400 naming it', async () => {
    expectError(await call(app, s.apiKey, 'GET', '/api/v1/listings?active=yes'), 400, 'bad_request');
    const res = await call(app, s.apiKey, 'GET', '/api/v1/listings?limit=0');
    expect(JSON.stringify(res.body.detail)).toContain('query.limit');
  });
});

describe('update (PATCH, the whole body)', () => {
  let n: number;
  beforeAll(async () => {
    n = await create(seller.apiKey, SUB);
  });

  it('replaces the editable fields and answers {number, isActive}', async () => {
    const res = await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${n}`, { ...SUB_UPDATE, priceRub: 349, deliveryMethod: 'invite', slaMinutes: 180 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ number: n, isActive: false });
    const got = await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`);
    expect(got.body).toMatchObject({ priceRub: 349, deliveryMethod: 'invite', slaMinutes: 180, service: 'spotify', tariff: 'individual' });
    expect(got.body.updatedAt >= got.body.createdAt).toBe(true);
  });

  it('an absent description keeps the current one; an empty one clears it', async () => {
    const { description: _d, ...noDescription } = SUB_UPDATE;
    await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${n}`, noDescription);
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body.description).toBe(SUB.description);
    await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${n}`, { ...noDescription, description: '' });
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body.description).toBe('');
  });

  it.each(['priceRub', 'productType', 'deliveryMethod', 'slaMinutes', 'guaranteeDays'])('without %s → 400 naming it', async (field) => {
    const body: Record<string, unknown> = { ...SUB_UPDATE };
    delete body[field];
    const res = await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${n}`, body);
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain(`body.${field}`);
  });

  it.each(['service', 'tariff'])('%s in the body → 400 unknown field (fixed after creation)', async (field) => {
    const res = await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${n}`, { ...SUB_UPDATE, [field]: field === 'service' ? 'netflix' : 'duo' });
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain(field);
  });

  it('another product type the position offers → complaint on productType', async () => {
    const res = await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${n}`, { ...SUB_UPDATE, productType: 'code', deliveryMethod: 'code' });
    expectRefusal(res, 'complaint', { field: 'productType', allowed: ['subscription'] });
  });

  it('a product type the position lacks → type_not_available', async () => {
    const res = await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${n}`, { ...SUB_UPDATE, productType: 'credits', deliveryMethod: 'transfer' });
    expectRefusal(res, 'type_not_available', { allowed: ['subscription', 'account', 'code'] });
  });

  it.each([
    ['delivery method', { deliveryMethod: 'credentials' }, 'complaint', { field: 'deliveryMethod' }],
    ['sla', { slaMinutes: 1 }, 'complaint', { field: 'slaMinutes' }],
    ['guarantee', { guaranteeDays: 2 }, 'complaint', { field: 'guaranteeDays' }],
    ['credits fields', { creditsType: 'pack' }, 'complaint', { field: 'creditsType' }],
    ['contacts', { description: 'почта seller.best@mail.ru' }, 'contacts', { field: 'description' }],
  ])('the card rules hold: %s', async (_n, change, kind, details) => {
    const res = await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${n}`, { ...SUB_UPDATE, ...change });
    expectRefusal(res, kind, details);
    expect(res.text).not.toContain('seller.best');
  });

  it('a self-employed seller cannot keep an account card through an update', async () => {
    const s = await newSeller(app, { admission: 'complete' });
    const acct = { ...SUB, productType: 'account', deliveryMethod: 'credentials' };
    const num = await create(s.apiKey, acct);
    await sandbox(app, 'PUT', `/sellers/${s.sellerId}/admission`, { complete: true, sellerType: 'self_employed' });
    const { service: _a, tariff: _b, ...update } = acct;
    expectRefusal(await call(app, s.apiKey, 'PATCH', `/api/v1/listings/${num}`, update), 'self_employed_forbidden');
  });

  it('a foreign or absent card → 409 not_found (PATCH lists it as a refusal), identical', async () => {
    const foreign = await call(app, other.apiKey, 'PATCH', `/api/v1/listings/${n}`, SUB_UPDATE);
    const absent = await call(app, other.apiKey, 'PATCH', '/api/v1/listings/999999', SUB_UPDATE);
    expectRefusal(foreign, 'not_found');
    expectRefusal(absent, 'not_found');
    expect(Object.keys(foreign.body.refusal)).toEqual(Object.keys(absent.body.refusal));
  });

  it('never touches the orders of the card (their price is a snapshot)', async () => {
    const num = await create(seller.apiKey, SUB);
    await placeOrder(seller.sellerId, num);
    const doc = await app.service.store.seller(seller.sellerId);
    // a JSON copy: stored records are tracked proxies (server/store/shards.ts), which structuredClone refuses
    const before = JSON.parse(JSON.stringify(Object.values(doc.orders).filter((o) => o.number === num)));
    await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${num}`, { ...SUB_UPDATE, priceRub: 999 });
    expect(Object.values(doc.orders).filter((o) => o.number === num)).toEqual(before);
  });
});

describe('delete', () => {
  it('a card without orders is removed: deleted, then 404, gone from the index and its stock too', async () => {
    const n = await create(seller.apiKey, CODE);
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/stock`, { items: ['K-1', 'K-2'] });
    const res = await call(app, seller.apiKey, 'DELETE', `/api/v1/listings/${n}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ number: n, result: 'deleted' });
    expectError(await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`), 404, 'not_found');
    expectError(await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}/stock`), 404, 'not_found');
    expect(app.service.store.shared.cardIndex[String(n)]).toBeUndefined();
    const doc = await app.service.store.seller(seller.sellerId);
    expect(Object.keys(doc.stock).filter((k) => k.startsWith(`${n}.`) || k === String(n))).toEqual([]);
    expectError(await call(app, seller.apiKey, 'DELETE', `/api/v1/listings/${n}`), 404, 'not_found');
  });

  it('a card with orders is hidden: switched off, auto-delivery off, kept and still listed', async () => {
    const n = await create(seller.apiKey, CODE);
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/stock`, { items: ['H-1'] });
    const on = await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true, autoIssue: true });
    expect(on.body).toEqual({ number: n, isActive: true, autoIssue: true });
    await placeOrder(seller.sellerId, n);
    const res = await call(app, seller.apiKey, 'DELETE', `/api/v1/listings/${n}`);
    expect(res.body).toEqual({ number: n, result: 'hidden' });
    const got = await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`);
    expect(got.body).toMatchObject({ number: n, isActive: false, autoIssue: false, stock: { free: 1, issued: 0 } });
    const list = await call(app, seller.apiKey, 'GET', '/api/v1/listings?active=false&limit=200');
    expect(list.body.items.map((c: { number: number }) => c.number)).toContain(n);
    expect(app.service.store.shared.cardIndex[String(n)]).toBe(seller.sellerId);
    // Deleting again answers hidden again.
    expect((await call(app, seller.apiKey, 'DELETE', `/api/v1/listings/${n}`)).body.result).toBe('hidden');
  });

  it('a foreign card → 404, and it stays', async () => {
    const n = await create(seller.apiKey, SUB);
    expectError(await call(app, other.apiKey, 'DELETE', `/api/v1/listings/${n}`), 404, 'not_found');
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).status).toBe(200);
  });
});

describe('state', () => {
  it('switches on and off; answers {number, isActive, autoIssue}', async () => {
    const n = await create(seller.apiKey, SUB);
    expect((await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true })).body).toEqual({ number: n, isActive: true, autoIssue: false });
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body.isActive).toBe(true);
    expect((await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: false })).body).toEqual({ number: n, isActive: false, autoIssue: false });
  });

  it('auto-delivery with no free stock → stock_empty', async () => {
    const n = await create(seller.apiKey, CODE);
    expectRefusal(await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true, autoIssue: true }), 'stock_empty');
    expectRefusal(await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: false, autoIssue: true }), 'stock_empty');
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body).toMatchObject({ isActive: false, autoIssue: false });
  });

  it('auto-delivery for a card delivered by hand → complaint on autoIssue', async () => {
    const n = await create(seller.apiKey, SUB);
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/stock`, { items: ['x'] });
    expectRefusal(await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true, autoIssue: true }), 'complaint', { field: 'autoIssue' });
  });

  it('with free stock auto-delivery goes on; switching off leaves it as it is unless named', async () => {
    const n = await create(seller.apiKey, { ...SUB, productType: 'account', deliveryMethod: 'credentials' });
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/stock`, { items: ['login:pass'] });
    expect((await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true, autoIssue: true })).body).toEqual({
      number: n,
      isActive: true,
      autoIssue: true,
    });
    expect((await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: false })).body).toEqual({ number: n, isActive: false, autoIssue: true });
    expect((await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: false, autoIssue: false })).body).toEqual({
      number: n,
      isActive: false,
      autoIssue: false,
    });
  });

  it('`active` is required; a foreign card → 404', async () => {
    const n = await create(seller.apiKey, SUB);
    const res = await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { autoIssue: false });
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain('body.active');
    expectError(await call(app, other.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true }), 404, 'not_found');
  });
});

describe('copy', () => {
  it('makes a new switched-off card with the same fields, no stock and no image', async () => {
    const n = await create(seller.apiKey, { ...CODE, stock: 7, confirmRequired: true });
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/stock`, { items: ['C-1'] });
    await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: PNG, contentType: 'image/png' });
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true, autoIssue: true });
    const res = await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/copy`);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ number: expect.any(Number), isActive: false, isTest: false });
    expect(res.body.number).toBeGreaterThan(n);
    const [src, copy] = await Promise.all([n, res.body.number].map((x) => call(app, seller.apiKey, 'GET', `/api/v1/listings/${x}`)));
    const pick = ({ number: _n, isActive: _a, autoIssue: _i, stock: _s, image: _m, createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;
    expect(pick(copy!.body)).toEqual(pick(src!.body));
    expect(copy!.body).toMatchObject({ isActive: false, autoIssue: false, stock: { free: 0, issued: 0 }, image: null, declaredStock: 7 });
  });

  it('a copy follows the creation rule for isTest', async () => {
    const s = await newSeller(app, { admission: 'none' });
    const n = await create(s.apiKey, SUB);
    expect((await call(app, s.apiKey, 'POST', `/api/v1/listings/${n}/copy`)).body.isTest).toBe(true);
  });

  it('a copy is checked like a new card', async () => {
    const s = await newSeller(app, { admission: 'complete' });
    const n = await create(s.apiKey, CODE);
    await sandbox(app, 'PUT', `/sellers/${s.sellerId}/admission`, { complete: true, sellerType: 'self_employed' });
    expectRefusal(await call(app, s.apiKey, 'POST', `/api/v1/listings/${n}/copy`), 'self_employed_forbidden');
  });

  it('a foreign card → 404; a body → 400', async () => {
    const n = await create(seller.apiKey, SUB);
    expectError(await call(app, other.apiKey, 'POST', `/api/v1/listings/${n}/copy`), 404, 'not_found');
    expectError(await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/copy`, { priceRub: 1 }), 400, 'bad_request');
  });
});

describe('test marking', () => {
  it('isTest true is always allowed; false needs complete admission', async () => {
    const n = await create(seller.apiKey, SUB);
    expect((await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/test`, { isTest: true })).body).toEqual({ number: n, isTest: true });
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body.isTest).toBe(true);
    expect((await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/test`, { isTest: false })).body).toEqual({ number: n, isTest: false });
  });

  it('turning a card real with incomplete admission → test_to_real_needs_papers', async () => {
    const s = await newSeller(app, { admission: 'none' });
    const n = await create(s.apiKey, SUB);
    expect((await call(app, s.apiKey, 'POST', `/api/v1/listings/${n}/test`, { isTest: true })).status).toBe(200);
    expectRefusal(await call(app, s.apiKey, 'POST', `/api/v1/listings/${n}/test`, { isTest: false }), 'test_to_real_needs_papers');
    await sandbox(app, 'PUT', `/sellers/${s.sellerId}/admission`, { complete: true });
    expect((await call(app, s.apiKey, 'POST', `/api/v1/listings/${n}/test`, { isTest: false })).body.isTest).toBe(false);
  });

  it('a test seller never goes real, even with complete papers', async () => {
    const s = await newSeller(app, { admission: 'complete', mode: 'test' });
    const n = await create(s.apiKey, SUB);
    expectRefusal(await call(app, s.apiKey, 'POST', `/api/v1/listings/${n}/test`, { isTest: false }), 'test_to_real_needs_papers');
  });

  it('a foreign or absent card → 409 not_found; a missing isTest → 400', async () => {
    const n = await create(seller.apiKey, SUB);
    expectRefusal(await call(app, other.apiKey, 'POST', `/api/v1/listings/${n}/test`, { isTest: true }), 'not_found');
    expectRefusal(await call(app, other.apiKey, 'POST', '/api/v1/listings/999999/test', { isTest: true }), 'not_found');
    expectError(await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/test`, {}), 400, 'bad_request');
  });
});

describe('image', () => {
  const sha8 = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 8);

  it.each([
    ['image/png', PNG, 'png'],
    ['image/jpeg', JPEG, 'jpg'],
    ['image/webp', WEBP, 'webp'],
  ] as const)('uploads %s → {number, image:{url}} with a content-addressed url', async (type, bytes, ext) => {
    const n = await create(seller.apiKey, SUB);
    const res = await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: bytes, contentType: type });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ number: n, image: { url: `/images/${n}-${sha8(bytes)}.${ext}` } });
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body.image).toEqual(res.body.image);
  });

  it('an unsupported type → image_type', async () => {
    const n = await create(seller.apiKey, SUB);
    const res = await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: Buffer.from('GIF89a....'), contentType: 'image/gif' });
    expectRefusal(res, 'image_type', { allowed: ['image/png', 'image/jpeg', 'image/webp'] });
  });

  it('bytes that are not the declared type → image_type', async () => {
    const n = await create(seller.apiKey, SUB);
    expectRefusal(await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: JPEG, contentType: 'image/png' }), 'image_type');
    expectRefusal(await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: Buffer.from('<svg/>'), contentType: 'image/webp' }), 'image_type');
    expectRefusal(await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: Buffer.alloc(0), contentType: 'image/png' }), 'image_type');
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body.image).toBeNull();
  });

  it('more than 2 MiB → image_size; exactly 2 MiB passes', async () => {
    const n = await create(seller.apiKey, SUB);
    const big = Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES - PNG.length + 1)]);
    expectRefusal(await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: big, contentType: 'image/png' }), 'image_size');
    const fits = big.subarray(0, IMAGE_MAX_BYTES);
    expect((await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: fits, contentType: 'image/png' })).status).toBe(200);
  });

  it('remove answers {number, image:null}; a foreign card → 404 for both', async () => {
    const n = await create(seller.apiKey, SUB);
    await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: PNG, contentType: 'image/png' });
    expectError(await call(app, other.apiKey, 'DELETE', `/api/v1/listings/${n}/image`), 404, 'not_found');
    expectError(await call(app, other.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: PNG, contentType: 'image/png' }), 404, 'not_found');
    expect((await call(app, seller.apiKey, 'DELETE', `/api/v1/listings/${n}/image`)).body).toEqual({ number: n, image: null });
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body.image).toBeNull();
    expect((await call(app, seller.apiKey, 'DELETE', `/api/v1/listings/${n}/image`)).body).toEqual({ number: n, image: null });
  });

  it('the url is absolute when the server knows its public URL', async () => {
    const n = await create(seller.apiKey, SUB);
    app.service.options.publicUrl = 'https://seller.example.com';
    try {
      const res = await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: PNG, contentType: 'image/png' });
      expect(res.body.image.url).toBe(`https://seller.example.com/images/${n}-${sha8(PNG)}.png`);
    } finally {
      app.service.options.publicUrl = null;
    }
  });

  it('with a data directory the bytes go to images/<number>.<ext>, replaced and removed with the card', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cards-img-'));
    const disk = await makeApp({ ...RATE, dataDir: dir, memory: false });
    try {
      const s = await newSeller(disk, { admission: 'complete' });
      const n = (await call(disk, s.apiKey, 'POST', '/api/v1/listings', SUB)).body.number;
      await call(disk, s.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: PNG, contentType: 'image/png' });
      expect(await readFile(path.join(dir, 'images', `${n}.png`))).toEqual(PNG);
      await call(disk, s.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: JPEG, contentType: 'image/jpeg' });
      expect(await readFile(path.join(dir, 'images', `${n}.jpg`))).toEqual(JPEG);
      await expect(stat(path.join(dir, 'images', `${n}.png`))).rejects.toThrow();
      await call(disk, s.apiKey, 'DELETE', `/api/v1/listings/${n}`);
      await expect(stat(path.join(dir, 'images', `${n}.jpg`))).rejects.toThrow();
    } finally {
      await disk.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the public image route serves the current image and 404s a stale or unknown name', async () => {
    const web = await makeApp(RATE);
    try {
      const s = await newSeller(web, { admission: 'complete' });
      const n = (await call(web, s.apiKey, 'POST', '/api/v1/listings', SUB)).body.number;
      const old = (await call(web, s.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: PNG, contentType: 'image/png' })).body.image.url;
      const url = (await call(web, s.apiKey, 'PUT', `/api/v1/listings/${n}/image`, { raw: WEBP, contentType: 'image/webp' })).body.image.url;
      // the card is off: its image is served with the owner's key only (test/server/images.test.ts)
      const got = await web.inject({ method: 'GET', url, headers: { authorization: `Bearer ${s.apiKey}` } });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/webp');
      expect(got.rawPayload).toEqual(WEBP);
      expect((await web.inject({ method: 'GET', url: old, headers: { authorization: `Bearer ${s.apiKey}` } })).statusCode).toBe(404);
      expect((await web.inject({ method: 'GET', url: '/images/999999-00000000.png' })).statusCode).toBe(404);
      expect((await web.inject({ method: 'GET', url: '/images/..%2Fstore.key' })).statusCode).toBe(404);
    } finally {
      await web.close();
    }
  });
});
