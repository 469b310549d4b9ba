/**
 * The case table of the msw parity test (msw-parity.e2e.test.ts): each case runs once against a
 * real seller-server over a socket and once against the mock through msw, and says what it saw,
 * normalised (ids, keys, times); the two must be equal. The cases cover the recorded sequence of
 * a seller's day, every header a client reads (`Retry-After`, the rate-limit headers, `Allow`, the
 * replay mark, `x-request-id`), every fault kind (statuses, latency, drop, drop-after, and the
 * webhook chaos kinds) and webhook deliveries (the same bodies, verified with the same secret).
 */
import { expect } from 'vitest';
import { SellerClient } from '../../sdk/client.ts';
import type { SandboxClient } from '../../sdk/sandbox.ts';
import type { EventKind } from '../../sdk/contract/index.ts';
import type { AddFaultBody } from '../../sdk/sandbox-faults.ts';
import { verifyWebhook } from '../../sdk/webhooks/verify.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/wait.ts';

/** The rate limit both sides run with: a key's burst the sequence stays under, and a clock that never refills it. */
export const PARITY_RATE_LIMIT = { perMinute: 60, burst: 30 };

/** The service clock both sides run frozen at (so rate-limit headers and times are the same). */
export const PARITY_NOW = Date.parse('2026-06-01T09:00:00.000Z');

/** A webhook as a receiver got it. */
export interface Got {
  body: string;
  headers: Record<string, string>;
}

/** Where a case runs: a real seller-server, or the mock through msw. */
export interface Target {
  kind: 'server' | 'mock';
  baseUrl: string;
  adminToken: string;
  sandbox: SandboxClient;
  /** A receiver of webhooks (answering 204 to what verifies with `secret()`): the address to subscribe, and what it got so far, in arrival order. */
  receiver(secret: () => string): Promise<{ url: string; got(): Got[]; close(): Promise<void> }>;
}

export interface ParityCase {
  name: string;
  /** What the case saw on `t`, normalised. */
  run(t: Target): Promise<unknown>;
  /** That the case did what it says (checked on what the server showed). */
  shows(seen: any): void;
}

/** The headers a client reads (the SDK: sdk/transport.ts, sdk/errors.ts, sdk/pacing.ts). */
const READ_HEADERS = ['content-type', 'retry-after', 'ratelimit', 'ratelimit-policy', 'allow', 'idempotent-replayed'] as const;

const ID = /\b(sel|ord|key|dlv|msg|rev|q|adm|req|flt|evt|itm|cmp|cll)_[A-Za-z0-9]{6,}\b/g;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const KEY = /\bservice_(live|test)_[A-Za-z0-9]+/g;
const WHSEC = /\bwhsec_[A-Za-z0-9]+/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Ids, keys, times and the nickname (made of the seller id) replaced by placeholders. */
export function normalise(text: string): string {
  return text
    .replace(KEY, 'service_$1_<key>')
    .replace(WHSEC, 'whsec_<secret>')
    .replace(ID, '$1_<id>')
    .replace(TIME, '<time>')
    .replace(/"nickname":"([a-z-]+)-[a-z0-9]{6}"/g, '"nickname":"$1-<id>"')
    .replace(/"name":"(mock|first key)"/g, '"name":"<key name>"');
}

/** An answer as a client reads it. */
export interface Answer {
  status: number;
  headers: Partial<Record<(typeof READ_HEADERS)[number], string>>;
  /** `x-request-id` is a UUID. */
  requestId: boolean;
  body: unknown;
}

async function answerOf(res: Response): Promise<Answer> {
  const headers: Answer['headers'] = {};
  for (const name of READ_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const text = normalise(await res.text());
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // the 502 page: compared as text
  }
  return { status: res.status, headers, requestId: UUID.test(res.headers.get('x-request-id') ?? ''), body };
}

/** One raw request; a dropped connection is `'network error'`. */
async function send(t: Target, auth: string, method: string, path: string, options: { body?: unknown; idem?: string } = {}): Promise<Answer | 'network error'> {
  try {
    const res = await fetch(`${t.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${auth}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.idem ? { 'idempotency-key': options.idem } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return await answerOf(res);
  } catch (error) {
    if (error instanceof TypeError) return 'network error';
    throw error;
  }
}

/** A new seller like the demo seller, with a client that does not retry. */
async function newSeller(t: Target) {
  const seller = await t.sandbox.createSeller({ sellerType: 'ip', admission: 'complete' });
  const client = new SellerClient({ baseUrl: t.baseUrl, apiKey: seller.apiKey, maxRetries: 0 });
  const fault = (body: AddFaultBody) => t.sandbox.addFault({ sellerId: seller.sellerId, ...body });
  return { ...seller, client, fault };
}

/** A switched-on code card of the seller and a paid order of it (awaiting delivery). */
async function paidOrder(t: Target, client: SellerClient, number?: number): Promise<{ number: number; order: string }> {
  if (number === undefined) {
    number = (await client.listings.create(CODE_CARD)).number;
    await client.listings.setState(number, { active: true });
  }
  const order = await t.sandbox.createOrder({ number });
  await t.sandbox.pay(order.id);
  return { number, order: order.id };
}

interface Sent {
  key: string | null;
  status: number | 'dropped';
  replayed: boolean;
}

/** An SDK client that retries (without waiting) and records each attempt it sends. */
function recordingClient(t: Target, apiKey: string) {
  const sent: Sent[] = [];
  const waits: number[] = [];
  const client = new SellerClient({
    baseUrl: t.baseUrl,
    apiKey,
    maxRetries: 2,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const entry: Sent = { key: request.headers.get('idempotency-key'), status: 'dropped', replayed: false };
      sent.push(entry);
      const res = await fetch(request);
      entry.status = res.status;
      entry.replayed = res.headers.get('idempotent-replayed') === 'true';
      return res;
    },
    sleep: async (ms) => void waits.push(ms),
  });
  return { client, sent, waits };
}

/** What an SDK call failed with: its class, code and whether it timed out. */
const failure = (error: unknown) => ({ name: (error as Error).name, code: (error as { code?: string }).code, timedOut: (error as { timedOut?: boolean }).timedOut });

/**
 * The deliveries a receiver got, as a receiver reads them: verified with `secret`, the body
 * normalised, and which of `orders` each is about (`o1`, `o2`…).
 */
function deliveries(got: Got[], secret: string, orders: string[]) {
  return got.map(({ body, headers }) => {
    let verified: string;
    try {
      verified = verifyWebhook(body, headers, secret).event;
    } catch (error) {
      verified = `refused: ${(error as Error).message}`;
    }
    return {
      verified,
      attempt: headers['x-service-attempt'],
      event: headers['x-service-event'],
      order: `o${orders.indexOf((JSON.parse(body) as { data: { order?: string } }).data.order ?? '') + 1}`,
      headers: Object.keys(headers).filter((h) => h.startsWith('x-service-') || h === 'content-type' || h === 'user-agent').sort(),
      contentType: headers['content-type'],
      body: JSON.parse(normalise(body)) as unknown,
    };
  });
}

/** Subscribes a new seller's hooks to a new receiver for `events`, runs `act` (it answers its orders), and answers what arrived once `count` did. */
async function hooksCase(t: Target, events: EventKind[], count: number, act: (seller: Awaited<ReturnType<typeof newSeller>>) => Promise<string[]>) {
  const seller = await newSeller(t);
  let secret = '';
  const receiver = await t.receiver(() => secret);
  try {
    secret = (await seller.client.hooks.set({ url: receiver.url, events })).secret!;
    const orders = await act(seller);
    await waitFor(`${count} deliveries`, () => receiver.got().length >= count, { describe: () => `${receiver.got().length} came` });
    return deliveries(receiver.got(), secret, orders);
  } finally {
    await receiver.close();
  }
}

interface Step {
  /** `api` (the seller's key) or `sandbox` (the admin token). */
  as: 'api' | 'sandbox';
  method: string;
  /** `{n}` is the card's number, `{order}` the order's id (both from earlier answers). */
  path: string;
  body?: unknown;
  idem?: string;
}

/** A seller's day: a card, its stock, buy, pay, deliver twice, refusals, an idempotent replay, the reads. */
const SEQUENCE: Step[] = [
  { as: 'api', method: 'GET', path: '/api/v1/me' },
  { as: 'api', method: 'POST', path: '/api/v1/listings', body: CODE_CARD, idem: 'card-1' },
  { as: 'api', method: 'POST', path: '/api/v1/listings/{n}/stock', body: { items: ['CODE-A', 'CODE-B'] }, idem: 'stock-1' },
  { as: 'api', method: 'POST', path: '/api/v1/listings/{n}/stock', body: { items: ['CODE-A'] }, idem: 'stock-2' },
  { as: 'api', method: 'POST', path: '/api/v1/listings/{n}/state', body: { active: true }, idem: 'state-1' },
  { as: 'api', method: 'GET', path: '/api/v1/listings/{n}' },
  { as: 'sandbox', method: 'POST', path: '/sandbox/v1/orders', body: { number: '{n}' } },
  { as: 'sandbox', method: 'POST', path: '/sandbox/v1/orders/{order}/pay' },
  { as: 'api', method: 'POST', path: '/api/v1/orders/{order}/deliver', body: {}, idem: 'deliver-1' },
  { as: 'api', method: 'POST', path: '/api/v1/orders/{order}/deliver', body: {}, idem: 'deliver-2' },
  { as: 'api', method: 'POST', path: '/api/v1/orders/{order}/deliver', body: {}, idem: 'deliver-1' },
  { as: 'api', method: 'POST', path: '/api/v1/orders/{order}/deliver', body: {} },
  { as: 'api', method: 'POST', path: '/api/v1/orders/{order}/deliver', body: { note: 'other' }, idem: 'deliver-1' },
  { as: 'api', method: 'POST', path: '/api/v1/listings', body: { ...CODE_CARD, service: 'no-such-service' }, idem: 'card-2' },
  { as: 'api', method: 'POST', path: '/api/v1/listings', body: { ...CODE_CARD, priceRub: 0 }, idem: 'card-3' },
  { as: 'api', method: 'GET', path: '/api/v1/orders/{order}' },
  { as: 'api', method: 'GET', path: '/api/v1/orders' },
  { as: 'api', method: 'GET', path: '/api/v1/listings/{n}/stock' },
  { as: 'api', method: 'GET', path: '/api/v1/orders/ord_missing' },
  { as: 'api', method: 'GET', path: '/api/v1/nowhere' },
];

/** A status fault (with more of its fields in `more`): its answer, then the real one. */
const statusFault = (status: 429 | 500 | 502 | 503, more: Partial<AddFaultBody> = {}): ParityCase => ({
  name: `a ${status} fault${Object.keys(more).length ? ` ${JSON.stringify(more)}` : ''}: its answer, then the real one`,
  run: async (t) => {
    const s = await newSeller(t);
    await s.fault({ op: 'me.get', status, times: 1, ...more });
    return [await send(t, s.apiKey, 'GET', '/api/v1/me'), await send(t, s.apiKey, 'GET', '/api/v1/me')];
  },
  shows: (seen: Answer[]) => expect(seen.map((a) => a.status)).toEqual([status, 200]),
});

export const CASES: ParityCase[] = [
  {
    name: "a seller's day: statuses, bodies, the replay mark and the rate headers of every answer",
    run: async (t) => {
      const s = await newSeller(t);
      const found: { n?: number; order?: string } = {};
      const fill = (text: string) => text.replaceAll('{n}', String(found.n)).replaceAll('{order}', String(found.order));
      const answers: Array<{ step: string; answer: Answer | 'network error' }> = [];
      for (const step of SEQUENCE) {
        const body = step.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(step.body)).replace(`"${found.n}"`, String(found.n)));
        const res = await fetch(`${t.baseUrl}${fill(step.path)}`, {
          method: step.method,
          headers: {
            authorization: `Bearer ${step.as === 'api' ? s.apiKey : t.adminToken}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(step.idem ? { 'idempotency-key': step.idem } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = (await res.clone().json()) as Record<string, unknown>;
        if (step.path === '/api/v1/listings' && res.status === 201) found.n = json.number as number;
        if (step.path === '/sandbox/v1/orders') found.order = json.id as string;
        answers.push({ step: `${step.method} ${step.path}`, answer: await answerOf(res) });
      }
      return answers;
    },
    shows: (seen: Array<{ step: string; answer: Answer }>) => {
      expect(seen.map((a) => a.answer.status)).toEqual(expect.arrayContaining([201, 200, 409, 400, 422, 404]));
      expect(seen.filter((a) => a.answer.headers['idempotent-replayed'] === 'true').map((a) => a.step)).toEqual(['POST /api/v1/orders/{order}/deliver']);
      expect(seen[0]!.answer.headers).toMatchObject({ ratelimit: expect.stringContaining('r=29'), 'ratelimit-policy': expect.any(String) });
      expect(seen.every((a) => a.answer.requestId)).toBe(true);
    },
  },
  {
    name: 'a key past its burst: 429 with Retry-After and the rate headers',
    run: async (t) => {
      const s = await newSeller(t);
      const answers = [];
      for (let i = 0; i <= PARITY_RATE_LIMIT.burst; i++) answers.push(await send(t, s.apiKey, 'GET', '/api/v1/me'));
      return answers.slice(-2);
    },
    shows: ([last, refused]: Answer[]) => {
      expect(last!.headers.ratelimit).toContain('r=0');
      expect(refused).toMatchObject({ status: 429, headers: { 'retry-after': expect.any(String) } });
    },
  },
  {
    name: 'a method the path does not take: 405 with Allow',
    run: async (t) => {
      const s = await newSeller(t);
      return [await send(t, s.apiKey, 'DELETE', '/api/v1/me'), await send(t, s.apiKey, 'PUT', '/api/v1/orders')];
    },
    shows: (seen: Answer[]) => {
      expect(seen.map((a) => a.status)).toEqual([405, 405]);
      expect(seen[0]!.headers.allow).toContain('GET');
    },
  },
  statusFault(429),
  statusFault(500),
  statusFault(502),
  statusFault(503),
  {
    name: 'a latency fault: the real answer, late',
    run: async (t) => {
      const s = await newSeller(t);
      await s.fault({ op: 'me.get', latencyMs: 30, times: 1 });
      return send(t, s.apiKey, 'GET', '/api/v1/me');
    },
    shows: (seen: Answer) => expect(seen.status).toBe(200),
  },
  {
    name: "a drop fault: a network error at once; the SDK's error, and its retry",
    run: async (t) => {
      const s = await newSeller(t);
      await s.fault({ op: 'me.get', drop: true, times: 3 });
      const raw = await send(t, s.apiKey, 'GET', '/api/v1/me');
      const error = await new SellerClient({ baseUrl: t.baseUrl, apiKey: s.apiKey, maxRetries: 0, timeoutMs: 20_000 }).me.get().then(() => 'answered', failure);
      const { client, sent } = recordingClient(t, s.apiKey);
      await client.me.get();
      return { raw, error, sent };
    },
    shows: (seen) => {
      expect(seen.raw).toBe('network error');
      expect(seen.error).toEqual({ name: 'ConnectionError', code: 'connection', timedOut: false });
      expect(seen.sent.map((x: Sent) => x.status)).toEqual(['dropped', 200]);
    },
  },
  {
    name: 'a drop-after fault: the change is made, the answer lost; the retry under the same key gets the replay',
    run: async (t) => {
      const s = await newSeller(t);
      const first = await paidOrder(t, s.client);
      await s.fault({ op: 'orders.deliver', dropAfter: true, times: 1 });
      const { client, sent } = recordingClient(t, s.apiKey);
      const delivered = await client.orders.deliver(first.order, { note: 'Enjoy (dropped)' });
      const notes = (await s.client.orders.get(first.order)).messages.filter((m) => m.text === 'Enjoy (dropped)').length;
      const second = await paidOrder(t, s.client, first.number);
      await s.fault({ op: 'orders.deliver', dropAfter: true, times: 1 });
      const raw = [
        await send(t, s.apiKey, 'POST', `/api/v1/orders/${second.order}/deliver`, { body: {}, idem: 'k-1' }),
        await send(t, s.apiKey, 'POST', `/api/v1/orders/${second.order}/deliver`, { body: {}, idem: 'k-1' }),
      ];
      return { status: delivered.status, notes, sent: sent.map((x) => [x.status, x.replayed, x.key === sent[0]!.key]), raw };
    },
    shows: (seen) => {
      expect(seen).toMatchObject({ status: 'delivered', notes: 1, sent: [['dropped', false, true], [200, true, true]] });
      expect(seen.raw[0]).toBe('network error');
      expect(seen.raw[1]).toMatchObject({ status: 200, headers: { 'idempotent-replayed': 'true' } });
    },
  },
  {
    name: 'webhook deliveries: the same bodies, verified with the secret hooks.set gave',
    run: (t) =>
      hooksCase(t, ['order.new', 'order.paid'], 2, async (s) => {
        const { order } = await paidOrder(t, s.client);
        return [order];
      }),
    shows: (seen) => {
      expect(seen.map((d: { event: string; verified: string }) => [d.event, d.verified])).toEqual([
        ['order.new', 'order.new'],
        ['order.paid', 'order.paid'],
      ]);
    },
  },
  {
    name: 'webhook chaos duplicate: the delivery again, as its next attempt',
    run: (t) =>
      hooksCase(t, ['order.paid'], 2, async (s) => {
        await s.fault({ hooks: 'duplicate', times: 1 });
        return [(await paidOrder(t, s.client)).order];
      }),
    shows: (seen) => expect(seen.map((d: { attempt: string; verified: string }) => [d.attempt, d.verified])).toEqual([['1', 'order.paid'], ['2', 'order.paid']]),
  },
  {
    name: 'webhook chaos fail: the first attempt never arrives, the ladder sends the second',
    run: (t) =>
      hooksCase(t, ['order.paid'], 1, async (s) => {
        await s.fault({ hooks: 'fail', times: 1 });
        const { order } = await paidOrder(t, s.client);
        await waitFor('the failed first attempt', async () => (await t.sandbox.sellerDeliveries(s.sellerId)).items.some((d) => d.attempts === 1));
        await t.sandbox.advanceClock({ seconds: 10 });
        return [order];
      }),
    shows: (seen) => expect(seen.map((d: { attempt: string }) => d.attempt)).toEqual(['2']),
  },
  {
    name: 'webhook chaos delay: the delivery, late',
    run: (t) =>
      hooksCase(t, ['order.paid'], 1, async (s) => {
        await s.fault({ hooks: 'delay', delayMs: 100, times: 1 });
        return [(await paidOrder(t, s.client)).order];
      }),
    shows: (seen) => expect(seen.map((d: { attempt: string }) => d.attempt)).toEqual(['1']),
  },
  {
    name: "webhook chaos reorder: a held delivery arrives after the seller's next one",
    run: (t) =>
      hooksCase(t, ['order.paid'], 2, async (s) => {
        await s.fault({ hooks: 'reorder', times: 1 });
        const first = await paidOrder(t, s.client);
        // The first delivery is held (the fault hit it) before the second order is paid.
        await waitFor('the reorder fault to hit', async () => (await t.sandbox.listFaults()).items.filter((f) => f.sellerId === s.sellerId).every((f) => f.hits > 0));
        const second = await paidOrder(t, s.client, first.number);
        return [first.order, second.order];
      }),
    shows: (seen) => expect(seen.map((d: { order: string }) => d.order)).toEqual(['o2', 'o1']),
  },
];
