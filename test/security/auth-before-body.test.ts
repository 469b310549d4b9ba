/**
 * Authentication before the body is read (server/http/auth-gate.ts): a request whose key cannot be
 * used gets its refusal without its body being parsed (fastify's parsing never starts: a
 * `preParsing` hook never runs) and, over a socket, before the client has even sent the body;
 * every authentication code still comes out; an authenticated caller keeps the body limit.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, issueKey, makeApp, newSeller, setStatus, type SellerCreated } from '../server/helpers.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const MiB = 1024 * 1024;
/** A JSON body of about `mib` MiB: a card with a huge title. */
const bigBody = (mib: number) => JSON.stringify({ title: 'x'.repeat(mib * MiB) });

let app: FastifyInstance;
/** URLs whose body parsing started, in order. */
const parsed: string[] = [];
let seller: SellerCreated;

beforeAll(async () => {
  app = await makeApp({ rateLimit: { perMinute: 1e6, burst: 1e6 } });
  app.addHook('preParsing', (req, _reply, payload, done) => {
    parsed.push(req.url);
    done(null, payload);
  });
  seller = await newSeller(app, { admission: 'complete' });
});
afterAll(async () => {
  await app.close();
});

let idem = 0;
const post = (authorization: string | undefined, url: string, payload: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'idempotency-key': `big-${++idem}`, ...(authorization ? { authorization } : {}) },
    payload,
  });
/** The parses of API and MCP bodies (the sandbox calls a test makes are not what it looks at). */
const apiParses = () => parsed.filter((url) => !url.startsWith('/sandbox/'));

describe('an unusable key is refused before the body is parsed', () => {
  it('no key, a wrong key, a malformed header: 401 with the body unparsed', async () => {
    const body = bigBody(10);
    for (const [authorization, code] of [
      [undefined, 'no_key'],
      ['Basic abc', 'no_key'],
      [`Bearer service_live_${'A'.repeat(40)}`, 'bad_key'],
    ] as const) {
      parsed.length = 0;
      const res = await post(authorization, '/api/v1/catalog/requests', body);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(JSON.parse(res.body).error).toBe(code);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="service"/);
      expect(parsed, String(authorization)).toEqual([]);
    }
  });

  it('a revoked key (401), a blocked seller and one that is not a seller (403): body unparsed', async () => {
    const s = await newSeller(app, { admission: 'complete' });
    const extra = await issueKey(app, s.apiKey, ['catalog']);
    expect((await call(app, s.apiKey, 'DELETE', `/api/v1/keys/${extra.id}`)).status).toBe(200);
    const body = bigBody(10);
    parsed.length = 0;
    const revoked = await post(`Bearer ${extra.key}`, '/api/v1/catalog/requests', body);
    expect(revoked.statusCode).toBe(401);
    expect(JSON.parse(revoked.body).error).toBe('revoked');
    for (const [status, code] of [
      ['blocked', 'seller_blocked'],
      ['not_seller', 'not_seller'],
    ] as const) {
      await setStatus(app, s.sellerId, status);
      const res = await post(`Bearer ${s.apiKey}`, '/api/v1/catalog/requests', body);
      expect(res.statusCode, code).toBe(403);
      expect(JSON.parse(res.body).error).toBe(code);
    }
    expect(apiParses()).toEqual([]);
  });

  it('the MCP endpoint too', async () => {
    parsed.length = 0;
    const res = await post(`Bearer service_live_${'B'.repeat(40)}`, '/api/mcp', bigBody(10));
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body).error).toBe('bad_key');
    expect(parsed).toEqual([]);
  });

  it('an authenticated caller: the body is parsed, validated, and the body limit still holds', async () => {
    parsed.length = 0;
    const tooLong = await post(`Bearer ${seller.apiKey}`, '/api/v1/catalog/requests', bigBody(10));
    expectError({ status: tooLong.statusCode, headers: tooLong.headers, body: JSON.parse(tooLong.body), text: tooLong.body }, 400, 'bad_request');
    expect(JSON.parse(tooLong.body).detail.message).toMatch(/^body\.title/);
    expect(parsed).toEqual(['/api/v1/catalog/requests']);
    const tooLarge = await post(`Bearer ${seller.apiKey}`, '/api/v1/catalog/requests', bigBody(17));
    expect(tooLarge.statusCode).toBe(400);
    expect(JSON.parse(tooLarge.body)).toMatchObject({ error: 'bad_request', detail: { message: 'body: too large', issues: [{ path: ['body'], code: 'too_large' }] } });
    const ok = await post(`Bearer ${seller.apiKey}`, '/api/v1/catalog/requests', JSON.stringify({ title: 'A position' }));
    expect(ok.statusCode, ok.body).toBe(201);
  });
});

describe('over a socket', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  /** Sends the headers of a 10 MiB POST and its first 64 KiB; answers what came back within `ms` (empty: nothing). */
  function partialPost(authorization: string, ms: number): Promise<string> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let answer = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(answer);
      }, ms);
      socket.on('data', (chunk) => {
        answer += chunk.toString('latin1');
        if (answer.includes('\r\n\r\n') && answer.includes('}')) {
          clearTimeout(timer);
          socket.destroy();
          resolve(answer);
        }
      });
      socket.on('error', reject);
      socket.write(
        `POST /api/v1/catalog/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\n` +
          `Idempotency-Key: partial-1\r\nContent-Length: ${10 * MiB}\r\n\r\n`,
      );
      socket.write(`{"title":"${'x'.repeat(64 * 1024)}`);
    });
  }

  it('a wrong key is answered 401 while the client has sent 64 KiB of a 10 MiB body; a good key waits for the body', async () => {
    const refused = await partialPost(`Bearer service_live_${'C'.repeat(40)}`, 5_000);
    expect(refused).toMatch(/^HTTP\/1\.1 401 /);
    expect(refused).toContain('"error":"bad_key"');
    const good = await server.newSeller();
    const waiting = await partialPost(`Bearer ${good.apiKey}`, 300);
    expect(waiting).toBe('');
  });
});
