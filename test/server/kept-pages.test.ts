/**
 * Kept `GET /orders` pages sent without running the handler (server/http/execute.ts, kept-pages.ts):
 * reused only while the seller's order version (server/store/order-index.ts) is unchanged, so every
 * kind of order change — buyer, marketplace, seller, clock — changes the next answer; the key holds
 * the seller and the key's mode; the kept answers are bounded.
 *
 * Ground truth: the same query under a URL never asked before (`?&…&limit=50`, parsed like
 * `?limit=50`) has no kept answer, so its handler runs; the kept URL must answer the same bytes.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueKey } from '../../server/auth.ts';
import { KeptPages } from '../../server/http/kept-pages.ts';
import { newSellerDoc } from '../../server/store/docs.ts';
import { dropOrderIndex } from '../../server/store/order-index.ts';
import { call, makeApp, newSeller, sandbox, type SellerCreated } from './helpers.ts';
import { CODE_CARD as BASE_CODE_CARD } from '../helpers/fixtures.ts';

let app: FastifyInstance;
let seller: SellerCreated;

const CODE_CARD = { ...BASE_CODE_CARD, description: 'Gift code' };

async function ok(res: Promise<{ status: number; text: string; body: any }>, status = 200): Promise<any> {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.body;
}

async function makeCard(key: string, fields: Record<string, unknown> = {}): Promise<number> {
  const body = await ok(call(app, key, 'POST', '/api/v1/listings', { ...CODE_CARD, ...fields }), 201);
  await ok(call(app, key, 'POST', `/api/v1/listings/${body.number}/state`, { active: true }));
  return body.number;
}

const buy = async (number: number): Promise<string> => (await ok(sandbox(app, 'POST', '/orders', { number }), 201)).id;
const act = (id: string, action: string, body?: unknown) => ok(sandbox(app, 'POST', `/orders/${id}/${action}`, body));
async function seller_(id: string, action: string, body?: unknown): Promise<void> {
  const r = await call(app, seller.apiKey, 'POST', `/api/v1/orders/${id}/${action}`, body);
  expect([200, 201], r.text).toContain(r.status);
}

const URL_KEPT = '/api/v1/orders?limit=50';
let fresh = 0;
/** The same query under a URL not asked before: nothing kept for it, the handler runs. */
const freshUrl = () => `/api/v1/orders?${'&'.repeat(++fresh)}limit=50`;

async function list(key: string, url = URL_KEPT): Promise<string> {
  const res = await call(app, key, 'GET', url);
  expect(res.status, res.text).toBe(200);
  return res.text;
}

/** The kept URL answers exactly what a fresh run of the handler answers; returns it. */
async function checked(key = seller.apiKey): Promise<string> {
  const kept = await list(key);
  expect(kept).toBe(await list(key, freshUrl()));
  return kept;
}

/** Runs `change` after the kept answer is warm (and a hit); the next answer must differ and be right. */
async function changes(change: () => Promise<unknown>): Promise<string> {
  const before = await checked();
  expect(await list(seller.apiKey)).toBe(before); // a hit
  await change();
  const after = await checked();
  expect(after).not.toBe(before);
  return after;
}

const itemOf = (text: string, id: string) => JSON.parse(text).items.find((o: { id: string }) => o.id === id);

beforeEach(async () => {
  app = await makeApp();
  seller = await newSeller(app, { admission: 'complete' });
});

afterEach(async () => {
  await app.close();
});

describe('kept GET /orders answers', () => {
  it('the ground-truth URL parses like the kept one', async () => {
    const number = await makeCard(seller.apiKey);
    await buy(number);
    expect(JSON.parse(await list(seller.apiKey, freshUrl())).items).toHaveLength(1);
    expect(await list(seller.apiKey, freshUrl())).toBe(await list(seller.apiKey));
  });

  it('every buyer and marketplace change changes the next answer', async () => {
    const number = await makeCard(seller.apiKey);
    let id = '';
    let text = await changes(async () => (id = await buy(number)));
    expect(itemOf(text, id).status).toBe('awaiting_payment');
    text = await changes(() => act(id, 'message', { text: 'hello there' }));
    expect(itemOf(text, id).needsAction).toBe(true);
    text = await changes(() => act(id, 'vault', { secret: 'login:password' }));
    text = await changes(() => act(id, 'pay'));
    expect(itemOf(text, id).status).toBe('awaiting_delivery');
    text = await changes(() => act(id, 'cancel'));
    expect(itemOf(text, id).status).toBe('cancelled');

    const b = await buy(number);
    await act(b, 'pay');
    await seller_(b, 'deliver', {});
    text = await changes(() => act(b, 'accept'));
    expect(itemOf(text, b).status).toBe('completed');
    text = await changes(() => act(b, 'dispute', { text: 'it does not work' }));
    expect(itemOf(text, b).status).toBe('disputed');
    text = await changes(() => act(b, 'resolve', { winner: 'seller' }));
    expect(itemOf(text, b).status).toBe('completed');

    const c = await buy(number);
    await act(c, 'pay');
    await seller_(c, 'deliver', {});
    await act(c, 'dispute', { text: 'still broken' });
    text = await changes(() => act(c, 'resolve', { winner: 'buyer' }));
    expect(itemOf(text, c).status).toBe('refunded');
  });

  it('every seller change changes the next answer', async () => {
    const confirmCard = await makeCard(seller.apiKey, { confirmRequired: true });
    const a = await buy(confirmCard);
    await act(a, 'pay');
    let text = await changes(() => seller_(a, 'confirm'));
    expect(itemOf(text, a).status).toBe('awaiting_delivery');
    text = await changes(() => seller_(a, 'handover', { secret: 'the-secret' }));
    text = await changes(() => seller_(a, 'messages', { text: 'on its way' }));
    text = await changes(() => seller_(a, 'deliver', {}));
    expect(itemOf(text, a).status).toBe('delivered');
    await act(a, 'dispute', { text: 'no good' });
    expect(itemOf(await checked(), a).needsAction).toBe(true);
    text = await changes(() => seller_(a, 'dispute/reply', { text: 'please try again' }));
    expect(itemOf(text, a).needsAction).toBe(false);

    const b = await buy(confirmCard);
    await act(b, 'pay');
    text = await changes(() => seller_(b, 'decline', { reason: 'out of codes' }));
    expect(itemOf(text, b).status).toBe('declined');

    const c = await buy(confirmCard);
    await act(c, 'pay');
    await act(c, 'vault', { secret: 'buyer-login' });
    await checked();
    text = await changes(() => seller_(c, 'handover/reveal'));
    expect(text).toContain(c);
  });

  it('the clock sweep changes the next answer (payment window, SLA, guarantee)', async () => {
    const number = await makeCard(seller.apiKey);
    const unpaid = await buy(number);
    const late = await buy(number);
    await act(late, 'pay');
    const kept = await buy(number);
    await act(kept, 'pay');
    await seller_(kept, 'deliver', {});

    let text = await changes(() => ok(sandbox(app, 'POST', '/clock/advance', { seconds: 2 * 3600 })));
    expect(itemOf(text, late).status).toBe('refunded');
    expect(itemOf(text, unpaid).status).toBe('awaiting_payment');
    text = await changes(() => ok(sandbox(app, 'POST', '/clock/advance', { seconds: 25 * 3600 })));
    expect(itemOf(text, unpaid).status).toBe('cancelled');
    text = await changes(() => ok(sandbox(app, 'POST', '/clock/advance', { seconds: 7 * 86400 })));
    expect(itemOf(text, kept).status).toBe('completed');
    // Nothing due: the answer stays, and is still right.
    await ok(sandbox(app, 'POST', '/clock/advance', { seconds: 60 }));
    expect(await checked()).toBe(text);
  });

  it('reads do not change the answer: a repeated page is served from the kept bytes', async () => {
    const number = await makeCard(seller.apiKey);
    const id = await buy(number);
    await act(id, 'message', { text: 'hi' });
    const first = await checked();
    const entries = app.service.keptPages.size.entries;
    await ok(call(app, seller.apiKey, 'GET', `/api/v1/orders/${id}`));
    for (let i = 0; i < 3; i++) expect(await list(seller.apiKey)).toBe(first);
    expect(app.service.keptPages.size.entries).toBe(entries);
  });

  it('keys of different modes keep apart; a foreign seller never gets another seller’s bytes', async () => {
    const number = await makeCard(seller.apiKey);
    await buy(number);
    // A second key of the same seller in the other mode (written straight into the store).
    const doc = await app.service.store.seller(seller.sellerId);
    const other = issueKey(app.service.store, doc, { name: 'test mode', scopes: ['orders'], mode: 'test', now: new Date() });
    const live = await checked();
    const before = app.service.keptPages.size.entries;
    const test = await list(other.key);
    expect(app.service.keptPages.size.entries).toBe(before + 1); // its own entry, not the live key's
    expect(test).toBe(await list(other.key, freshUrl()));

    const foreign = await newSeller(app, { admission: 'complete' });
    const foreignText = await list(foreign.apiKey);
    expect(foreignText).not.toBe(live);
    expect(JSON.parse(foreignText).items).toEqual([]);
    await buy(await makeCard(foreign.apiKey));
    const foreignNow = await list(foreign.apiKey);
    expect(foreignNow).toBe(await list(foreign.apiKey, freshUrl()));
    expect(JSON.parse(foreignNow).items.map((o: { id: string }) => o.id)).not.toEqual(JSON.parse(live).items.map((o: { id: string }) => o.id));
    // The first seller's kept answer is untouched by the other seller's change, and still right.
    expect(await checked()).toBe(live);
  });

  it('rate limit and auth still run on every kept answer', async () => {
    const limited = await makeApp({ rateLimit: { perMinute: 600, burst: 3 } });
    try {
      const s = await newSeller(limited, { admission: 'complete' });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await call(limited, s.apiKey, 'GET', URL_KEPT)).status);
      expect(statuses).toContain(429);
      expect((await call(limited, 'service_live_nope', 'GET', URL_KEPT)).status).toBe(401);
      // A body on the GET is refused even when the URL has a kept answer.
      const res = await limited.inject({ method: 'GET', url: URL_KEPT, headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' }, payload: '{"a":1}' });
      expect([400, 429]).toContain(res.statusCode);
    } finally {
      await limited.close();
    }
  });

  it('is bounded: entries and bytes', async () => {
    const pages = new KeptPages(3, 1 << 20);
    const doc = newSellerDoc('s_1');
    const json = (n: number) => JSON.stringify({ items: [], nextCursor: n === 0 ? null : `c${n}` });
    for (let i = 0; i < 10; i++) pages.page(`k${i}`, doc).begin()(json(i));
    expect(pages.size.entries).toBe(3);
    expect(pages.page('k0', doc).fresh()).toBeUndefined(); // dropped, least recently used
    expect(pages.page('k9', doc).fresh()?.toString()).toBe('{"items":[],"nextCursor":"c9"}');
    dropOrderIndex(doc); // another version: not reused
    expect(pages.page('k9', doc).fresh()).toBeUndefined();

    const small = new KeptPages(1000, 200);
    for (let i = 0; i < 20; i++) small.page(`k${i}`, doc).begin()(json(i));
    expect(small.size.bytes).toBeLessThanOrEqual(200);

    // The server's pages too: many URLs keep at most 1,024 answers.
    await app.close();
    app = await makeApp({ rateLimit: { perMinute: 1e9, burst: 1e9 } });
    seller = await newSeller(app, { admission: 'complete' });
    await buy(await makeCard(seller.apiKey));
    for (let i = 1; i <= 1100; i++) await list(seller.apiKey, `/api/v1/orders?limit=${(i % 100) + 1}${'&'.repeat(Math.floor(i / 100))}`);
    expect(app.service.keptPages.size.entries).toBe(1024);
  });
});
