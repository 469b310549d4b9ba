/**
 * The key, card, order and nickname indexes of the shared document are derived: rebuilt from the
 * seller documents when the store opens, never written to shared.json. An older shared.json that
 * still holds them loads (its copies are ignored); a number handed out before a crash is simply
 * absent. The card sequence itself: test/server/card-sequence.test.ts.
 */
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { apiOperations } from '../../sdk/contract/index.ts';
import { useFileStore } from '../helpers/file-store.ts';
import { call, newSeller, sandbox, type Answer, type SellerCreated } from './helpers.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';

const store = useFileStore('seller-derived-test-');
const { fileApp, closeAll } = store;

const sharedFile = () => path.join(store.dir, 'shared.json');
const readShared = async () => JSON.parse(await readFile(sharedFile(), 'utf8'));
const readSeq = async () => JSON.parse(await readFile(path.join(store.dir, 'seq.json'), 'utf8'));
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
/** Identity of shared.json on disk: an atomic replace (every write) gives it a new inode. */
const sharedStamp = async () => {
  const st = await stat(sharedFile());
  return `${st.ino}:${st.mtimeMs}:${st.size}`;
};

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
    expect(written.seq.card).toBeLessThanOrEqual(cardsB[0]!);
    expect(await readSeq()).toEqual({ card: cardsB[0] });
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
    old.keyIndex = { [sha256(a.apiKey)]: { sellerId: b.sellerId, keyId: b.keyId }, [sha256('service_live_gone')]: { sellerId: a.sellerId, keyId: a.keyId } };
    old.nicknames = { 'taken-by-nobody': a.sellerId };
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
    // the key index is rebuilt from the seller documents: a's key is a's again, the stray hash is gone
    expect(shared.keyIndex[sha256(a.apiKey)]).toEqual({ sellerId: a.sellerId, keyId: a.keyId });
    expect(Object.keys(shared.keyIndex).sort()).toEqual([sha256(a.apiKey), sha256(b.apiKey)].sort());
    expect((await call(app, a.apiKey, 'GET', '/api/v1/me')).body.sellerId).toBe(a.sellerId);
    expect((await call(app, 'service_live_gone', 'GET', '/api/v1/me')).body.error).toBe('bad_key');
    // the nicknames likewise: the stray one is free
    expect(Object.hasOwn(shared.nicknames, 'taken-by-nobody')).toBe(false);
    expect((await call(app, b.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'taken-by-nobody' })).status).toBe(200);
    // the next write of the shared document drops them from the file
    await sandbox(app, 'POST', '/clock/advance', { seconds: 1 });
    const rewritten = await readShared();
    for (const index of ['cardIndex', 'orderIndex', 'keyIndex', 'nicknames']) expect(rewritten).not.toHaveProperty(index);
  });

  it('a crash after the sequence write: the number is absent and never handed out again', async () => {
    let app = await fileApp();
    const { a, cardsB } = await populate(app);
    await closeAll();
    // as if a creation advanced the sequence, wrote seq.json, then died before the seller document
    await writeFile(path.join(store.dir, 'seq.json'), JSON.stringify({ card: cardsB[0]! + 1 }));

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
    await writeFile(path.join(store.dir, 'seq.json'), JSON.stringify({ card: 1000 }));

    app = await fileApp();
    expect(app.service.store.shared.seq.card).toBe(cardsB[0]);
    expect(await makeCard(app, a)).toBe(cardsB[0]! + 1);
  });
});

describe('derived key and nickname indexes', () => {
  it('issuing or revoking a key does not write shared.json; keys and nicknames hold after a restart', async () => {
    let app = await fileApp();
    const a = await newSeller(app, { admission: 'none' });
    const b = await newSeller(app, { admission: 'none' });
    const before = await sharedStamp();
    const issued = await call(app, a.apiKey, 'POST', '/api/v1/keys', { name: 'second', scopes: ['catalog'] });
    expect(issued.status, issued.text).toBe(201);
    const revoked = await call(app, a.apiKey, 'POST', '/api/v1/keys', { name: 'revoked', scopes: ['catalog'] });
    expect((await call(app, a.apiKey, 'DELETE', `/api/v1/keys/${revoked.body.id}`)).status).toBe(200);
    expect(await sharedStamp()).toBe(before);
    // (PUT /papers/nickname still marks the shared document in server/routes/account.ts: harmless,
    // the nicknames are not in what it writes; the sandbox admission below writes no shared.json)
    expect((await call(app, a.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'First_Name' })).status).toBe(200);
    expect((await call(app, a.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'Second_Name' })).status).toBe(200);
    expect((await call(app, b.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: '__proto__' })).status).toBe(200);
    expect(await readShared()).not.toHaveProperty('nicknames');
    const { shared } = app.service.store;
    const indexes = structuredClone({ keys: shared.keyIndex, nicknames: shared.nicknames });
    await closeAll();

    app = await fileApp();
    const again = app.service.store.shared;
    expect(again.keyIndex).toEqual(indexes.keys);
    expect(again.nicknames).toEqual(indexes.nicknames);
    expect(Object.keys(again.keyIndex)).toHaveLength(4);
    expect(Object.entries(again.nicknames).sort()).toEqual([['__proto__', b.sellerId], ['second_name', a.sellerId]]);
    expect(Object.getPrototypeOf(again.nicknames)).toBe(Object.prototype);
    // keys: the issued one works, the revoked one is refused as revoked (not as unknown)
    expect((await call(app, issued.body.key, 'GET', '/api/v1/me')).body.key.id).toBe(issued.body.id);
    expect((await call(app, revoked.body.key, 'GET', '/api/v1/me')).body.error).toBe('revoked');
    // nicknames: taken ones stay taken, case-insensitively; the released one is free
    const taken = await call(app, b.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'SECOND_name' });
    expect(taken.status).toBe(409);
    expect(taken.body.refusal.kind).toBe('nickname_taken');
    expect((await call(app, a.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: '__PROTO__' })).body.refusal.kind).toBe('nickname_taken');
    expect((await call(app, b.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'first_name' })).status).toBe(200);
    // look-alikes of a taken nickname stay taken after the rebuild (Cyrillic е, о; full-width)
    expect((await call(app, b.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'Sеcоnd_Name' })).body.refusal?.kind).toBe('nickname_taken');
    expect((await call(app, b.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'ｓｅｃｏｎｄ_name' })).body.refusal?.kind).toBe('nickname_taken');
  });

  it('the sandbox admission fills and clears the nickname without a shared write; it is derived after a restart', async () => {
    let app = await fileApp();
    const s = await newSeller(app, { admission: 'none' });
    const before = await sharedStamp();
    expect((await sandbox(app, 'PUT', `/sellers/${s.sellerId}/admission`, { complete: true })).status).toBe(200);
    expect(await sharedStamp()).toBe(before);
    const nickname = (await call(app, s.apiKey, 'GET', '/api/v1/papers')).body.nickname as string;
    expect(nickname).toBeTruthy();
    await closeAll();

    app = await fileApp();
    expect(app.service.store.shared.nicknames[nickname.toLowerCase()]).toBe(s.sellerId);
    expect((await sandbox(app, 'PUT', `/sellers/${s.sellerId}/admission`, { complete: false })).status).toBe(200);
    await closeAll();

    app = await fileApp();
    expect(app.service.store.shared.nicknames).toEqual({});
  });

  it('a nickname held by two sellers on disk (a crash between concurrent changes) goes to one of them', async () => {
    let app = await fileApp();
    const a = await newSeller(app, { admission: 'none' });
    const b = await newSeller(app, { admission: 'none' });
    expect((await call(app, a.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'Twice' })).status).toBe(200);
    await closeAll();
    const file = path.join(store.dir, 'sellers', `${b.sellerId}.json`);
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.papers.nickname = 'twice';
    await writeFile(file, JSON.stringify(doc));

    app = await fileApp();
    const owner = [a.sellerId, b.sellerId].sort()[0]!;
    expect(app.service.store.shared.nicknames).toEqual({ twice: owner });
    // the other one cannot take it anew; the owner keeps it
    const other = owner === a.sellerId ? b : a;
    expect((await call(app, other.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'TWICE' })).body.refusal.kind).toBe('nickname_taken');
    expect((await call(app, owner === a.sellerId ? a.apiKey : b.apiKey, 'PUT', '/api/v1/papers/nickname', { nickname: 'Twice' })).status).toBe(200);
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
