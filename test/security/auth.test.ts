/**
 * Authentication and hostile input: the admin token compared in constant time (and never by a
 * length-dependent path that throws), prototype pollution through JSON bodies, MCP arguments,
 * idempotency keys, sandbox seller ids and probe headers, and path traversal through the image
 * route and seller ids on a file-backed store.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sameSecret } from '../../server/auth.ts';
import { ADMIN, call, expectError, makeApp, newSeller, sandbox, type SellerCreated } from '../server/helpers.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-fake-png-body')]);

let app: FastifyInstance;
let seller: SellerCreated;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sec-auth-'));
  app = await makeApp({ memory: false, dataDir });
  seller = await newSeller(app);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Object.prototype must stay clean after every test. */
afterEach(() => {
  const probe = {} as Record<string, unknown>;
  for (const name of ['polluted', 'capacity', 'isAdmin', 'scopes', 'x']) expect(probe[name], name).toBeUndefined();
});

describe('the sandbox admin token', () => {
  it('a wrong token of any length, a prefix, or the token with a suffix is bad_key (never a 500)', async () => {
    for (const token of ['x', ADMIN.slice(0, -1), `${ADMIN}x`, ADMIN.toUpperCase(), 'a'.repeat(10_000)]) {
      const res = await app.inject({ method: 'GET', url: '/sandbox/v1/clock', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, token.slice(0, 20)).toBe(401);
      expect(JSON.parse(res.body).error).toBe('bad_key');
    }
    expect((await sandbox(app, 'GET', '/clock')).status).toBe(200);
  });

  it('sameSecret compares hashes of equal length (timingSafeEqual never throws on a length difference)', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', 'x'.repeat(1000))).toBe(false);
  });
});

describe('prototype pollution', () => {
  it('`__proto__` and `constructor.prototype` in a JSON body are refused as bad requests', async () => {
    for (const raw of [
      '{"capacity":2,"__proto__":{"polluted":true,"capacity":9}}',
      '{"capacity":2,"constructor":{"prototype":{"polluted":true}}}',
      '{"quietHours":{"__proto__":{"polluted":true}}}',
    ]) {
      const res = await call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { raw, contentType: 'application/json' });
      expectError(res, 400, 'bad_request');
    }
    const wm = await call(app, seller.apiKey, 'GET', '/api/v1/work-mode');
    expect(wm.body.capacity).not.toBe(9);
  });

  it('MCP tool arguments named `__proto__` or `constructor` are unknown arguments', async () => {
    for (const args of ['{"__proto__":{"polluted":true},"capacity":2}', '{"constructor":{"prototype":{"polluted":true}}}']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/mcp',
        headers: { authorization: `Bearer ${seller.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_work_mode_set","arguments":${args}}}`,
      });
      expect(res.statusCode).toBe(200);
      const result = JSON.parse(res.body).result;
      expect(result.isError, res.body).toBe(true);
      expect(JSON.parse(result.content[0].text).error).toBe('bad_request');
    }
  });

  it('idempotency keys `__proto__`, `constructor`, `toString` are ordinary keys', async () => {
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const a = await call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { capacity: 5 }, { 'idempotency-key': key });
      expect(a.status, `${key}: ${a.text}`).toBe(200);
      const b = await call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { capacity: 5 }, { 'idempotency-key': key });
      expect(b.headers['idempotent-replayed'], key).toBe('true');
      expectError(await call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { capacity: 6 }, { 'idempotency-key': key }), 422, 'idempotency_mismatch');
    }
    const doc = await app.service.store.seller(seller.sellerId);
    expect(Object.getPrototypeOf(doc.idempotency)).toBe(Object.prototype);
  });

  it('sandbox seller ids `__proto__`, `constructor` and path-like ids find no seller', async () => {
    for (const id of ['__proto__', 'constructor', 'hasOwnProperty', '..%2F..%2Fshared', '..', 'x%00y']) {
      const res = await sandbox(app, 'PUT', `/sellers/${id}/status`, { status: 'blocked' });
      expect([400, 404], `${id}: ${res.text}`).toContain(res.status);
    }
  });

  it('a probe hit with a `__proto__` header records nothing odd and pollutes nothing', async () => {
    const url: string = (await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe')).body.url;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${new URL(url).pathname} HTTP/1.1\r\nHost: x\r\n__proto__: {"polluted":true}\r\nconstructor: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`,
        );
      });
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 204/);
    const hits = (await call(app, seller.apiKey, 'GET', '/api/v1/hooks/probe')).body.items as { headers: Record<string, string> }[];
    expect(hits[0]!.headers.constructor).toBe('x');
    for (const hit of hits) expect(Object.getPrototypeOf(hit.headers)).toBe(Object.prototype);
  });
});

describe('path traversal', () => {
  it('images are stored as <card number>.<ext> inside the images directory, and only such names are served', async () => {
    const number: number = (await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body.number;
    expect(Number.isInteger(number)).toBe(true);
    const up = await call(app, seller.apiKey, 'PUT', `/api/v1/listings/${number}/image`, { raw: PNG, contentType: 'image/png' });
    expect(up.status, up.text).toBeLessThan(300);
    expect(await readdir(path.join(dataDir, 'images'))).toEqual([`${number}.png`]);
    const imageUrl: string = (await call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}`)).body.image.url;
    // the card is off: its image is served with the owner's key only
    const got = await app.inject({ method: 'GET', url: new URL(imageUrl, 'http://x').pathname, headers: { authorization: `Bearer ${seller.apiKey}` } });
    expect(got.statusCode).toBe(200);
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    for (const name of [
      '..%2Fstore.key',
      '..%2F..%2Fshared.json',
      '%2e%2e%2fstore.key',
      `${number}.png`,
      `${number}-00000000.png`,
      `${number}-${imageUrl.split('-')[1]!.slice(0, 8)}.png%00.key`,
      `..%5C${number}.png`,
      `__proto__`,
    ]) {
      const res = await app.inject({ method: 'GET', url: `/images/${name}` });
      expect([400, 404], name).toContain(res.statusCode);
    }
    expect((await app.inject({ method: 'GET', url: '/images/../store.key' })).statusCode).toBe(404);
  });

  it('seller files are named by validated ids only', async () => {
    const sellers = await readdir(path.join(dataDir, 'sellers'));
    for (const name of sellers) expect(name).toMatch(/^[A-Za-z0-9_]+(\.json)?$/);
    await expect(app.service.store.seller('../../escape')).rejects.toThrow(/bad seller id/);
  });
});
