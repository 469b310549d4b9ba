/**
 * Seeding for the benchmarks, on a fastify app built by `buildApp` (through `app.inject`).
 *
 * Sellers, the first card and the first order go through the real API and sandbox, so every record
 * has the exact shape the server makes. Large volumes (10,000 orders, 100,000 cards) are then
 * cloned from those records straight into the store's documents (`app.service.store`) before the
 * server listens: going through the sandbox for each would take minutes. Indexes of the shared
 * document (`cardIndex`, `orderIndex`, `seq.card`) are kept as the handlers keep them.
 */
import { randomUUID } from 'node:crypto';

/** A sandbox call with the server's admin token; throws unless 2xx. */
export async function sandbox(app, method, path, body) {
  const res = await app.inject({
    method,
    url: `/sandbox/v1${path}`,
    headers: { authorization: `Bearer ${app.service.adminToken}` },
    ...(body === undefined ? {} : { payload: body }),
  });
  if (res.statusCode >= 300) throw new Error(`sandbox ${method} ${path} → ${res.statusCode} ${res.body}`);
  return res.json();
}

/** An API call with a seller's key (and a fresh idempotency key when it changes data); throws unless 2xx. */
export async function api(app, key, method, path, body) {
  const res = await app.inject({
    method,
    url: `/api/v1${path}`,
    headers: { authorization: `Bearer ${key}`, ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }) },
    ...(body === undefined ? {} : { payload: body }),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A seller with complete papers (may sell real cards): `{sellerId, keyId, apiKey}`. */
export const newSeller = (app) => sandbox(app, 'POST', '/sellers', { admission: 'complete' });

/** `count` sellers, created `batch` at a time (their writes coalesce). */
export async function newSellers(app, count, batch = 25) {
  const out = [];
  while (out.length < count) {
    const n = Math.min(batch, count - out.length);
    out.push(...(await Promise.all(Array.from({ length: n }, () => newSeller(app)))));
  }
  return out;
}

/** A catalogue position that sells codes delivered as codes, and a card body for it. */
async function codeCardBody(app, key) {
  const positions = (await api(app, key, 'GET', '/catalog/services?limit=200')).items;
  const position = positions.find((p) => p.productTypes.includes('code') && p.deliveryMethods.code?.includes('code'));
  if (!position) throw new Error('the seed catalogue has no position selling codes');
  return {
    service: position.slug,
    tariff: position.tariffs[0].slug,
    productType: 'code',
    deliveryMethod: 'code',
    priceRub: 450,
    slaMinutes: position.slaChoices[0],
    guaranteeDays: position.guaranteeChoices[0],
    description: 'Activation code, delivered within minutes of payment.',
  };
}

/** Creates a card through the API and switches it on; answers its number, its creation body and a PATCH body. */
export async function newCard(app, key) {
  const body = await codeCardBody(app, key);
  const { number } = await api(app, key, 'POST', '/listings', body);
  await api(app, key, 'POST', `/listings/${number}/state`, { active: true });
  const { service: _s, tariff: _t, ...update } = body;
  return { number, body, update };
}

/** A deep copy of a stored record (a tracked proxy, which `structuredClone` refuses: server/store/shards.ts). */
const copyOf = (record) => JSON.parse(JSON.stringify(record));

/**
 * Gives `sellerId` `count` more cards, copies of the card record `model` under the next numbers.
 * Documents are changed in memory; write them with `writeAll`.
 */
export async function cloneCards(app, sellerId, model, count) {
  const { store } = app.service;
  const doc = await store.seller(sellerId);
  const shared = store.shared;
  const numbers = [];
  for (let i = 0; i < count; i++) {
    const number = ++shared.seq.card;
    shared.cardIndex[String(number)] = sellerId;
    doc.cards[String(number)] = { ...copyOf(model), number, priceRub: 100 + (i % 900) };
    numbers.push(number);
  }
  return numbers;
}

/**
 * Gives the seller of card `number` `count` orders on it. The first is bought and paid through the
 * sandbox; the rest are clones: created one second apart (the newest now), strictly increasing
 * `updatedAt`; nine in ten completed, one in ten awaiting delivery with a deadline a week away
 * (so the order clock moves none of them during a run).
 */
export async function seedOrders(app, sellerId, number, count) {
  const first = await sandbox(app, 'POST', '/orders', { number });
  await sandbox(app, 'POST', `/orders/${first.id}/pay`);
  const { store } = app.service;
  const doc = await store.seller(sellerId);
  const shared = store.shared;
  const model = doc.orders[first.id];
  const start = Date.now() - count * 1000;
  const week = 7 * 24 * 3600 * 1000;
  for (let i = 1; i < count; i++) {
    const created = start + i * 1000;
    const id = `ord_bench${String(i).padStart(8, '0')}`;
    const open = i % 10 === 0;
    doc.orders[id] = {
      ...copyOf(model),
      id,
      status: open ? 'awaiting_delivery' : 'completed',
      createdAt: new Date(created).toISOString(),
      paidAt: new Date(created + 200).toISOString(),
      deliverBy: new Date(open ? Date.now() + week : created + 600_000).toISOString(),
      deliveredAt: open ? null : new Date(created + 400).toISOString(),
      guaranteeUntil: open ? null : new Date(created + 500).toISOString(),
      updatedAt: new Date(created + 500).toISOString(),
    };
    shared.orderIndex[id] = sellerId;
  }
  return first.id;
}

/** Writes the shared document and the given sellers' documents. */
export async function writeAll(app, sellerIds) {
  const { store } = app.service;
  await store.writeShared();
  for (const id of sellerIds) await store.writeSeller(id);
}
