import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  RateLimitError,
  SandboxClient,
  SellerClient,
  ServerError,
  type SellerClientOptions,
} from '../../sdk/index.ts';
import { Transport } from '../../sdk/transport.ts';

const BASE = 'http://seller.test';
const KEY = 'service_test_retryretryretryretryretryretryretry12';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ORDER = {
  id: 'ord_1',
  number: 1001,
  service: 'netflix',
  tariff: 'premium',
  productType: 'subscription',
  deliveryMethod: 'invite',
  priceRub: 500,
  status: 'awaiting_delivery',
  isTest: false,
  needsAction: true,
  slaMinutes: 60,
  deliverBy: '2026-11-21T09:13:39.000Z',
  guaranteeDays: 30,
  guaranteeUntil: null,
  nextChargeDay: null,
  createdAt: '2026-11-21T08:13:39.000Z',
  paidAt: '2026-11-21T08:13:39.000Z',
  updatedAt: '2026-11-21T08:13:39.000Z',
};
const DELIVERED = { order: 'ord_1', status: 'delivered', noteRejected: null };

/** A client whose waits are recorded instead of slept. */
function clientWith(options: SellerClientOptions = {}) {
  const waits: number[] = [];
  const client = new SellerClient({
    apiKey: KEY,
    baseUrl: BASE,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client, waits };
}

/** A handler answering the scripted responses in turn (the last one repeats), recording keys. */
function script(method: 'get' | 'post', path: string, answers: (() => Response | Promise<Response>)[]) {
  const seen = { attempts: 0, keys: [] as (string | null)[] };
  server.use(
    http[method](`${BASE}/api/v1${path}`, async ({ request }) => {
      seen.keys.push(request.headers.get('idempotency-key'));
      const answer = answers[Math.min(seen.attempts, answers.length - 1)]!;
      seen.attempts++;
      return answer();
    }),
  );
  return seen;
}

const status = (code: number, error = code >= 500 ? 'internal' : 'bad_request', headers: Record<string, string> = {}) => () =>
  HttpResponse.json({ error }, { status: code, headers });
const ok = (body: object) => () => HttpResponse.json(body);

describe('what is retried', () => {
  it('a network error, then success', async () => {
    const seen = script('post', '/orders/ord_1/deliver', [() => HttpResponse.error(), ok(DELIVERED)]);
    const { client, waits } = clientWith();
    await expect(client.orders.deliver('ord_1', {})).resolves.toEqual(DELIVERED);
    expect(seen.attempts).toBe(2);
    expect(waits).toHaveLength(1);
  });

  it.each([500, 502, 503])('HTTP %i, then success', async (code) => {
    const seen = script('get', '/orders/ord_1', [status(code), ok({ ...ORDER, messages: [] })]);
    const { client } = clientWith();
    await expect(client.orders.get('ord_1')).resolves.toMatchObject({ id: 'ord_1' });
    expect(seen.attempts).toBe(2);
  });

  it('a 5xx without an error body (a proxy page) is retried too', async () => {
    const seen = script('get', '/orders/ord_1', [() => new HttpResponse('<h1>Bad gateway</h1>', { status: 502 }), ok({ ...ORDER, messages: [] })]);
    const { client } = clientWith();
    await client.orders.get('ord_1');
    expect(seen.attempts).toBe(2);
  });

  it('429 waits Retry-After seconds', async () => {
    const seen = script('post', '/orders/ord_1/deliver', [status(429, 'rate', { 'retry-after': '3' }), ok(DELIVERED)]);
    const { client, waits } = clientWith();
    await client.orders.deliver('ord_1', {});
    expect(seen.attempts).toBe(2);
    expect(waits).toEqual([3000]);
  });

  it('Retry-After is capped', async () => {
    script('get', '/me', [status(429, 'rate', { 'retry-after': '3600' }), status(429, 'rate', { 'retry-after': '2' }), ok({})]);
    const { client, waits } = clientWith({ retryAfterMaxMs: 60_000 });
    await client.me.get().catch(() => undefined);
    expect(waits).toEqual([60_000, 2000]);
  });

  it('429 without Retry-After falls back to the backoff', async () => {
    script('get', '/rating', [status(429, 'rate'), ok({ score: null, reviews: 0, positive: 0, negative: 0, completedOrders: 0, disputeRate: 0 })]);
    const { client, waits } = clientWith({ retryBaseMs: 100 });
    await client.rating.get();
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(waits[0]).toBeLessThanOrEqual(100);
  });

  it.each([
    [400, 'bad_request'],
    [400, 'idempotency_key_required'],
    [401, 'bad_key'],
    [403, 'scope'],
    [404, 'not_found'],
    [409, 'rejected'],
    [422, 'idempotency_mismatch'],
  ])('HTTP %i %s is never retried', async (code, error) => {
    const seen = script('post', '/orders/ord_1/deliver', [status(code, error), ok(DELIVERED)]);
    const { client, waits } = clientWith();
    await expect(client.orders.deliver('ord_1', {})).rejects.toMatchObject({ status: code, code: error });
    expect(seen.attempts).toBe(1);
    expect(waits).toEqual([]);
  });
});

describe('how often', () => {
  it('two retries by default: three attempts, then the last error', async () => {
    const seen = script('get', '/orders/ord_1', [status(503)]);
    const { client, waits } = clientWith();
    const err = await client.orders.get('ord_1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(seen.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    // The error says how many tries it took, and over how long (issue 37, item 3).
    expect((err as ServerError).attempts).toBe(3);
    expect((err as ServerError).elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('the client maxRetries and the per-call maxRetries are respected', async () => {
    const seen = script('get', '/orders/ord_1', [status(500)]);
    const { client } = clientWith({ maxRetries: 0 });
    const once = await client.orders.get('ord_1').catch((e: unknown) => e);
    expect(once).toBeInstanceOf(ServerError);
    expect((once as ServerError).attempts).toBe(1);
    expect((once as ServerError).elapsedMs).toBeUndefined();
    expect(seen.attempts).toBe(1);
    await expect(client.orders.get('ord_1', { maxRetries: 4 })).rejects.toBeInstanceOf(ServerError);
    expect(seen.attempts).toBe(6);
  });

  it('a 429 that persists ends in RateLimitError with retryAfterSeconds', async () => {
    script('get', '/me', [status(429, 'rate', { 'retry-after': '7' })]);
    const { client } = clientWith({ maxRetries: 1 });
    const err = await client.me.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterSeconds).toBe(7);
  });

  it('a persistent network failure ends in ConnectionError with the cause kept', async () => {
    script('get', '/me', [() => HttpResponse.error()]);
    const { client } = clientWith();
    const err = await client.me.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).code).toBe('connection');
    expect((err as ConnectionError).status).toBeUndefined();
    expect((err as ConnectionError).cause).toBeInstanceOf(TypeError);
    expect((err as Error).message).toMatch(/^connection: could not reach http:\/\/seller\.test/);
  });
});

describe('idempotency across retries', () => {
  it('every attempt of one call carries the same key', async () => {
    const seen = script('post', '/orders/ord_1/deliver', [status(500), () => HttpResponse.error(), ok(DELIVERED)]);
    const { client } = clientWith();
    await client.orders.deliver('ord_1', { note: 'hi' });
    expect(seen.attempts).toBe(3);
    expect(new Set(seen.keys).size).toBe(1);
    expect(seen.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("the caller's key is the one repeated", async () => {
    const seen = script('post', '/orders/ord_1/deliver', [status(502), ok(DELIVERED)]);
    const { client } = clientWith();
    await client.orders.deliver('ord_1', {}, { idempotencyKey: 'k-1' });
    expect(seen.keys).toEqual(['k-1', 'k-1']);
  });

  it('raw requests reuse their key too', async () => {
    const seen = script('post', '/hooks/resume', [status(500), ok({})]);
    const { client } = clientWith();
    await client.request({ method: 'POST', path: '/api/v1/hooks/resume' });
    expect(seen.keys).toHaveLength(2);
    expect(seen.keys[0]).toBe(seen.keys[1]);
  });

  it('sandbox changing calls carry no key, so a 5xx or a network error is not retried; reads are', async () => {
    let posts = 0;
    let gets = 0;
    server.use(
      http.post(`${BASE}/sandbox/v1/orders/:id/pay`, () => {
        posts++;
        return HttpResponse.json({ error: 'internal' }, { status: 500 });
      }),
      http.get(`${BASE}/sandbox/v1/clock`, () => (++gets === 1 ? HttpResponse.error() : HttpResponse.json({ now: '2026-11-21T08:13:39.000Z' }))),
    );
    const sb = new SandboxClient({ adminToken: 'a', baseUrl: BASE, sleep: async () => {} });
    await expect(sb.pay('ord_1')).rejects.toBeInstanceOf(ServerError);
    expect(posts).toBe(1);
    await expect(sb.clock()).resolves.toEqual({ now: '2026-11-21T08:13:39.000Z' });
    expect(gets).toBe(2);
  });
});

describe('timeouts and cancellation', () => {
  it('a timed-out attempt is a ConnectionError and is retried', async () => {
    const seen = script('get', '/orders/ord_1', [
      async () => {
        await delay(1_000);
        return HttpResponse.json({ ...ORDER, messages: [] });
      },
      ok({ ...ORDER, messages: [] }),
    ]);
    const { client } = clientWith({ timeoutMs: 20 });
    await expect(client.orders.get('ord_1')).resolves.toMatchObject({ id: 'ord_1' });
    expect(seen.attempts).toBe(2);
  });

  it('when every attempt times out, the error says so', async () => {
    script('get', '/me', [
      async () => {
        await delay(1_000);
        return HttpResponse.json({});
      },
    ]);
    const { client, waits } = clientWith({ maxRetries: 1 });
    const err = await client.me.get({ timeoutMs: 15 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).timedOut).toBe(true);
    expect((err as Error).message).toMatch(/no answer within 15 ms/);
    expect(waits).toHaveLength(1);
  });

  it("the caller's signal cancels without retrying", async () => {
    const seen = script('get', '/me', [
      async () => {
        await delay(1_000);
        return HttpResponse.json({});
      },
    ]);
    const { client } = clientWith();
    const controller = new AbortController();
    const call = client.me.get({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(call).rejects.toThrow('stop');
    expect(seen.attempts).toBe(1);
  });

  it('an aborted signal also cuts the backoff wait short', async () => {
    script('get', '/me', [status(500)]);
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, retryBaseMs: 10_000 });
    const controller = new AbortController();
    const call = client.me.get({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('gave up')), 20);
    const started = Date.now();
    await expect(call).rejects.toThrow('gave up');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('backoff', () => {
  const transport = (random: () => number) =>
    new Transport({
      baseUrl: BASE,
      fetch: globalThis.fetch,
      headers: {},
      timeoutMs: 1000,
      maxRetries: 2,
      retryBaseMs: 500,
      retryMaxDelayMs: 8000,
      retryAfterMaxMs: 60_000,
      sleep: async () => {},
      random,
    });

  it('grows exponentially with equal jitter and a cap', () => {
    const low = transport(() => 0);
    const high = transport(() => 0.999999);
    expect([0, 1, 2, 3, 4, 5].map((n) => low.delayMs(n))).toEqual([250, 500, 1000, 2000, 4000, 4000]);
    expect([0, 1, 2, 3, 4, 5].map((n) => Math.round(high.delayMs(n)))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('Retry-After wins over the backoff, up to the cap', () => {
    const t = transport(() => 0.5);
    expect(t.delayMs(0, 2000)).toBe(2000);
    expect(t.delayMs(0, 600_000)).toBe(60_000);
  });

  it('the real sleep waits (small delays keep tests fast)', async () => {
    script('get', '/me', [status(500), ok({})]);
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, retryBaseMs: 20 });
    const started = Date.now();
    await client.me.get().catch(() => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9);
  });
});
