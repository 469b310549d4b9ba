/** Idempotency (gaps.md: Idempotency; spec: Authentication rule 8). */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Answer, call, expectError, makeApp, newSeller, sandbox, type SellerCreated, setStatus } from './helpers.ts';

let app: FastifyInstance;
let seller: SellerCreated;

beforeEach(async () => {
  app = await makeApp();
  seller = await newSeller(app);
});
afterEach(async () => {
  await app.close();
});

const keyCount = async (apiKey = seller.apiKey): Promise<number> => {
  const res = await call(app, apiKey, 'GET', '/api/v1/keys?limit=200');
  expect(res.status).toBe(200);
  return res.body.items.length;
};

const issue = (idem: string | null, body: unknown = { name: 'ci', scopes: ['catalog', 'keys'] }, apiKey = seller.apiKey) =>
  call(app, apiKey, 'POST', '/api/v1/keys', body, { 'idempotency-key': idem });

const replayed = (res: Answer) => res.headers['idempotent-replayed'];

describe('Idempotency-Key required', () => {
  it('a changing call without it → 400 idempotency_key_required, nothing created', async () => {
    const before = await keyCount();
    const res = await issue(null);
    expectError(res, 400, 'idempotency_key_required');
    expect(await keyCount()).toBe(before);
  });

  it('an empty key counts as missing', async () => {
    expectError(await issue(''), 400, 'idempotency_key_required');
  });

  it('PUT and PATCH need it too, checked before the body', async () => {
    expectError(await call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', {}, { 'idempotency-key': null }), 400, 'idempotency_key_required');
    expectError(await call(app, seller.apiKey, 'PATCH', '/api/v1/listings/1001', {}, { 'idempotency-key': null }), 400, 'idempotency_key_required');
  });

  it('every changing method needs it: POST, DELETE', async () => {
    expectError(await call(app, seller.apiKey, 'DELETE', `/api/v1/keys/${seller.keyId}`, undefined, { 'idempotency-key': null }), 400, 'idempotency_key_required');
    expectError(
      await call(app, seller.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Something' }, { 'idempotency-key': null }),
      400,
      'idempotency_key_required',
    );
    // the key was not revoked
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/me')).status).toBe(200);
  });

  it('reads need none and are never replayed', async () => {
    const a = await call(app, seller.apiKey, 'GET', '/api/v1/me', undefined, { 'idempotency-key': 'read-1' });
    const b = await call(app, seller.apiKey, 'GET', '/api/v1/me', undefined, { 'idempotency-key': 'read-1' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(replayed(b)).toBeUndefined();
  });

  it('a key longer than 255 characters → 400 bad_request; 255 is fine', async () => {
    const long = await issue('k'.repeat(256));
    expectError(long, 400, 'bad_request');
    expect(JSON.stringify(long.body.detail)).toContain('Idempotency-Key');
    expect((await issue('k'.repeat(255))).status).toBe(201);
  });

  it('a key with a non-printable character → 400 bad_request', async () => {
    expectError(await issue('tab\there'), 400, 'bad_request');
  });

  it('a key of spaces only, or beginning or ending with one, → 400 (HTTP strips such spaces: the key would change on the way)', async () => {
    for (const key of ['   ', ' k', 'k ']) expect((await issue(key)).status, JSON.stringify(key)).toBe(400);
    expect((await issue('a key with spaces inside')).status).toBe(201);
  });

  it('the sandbox needs no Idempotency-Key', async () => {
    const res = await sandbox(app, 'POST', '/sellers', {});
    expect(res.status).toBe(201);
  });
});

describe('replay', () => {
  it('same key, same body → the stored status and body with Idempotent-Replayed: true; one key created', async () => {
    const before = await keyCount();
    const first = await issue('same-1');
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeUndefined();
    const second = await issue('same-1');
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(replayed(second)).toBe('true');
    const third = await issue('same-1');
    expect(third.body).toEqual(first.body);
    expect(replayed(third)).toBe('true');
    expect(await keyCount()).toBe(before + 1);
  });

  it('the same body with keys in another order (and other whitespace) is the same request', async () => {
    const first = await call(app, seller.apiKey, 'POST', '/api/v1/keys', { raw: '{"name":"ord","scopes":["catalog"]}', contentType: 'application/json' }, { 'idempotency-key': 'order-1' });
    expect(first.status).toBe(201);
    const second = await call(app, seller.apiKey, 'POST', '/api/v1/keys', { raw: '{ "scopes" : ["catalog"],\n  "name": "ord" }', contentType: 'application/json' }, { 'idempotency-key': 'order-1' });
    expect(second.status).toBe(201);
    expect(replayed(second)).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('same key, different body → 422 idempotency_mismatch, nothing created', async () => {
    await issue('mm-1');
    const before = await keyCount();
    const res = await issue('mm-1', { name: 'ci', scopes: ['catalog'] });
    expectError(res, 422, 'idempotency_mismatch');
    expect(await keyCount()).toBe(before);
  });

  it('same key on another path or method → 422 idempotency_mismatch', async () => {
    await issue('mm-2');
    const other = await call(app, seller.apiKey, 'POST', '/api/v1/catalog/requests', { name: 'ci', scopes: ['catalog', 'keys'] }, { 'idempotency-key': 'mm-2' });
    // validation comes first: this body is not a catalogue request
    expectError(other, 400, 'bad_request');
    const req = await call(app, seller.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'New thing' }, { 'idempotency-key': 'mm-2' });
    expectError(req, 422, 'idempotency_mismatch');
    const del = await call(app, seller.apiKey, 'DELETE', `/api/v1/keys/${seller.keyId}`, undefined, { 'idempotency-key': 'mm-2' });
    expectError(del, 422, 'idempotency_mismatch');
    // the key was not revoked
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/me')).status).toBe(200);
  });

  it('the same key on two different record paths is a mismatch (the path is fingerprinted)', async () => {
    const k1 = (await issue('p-a')).body;
    const k2 = (await issue('p-b')).body;
    expect((await call(app, seller.apiKey, 'DELETE', `/api/v1/keys/${k1.id}`, undefined, { 'idempotency-key': 'del-x' })).status).toBe(200);
    expectError(await call(app, seller.apiKey, 'DELETE', `/api/v1/keys/${k2.id}`, undefined, { 'idempotency-key': 'del-x' }), 422, 'idempotency_mismatch');
    expect((await call(app, k2.key, 'GET', '/api/v1/me')).status).toBe(200);
  });

  it('a 409 refusal is stored and replayed', async () => {
    const narrow = (await issue('narrow', { name: 'narrow', scopes: ['keys'] })).body;
    const first = await issue('esc-1', { name: 'wide', scopes: ['keys', 'hooks'] }, narrow.key);
    expectError(first, 409, 'rejected');
    expect(first.body.refusal.kind).toBe('scope_escalation');
    const second = await issue('esc-1', { name: 'wide', scopes: ['keys', 'hooks'] }, narrow.key);
    expect(second.status).toBe(409);
    expect(second.body).toEqual(first.body);
    expect(replayed(second)).toBe('true');
    const other = await issue('esc-1', { name: 'wide', scopes: ['keys'] }, narrow.key);
    expectError(other, 422, 'idempotency_mismatch');
  });

  it('a 404 from the handler is stored and replayed', async () => {
    const first = await call(app, seller.apiKey, 'DELETE', '/api/v1/keys/key_missing', undefined, { 'idempotency-key': 'nf-1' });
    expectError(first, 404, 'not_found');
    const second = await call(app, seller.apiKey, 'DELETE', '/api/v1/keys/key_missing', undefined, { 'idempotency-key': 'nf-1' });
    expect(second.status).toBe(404);
    expect(second.body).toEqual(first.body);
    expect(replayed(second)).toBe('true');
  });

  it('a replay answers the stored result even after the state moved on', async () => {
    const k = (await issue('rv-0')).body;
    const first = await call(app, seller.apiKey, 'DELETE', `/api/v1/keys/${k.id}`, undefined, { 'idempotency-key': 'rv-1' });
    expect(first.body).toEqual({ id: k.id, revoked: true });
    const second = await call(app, seller.apiKey, 'DELETE', `/api/v1/keys/${k.id}`, undefined, { 'idempotency-key': 'rv-1' });
    expect(second.body).toEqual(first.body);
    expect(replayed(second)).toBe('true');
  });

  it('a validation bad_request is not stored: the corrected body with the same key then succeeds', async () => {
    const before = await keyCount();
    const bad = await issue('fix-1', { name: 'ci', scopes: ['catalog'], junk: true });
    expectError(bad, 400, 'bad_request');
    const again = await issue('fix-1', { name: 'ci', scopes: ['catalog'], junk: true });
    expectError(again, 400, 'bad_request');
    expect(replayed(again)).toBeUndefined();
    const good = await issue('fix-1', { name: 'ci', scopes: ['catalog'] });
    expect(good.status).toBe(201);
    expect(replayed(good)).toBeUndefined();
    expect(await keyCount()).toBe(before + 1);
  });

  it('invalid JSON is not stored', async () => {
    const bad = await call(app, seller.apiKey, 'POST', '/api/v1/keys', { raw: '{nope', contentType: 'application/json' }, { 'idempotency-key': 'json-1' });
    expectError(bad, 400, 'bad_request');
    expect((await issue('json-1')).status).toBe(201);
  });

  it('authentication and scope failures are not stored', async () => {
    await setStatus(app, seller.sellerId, 'blocked');
    expectError(await issue('auth-1'), 403, 'seller_blocked');
    await setStatus(app, seller.sellerId, 'active');
    const ok = await issue('auth-1');
    expect(ok.status).toBe(201);
    expect(replayed(ok)).toBeUndefined();

    const narrow = (await issue('n-2', { name: 'orders only', scopes: ['orders'] })).body;
    expectError(await call(app, narrow.key, 'POST', '/api/v1/catalog/requests', { title: 'Thing' }, { 'idempotency-key': 'scope-1' }), 403, 'scope');
    const req = await call(app, seller.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Thing' }, { 'idempotency-key': 'scope-1' });
    expect(req.status).toBe(201);
    expect(replayed(req)).toBeUndefined();
  });

  it('two identical requests sent at once create one key; one of them is replayed', async () => {
    const before = await keyCount();
    const [a, b] = await Promise.all([issue('twin-1'), issue('twin-1')]);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body).toEqual(b.body);
    expect([replayed(a), replayed(b)].sort()).toEqual(['true', undefined]);
    expect(await keyCount()).toBe(before + 1);
  });

  it('many identical requests at once still create one record', async () => {
    const before = await keyCount();
    const all = await Promise.all(Array.from({ length: 8 }, () => call(app, seller.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Twin' }, { 'idempotency-key': 'twin-many' })));
    expect(new Set(all.map((r) => r.body.id)).size).toBe(1);
    expect(all.filter((r) => replayed(r) === 'true')).toHaveLength(7);
    const list = await call(app, seller.apiKey, 'GET', '/api/v1/catalog/requests');
    expect(list.body.items).toHaveLength(1);
    expect(await keyCount()).toBe(before);
  });

  it('a concurrent twin with a different body → one succeeds, the other is a mismatch', async () => {
    const [a, b] = await Promise.all([issue('twin-2'), issue('twin-2', { name: 'other', scopes: ['catalog'] })]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
  });
});

describe('retention and scope of records', () => {
  it('records expire after 24 h on the server clock: the same key then runs afresh', async () => {
    const first = await issue('ttl-1');
    expect(first.status).toBe(201);
    await sandbox(app, 'POST', '/clock/advance', { seconds: 86_000 });
    const stillThere = await issue('ttl-1');
    expect(replayed(stillThere)).toBe('true');
    expect(stillThere.body).toEqual(first.body);
    const adv = await sandbox(app, 'POST', '/clock/advance', { seconds: 400 });
    expect(adv.status).toBe(200);
    const fresh = await issue('ttl-1');
    expect(fresh.status).toBe(201);
    expect(replayed(fresh)).toBeUndefined();
    expect(fresh.body.id).not.toBe(first.body.id);
    // and that new answer is itself replayed now
    const again = await issue('ttl-1');
    expect(replayed(again)).toBe('true');
    expect(again.body.id).toBe(fresh.body.id);
  });

  it('after 24 h (86400 s) exactly, a reused key with a different body is no mismatch', async () => {
    await issue('ttl-2');
    await sandbox(app, 'POST', '/clock/advance', { seconds: 86_400 });
    const res = await issue('ttl-2', { name: 'changed', scopes: ['catalog'] });
    expect(res.status).toBe(201);
    expect(replayed(res)).toBeUndefined();
  });

  it('keys are per seller: two sellers use the same key string independently', async () => {
    const other = await newSeller(app);
    const a = await issue('shared-key');
    const b = await issue('shared-key', { name: 'ci', scopes: ['catalog', 'keys'] }, other.apiKey);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(replayed(b)).toBeUndefined();
    expect(b.body.id).not.toBe(a.body.id);
    // a different body under the same string is fine for the other seller as well
    const c = await call(app, other.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Other' }, { 'idempotency-key': 'shared-key-2' });
    const d = await call(app, seller.apiKey, 'POST', '/api/v1/keys', { name: 'x', scopes: ['catalog'] }, { 'idempotency-key': 'shared-key-2' });
    expect(c.status).toBe(201);
    expect(d.status).toBe(201);
  });

  it('records are per seller, not per API key: another key of the same seller replays', async () => {
    const second = (await issue('k-2')).body;
    const first = await call(app, seller.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Per seller' }, { 'idempotency-key': 'ps-1' });
    const viaOther = await call(app, second.key, 'POST', '/api/v1/catalog/requests', { title: 'Per seller' }, { 'idempotency-key': 'ps-1' });
    expect(viaOther.status).toBe(201);
    expect(replayed(viaOther)).toBe('true');
    expect(viaOther.body).toEqual(first.body);
  });
});
