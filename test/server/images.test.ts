/**
 * Card images are served to anyone only while the card is on show (switched on, not hidden, its
 * seller active); otherwise only with the owner's key (server/store/images.ts).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { call, makeApp, newSeller, sandbox, setStatus, type SellerCreated } from './helpers.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-fake-png-body')]);
const RATE = { rateLimit: { perMinute: 1e6, burst: 1e6 } };

let app: FastifyInstance;
let owner: SellerCreated;
let other: SellerCreated;
let number: number;
let url: string;

beforeEach(async () => {
  app = await makeApp(RATE);
  owner = await newSeller(app, { admission: 'complete' });
  other = await newSeller(app, { admission: 'complete' });
  number = (await call(app, owner.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body.number;
  await call(app, owner.apiKey, 'POST', `/api/v1/listings/${number}/stock`, { items: ['unit-1', 'unit-2'] });
  url = (await call(app, owner.apiKey, 'PUT', `/api/v1/listings/${number}/image`, { raw: PNG, contentType: 'image/png' })).body.image.url;
});
afterEach(async () => {
  await app.close();
});

const get = (key?: string) => app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {} });
const setState = (active: boolean) => call(app, owner.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active });

describe('card images', () => {
  it('a card switched off: 404 to anyone, to another seller and to a wrong key; 200 (private) with the owner key', async () => {
    for (const key of [undefined, other.apiKey, `service_live_${'A'.repeat(40)}`, 'not a key']) {
      const res = await get(key);
      expect(res.statusCode, String(key)).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ error: 'not_found', detail: { message: 'no such image', record: 'image' } });
    }
    const mine = await get(owner.apiKey);
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload).toEqual(PNG);
    expect(mine.headers['cache-control']).toBe('private, no-store');
  });

  it('switched on: served to anyone (cached for minutes); off again, hidden, or its seller blocked: not', async () => {
    expect((await setState(true)).status).toBe(200);
    const pub = await get();
    expect(pub.statusCode).toBe(200);
    expect(pub.rawPayload).toEqual(PNG);
    expect(pub.headers['cache-control']).toBe('public, max-age=300');

    expect((await setState(false)).status).toBe(200);
    expect((await get()).statusCode).toBe(404);

    // on again, then its seller blocked: not on show
    await setState(true);
    await setStatus(app, owner.sellerId, 'blocked');
    expect((await get()).statusCode).toBe(404);
    await setStatus(app, owner.sellerId, 'active');
    expect((await get()).statusCode).toBe(200);

    // a card with an order is hidden when deleted: its image goes with it
    const order = await sandbox(app, 'POST', '/orders', { number });
    expect(order.status, order.text).toBe(201);
    expect((await call(app, owner.apiKey, 'DELETE', `/api/v1/listings/${number}`)).body.result).toBe('hidden');
    expect((await get()).statusCode).toBe(404);
    expect((await get(owner.apiKey)).statusCode).toBe(200);
  });
});
