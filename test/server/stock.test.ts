/** Auto-delivery stock: counts, refill, duplicates, limits, encryption at rest, issuing units. */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { afterIssue, issueUnit, stockAad, stockCounts } from '../../server/domain/stock.ts';
import { KEY_FILE } from '../../server/store/crypto.ts';
import { allUnits } from '../../server/store/stock-pieces.ts';
import { call, expectError, makeApp, newSeller, type SellerCreated } from './helpers.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';

const CODE = {
  service: 'spotify',
  tariff: 'individual',
  productType: 'code',
  deliveryMethod: 'code',
  priceRub: 249,
  slaMinutes: 30,
  guaranteeDays: 0,
};
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

async function card(a: FastifyInstance = app, key = seller.apiKey): Promise<number> {
  const res = await call(a, key, 'POST', '/api/v1/listings', CODE);
  expect(res.status, res.text).toBe(201);
  return res.body.number;
}

const refill = (n: number, items: unknown, key = seller.apiKey, a = app) => call(a, key, 'POST', `/api/v1/listings/${n}/stock`, { items });

describe('refill and read', () => {
  it('answers 201 {number, added, duplicates, free}; the read answers {number, free, issued}', async () => {
    const n = await card();
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}/stock`)).body).toEqual({ number: n, free: 0, issued: 0 });
    const res = await refill(n, ['AAAA-1111', 'BBBB-2222']);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ number: n, added: 2, duplicates: 0, free: 2 });
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}/stock`)).body).toEqual({ number: n, free: 2, issued: 0 });
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body.stock).toEqual({ free: 2, issued: 0 });
  });

  it('duplicates within a batch and across batches are skipped and counted', async () => {
    const n = await card();
    expect((await refill(n, ['D-1', 'D-2', 'D-1', 'D-1'])).body).toEqual({ number: n, added: 2, duplicates: 2, free: 2 });
    expect((await refill(n, ['D-2', 'D-3', 'D-3'])).body).toEqual({ number: n, added: 1, duplicates: 2, free: 3 });
  });

  it('an issued unit is still a duplicate', async () => {
    const n = await card();
    await refill(n, ['ONLY-ONE']);
    const doc = await app.service.store.seller(seller.sellerId);
    expect(issueUnit(app.service, doc, n, 'ord_x1', app.service.clock.now())?.secret).toBe('ONLY-ONE');
    expect((await refill(n, ['ONLY-ONE'])).body).toEqual({ number: n, added: 0, duplicates: 1, free: 0 });
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}/stock`)).body).toEqual({ number: n, free: 0, issued: 1 });
  });

  it('the same secret in two cards is not a duplicate', async () => {
    const [a, b] = [await card(), await card()];
    expect((await refill(a, ['SHARED'])).body.added).toBe(1);
    expect((await refill(b, ['SHARED'])).body.added).toBe(1);
  });

  it('accepts 1000 items of up to 4096 characters', async () => {
    const n = await card();
    const items = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, '0')}-`.padEnd(i === 0 ? 4096 : 20, 'x'));
    const res = await refill(n, items);
    expect(res.body).toEqual({ number: n, added: 1000, duplicates: 0, free: 1000 });
  });

  it.each([
    ['1001 items', Array.from({ length: 1001 }, (_, i) => `item-${i}`), 'body.items'],
    ['no items', [], 'body.items'],
    ['a 4097-character item', ['ok', 'S'.repeat(4097)], 'body.items.1'],
    ['an empty item', ['ok', ''], 'body.items.1'],
    ['a non-string item', ['ok', 42], 'body.items.1'],
    ['items not an array', 'SECRET-AS-STRING', 'body.items'],
  ])('%s → 400 naming the field, nothing added, the item not echoed', async (_n, items, field) => {
    const n = await card();
    const res = await refill(n, items);
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain(field);
    expect(res.text).not.toContain('SSSSSSSS');
    expect(res.text).not.toContain('SECRET-AS-STRING');
    expect(res.text).not.toContain('item-1000');
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}/stock`)).body.free).toBe(0);
  });

  it('an unknown body field → 400', async () => {
    const n = await card();
    expectError(await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/stock`, { items: ['a'], free: 3 }), 400, 'bad_request');
  });

  it('no answer ever carries an item', async () => {
    const n = await card();
    const secret = 'NEVER-SHOW-ME-7f3a';
    const answers = [
      await refill(n, [secret]),
      await refill(n, [secret]),
      await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}/stock`),
      await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`),
      await call(app, seller.apiKey, 'GET', '/api/v1/listings?limit=200'),
    ];
    for (const a of answers) expect(a.text).not.toContain(secret);
  });

  it('a foreign or absent card → 404 for both read and refill; the foreign stock is untouched', async () => {
    const n = await card();
    await refill(n, ['MINE']);
    expectError(await call(app, other.apiKey, 'GET', `/api/v1/listings/${n}/stock`), 404, 'not_found');
    expectError(await refill(n, ['THEIRS'], other.apiKey), 404, 'not_found');
    expectError(await call(app, other.apiKey, 'GET', '/api/v1/listings/999999/stock'), 404, 'not_found');
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}/stock`)).body.free).toBe(1);
  });

  it('needs the stock scope (listings is not enough)', async () => {
    const s = await newSeller(app, { admission: 'complete', scopes: ['listings'] });
    const n = await card(app, s.apiKey);
    expectError(await call(app, s.apiKey, 'GET', `/api/v1/listings/${n}/stock`), 403, 'scope');
    expectError(await refill(n, ['x'], s.apiKey), 403, 'scope');
  });
});

describe('issueUnit and afterIssue', () => {
  it('issues each free unit once, oldest first, then null', async () => {
    const n = await card();
    await refill(n, ['U-1', 'U-2']);
    const doc = await app.service.store.seller(seller.sellerId);
    const now = app.service.clock.now();
    const first = issueUnit(app.service, doc, n, 'ord_a', now);
    const second = issueUnit(app.service, doc, n, 'ord_b', now);
    expect([first?.secret, second?.secret]).toEqual(['U-1', 'U-2']);
    expect(issueUnit(app.service, doc, n, 'ord_c', now)).toBeNull();
    expect(allUnits(doc, n).map((i) => [i.status, i.order])).toEqual([
      ['issued', 'ord_a'],
      ['issued', 'ord_b'],
    ]);
    expect(stockCounts(doc, n)).toEqual({ free: 0, issued: 2 });
  });

  it('null for a card without stock or an unknown card', async () => {
    const doc = await app.service.store.seller(seller.sellerId);
    expect(issueUnit(app.service, doc, await card(), 'ord_z', new Date())).toBeNull();
    expect(issueUnit(app.service, doc, 424242, 'ord_z', new Date())).toBeNull();
  });

  it('afterIssue does nothing while units are left; after the last one it records stock.out and switches auto-delivery off', async () => {
    const n = await card();
    await refill(n, ['L-1', 'L-2']);
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true, autoIssue: true });
    const doc = await app.service.store.seller(seller.sellerId);
    const c = doc.cards[String(n)]!;
    const now = app.service.clock.now();
    const outs = () => doc.events.filter((e) => e.kind === 'stock.out' && e.data.number === n);

    issueUnit(app.service, doc, n, 'ord_1', now);
    expect(afterIssue(app.service, doc, c, now)).toBe(false);
    expect(c.autoIssue).toBe(true);
    expect(outs()).toHaveLength(0);

    issueUnit(app.service, doc, n, 'ord_2', now);
    expect(afterIssue(app.service, doc, c, now)).toBe(true);
    expect(c.autoIssue).toBe(false);
    expect(c.isActive).toBe(true);
    expect(outs()).toHaveLength(1);
    expect(outs()[0]!.data).toEqual({ number: n });
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body).toMatchObject({ autoIssue: false, stock: { free: 0, issued: 2 } });
  });

  it('a sealed unit is bound to its card and item (AAD): moved elsewhere it does not open', async () => {
    const n = await card();
    await refill(n, ['BOUND-1', 'BOUND-2']);
    const doc = await app.service.store.seller(seller.sellerId);
    const [a, b] = allUnits(doc, n);
    expect(app.service.sealer.open(a!.sealed, stockAad(n, a!.id))).toBe('BOUND-1');
    expect(() => app.service.sealer.open(a!.sealed, stockAad(n, b!.id))).toThrow();
    expect(() => app.service.sealer.open(a!.sealed, stockAad(n + 1, a!.id))).toThrow();
  });
});

describe('encryption at rest', () => {
  const dirs: string[] = [];
  const savedKey = process.env.SERVICE_STORE_KEY;
  afterEach(async () => {
    if (savedKey === undefined) delete process.env.SERVICE_STORE_KEY;
    else process.env.SERVICE_STORE_KEY = savedKey;
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  async function tempDir(): Promise<string> {
    const d = await mkdtemp(path.join(tmpdir(), 'stock-enc-'));
    dirs.push(d);
    return d;
  }

  async function everyFile(dir: string): Promise<Buffer[]> {
    const out: Buffer[] = [];
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) out.push(...(await everyFile(p)));
      else out.push(await readFile(p));
    }
    return out;
  }

  /** The plaintext in any usual encoding. */
  const encodings = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    return [s, b.toString('base64'), b.toString('base64url'), b.toString('hex'), JSON.stringify(s).slice(1, -1)];
  };

  it('no stock item appears in any file of the data directory; the key file is 0600', async () => {
    delete process.env.SERVICE_STORE_KEY;
    const dir = await tempDir();
    const disk = await makeApp({ ...RATE, dataDir: dir, memory: false });
    const secrets = ['PLAINTEXT-CANARY-e41d9c', 'login: canary@example.org password: Tr0ub4dor&3', 'ключ-канарейка-ЖЁЛТЫЙ-77'];
    try {
      const s = await newSeller(disk, { admission: 'complete' });
      const n = await card(disk, s.apiKey);
      expect((await refill(n, secrets, s.apiKey, disk)).body.added).toBe(3);
      expect((await refill(n, secrets, s.apiKey, disk)).body.duplicates).toBe(3);
      const files = await everyFile(dir);
      expect(files.length).toBeGreaterThan(2);
      const all = Buffer.concat(files).toString('utf8');
      expect(all).toContain('"sealed":"v1.');
      for (const secret of secrets) for (const form of encodings(secret)) expect(all.includes(form), `found ${form}`).toBe(false);
      const key = await stat(path.join(dir, KEY_FILE));
      expect(key.mode & 0o777).toBe(0o600);
    } finally {
      await disk.close();
    }
  });

  it('units survive a restart over the same data and key file', async () => {
    delete process.env.SERVICE_STORE_KEY;
    const dir = await tempDir();
    const first = await makeApp({ ...RATE, dataDir: dir, memory: false });
    const s = await newSeller(first, { admission: 'complete' });
    const n = await card(first, s.apiKey);
    await refill(n, ['RESTART-UNIT'], s.apiKey, first);
    await first.close();
    const second = await makeApp({ ...RATE, dataDir: dir, memory: false });
    try {
      const doc = await second.service.store.seller(s.sellerId);
      expect(issueUnit(second.service, doc, n, 'ord_r', new Date())?.secret).toBe('RESTART-UNIT');
    } finally {
      await second.close();
    }
  });

  it('SERVICE_STORE_KEY is used instead of a key file', async () => {
    process.env.SERVICE_STORE_KEY = 'ab'.repeat(32);
    const dir = await tempDir();
    const first = await makeApp({ ...RATE, dataDir: dir, memory: false });
    const s = await newSeller(first, { admission: 'complete' });
    const n = await card(first, s.apiKey);
    await refill(n, ['ENV-KEY-UNIT'], s.apiKey, first);
    await first.close();
    await expect(stat(path.join(dir, KEY_FILE))).rejects.toThrow();

    // Same key from the environment: the unit opens.
    const same = await makeApp({ ...RATE, dataDir: dir, memory: false });
    const doc = await same.service.store.seller(s.sellerId);
    const item = allUnits(doc, n)[0]!;
    expect(same.service.sealer.open(item.sealed, stockAad(n, item.id))).toBe('ENV-KEY-UNIT');
    await same.close();

    // Another key: it does not.
    process.env.SERVICE_STORE_KEY = 'cd'.repeat(32);
    const otherKey = await makeApp({ ...RATE, dataDir: dir, memory: false });
    try {
      const d = await otherKey.service.store.seller(s.sellerId);
      expect(() => otherKey.service.sealer.open(allUnits(d, n)[0]!.sealed, stockAad(n, item.id))).toThrow();
    } finally {
      await otherKey.close();
    }
  });
});
