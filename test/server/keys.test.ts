/** API keys: issue, list, revoke (spec: API key, Keys; gaps.md: Names, Keys list). */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey, API_KEY_PATTERN, IssuedKey } from '../../sdk/contract/index.ts';
import { call, expectError, makeApp, newSeller, type SellerCreated } from './helpers.ts';

let app: FastifyInstance;
let seller: SellerCreated;

beforeAll(async () => {
  app = await makeApp();
  seller = await newSeller(app);
});
afterAll(async () => {
  await app.close();
});

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('issue', () => {
  it('a subset of scopes → 201 with a live key, prefix = first 18 characters', async () => {
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/keys', { name: 'reporting', scopes: ['stats', 'catalog'] });
    expect(res.status).toBe(201);
    expect(IssuedKey.safeParse(res.body).success).toBe(true);
    expect(res.body.key).toMatch(/^service_live_[0-9A-Za-z]{40}$/);
    expect(res.body.key).toMatch(API_KEY_PATTERN);
    expect(res.body.prefix).toBe(res.body.key.slice(0, 18));
    expect(res.body.prefix).toHaveLength(18);
    expect(res.body.id).toMatch(/^key_[0-9A-Za-z]+$/);
    expect(res.body).toMatchObject({ name: 'reporting', scopes: ['stats', 'catalog'], mode: 'live' });
    expect(res.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // the new key works, with exactly its scopes
    const me = await call(app, res.body.key, 'GET', '/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body.key).toEqual({ id: res.body.id, prefix: res.body.prefix, scopes: ['stats', 'catalog'] });
    expect((await call(app, res.body.key, 'GET', '/api/v1/catalog/services')).status).toBe(200);
    const denied = await call(app, res.body.key, 'GET', '/api/v1/keys');
    expectError(denied, 403, 'scope');
    expect(denied.body.detail).toMatchObject({ needed: 'keys' });
  });

  it('the sandbox seller key itself has the key format', () => {
    expect(seller.apiKey).toMatch(/^service_live_[0-9A-Za-z]{40}$/);
    expect(seller.keyId).toMatch(/^key_/);
  });

  it('every issued key is distinct', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 10; i++) keys.add((await call(app, seller.apiKey, 'POST', '/api/v1/keys', { name: `k${i}`, scopes: ['catalog'] })).body.key);
    expect(keys.size).toBe(10);
  });

  it('duplicate scopes are stored once', async () => {
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/keys', { name: 'dup', scopes: ['catalog', 'catalog'] });
    expect(res.status).toBe(201);
    expect(res.body.scopes).toEqual(['catalog']);
  });

  it("a test seller's keys are service_test_ and mode test", async () => {
    const t = await newSeller(app, { mode: 'test' });
    expect(t.apiKey).toMatch(/^service_test_[0-9A-Za-z]{40}$/);
    const res = await call(app, t.apiKey, 'POST', '/api/v1/keys', { name: 'ci', scopes: ['catalog'] });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^service_test_[0-9A-Za-z]{40}$/);
    expect(res.body.mode).toBe('test');
    expect(res.body.prefix).toBe('service_test_' + res.body.key.slice(13, 18));
    const me = await call(app, res.body.key, 'GET', '/api/v1/me');
    expect(me.body.mode).toBe('test');
  });

  it('scope escalation → 409 rejected, kind scope_escalation; nothing issued', async () => {
    const narrow = await newSeller(app, { scopes: ['keys', 'catalog'] });
    const before = (await call(app, narrow.apiKey, 'GET', '/api/v1/keys')).body.items.length;
    const res = await call(app, narrow.apiKey, 'POST', '/api/v1/keys', { name: 'wide', scopes: ['catalog', 'documents'] });
    expectError(res, 409, 'rejected');
    expect(res.body.refusal.kind).toBe('scope_escalation');
    expect(res.body.refusal.allowed).toEqual(['keys', 'catalog']);
    expect(JSON.stringify(res.body.detail)).toContain('documents');
    expect((await call(app, narrow.apiKey, 'GET', '/api/v1/keys')).body.items.length).toBe(before);
    // its own scopes, or fewer, are fine
    expect((await call(app, narrow.apiKey, 'POST', '/api/v1/keys', { name: 'same', scopes: ['catalog', 'keys'] })).status).toBe(201);
  });

  it('an empty scope list or an empty name → 400', async () => {
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/keys', { name: 'none', scopes: [] }), 400, 'bad_request');
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/keys', { name: '  ', scopes: ['catalog'] }), 400, 'bad_request');
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/keys', { scopes: ['catalog'] }), 400, 'bad_request');
  });
});

describe('list', () => {
  it('shows every key with the contract fields, newest first, never key values or hashes', async () => {
    const s = await newSeller(app);
    const issued: string[] = [s.apiKey];
    for (const name of ['one', 'two', 'three']) {
      issued.push((await call(app, s.apiKey, 'POST', '/api/v1/keys', { name, scopes: ['catalog'] })).body.key);
    }
    const res = await call(app, s.apiKey, 'GET', '/api/v1/keys');
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items).toHaveLength(4);
    for (const item of res.body.items) {
      expect(Object.keys(item).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'mode', 'name', 'prefix', 'revoked', 'scopes']);
      expect(ApiKey.safeParse(item).success).toBe(true);
    }
    for (const key of issued) {
      expect(res.text).not.toContain(key);
      expect(res.text).not.toContain(key.slice(18));
      expect(res.text).not.toContain(sha256(key));
    }
    expect(res.text).not.toMatch(/"hash"/);
    expect(res.body.items.map((k: { prefix: string }) => k.prefix).sort()).toEqual(issued.map((k) => k.slice(0, 18)).sort());
    const created = res.body.items.map((k: { createdAt: string }) => k.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('records lastUsedAt once a key is used', async () => {
    const s = await newSeller(app);
    const k = (await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'lazy', scopes: ['catalog'] })).body;
    const before = (await call(app, s.apiKey, 'GET', '/api/v1/keys')).body.items.find((i: { id: string }) => i.id === k.id);
    expect(before.lastUsedAt).toBeNull();
    await call(app, k.key, 'GET', '/api/v1/me');
    const after = (await call(app, s.apiKey, 'GET', '/api/v1/keys')).body.items.find((i: { id: string }) => i.id === k.id);
    expect(after.lastUsedAt).toMatch(/Z$/);
  });

  it('pages with limit and cursor without duplicates', async () => {
    const s = await newSeller(app);
    for (let i = 0; i < 6; i++) await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: `p${i}`, scopes: ['catalog'] });
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: { items: { id: string }[]; nextCursor: string | null } } = await call(
        app,
        s.apiKey,
        'GET',
        `/api/v1/keys?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      ids.push(...res.body.items.map((k) => k.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
  });

  it("shows only the caller's seller's keys", async () => {
    const a = await newSeller(app);
    const b = await newSeller(app);
    const listA = (await call(app, a.apiKey, 'GET', '/api/v1/keys')).body.items.map((k: { id: string }) => k.id);
    expect(listA).toEqual([a.keyId]);
    expect(listA).not.toContain(b.keyId);
  });
});

describe('revoke', () => {
  it('→ {id, revoked: true}; the list shows it revoked; revoking again answers the same', async () => {
    const s = await newSeller(app);
    const k = (await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'old', scopes: ['catalog'] })).body;
    const res = await call(app, s.apiKey, 'DELETE', `/api/v1/keys/${k.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: k.id, revoked: true });
    const listed = (await call(app, s.apiKey, 'GET', '/api/v1/keys')).body.items.find((i: { id: string }) => i.id === k.id);
    expect(listed.revoked).toBe(true);
    const again = await call(app, s.apiKey, 'DELETE', `/api/v1/keys/${k.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ id: k.id, revoked: true });
    expectError(await call(app, k.key, 'GET', '/api/v1/me'), 401, 'revoked');
  });

  it("revoking a foreign seller's key id → 404, identical to an absent id; the foreign key keeps working", async () => {
    const mine = await newSeller(app);
    const theirs = await newSeller(app);
    const foreign = await call(app, mine.apiKey, 'DELETE', `/api/v1/keys/${theirs.keyId}`);
    const absent = await call(app, mine.apiKey, 'DELETE', `/api/v1/keys/key_${'0'.repeat(16)}`);
    expectError(foreign, 404, 'not_found');
    expectError(absent, 404, 'not_found');
    expect(foreign.text).toBe(absent.text);
    expect(foreign.body).toEqual(absent.body);
    expect(foreign.text).not.toContain(theirs.keyId);
    expect((await call(app, theirs.apiKey, 'GET', '/api/v1/me')).status).toBe(200);
  });
});
