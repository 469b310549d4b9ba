/** Catalogue reads and catalogue requests (spec: Identity and catalogue; gaps.md: Catalogue position, Catalogue request). */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogRequest, Position } from '../../sdk/contract/index.ts';
import { SEED_CATALOG } from '../../server/seed/catalog.ts';
import { call, expectError, makeApp, newSeller, sandbox, type SellerCreated } from './helpers.ts';

let app: FastifyInstance;
let seller: SellerCreated;

beforeAll(async () => {
  app = await makeApp();
  seller = await newSeller(app);
});
afterAll(async () => {
  await app.close();
});

type P = { slug: string; title: string; category: string };
const list = (query = '') => call<{ items: P[]; nextCursor: string | null }>(app, seller.apiKey, 'GET', `/api/v1/catalog/services${query}`);

/** Walks every page; returns the slugs in order and the number of pages. */
async function walk(query: string, limit: number): Promise<{ slugs: string[]; pages: number }> {
  const slugs: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query ? '&' : '?';
    const res = await list(`${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    slugs.push(...res.body.items.map((p) => p.slug));
    cursor = res.body.nextCursor;
    pages++;
    if (pages > 100) throw new Error('paging does not end');
  } while (cursor);
  return { slugs, pages };
}

describe('catalogue positions', () => {
  it('lists at least 20 positions, each valid per the contract', async () => {
    const res = await list('?limit=200');
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThanOrEqual(20);
    expect(res.body.items.length).toBe(SEED_CATALOG.length);
    expect(res.body.nextCursor).toBeNull();
    for (const p of res.body.items) expect(Position.safeParse(p).success, p.slug).toBe(true);
  });

  it('pages 50 by default', async () => {
    const res = await list();
    expect(res.body.items.length).toBe(Math.min(50, SEED_CATALOG.length));
  });

  it('paging walks every position with the cursor, no duplicates, no gaps', async () => {
    for (const limit of [1, 3, 7]) {
      const { slugs, pages } = await walk('', limit);
      expect(slugs.length, `limit ${limit}`).toBe(SEED_CATALOG.length);
      expect(new Set(slugs).size).toBe(slugs.length);
      expect(new Set(slugs)).toEqual(new Set(SEED_CATALOG.map((p) => p.slug)));
      expect(pages).toBe(Math.ceil(SEED_CATALOG.length / limit));
    }
  });

  it('the last page has nextCursor null even when it is full', async () => {
    const n = SEED_CATALOG.length;
    const first = await list(`?limit=${n - 1}`);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const last = await list(`?limit=1&cursor=${encodeURIComponent(first.body.nextCursor!)}`);
    expect(last.body.items).toHaveLength(1);
    expect(last.body.nextCursor).toBeNull();
    expect((await list(`?limit=${n}`)).body.nextCursor).toBeNull();
  });

  it('q filters case-insensitively over slug and title, Russian too', async () => {
    const upper = await list('?q=SPOTIFY');
    expect(upper.body.items.map((p) => p.slug)).toEqual(['spotify']);
    const kino = await list(`?q=${encodeURIComponent('КИНО')}`);
    expect(kino.body.items.map((p) => p.slug)).toContain('kino-plus');
    const lower = await list(`?q=${encodeURIComponent('кино')}`);
    expect(lower.body.items).toEqual(kino.body.items);
    const refill = await list(`?q=${encodeURIComponent('ПОПОЛНЕНИЕ')}`);
    const slugs = refill.body.items.map((p) => p.slug).sort();
    expect(slugs).toEqual(expect.arrayContaining(['openai-api', 'steam-wallet']));
    for (const p of refill.body.items) expect(`${p.slug} ${p.title} ${p.category}`.toLowerCase()).toContain('пополнение');
    const none = await list('?q=zzzz-nothing-matches');
    expect(none.body).toEqual({ items: [], nextCursor: null });
  });

  it('q matches the expected set exactly', async () => {
    const q = 'premium';
    const expected = SEED_CATALOG.filter((p) => [p.slug, p.title, p.category].some((f) => f.toLowerCase().includes(q)))
      .map((p) => p.slug)
      .sort();
    expect(expected.length).toBeGreaterThan(1);
    const res = await list(`?q=${q.toUpperCase()}`);
    expect(res.body.items.map((p) => p.slug).sort()).toEqual(expected);
  });

  it('category filters exactly', async () => {
    const res = await list('?category=games&limit=200');
    expect(res.status).toBe(200);
    const expected = SEED_CATALOG.filter((p) => p.category === 'games').map((p) => p.slug).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body.items.map((p) => p.slug).sort()).toEqual(expected);
    expect((await list('?category=nope')).body.items).toEqual([]);
  });

  it('q and category combine; paging a filtered list walks exactly the filtered set', async () => {
    const res = await list(`?category=music&q=${encodeURIComponent('музыка')}`);
    expect(res.body.items.map((p) => p.slug)).toEqual(['music-premium']);
    const expected = SEED_CATALOG.filter((p) => p.category === 'games').map((p) => p.slug);
    const { slugs } = await walk('?category=games', 2);
    expect(slugs.sort()).toEqual(expected.sort());
  });

  it('gets a position by slug with its delivery methods and choices', async () => {
    const res = await call(app, seller.apiKey, 'GET', '/api/v1/catalog/services/spotify');
    expect(res.status).toBe(200);
    expect(Position.safeParse(res.body).success).toBe(true);
    expect(res.body).toEqual(SEED_CATALOG.find((p) => p.slug === 'spotify'));
    expect(res.body.deliveryMethods).toBeTypeOf('object');
    expect(res.body.slaChoices.length).toBeGreaterThan(0);
    expect(res.body.guaranteeChoices.length).toBeGreaterThan(0);
  });

  it('a missing slug → 404 not_found', async () => {
    const res = await call(app, seller.apiKey, 'GET', '/api/v1/catalog/services/no-such-thing');
    expectError(res, 404, 'not_found');
  });

  it('needs the catalog scope', async () => {
    const s = await newSeller(app, { scopes: ['orders'] });
    expectError(await call(app, s.apiKey, 'GET', '/api/v1/catalog/services/spotify'), 403, 'scope');
  });
});

describe('catalogue requests', () => {
  it('create (201 pending) → list → decide in the sandbox → list shows approved', async () => {
    const s = await newSeller(app);
    const created = await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', {
      title: 'Яндекс Плюс',
      category: 'music',
      url: 'https://plus.example.com/',
      comment: 'Много покупателей спрашивают',
    });
    expect(created.status).toBe(201);
    expect(CatalogRequest.safeParse(created.body).success).toBe(true);
    expect(created.body).toMatchObject({ status: 'pending', title: 'Яндекс Плюс', category: 'music', decidedAt: null });
    expect(created.body.id).toMatch(/^req_/);

    const listed = await call(app, s.apiKey, 'GET', '/api/v1/catalog/requests');
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([created.body]);

    const decided = await sandbox(app, 'POST', `/catalog/requests/${created.body.id}/decide`, { approve: true });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ id: created.body.id, status: 'approved' });
    expect(decided.body.decidedAt).toMatch(/Z$/);

    const after = await call(app, s.apiKey, 'GET', '/api/v1/catalog/requests');
    expect(after.body.items).toHaveLength(1);
    expect(after.body.items[0]).toMatchObject({ id: created.body.id, status: 'approved' });

    const twice = await sandbox(app, 'POST', `/catalog/requests/${created.body.id}/decide`, { approve: false });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ error: 'rejected', refusal: { kind: 'already_decided' } });
    expect((await call(app, s.apiKey, 'GET', '/api/v1/catalog/requests')).body.items[0].status).toBe('approved');
  });

  it('a rejected request stays rejected', async () => {
    const s = await newSeller(app);
    const created = await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Obscure thing' });
    expect(created.body).toMatchObject({ category: null, url: null, comment: null });
    const decided = await sandbox(app, 'POST', `/catalog/requests/${created.body.id}/decide`, { approve: false });
    expect(decided.body.status).toBe('rejected');
    const again = await sandbox(app, 'POST', `/catalog/requests/${created.body.id}/decide`, { approve: true });
    expect(again.status).toBe(409);
    expect(again.body.refusal.kind).toBe('already_decided');
  });

  it('deciding an unknown request → 404', async () => {
    const res = await sandbox(app, 'POST', '/catalog/requests/req_nothere/decide', { approve: true });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it("another seller doesn't see the request", async () => {
    const a = await newSeller(app);
    const b = await newSeller(app);
    const created = await call(app, a.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Only mine' });
    expect(created.status).toBe(201);
    const listB = await call(app, b.apiKey, 'GET', '/api/v1/catalog/requests');
    expect(listB.body).toEqual({ items: [], nextCursor: null });
    expect(listB.text).not.toContain(created.body.id);
  });

  it('lists newest first and pages', async () => {
    const s = await newSeller(app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: `Request ${i}` })).body.id);
      await new Promise((r) => setTimeout(r, 2));
    }
    const all = await call(app, s.apiKey, 'GET', '/api/v1/catalog/requests');
    expect(all.body.items.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
    const first = await call(app, s.apiKey, 'GET', '/api/v1/catalog/requests?limit=2');
    expect(first.body.items).toHaveLength(2);
    const second = await call(app, s.apiKey, 'GET', `/api/v1/catalog/requests?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.items.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
  });

  it('validates the body', async () => {
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'ab' }), 400, 'bad_request');
    const badUrl = await call(app, seller.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Thing', url: 'ftp://x.example' });
    expectError(badUrl, 400, 'bad_request');
    expect(JSON.stringify(badUrl.body.detail)).toContain('body.url');
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Thing', status: 'approved' }), 400, 'bad_request');
  });
});
