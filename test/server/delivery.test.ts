/**
 * Webhook delivery against a real local receiver (spec: Events, Signature, Delivery rules; gaps.md:
 * Delivery ladder): exact headers and body, the signature, the ladder on the server clock, 2xx only,
 * redirects not followed, the timeout, the pause after 20 failures and resume, restarts, and the
 * address check before every attempt (DNS answers, pinning).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { computeSignature, verifyWebhook } from '../../sdk/webhooks/index.ts';
import { buildApp, type AppOptions } from '../../server/app.ts';
import { Clock } from '../../server/clock.ts';
import { recordEvent } from '../../server/domain/events.ts';
import type { ResolveLookup } from '../../server/webhooks/address.ts';
import { webhooksIdle } from '../../server/webhooks/outbox.ts';
import { attempt, runDue } from '../../server/webhooks/outbox.ts';
import { ADMIN, call, makeApp, newSeller, sandbox, type SellerCreated } from './helpers.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();

// ---------------------------------------------------------------------------------------------
// A local receiver whose answers the test decides
// ---------------------------------------------------------------------------------------------

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Behaviour = (req: Received, res: http.ServerResponse) => void;

class Receiver {
  readonly got: Received[] = [];
  behaviour: Behaviour = (_req, res) => res.writeHead(200).end('ok');
  readonly #held: http.ServerResponse[] = [];
  #server!: http.Server;
  port = 0;

  async start(): Promise<void> {
    this.#server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.got.push(r);
        this.behaviour(r, res);
      });
    });
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.port = (this.#server.address() as AddressInfo).port;
  }

  url(p = '/hook'): string {
    return `http://127.0.0.1:${this.port}${p}`;
  }

  answer(status: number, headers: Record<string, string> = {}): void {
    this.behaviour = (_req, res) => res.writeHead(status, headers).end('answer');
  }

  /** Never answers (until released). */
  hold(): void {
    this.behaviour = (_req, res) => this.#held.push(res);
  }

  release(): void {
    for (const res of this.#held.splice(0)) res.destroy();
  }

  reset(): void {
    this.got.length = 0;
    this.release();
    this.answer(200);
  }

  async stop(): Promise<void> {
    this.release();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

// ---------------------------------------------------------------------------------------------

const receiver = new Receiver();
let lookupImpl: ResolveLookup = async () => [{ address: '127.0.0.1', family: 4 }];
const lookupCalls: string[] = [];
const lookup: ResolveLookup = (host, opts) => {
  lookupCalls.push(host);
  return lookupImpl(host, opts);
};

const options = (more: AppOptions = {}): AppOptions => ({
  allowLocalHooks: true,
  clock: new Clock(0, () => T0),
  // Generous, so a loaded machine does not turn answers into timeouts; the timeout test sets its own.
  hookTimeoutMs: 3_000,
  hookLookup: lookup,
  rateLimit: { burst: 100_000 },
  ...more,
});

let app: FastifyInstance;

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});
beforeEach(async () => {
  receiver.reset();
  lookupCalls.length = 0;
  lookupImpl = async () => [{ address: '127.0.0.1', family: 4 }];
  app = await makeApp(options());
});
afterEach(async () => {
  receiver.release();
  await app.close();
});

async function subscribe(a: FastifyInstance, url = receiver.url(), events = ['order.paid', 'stock.out']): Promise<SellerCreated & { secret: string }> {
  const seller = await newSeller(a);
  const res = await call(a, seller.apiKey, 'PUT', '/api/v1/hooks', { url, events });
  expect(res.status, res.text).toBe(200);
  return { ...seller, secret: res.body.secret };
}

async function sendTest(a: FastifyInstance, key: string, event?: string): Promise<string> {
  const res = await call(a, key, 'POST', '/api/v1/hooks/test', event ? { event } : {});
  expect(res.status, res.text).toBe(202);
  await webhooksIdle(a.service);
  return res.body.delivery;
}

async function deliveryLog(a: FastifyInstance, key: string): Promise<any[]> {
  const res = await call(a, key, 'GET', '/api/v1/hooks/deliveries?limit=200');
  expect(res.status).toBe(200);
  return res.body.items;
}

async function entry(a: FastifyInstance, key: string, id: string): Promise<any> {
  return (await deliveryLog(a, key)).find((d) => d.id === id);
}

async function advance(a: FastifyInstance, seconds: number): Promise<void> {
  const res = await sandbox(a, 'POST', '/clock/advance', { seconds });
  expect(res.status, res.text).toBe(200);
  await webhooksIdle(a.service);
}

/** Records an event the way the order, stock and feedback code does, in one write. */
async function emit(a: FastifyInstance, sellerId: string, kind: 'order.paid' | 'stock.out', data: any): Promise<void> {
  const svc = a.service;
  const doc = await svc.store.seller(sellerId);
  recordEvent(svc, doc, kind, data, svc.clock.now());
  await svc.store.writeSeller(sellerId);
  await webhooksIdle(svc);
}

// ---------------------------------------------------------------------------------------------

describe('event order (issue 15)', () => {
  it('the order.paid of the order that empties the stock is recorded and delivered before stock.out', async () => {
    const seller = await subscribe(app, receiver.url(), ['order.paid', 'stock.out']);
    const card = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    expect(card.status, card.text).toBe(201);
    const number = card.body.number as number;
    expect((await call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/stock`, { items: ['ONLY-CODE'] })).status).toBe(201);
    expect((await call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active: true, autoIssue: true })).status).toBe(200);
    const order = await sandbox(app, 'POST', '/orders', { number, testBuyer: true });
    expect(order.status, order.text).toBe(201);
    expect((await sandbox(app, 'POST', `/orders/${order.body.id}/pay`, {})).status).toBe(200);
    await webhooksIdle(app.service);

    const doc = await app.service.store.seller(seller.sellerId);
    expect(doc.deliveries.map((d) => d.event)).toEqual(['order.paid', 'stock.out']);
    expect(receiver.got.map((r) => JSON.parse(r.body).event)).toEqual(['order.paid', 'stock.out']);
    // The paid order was delivered from the stock all the same.
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/orders/${order.body.id}`)).body.status).toBe('delivered');
  });
});

describe('a delivery', () => {
  it('an event becomes a POST with the exact headers and body, signed with the secret', async () => {
    const seller = await subscribe(app);
    await emit(app, seller.sellerId, 'order.paid', { order: 'ord_abc123', number: 1001, status: 'awaiting_delivery', slaMinutes: 30 });
    expect(receiver.got).toHaveLength(1);
    const got = receiver.got[0]!;
    const [d] = await deliveryLog(app, seller.apiKey);
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/hook');
    const body = JSON.stringify({
      event: 'order.paid',
      at: '2026-03-01T10:00:00.000Z',
      data: { order: 'ord_abc123', number: 1001, status: 'awaiting_delivery', slaMinutes: 30 },
      delivery: d.id,
      attempt: 1,
    });
    expect(got.body).toBe(body);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(got.headers.host).toBe(`127.0.0.1:${receiver.port}`);
    expect(got.headers['x-service-event']).toBe('order.paid');
    expect(got.headers['x-service-delivery']).toBe(d.id);
    // The timestamp is wall-clock time (the receiver's freshness check), not the server clock.
    const ts = got.headers['x-service-timestamp'] as string;
    expect(ts).toMatch(/^\d+$/);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(30);
    expect(got.headers['x-service-attempt']).toBe('1');
    expect(got.headers['x-service-signature']).toBe(computeSignature(ts, body, seller.secret));
    expect(got.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const event = verifyWebhook(got.body, got.headers, seller.secret);
    expect(event).toMatchObject({ event: 'order.paid', data: { order: 'ord_abc123', slaMinutes: 30 } });
    expect('test' in event).toBe(false);
    expect(d).toEqual({
      id: d.id,
      event: 'order.paid',
      delivery: d.id,
      attempts: 1,
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: '2026-03-01T10:00:00.000Z',
      test: false,
    });
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/hooks')).body.failures).toBe(0);
  });

  it('the test endpoint goes the same way, with test: true', async () => {
    const seller = await subscribe(app);
    const id = await sendTest(app, seller.apiKey);
    const got = receiver.got[0]!;
    const event = verifyWebhook(got.body, got.headers, seller.secret);
    expect(event).toMatchObject({ event: 'order.paid', delivery: id, attempt: 1, test: true });
    expect(JSON.parse(got.body)).toEqual({
      event: 'order.paid',
      at: '2026-03-01T10:00:00.000Z',
      data: { order: expect.stringMatching(/^ord_/), number: 1001, status: 'awaiting_delivery', slaMinutes: 60 },
      delivery: id,
      attempt: 1,
      test: true,
    });
    expect(await entry(app, seller.apiKey, id)).toMatchObject({ attempts: 1, lastStatus: 200, test: true });
  });

  it('events the subscription does not include make no delivery', async () => {
    const seller = await subscribe(app, receiver.url(), ['stock.out']);
    await emit(app, seller.sellerId, 'order.paid', { order: 'ord_x1', number: 1001, status: 'awaiting_delivery', slaMinutes: 30 });
    expect(receiver.got).toHaveLength(0);
    expect(await deliveryLog(app, seller.apiKey)).toEqual([]);
    await emit(app, seller.sellerId, 'stock.out', { number: 1001 });
    expect(receiver.got).toHaveLength(1);
    expect(JSON.parse(receiver.got[0]!.body)).toMatchObject({ event: 'stock.out', data: { number: 1001 } });
  });

  it('no subscription, or a paused one: events make no delivery', async () => {
    const none = await newSeller(app);
    await emit(app, none.sellerId, 'stock.out', { number: 1001 });
    expect(await deliveryLog(app, none.apiKey)).toEqual([]);
    const paused = await subscribe(app);
    const doc = await app.service.store.seller(paused.sellerId);
    doc.hooks!.status = 'paused';
    await emit(app, paused.sellerId, 'stock.out', { number: 1001 });
    expect(await deliveryLog(app, paused.apiKey)).toEqual([]);
    expect(receiver.got).toHaveLength(0);
  });

  it('the pending delivery is written in the same write as the event', async () => {
    const seller = await subscribe(app);
    receiver.hold();
    const svc = app.service;
    const doc = await svc.store.seller(seller.sellerId);
    recordEvent(svc, doc, 'stock.out', { number: 1001 }, svc.clock.now());
    // Synchronously, before any attempt: the delivery is in the document, due now.
    expect(doc.deliveries.at(-1)).toMatchObject({ event: 'stock.out', attempts: 0, nextAttemptAt: at(T0), deliveredAt: null });
    await webhooksIdle(svc);
  });
});

describe('the ladder', () => {
  it('a failing receiver (500) is retried at +10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, then given up', async () => {
    const seller = await subscribe(app);
    receiver.answer(500);
    const id = await sendTest(app, seller.apiKey);
    const steps = [10, 60, 300, 1800, 7200, 21600, 43200];
    let now = T0;
    let d = await entry(app, seller.apiKey, id);
    expect(d).toMatchObject({ attempts: 1, lastStatus: 500, lastError: 'receiver answered 500', nextAttemptAt: at(T0 + 10_000), deliveredAt: null });
    for (const [i, step] of steps.entries()) {
      // One second early: nothing happens.
      await advance(app, step - 1);
      expect(receiver.got).toHaveLength(i + 1);
      await advance(app, 1);
      now += step * 1000;
      expect(receiver.got).toHaveLength(i + 2);
      d = await entry(app, seller.apiKey, id);
      const next = steps[i + 1];
      expect(d).toMatchObject({
        attempts: i + 2,
        lastStatus: 500,
        lastError: 'receiver answered 500',
        nextAttemptAt: next === undefined ? null : at(now + next * 1000),
        deliveredAt: null,
      });
    }
    expect(receiver.got.map((r) => r.headers['x-service-attempt'])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(receiver.got.map((r) => JSON.parse(r.body).attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(receiver.got.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([id]));
    // Each attempt is signed afresh and verifies.
    for (const [i, r] of receiver.got.entries()) {
      expect(verifyWebhook(r.body, r.headers, seller.secret).attempt).toBe(i + 1);
    }
    // Given up: a day later nothing more comes.
    await advance(app, 86_400);
    expect(receiver.got).toHaveLength(8);
    const hook = (await call(app, seller.apiKey, 'GET', '/api/v1/hooks')).body;
    expect(hook).toMatchObject({ status: 'active', failures: 8 });
  });

  it('a later success ends the ladder and resets the failure counter', async () => {
    const seller = await subscribe(app);
    receiver.answer(503);
    const id = await sendTest(app, seller.apiKey);
    await advance(app, 10);
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/hooks')).body.failures).toBe(2);
    receiver.answer(201);
    await advance(app, 60);
    expect(await entry(app, seller.apiKey, id)).toMatchObject({
      attempts: 3,
      lastStatus: 201,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: at(T0 + 70_000),
    });
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/hooks')).body.failures).toBe(0);
    await advance(app, 86_400);
    expect(receiver.got).toHaveLength(3);
  });

  it.each([
    [200, true],
    [202, true],
    [204, true],
    [299, true],
    [304, false],
    [400, false],
    [404, false],
    [410, false],
  ])('status %i counts as success: %s', async (status, ok) => {
    const seller = await subscribe(app);
    receiver.answer(status);
    const id = await sendTest(app, seller.apiKey);
    const d = await entry(app, seller.apiKey, id);
    expect(d.lastStatus).toBe(status);
    expect(d.deliveredAt !== null).toBe(ok);
  });

  it('a redirect is not followed: a failed attempt', async () => {
    const seller = await subscribe(app);
    receiver.behaviour = (req, res) => {
      if (req.url === '/hook') res.writeHead(302, { location: `http://127.0.0.1:${receiver.port}/elsewhere` }).end();
      else res.writeHead(200).end();
    };
    const id = await sendTest(app, seller.apiKey);
    expect(receiver.got.map((r) => r.url)).toEqual(['/hook']);
    expect(await entry(app, seller.apiKey, id)).toMatchObject({
      attempts: 1,
      lastStatus: 302,
      lastError: 'redirect not followed',
      nextAttemptAt: at(T0 + 10_000),
      deliveredAt: null,
    });
    for (const status of [301, 307, 308]) {
      receiver.answer(status, { location: '/elsewhere' });
      const other = await sendTest(app, seller.apiKey);
      expect(await entry(app, seller.apiKey, other)).toMatchObject({ lastStatus: status, lastError: 'redirect not followed' });
    }
    expect(receiver.got.some((r) => r.url === '/elsewhere')).toBe(false);
  });

  it('a receiver that does not answer in time: a failed attempt (timeout)', async () => {
    const seller = await subscribe(app);
    app.service.options.hookTimeoutMs = 200;
    receiver.hold();
    const started = Date.now();
    const id = await sendTest(app, seller.apiKey);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(receiver.got).toHaveLength(1);
    expect(await entry(app, seller.apiKey, id)).toMatchObject({
      attempts: 1,
      lastStatus: null,
      lastError: 'timed out after 200 ms',
      nextAttemptAt: at(T0 + 10_000),
    });
  });

  it('a closed port: a failed attempt (connection refused)', async () => {
    const spare = http.createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((resolve) => spare.close(() => resolve()));
    const seller = await subscribe(app, `http://127.0.0.1:${port}/hook`);
    const id = await sendTest(app, seller.apiKey);
    expect(await entry(app, seller.apiKey, id)).toMatchObject({ attempts: 1, lastStatus: null, lastError: 'connection refused' });
  });

  it('never two attempts of one delivery at once', async () => {
    const seller = await subscribe(app);
    receiver.behaviour = (_req, res) => setTimeout(() => res.writeHead(500).end(), 50);
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', {});
    const id = res.body.delivery as string;
    const svc = app.service;
    await Promise.all([
      attempt(svc, seller.sellerId, id),
      attempt(svc, seller.sellerId, id),
      runDue(svc),
      runDue(svc),
      sandbox(app, 'POST', '/clock/advance', { seconds: 0 }),
      webhooksIdle(svc),
    ]);
    await webhooksIdle(svc);
    expect(receiver.got).toHaveLength(1);
    expect(await entry(app, seller.apiKey, id)).toMatchObject({ attempts: 1 });
  });
});

describe('pause after 20 failures in a row', () => {
  it('pauses, stops attempting, and resume sends what is pending', async () => {
    const seller = await subscribe(app);
    receiver.answer(500);
    const ids: string[] = [];
    for (let i = 0; i < 19; i++) ids.push(await sendTest(app, seller.apiKey));
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/hooks')).body).toMatchObject({ status: 'active', failures: 19, pausedAt: null });
    ids.push(await sendTest(app, seller.apiKey));
    // The 20th failed attempt in a row (across deliveries) paused the subscription.
    let hook = (await call(app, seller.apiKey, 'GET', '/api/v1/hooks')).body;
    expect(hook).toMatchObject({ status: 'paused', failures: 20, pausedAt: at(T0) });
    expect(receiver.got).toHaveLength(20);

    // Paused: nothing is attempted, whatever time does; a test is logged but not sent.
    const late = await sendTest(app, seller.apiKey);
    await advance(app, 3600);
    expect(receiver.got).toHaveLength(20);
    expect(await entry(app, seller.apiKey, late)).toMatchObject({ attempts: 0, deliveredAt: null });
    expect((await entry(app, seller.apiKey, ids[0]!)).attempts).toBe(1);

    // Resume: active, counter 0, pending deliveries go now.
    receiver.answer(200);
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/resume');
    expect(res.body).toMatchObject({ status: 'active', failures: 0, pausedAt: null });
    await webhooksIdle(app.service);
    expect(receiver.got).toHaveLength(20 + 21);
    const log = await deliveryLog(app, seller.apiKey);
    expect(log).toHaveLength(21);
    for (const d of log) expect(d).toMatchObject({ nextAttemptAt: null, deliveredAt: at(T0 + 3_600_000) });
    hook = (await call(app, seller.apiKey, 'GET', '/api/v1/hooks')).body;
    expect(hook).toMatchObject({ status: 'active', failures: 0 });
  });

  it('a success in between resets the count', async () => {
    const seller = await subscribe(app);
    receiver.answer(500);
    for (let i = 0; i < 15; i++) await sendTest(app, seller.apiKey);
    receiver.answer(200);
    await sendTest(app, seller.apiKey);
    receiver.answer(500);
    for (let i = 0; i < 15; i++) await sendTest(app, seller.apiKey);
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/hooks')).body).toMatchObject({ status: 'active', failures: 15 });
  });

  it('an edit of a paused subscription resumes delivery (to the new address)', async () => {
    const seller = await subscribe(app, receiver.url('/old'));
    receiver.answer(500);
    for (let i = 0; i < 20; i++) await sendTest(app, seller.apiKey);
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/hooks')).body.status).toBe('paused');
    receiver.answer(200);
    const edit = await call(app, seller.apiKey, 'PUT', '/api/v1/hooks', { url: receiver.url('/new'), events: ['order.paid'] });
    expect(edit.body).toMatchObject({ status: 'active', failures: 0, pausedAt: null, secret: null });
    await webhooksIdle(app.service);
    expect(receiver.got.filter((r) => r.url === '/new')).toHaveLength(20);
    for (const r of receiver.got) expect(() => verifyWebhook(r.body, r.headers, seller.secret)).not.toThrow();
  });

  it('a rotated secret signs the next attempts', async () => {
    const seller = await subscribe(app);
    receiver.answer(500);
    await sendTest(app, seller.apiKey);
    const rotated = (await call(app, seller.apiKey, 'POST', '/api/v1/hooks/secret')).body.secret as string;
    receiver.answer(200);
    await advance(app, 10);
    const last = receiver.got.at(-1)!;
    expect(verifyWebhook(last.body, last.headers, rotated).attempt).toBe(2);
    expect(() => verifyWebhook(last.body, last.headers, seller.secret)).toThrow();
  });
});

describe('the address is checked before every attempt', () => {
  let strict: FastifyInstance;
  beforeEach(async () => {
    strict = await makeApp(options({ allowLocalHooks: false }));
  });
  afterEach(async () => {
    await strict.close();
  });

  it('a public name that resolves to 127.0.0.1 is saved, then refused at send time', async () => {
    lookupImpl = async () => [{ address: '127.0.0.1', family: 4 }];
    const seller = await subscribe(strict, 'https://hooks.example.com/in');
    const id = await sendTest(strict, seller.apiKey);
    expect(lookupCalls).toEqual(['hooks.example.com']);
    expect(await entry(strict, seller.apiKey, id)).toMatchObject({
      attempts: 1,
      lastStatus: null,
      lastError: 'address refused: hooks.example.com resolves to 127.0.0.1 (loopback), which is not a public address',
      nextAttemptAt: at(T0 + 10_000),
    });
    expect(receiver.got).toHaveLength(0);
  });

  it.each([
    [[{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }], 'private'],
    [[{ address: '169.254.169.254', family: 4 }], 'link-local'],
    [[{ address: '100.64.1.1', family: 4 }], 'cgnat'],
    [[{ address: '::ffff:127.0.0.1', family: 6 }], 'ipv4-mapped/loopback'],
    [[{ address: 'fd00::1', family: 6 }], 'unique-local'],
    [[{ address: '224.0.0.1', family: 4 }], 'multicast'],
  ])('every address is checked: %j → refused (%s)', async (answer, range) => {
    lookupImpl = async () => answer;
    const seller = await subscribe(strict, 'https://hooks.example.com/in');
    const id = await sendTest(strict, seller.apiKey);
    const d = await entry(strict, seller.apiKey, id);
    expect(d.lastError).toContain(`(${range})`);
    expect(d.lastError).toMatch(/^address refused: /);
  });

  it('a name that does not resolve: a failed attempt', async () => {
    lookupImpl = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    const seller = await subscribe(strict, 'https://nowhere.example.com/in');
    const id = await sendTest(strict, seller.apiKey);
    expect(await entry(strict, seller.apiKey, id)).toMatchObject({
      lastError: 'address not resolved: cannot resolve nowhere.example.com (ENOTFOUND)',
      nextAttemptAt: at(T0 + 10_000),
    });
  });

  it('a loopback address stored while local hooks were allowed is refused once they are not', async () => {
    const seller = await subscribe(app);
    app.service.options.allowLocalHooks = false;
    try {
      const id = await sendTest(app, seller.apiKey);
      expect(receiver.got).toHaveLength(0);
      expect((await entry(app, seller.apiKey, id)).lastError).toMatch(/^address refused: .*127\.0\.0\.1 is loopback/);
    } finally {
      app.service.options.allowLocalHooks = true;
    }
  });

  it('the connection goes to the checked address: a DNS answer changing after the check does not move it', async () => {
    const seller = await subscribe(app, `http://localhost:${receiver.port}/hook`);
    let n = 0;
    // The first answer is checked and used; any later query would answer the cloud metadata address.
    lookupImpl = async () => (n++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }]);
    const first = await sendTest(app, seller.apiKey);
    expect(receiver.got).toHaveLength(1);
    expect(receiver.got[0]!.headers.host).toBe(`localhost:${receiver.port}`);
    expect(lookupCalls).toEqual(['localhost']);
    expect(await entry(app, seller.apiKey, first)).toMatchObject({ lastStatus: 200, deliveredAt: at(T0) });
    // The next attempt resolves again, sees the new answer and refuses it.
    const second = await sendTest(app, seller.apiKey);
    expect(lookupCalls).toEqual(['localhost', 'localhost']);
    expect(receiver.got).toHaveLength(1);
    expect((await entry(app, seller.apiKey, second)).lastError).toContain('169.254.169.254 (link-local)');
  });
});

describe('restarts', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hooks-restart-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a pending delivery survives a restart and is attempted when due', async () => {
    const first = await buildApp({ ...options({ clock: new Clock(0, () => T0) }), dataDir: dir, adminToken: ADMIN });
    const seller = await subscribe(first);
    receiver.answer(500);
    const id = await sendTest(first, seller.apiKey);
    await first.close();
    expect(receiver.got).toHaveLength(1);

    // The failed attempt is on disk before the next one.
    const file = JSON.parse(await readFile(path.join(dir, 'sellers', `${seller.sellerId}.json`), 'utf8'));
    expect(file.deliveries.find((d: any) => d.id === id)).toMatchObject({ attempts: 1, lastStatus: 500, nextAttemptAt: at(T0 + 10_000) });

    receiver.answer(200);
    const second = await buildApp({ ...options({ clock: new Clock(0, () => T0 + 5_000) }), dataDir: dir, adminToken: ADMIN });
    try {
      await webhooksIdle(second.service);
      expect(receiver.got).toHaveLength(1); // not due yet
      await advance(second, 5);
      expect(receiver.got).toHaveLength(2);
      const got = receiver.got[1]!;
      expect(got.headers['x-service-attempt']).toBe('2');
      expect(verifyWebhook(got.body, got.headers, seller.secret)).toMatchObject({ delivery: id, attempt: 2 });
      expect(await entry(second, seller.apiKey, id)).toMatchObject({ attempts: 2, lastStatus: 200, deliveredAt: at(T0 + 10_000) });
    } finally {
      await second.close();
    }
    const after = JSON.parse(await readFile(path.join(dir, 'sellers', `${seller.sellerId}.json`), 'utf8'));
    expect(after.deliveries.find((d: any) => d.id === id)).toMatchObject({ attempts: 2, nextAttemptAt: null, deliveredAt: at(T0 + 10_000) });
  });

  it('a delivery overdue at start-up is attempted at once', async () => {
    const first = await buildApp({ ...options({ clock: new Clock(0, () => T0) }), dataDir: dir, adminToken: ADMIN });
    const seller = await subscribe(first);
    receiver.answer(500);
    const id = await sendTest(first, seller.apiKey);
    await first.close();
    receiver.answer(200);
    const second = await buildApp({ ...options({ clock: new Clock(0, () => T0 + 3_600_000) }), dataDir: dir, adminToken: ADMIN });
    try {
      await webhooksIdle(second.service);
      expect(receiver.got).toHaveLength(2);
      expect(await entry(second, seller.apiKey, id)).toMatchObject({ attempts: 2, deliveredAt: at(T0 + 3_600_000) });
    } finally {
      await second.close();
    }
  });
});
