/**
 * Resource limits: the JSON body limit, hostile bodies (16 MB of nesting), the stock batch limits,
 * the probe's kept hits, the delivery log's cap (also under `hooks.test` while paused), pruned
 * idempotency records, and the contact filter's regexes against long adversarial input (ReDoS).
 * Time bounds are generous safety nets, not benchmarks.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findContacts } from '../../sdk/contacts.ts';
import { JSON_BODY_LIMIT } from '../../server/http/routes.ts';
import { DELIVERIES_KEPT } from '../../server/webhooks/outbox.ts';
import { PROBE_BODY_KEPT, PROBE_HITS_KEPT } from '../../server/webhooks/probe.ts';
import { webhooksIdle } from '../../server/webhooks/outbox.ts';
import { call, expectError, makeApp, newSeller, sandbox, type SellerCreated } from '../server/helpers.ts';
import { CODE_CARD, NO_RATE_LIMIT } from '../helpers/fixtures.ts';


let app: FastifyInstance;
let seller: SellerCreated;

beforeAll(async () => {
  app = await makeApp({ rateLimit: NO_RATE_LIMIT });
  seller = await newSeller(app);
});
afterAll(async () => {
  await app.close();
});

async function timed<T>(work: Promise<T>, boundMs: number): Promise<T> {
  const started = performance.now();
  const value = await work;
  expect(performance.now() - started).toBeLessThan(boundMs);
  return value;
}

describe('request bodies', () => {
  it('a JSON body over the limit is refused as too large', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(JSON_BODY_LIMIT + 1), scopes: ['stats'] });
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/keys', { raw: big, contentType: 'application/json' });
    expectError(res, 400, 'bad_request');
    expect(res.body.detail).toMatchObject({ message: 'body: too large', issues: [{ path: ['body'], code: 'too_large' }] });
  });

  it('16 MB of nested arrays is refused quickly, and the server keeps serving', async () => {
    const depth = Math.floor((JSON_BODY_LIMIT - 64) / 2);
    const deep = `{"capacity":1,"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(deep.length).toBeLessThanOrEqual(JSON_BODY_LIMIT);
    const res = await timed(call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { raw: deep, contentType: 'application/json' }), 20_000);
    expectError(res, 400, 'bad_request');
    // nesting inside a known field, and inside an MCP tool's arguments
    const inField = `{"items":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/listings/1001/stock', { raw: inField, contentType: 'application/json' }), 400, 'bad_request');
    const mcp = await app.inject({
      method: 'POST',
      url: '/api/mcp',
      headers: { authorization: `Bearer ${seller.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_work_mode_set","arguments":{"capacity":${'['.repeat(depth / 2)}${']'.repeat(depth / 2)}}}}`,
    });
    expect(mcp.statusCode).toBeLessThan(500);
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/me')).status).toBe(200);
  });

  it('stock: 1000 items of 4096 characters are taken; 1001 items or 4097 characters are refused', async () => {
    const number: number = (await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body.number;
    const items = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, '0')}${'k'.repeat(4092)}`);
    const res = await timed(call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/stock`, { items }), 20_000);
    expect(res.status, res.text).toBe(201);
    expect(res.body.added).toBe(1000);
    expectError(await call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/stock`, { items: [...items, 'one more'] }), 400, 'bad_request');
    expectError(await call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/stock`, { items: ['k'.repeat(4097)] }), 400, 'bad_request');
  });
});

describe('kept records are capped', () => {
  it(`the probe keeps the newest ${PROBE_HITS_KEPT} hits and at most ${PROBE_BODY_KEPT} characters of a body`, async () => {
    const s = await newSeller(app);
    const url: string = (await call(app, s.apiKey, 'POST', '/api/v1/hooks/probe')).body.url;
    const path = new URL(url).pathname;
    for (let i = 0; i < PROBE_HITS_KEPT + 5; i++) {
      const res = await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'text/plain' }, payload: i === PROBE_HITS_KEPT + 4 ? 'y'.repeat(PROBE_BODY_KEPT * 3) : `hit ${i}` });
      expect(res.statusCode).toBe(204);
    }
    const doc = await app.service.store.seller(s.sellerId);
    expect(doc.probe!.hits).toHaveLength(PROBE_HITS_KEPT);
    expect(doc.probe!.hits[0]!.body).toHaveLength(PROBE_BODY_KEPT);
  });

  it(`the delivery log keeps at most ${DELIVERIES_KEPT} entries, even when test events pile up on a paused subscription`, async () => {
    const s = await newSeller(app);
    const url: string = (await call(app, s.apiKey, 'POST', '/api/v1/hooks/probe')).body.url;
    expect((await call(app, s.apiKey, 'PUT', '/api/v1/hooks', { url, events: ['order.paid'] })).status).toBe(200);
    const doc = await app.service.store.seller(s.sellerId);
    doc.hooks!.status = 'paused';
    doc.hooks!.pausedAt = app.service.clock.now().toISOString();
    for (let i = 0; i < DELIVERIES_KEPT + 50; i++) {
      expect((await call(app, s.apiKey, 'POST', '/api/v1/hooks/test', {})).status).toBe(202);
    }
    await webhooksIdle(app.service);
    expect(doc.deliveries.length).toBeLessThanOrEqual(DELIVERIES_KEPT);
    // resuming delivers what is kept, and the log stays capped
    expect((await call(app, s.apiKey, 'POST', '/api/v1/hooks/resume')).status).toBe(200);
    await webhooksIdle(app.service);
    expect(doc.deliveries.length).toBeLessThanOrEqual(DELIVERIES_KEPT);
  });

  it('idempotency records are pruned after 24 hours', async () => {
    const s = await newSeller(app);
    const first = await call(app, s.apiKey, 'PUT', '/api/v1/work-mode', { capacity: 3 }, { 'idempotency-key': 'old-record' });
    expect(first.status).toBe(200);
    const doc = await app.service.store.seller(s.sellerId);
    expect(Object.hasOwn(doc.idempotency, 'old-record')).toBe(true);
    expect((await sandbox(app, 'POST', '/clock/advance', { seconds: 25 * 3600 })).status).toBe(200);
    expect((await call(app, s.apiKey, 'PUT', '/api/v1/work-mode', { capacity: 4 })).status).toBe(200);
    expect(Object.hasOwn(doc.idempotency, 'old-record')).toBe(false);
    expect(Object.keys(doc.idempotency)).toHaveLength(1);
  });
});

describe('the contact filter against hostile input (ReDoS)', () => {
  const N = 100_000;
  const rep = (s: string) => s.repeat(Math.ceil(N / s.length)).slice(0, N);
  const hostile: Record<string, string> = {
    letters: rep('a'),
    digits: rep('1'),
    'spaced digits': rep('1 '),
    'dashed digits': rep('1-'),
    'underscored digits': rep('8_'),
    'mixed separators': rep('8 _*~ 9'),
    'bracketed digits': rep('1('),
    'plus groups': '+1' + rep('1( '),
    'ru phones': rep('+7 9'),
    'tel words': rep('тел: 1 '),
    'at signs': rep('a@'),
    'long domain': 'a@' + rep('a.') + '1',
    'disguised at/dot': rep('a (at) a (dot) '),
    'dot words': 'a@' + rep('a dot '),
    handles: rep('@aaaa'),
    'messenger words': rep('tg: '),
    'messenger numbers': rep('tg +'),
    'service links (refused matches)': rep('x.com/i/'),
    'vk service pages': rep('vk.com/music/'),
    'whatsapp service pages': rep('whatsapp.com/download/'),
    'links with queries': rep('https://vk.com/music?'),
    'file e-mails': rep('a@a.png '),
    'invisible chars': rep('a\u200B'),
  };
  for (const [name, text] of Object.entries(hostile)) {
    it(`100 KB of ${name} is scanned in well under 2 s`, () => {
      const started = performance.now();
      findContacts(text);
      expect(performance.now() - started).toBeLessThan(2_000);
    });
  }

  it('a long link path is still a contact (the bounded path changes nothing for detection)', () => {
    expect(findContacts(`write me: t.me/${'a'.repeat(1000)}`).map((m) => m.kind)).toEqual(['messenger']);
    expect(findContacts(`x.com/i/${'b'.repeat(1000)}`)).toEqual([]);
  });
});
