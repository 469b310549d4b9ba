/**
 * The card and order indexes of the shared document are derived: rebuilt from the seller documents
 * when the store opens, never written to shared.json. An older shared.json that still holds them
 * loads (its copies are ignored); a number handed out before a crash is simply absent.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiOperations } from '../../sdk/contract/index.ts';
import { call, makeApp, newSeller, sandbox, type Answer, type SellerCreated } from './helpers.ts';

const CODE_CARD = {
  service: 'spotify',
  tariff: 'individual',
  productType: 'code',
  deliveryMethod: 'code',
  priceRub: 300,
  slaMinutes: 60,
  guaranteeDays: 7,
};

let dir: string;
const open: FastifyInstance[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seller-derived-test-'));
});
afterEach(async () => {
  for (const app of open.splice(0)) await app.close();
  await rm(dir, { recursive: true, force: true });
});

async function fileApp(): Promise<FastifyInstance> {
  const app = await makeApp({ memory: false, dataDir: dir });
  open.push(app);
  return app;
}
async function closeAll(): Promise<void> {
  for (const app of open.splice(0)) await app.close();
}

const sharedFile = () => path.join(dir, 'shared.json');
const readShared = async () => JSON.parse(await readFile(sharedFile(), 'utf8'));

async function makeCard(app: FastifyInstance, s: SellerCreated): Promise<number> {
  const created = await call(app, s.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
  expect(created.status, created.text).toBe(201);
  const on = await call(app, s.apiKey, 'POST', `/api/v1/listings/${created.body.number}/state`, { active: true });
  expect(on.status, on.text).toBe(200);
  return created.body.number;
}

async function makeOrder(app: FastifyInstance, number: number): Promise<string> {
  const res = await sandbox(app, 'POST', '/orders', { number });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** Two sellers with cards and orders; answers what was made. */
async function populate(app: FastifyInstance) {
  const a = await newSeller(app, { admission: 'complete' });
  const b = await newSeller(app, { admission: 'complete' });
  const cardsA = [await makeCard(app, a), await makeCard(app, a)];
  const cardsB = [await makeCard(app, b)];
  const ordersA = [await makeOrder(app, cardsA[0]!), await makeOrder(app, cardsA[1]!)];
  const ordersB = [await makeOrder(app, cardsB[0]!)];
  return { a, b, cardsA, cardsB, ordersA, ordersB };
}

describe('derived card and order indexes', () => {
  it('are not written to shared.json, and are rebuilt at start-up from the seller documents', async () => {
    let app = await fileApp();
    const { a, b, cardsA, cardsB, ordersA, ordersB } = await populate(app);
    const before = structuredClone({ cards: app.service.store.shared.cardIndex, orders: app.service.store.shared.orderIndex });
    const written = await readShared();
    expect(written).not.toHaveProperty('cardIndex');
    expect(written).not.toHaveProperty('orderIndex');
    expect(written.seq.card).toBe(cardsB[0]);
    await closeAll();

    app = await fileApp();
    const { shared } = app.service.store;
    expect(shared.cardIndex).toEqual(before.cards);
    expect(shared.orderIndex).toEqual(before.orders);
    expect(shared.cardIndex).toEqual({ [cardsA[0]!]: a.sellerId, [cardsA[1]!]: a.sellerId, [cardsB[0]!]: b.sellerId });
    expect(shared.orderIndex).toEqual({ [ordersA[0]!]: a.sellerId, [ordersA[1]!]: a.sellerId, [ordersB[0]!]: b.sellerId });
    // the sandbox finds cards and orders through them after the restart
    expect((await sandbox(app, 'POST', `/orders/${ordersB[0]}/pay`)).status).toBe(200);
    const again = await makeOrder(app, cardsA[1]!);
    expect(shared.orderIndex[again]).toBe(a.sellerId);
    // numbers keep growing
    expect(await makeCard(app, b)).toBe(cardsB[0]! + 1);
  });

  it('an older shared.json holding the indexes still loads; its copies are dropped and rebuilt', async () => {
    let app = await fileApp();
    const { a, b, cardsA, cardsB, ordersA } = await populate(app);
    await closeAll();

    const old = await readShared();
    old.cardIndex = {
      [cardsA[0]!]: a.sellerId,
      [cardsA[1]!]: b.sellerId, // wrong owner
      [cardsB[0]! + 7]: a.sellerId, // a number that no document holds (a crash before the seller write)
    };
    old.orderIndex = { [ordersA[0]!]: b.sellerId, ord_gone: a.sellerId };
    old.requestIndex = {};
    await writeFile(sharedFile(), JSON.stringify(old));

    app = await fileApp();
    const { shared } = app.service.store;
    expect(shared.cardIndex).toEqual({ [cardsA[0]!]: a.sellerId, [cardsA[1]!]: a.sellerId, [cardsB[0]!]: b.sellerId });
    expect(shared.orderIndex[ordersA[0]!]).toBe(a.sellerId);
    expect(Object.hasOwn(shared.orderIndex, 'ord_gone')).toBe(false);
    expect((await sandbox(app, 'POST', '/orders', { number: cardsB[0]! + 7 })).status).toBe(404);
    const paid = await sandbox(app, 'POST', `/orders/${ordersA[0]}/pay`);
    expect(paid.status, paid.text).toBe(200);
    expect((await call(app, a.apiKey, 'GET', `/api/v1/orders/${ordersA[0]}`)).body.status).toBe('awaiting_delivery');
    // the next write drops them from the file
    await makeCard(app, a);
    expect(await readShared()).not.toHaveProperty('cardIndex');
  });

  it('a crash after the shared write: the number is absent and never handed out again', async () => {
    let app = await fileApp();
    const { a, cardsB } = await populate(app);
    await closeAll();
    // as if a creation advanced the sequence, wrote shared.json, then died before the seller document
    const shared = await readShared();
    shared.seq.card = cardsB[0]! + 1;
    await writeFile(sharedFile(), JSON.stringify(shared));

    app = await fileApp();
    expect(Object.hasOwn(app.service.store.shared.cardIndex, String(cardsB[0]! + 1))).toBe(false);
    expect((await sandbox(app, 'POST', '/orders', { number: cardsB[0]! + 1 })).status).toBe(404);
    expect(await makeCard(app, a)).toBe(cardsB[0]! + 2);
  });

  it('the card sequence is never below a stored card number', async () => {
    let app = await fileApp();
    const { a, cardsB } = await populate(app);
    await closeAll();
    const shared = await readShared();
    shared.seq.card = 1000;
    await writeFile(sharedFile(), JSON.stringify(shared));

    app = await fileApp();
    expect(app.service.store.shared.seq.card).toBe(cardsB[0]);
    expect(await makeCard(app, a)).toBe(cardsB[0]! + 1);
  });
});

describe('GET /orders after a restart', () => {
  it('pages the same orders as before; answers are exactly the contract shape', async () => {
    let app = await fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    const number = await makeCard(app, s);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await makeOrder(app, number));
    await sandbox(app, 'POST', `/orders/${ids[2]}/pay`);
    const list = async (query: string) => {
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const res: Answer = await call(app, s.apiKey, 'GET', `/api/v1/orders?limit=3${query}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status, res.text).toBe(200);
        // nothing beyond the contract's fields: parsing through the answer schema changes nothing
        expect(apiOperations['orders.list'].answer.parse(res.body)).toEqual(res.body);
        pages.push(res.body.items.map((o: { id: string }) => o.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      return pages;
    };
    const since = `&updatedSince=${new Date(0).toISOString()}`;
    const before = { newest: await list(''), updated: await list(since), open: await list('&needsAction=true') };
    expect(before.newest.flat()).toEqual([...ids].reverse());
    expect(before.updated.flat()).toEqual([...ids.slice(0, 2), ...ids.slice(3), ids[2]]);
    expect(before.open.flat()).toEqual([ids[2]]);
    await closeAll();

    app = await fileApp();
    expect({ newest: await list(''), updated: await list(since), open: await list('&needsAction=true') }).toEqual(before);
  });
});
