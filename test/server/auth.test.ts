/** Authentication and scopes (spec: Authentication; gaps.md: HTTP conventions, Scopes). */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, expectError, issueKey, makeApp, newSeller, sandbox, setStatus } from './helpers.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await makeApp();
});
afterAll(async () => {
  await app.close();
});

describe('authentication', () => {
  it('no Authorization header → 401 no_key with WWW-Authenticate: Bearer', async () => {
    const res = await call(app, null, 'GET', '/api/v1/me');
    expectError(res, 401, 'no_key');
    expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer\b/);
  });

  it('no key on a changing call is no_key too (auth before the idempotency check)', async () => {
    const res = await call(app, null, 'POST', '/api/v1/keys', { name: 'x', scopes: ['keys'] }, { 'idempotency-key': null });
    expectError(res, 401, 'no_key');
  });

  it.each([
    ['Basic dXNlcjpwYXNz'],
    ['Bearer'],
    ['Bearer '],
    ['Bearer two words'],
    ['service_live_0123456789012345678901234567890123456789'],
    ['Token abc'],
  ])('malformed header %j → 401 no_key with WWW-Authenticate', async (authorization) => {
    const res = await call(app, null, 'GET', '/api/v1/me', undefined, { authorization });
    expectError(res, 401, 'no_key');
    expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer\b/);
  });

  it('unknown key → 401 bad_key with WWW-Authenticate: Bearer', async () => {
    const res = await call(app, 'service_live_' + 'x'.repeat(40), 'GET', '/api/v1/me');
    expectError(res, 401, 'bad_key');
    expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer\b/);
    const junk = await call(app, 'junk', 'GET', '/api/v1/catalog/services');
    expectError(junk, 401, 'bad_key');
  });

  it('the bearer scheme is case-insensitive', async () => {
    const s = await newSeller(app);
    const res = await call(app, null, 'GET', '/api/v1/me', undefined, { authorization: `bearer ${s.apiKey}` });
    expect(res.status).toBe(200);
  });

  it('a revoked key is refused at once (401 revoked), other keys keep working', async () => {
    const s = await newSeller(app);
    const second = await issueKey(app, s.apiKey, ['catalog', 'keys']);
    expect((await call(app, second.key, 'GET', '/api/v1/me')).status).toBe(200);
    const del = await call(app, s.apiKey, 'DELETE', `/api/v1/keys/${second.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: second.id, revoked: true });
    const res = await call(app, second.key, 'GET', '/api/v1/me');
    expectError(res, 401, 'revoked');
    expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer\b/);
    expectError(await call(app, second.key, 'GET', '/api/v1/catalog/services'), 401, 'revoked');
    expectError(await call(app, second.key, 'POST', '/api/v1/keys', { name: 'n', scopes: ['keys'] }), 401, 'revoked');
    expect((await call(app, s.apiKey, 'GET', '/api/v1/me')).status).toBe(200);
  });

  it('a key can revoke itself; the next call with it is revoked', async () => {
    const s = await newSeller(app);
    const del = await call(app, s.apiKey, 'DELETE', `/api/v1/keys/${s.keyId}`);
    expect(del.status).toBe(200);
    expectError(await call(app, s.apiKey, 'GET', '/api/v1/me'), 401, 'revoked');
  });

  it('seller status not_seller → 403 not_seller; blocked → 403 seller_blocked; unblocked → works again', async () => {
    const s = await newSeller(app);
    await setStatus(app, s.sellerId, 'not_seller');
    expectError(await call(app, s.apiKey, 'GET', '/api/v1/me'), 403, 'not_seller');
    await setStatus(app, s.sellerId, 'blocked');
    const blocked = await call(app, s.apiKey, 'GET', '/api/v1/me');
    expectError(blocked, 403, 'seller_blocked');
    expect(blocked.headers['www-authenticate']).toBeUndefined();
    expectError(await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Something new' }), 403, 'seller_blocked');
    await setStatus(app, s.sellerId, 'active');
    const me = await call(app, s.apiKey, 'GET', '/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body.sellerId).toBe(s.sellerId);
  });

  it('revoked wins over a blocked seller (the key itself is unusable)', async () => {
    const s = await newSeller(app);
    const k = await issueKey(app, s.apiKey, ['catalog']);
    await call(app, s.apiKey, 'DELETE', `/api/v1/keys/${k.id}`);
    await setStatus(app, s.sellerId, 'blocked');
    expectError(await call(app, k.key, 'GET', '/api/v1/me'), 401, 'revoked');
  });

  it('a key lacking the scope → 403 scope with detail.needed', async () => {
    const s = await newSeller(app, { scopes: ['orders'] });
    const cat = await call(app, s.apiKey, 'GET', '/api/v1/catalog/services');
    expectError(cat, 403, 'scope');
    expect(cat.body.detail).toMatchObject({ needed: 'catalog' });
    const keys = await call(app, s.apiKey, 'GET', '/api/v1/keys');
    expectError(keys, 403, 'scope');
    expect(keys.body.detail).toMatchObject({ needed: 'keys' });
    const issue = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'x', scopes: ['orders'] });
    expectError(issue, 403, 'scope');
    expect(issue.body.detail).toMatchObject({ needed: 'keys' });
  });

  it('the scope check comes before the idempotency-key check', async () => {
    const s = await newSeller(app, { scopes: ['orders'] });
    const res = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'x', scopes: ['orders'] }, { 'idempotency-key': null });
    expectError(res, 403, 'scope');
  });

  it('GET /me works with a key having only `orders`', async () => {
    const s = await newSeller(app, { scopes: ['orders'] });
    const me = await call(app, s.apiKey, 'GET', '/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ sellerId: s.sellerId, mode: 'live', key: { id: s.keyId, scopes: ['orders'] } });
    expect(me.body.key.prefix).toBe(s.apiKey.slice(0, 18));
  });

  it('GET /me answers the contract fields and nothing secret', async () => {
    const s = await newSeller(app, { admission: 'complete', sellerType: 'ip' });
    const me = await call(app, s.apiKey, 'GET', '/api/v1/me');
    expect(me.status).toBe(200);
    expect(Object.keys(me.body).sort()).toEqual(['admissionComplete', 'key', 'mode', 'nickname', 'sellerId', 'sellerType']);
    expect(me.body.admissionComplete).toBe(true);
    expect(me.body.sellerType).toBe('ip');
    expect(me.text).not.toContain(s.apiKey);
  });

  it('a successful call carries RateLimit headers; an auth failure does not consume or report a bucket', async () => {
    const s = await newSeller(app);
    const ok = await call(app, s.apiKey, 'GET', '/api/v1/me');
    expect(ok.headers['ratelimit']).toBeTruthy();
    expect(ok.headers['ratelimit-policy']).toBeTruthy();
    const bad = await call(app, 'nope', 'GET', '/api/v1/me');
    expect(bad.headers['ratelimit']).toBeUndefined();
  });
});

describe('sandbox authentication', () => {
  it('no admin token → 401 no_key; wrong token → 401 bad_key; a seller key is not an admin token', async () => {
    const none = await app.inject({ method: 'GET', url: '/sandbox/v1/clock' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('no_key');
    const wrong = await app.inject({ method: 'GET', url: '/sandbox/v1/clock', headers: { authorization: 'Bearer wrong' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('bad_key');
    const s = await newSeller(app);
    const asSeller = await app.inject({ method: 'GET', url: '/sandbox/v1/clock', headers: { authorization: `Bearer ${s.apiKey}` } });
    expect(asSeller.statusCode).toBe(401);
    expect((await sandbox(app, 'GET', '/clock')).status).toBe(200);
  });

  it('an admin token is not an API key', async () => {
    const res = await call(app, ADMIN, 'GET', '/api/v1/me');
    expectError(res, 401, 'bad_key');
  });

  it('status of an unknown seller → 404', async () => {
    const res = await sandbox(app, 'PUT', '/sellers/sel_nope/status', { status: 'blocked' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });
});
