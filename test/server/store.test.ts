/** The file store under the app: persistence across restarts, corrupt files, concurrent writes. */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { StoreError } from '../../server/store/store.ts';
import { useFileStore } from '../helpers/file-store.ts';
import { ADMIN, call, newSeller, sandbox } from './helpers.ts';

const store = useFileStore('seller-store-test-');
const { fileApp, closeAll } = store;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
const sellerFile = (sellerId: string) => path.join(store.dir, 'sellers', `${sellerId}.json`);
/** Every record of a seller's sharded section (`keys`, `catalogRequests`, …), from its shard files. */
async function sectionRecords(sellerId: string, section: string): Promise<any[]> {
  const dir = path.join(store.dir, 'sellers', sellerId);
  const names = (await readdir(dir)).filter((f) => f.startsWith(`${section}-`) && f.endsWith('.json'));
  const out: any[] = [];
  for (const f of names) out.push(...Object.values((await readJson(path.join(dir, f))).records));
  return out;
}
/** The text of every file in the data directory (shared.json, seq.json, seller cores and shards). */
async function allDataTexts(): Promise<string[]> {
  const entries = await readdir(store.dir, { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(path.join(e.parentPath, e.name), 'utf8')));
}

describe('persistence', () => {
  it('data survives a rebuild of the app over the same directory', async () => {
    let app = await fileApp();
    const s = await newSeller(app);
    const issued = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'kept', scopes: ['catalog', 'keys'] }, { 'idempotency-key': 'persist-1' });
    expect(issued.status).toBe(201);
    const revokedKey = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'gone', scopes: ['catalog'] });
    await call(app, s.apiKey, 'DELETE', `/api/v1/keys/${revokedKey.body.id}`);
    const req = await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Persisted request' });
    await sandbox(app, 'PUT', `/sellers/${s.sellerId}/status`, { status: 'blocked' });
    await sandbox(app, 'PUT', `/sellers/${s.sellerId}/status`, { status: 'active' });
    await sandbox(app, 'POST', '/clock/advance', { seconds: 3600 });
    const clockBefore = Date.parse((await sandbox(app, 'GET', '/clock')).body.now);
    await closeAll();

    app = await fileApp();
    const me = await call(app, issued.body.key, 'GET', '/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body.key.id).toBe(issued.body.id);
    expect((await call(app, s.apiKey, 'GET', '/api/v1/me')).status).toBe(200);
    expect((await call(app, revokedKey.body.key, 'GET', '/api/v1/me')).body.error).toBe('revoked');
    const requests = await call(app, s.apiKey, 'GET', '/api/v1/catalog/requests');
    expect(requests.body.items.map((r: { id: string }) => r.id)).toEqual([req.body.id]);
    // idempotency records survive too
    const replay = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'kept', scopes: ['catalog', 'keys'] }, { 'idempotency-key': 'persist-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(issued.body);
    // the sandbox clock offset survives
    const clockAfter = Date.parse((await sandbox(app, 'GET', '/clock')).body.now);
    expect(clockAfter).toBeGreaterThanOrEqual(clockBefore);
    expect(clockAfter - Date.now()).toBeGreaterThan(3500_000);
    // the catalogue is seeded once, not twice
    const catalog = await call(app, s.apiKey, 'GET', '/api/v1/catalog/services?limit=200');
    expect(new Set(catalog.body.items.map((p: { slug: string }) => p.slug)).size).toBe(catalog.body.items.length);
  });

  it('writes a shared document and one document per seller', async () => {
    const app = await fileApp();
    const a = await newSeller(app);
    const b = await newSeller(app);
    const files = (await readdir(path.join(store.dir, 'sellers'))).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual([`${a.sellerId}.json`, `${b.sellerId}.json`].sort());
    const shared = await readJson(path.join(store.dir, 'shared.json'));
    expect(Object.keys(shared.sellers).sort()).toEqual([a.sellerId, b.sellerId].sort());
    // the key's hash is stored with the seller's key record (the key index is derived from them)
    // (in the seller's shards of keys, not in its core document)
    expect((await sectionRecords(a.sellerId, 'keys')).map((k: { id: string; hash: string }) => ({ id: k.id, hash: k.hash }))).toEqual([{ id: a.keyId, hash: sha256(a.apiKey) }]);
    expect(await readJson(sellerFile(a.sellerId))).not.toHaveProperty('keys');
    expect(shared).not.toHaveProperty('keyIndex');
  });

  it('no API key value is written to any data file (only hashes)', async () => {
    const app = await fileApp();
    const s = await newSeller(app);
    const issued = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'secret', scopes: ['catalog'] });
    expect(issued.status).toBe(201);
    const texts = await allDataTexts();
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const key of [s.apiKey, issued.body.key]) {
      for (const text of texts) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(key.slice(18));
      }
    }
    // and the replay still answers the key
    const replay = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'secret', scopes: ['catalog'] }, { 'idempotency-key': 'seal-1' });
    const again = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'secret', scopes: ['catalog'] }, { 'idempotency-key': 'seal-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.key).toBe(replay.body.key);
    expect(await readFile(sellerFile(s.sellerId), 'utf8')).not.toContain(replay.body.key);
  });

  it('concurrent writes all land in the file (20 parallel key issues)', async () => {
    const app = await fileApp();
    const s = await newSeller(app);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(app, s.apiKey, 'POST', '/api/v1/keys', { name: `parallel-${i}`, scopes: ['catalog'] })),
    );
    for (const a of answers) expect(a.status).toBe(201);
    const ids = answers.map((a) => a.body.id as string);
    expect(new Set(ids).size).toBe(20);

    const doc = await readJson(sellerFile(s.sellerId));
    const keys = await sectionRecords(s.sellerId, 'keys');
    expect(keys).toHaveLength(21);
    const stored = new Set(keys.map((k: { id: string }) => k.id));
    for (const id of ids) expect(stored.has(id), id).toBe(true);
    // The idempotency records live in shards of their own beside the core (server/store/shards.ts).
    expect(doc).not.toHaveProperty('idempotency');
    const records = await readJson(path.join(path.dirname(sellerFile(s.sellerId)), s.sellerId, 'idempotency-0.json'));
    expect(Object.keys(records.records)).toHaveLength(20);
    // each key's hash is stored with its record (what the key index is rebuilt from)
    const hashes = new Map(keys.map((k: { id: string; hash: string }) => [k.id, k.hash]));
    for (const a of answers) expect(hashes.get(a.body.id)).toBe(sha256(a.body.key));

    // and after a restart every one of them works
    await closeAll();
    const again = await fileApp();
    const results = await Promise.all(answers.map((a) => call(again, a.body.key, 'GET', '/api/v1/me')));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
  });

  it('concurrent writes of different sellers all land', async () => {
    const app = await fileApp();
    const sellers = await Promise.all(Array.from({ length: 10 }, () => newSeller(app)));
    await Promise.all(sellers.map((s) => call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: `From ${s.sellerId}` })));
    const shared = await readJson(path.join(store.dir, 'shared.json'));
    expect(Object.keys(shared.sellers)).toHaveLength(10);
    // the request index is derived from the sellers' requests, never written
    expect(shared).not.toHaveProperty('requestIndex');
    for (const s of sellers) expect(await sectionRecords(s.sellerId, 'catalogRequests')).toHaveLength(1);
  });
});

describe('the catalogue request index', () => {
  it('is derived from the sellers at start: a request made before a restart is decided after it', async () => {
    let app = await fileApp();
    const s = await newSeller(app);
    const created = await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Tidal' });
    expect(created.status).toBe(201);
    await closeAll();
    app = await fileApp();
    const decided = await sandbox(app, 'POST', `/catalog/requests/${created.body.id}/decide`, { approve: true });
    expect(decided.status, decided.text).toBe(200);
    expect((await call(app, s.apiKey, 'GET', '/api/v1/catalog/requests')).body.items[0]).toMatchObject({ id: created.body.id, status: 'approved' });
  });
});

describe('corrupt data files', () => {
  it('a corrupt shared.json makes buildApp reject with a StoreError naming the file; the file is untouched', async () => {
    const file = path.join(store.dir, 'shared.json');
    await writeFile(file, '{not json');
    const before = await readFile(file);
    const err = await buildApp({ dataDir: store.dir, adminToken: ADMIN }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(/not valid JSON/);
    expect((err as Error).message).toMatch(/untouched/);
    expect((await readFile(file)).equals(before)).toBe(true);
  });

  it.each([
    ['a JSON array', '[]'],
    ['a JSON number', '42'],
    ['a JSON string', '"x"'],
    ['JSON null', 'null'],
    ['an empty file', ''],
  ])('shared.json holding %s is refused and left untouched', async (_what, text) => {
    const file = path.join(store.dir, 'shared.json');
    await writeFile(file, text);
    await expect(buildApp({ dataDir: store.dir, adminToken: ADMIN })).rejects.toBeInstanceOf(StoreError);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('a corrupt seller file likewise', async () => {
    const app = await fileApp();
    const s = await newSeller(app);
    await closeAll();
    const file = sellerFile(s.sellerId);
    await writeFile(file, '{"version":1,"sellerId":');
    const before = await readFile(file);
    const sharedBefore = await readFile(path.join(store.dir, 'shared.json'));
    const err = await buildApp({ dataDir: store.dir, adminToken: ADMIN }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toContain(file);
    expect((await readFile(file)).equals(before)).toBe(true);
    expect((await readFile(path.join(store.dir, 'shared.json'))).equals(sharedBefore)).toBe(true);
  });

  it('a seller file holding a non-object is refused', async () => {
    const app = await fileApp();
    const s = await newSeller(app);
    await closeAll();
    await writeFile(sellerFile(s.sellerId), '[1,2]');
    await expect(buildApp({ dataDir: store.dir, adminToken: ADMIN })).rejects.toBeInstanceOf(StoreError);
    expect(await readFile(sellerFile(s.sellerId), 'utf8')).toBe('[1,2]');
  });

  it('a stray seller file with a bad name is refused', async () => {
    await fileApp();
    await closeAll();
    await writeFile(path.join(store.dir, 'sellers', 'bad name!.json'), '{}');
    await expect(buildApp({ dataDir: store.dir, adminToken: ADMIN })).rejects.toBeInstanceOf(StoreError);
  });
});
