/**
 * Faults on demand (issue #27, section 2) against a real seller-server on a port: each effect seen
 * happening (the status instead of the call, with nothing done; the latency measured; the
 * connection dropped before or after the change), the matching (one seller or all, an operation or
 * `*`, never the sandbox or /api/mcp), the limits (times, every Nth, for a duration of the server
 * clock), the table's operations, and the refusals of bad fault bodies.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { AddFaultBody } from '../../sdk/sandbox-faults.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';

const world = useSellerWorld({ server: { rateLimit: NO_RATE_LIMIT }, card: { stock: Array.from({ length: 30 }, (_, i) => `CODE-${i}`) } });

afterEach(async () => {
  await world.sandbox.clearFaults();
});

interface Raw {
  status: number;
  headers: Headers;
  text: string;
  json?: any;
}

/** One seller-API call with no retry: what came back, or the network error. */
async function api(method: string, path: string, opts: { key?: string; body?: unknown; idem?: string } = {}): Promise<Raw> {
  const res = await fetch(`${world.server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${opts.key ?? world.apiKey}`,
      ...(method === 'GET' ? {} : { 'idempotency-key': opts.idem ?? randomUUID() }),
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const addFault = (body: AddFaultBody) => world.sandbox.addFault(body);
const deliver = (orderId: string, idem?: string) => api('POST', `/orders/${orderId}/deliver`, { body: {}, ...(idem ? { idem } : {}) });
const orderStatus = async (orderId: string) => (await world.client.orders.get(orderId)).status;

describe('a status instead of the call', () => {
  it('503 twice: the envelope, nothing done, then the real answer', async () => {
    const order = await world.buy(world.card);
    await addFault({ sellerId: world.sellerId, op: 'orders.deliver', status: 503, times: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await deliver(order);
      expect(r.status).toBe(503);
      expect(r.json).toMatchObject({ error: 'unavailable', detail: { message: expect.stringContaining('sandbox fault') } });
      expect(await orderStatus(order)).toBe('awaiting_delivery');
    }
    expect((await deliver(order)).status).toBe(200);
    expect(await orderStatus(order)).not.toBe('awaiting_delivery');
    expect((await world.sandbox.listFaults()).items).toEqual([expect.objectContaining({ status: 503, hits: 2, remaining: 0, endedAt: expect.any(String) })]);
  });

  it('429 carries Retry-After and the rate headers', async () => {
    await addFault({ op: 'orders.list', status: 429, times: 1 });
    const r = await api('GET', '/orders');
    expect(r.status).toBe(429);
    expect(r.json).toMatchObject({ error: 'rate' });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get('ratelimit-policy')).toMatch(/q=\d+/);
    expect(r.headers.get('ratelimit')).toMatch(/r=0/);
    expect((await api('GET', '/orders')).status).toBe(200);
  });

  it('retryAfterMs: the Retry-After a status sends; 429 says 1 s without it, 503 sends none without it', async () => {
    await addFault({ op: 'me.get', status: 429, retryAfterMs: 5000, times: 1 });
    const rate = await api('GET', '/me');
    expect(rate.status).toBe(429);
    expect(rate.headers.get('retry-after')).toBe('5');
    expect(rate.headers.get('ratelimit')).toMatch(/t=5$/);
    expect(rate.json).toMatchObject({ error: 'rate', detail: { retryAfter: 5 } });
    await addFault({ op: 'me.get', status: 429, times: 1 });
    expect((await api('GET', '/me')).headers.get('retry-after')).toBe('1');

    await addFault({ op: 'me.get', status: 503, times: 1 });
    const bare = await api('GET', '/me');
    expect(bare.status).toBe(503);
    expect(bare.headers.get('retry-after')).toBeNull();
    // Sent in whole seconds, rounded up.
    await addFault({ op: 'me.get', status: 503, retryAfterMs: 2500, times: 1 });
    const told = await api('GET', '/me');
    expect(told.status).toBe(503);
    expect(told.headers.get('retry-after')).toBe('3');
  });

  it('500 is the envelope; 502 is an HTML page, as a failing proxy answers', async () => {
    await addFault({ op: 'me.get', status: 500, times: 1 });
    const five = await api('GET', '/me');
    expect(five.status).toBe(500);
    expect(five.json).toMatchObject({ error: 'internal' });
    await addFault({ op: 'me.get', status: 502, times: 1 });
    const bad = await api('GET', '/me');
    expect(bad.status).toBe(502);
    expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    expect(bad.text).toContain('502 Bad Gateway');
    expect(bad.json).toBeUndefined();
  });
});

describe('late, and dropped', () => {
  it('a latency: the real answer, after at least that long', async () => {
    await addFault({ op: 'me.get', latencyMs: 400, times: 1 });
    const started = performance.now();
    const r = await api('GET', '/me');
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ sellerId: world.sellerId });
  });

  it('drop: the connection is cut and the call did not run', async () => {
    const order = await world.buy(world.card);
    await addFault({ op: 'orders.deliver', drop: true, times: 1 });
    await expect(deliver(order)).rejects.toThrow();
    expect(await orderStatus(order)).toBe('awaiting_delivery');
  });

  it('drop-after: the change is made, its answer lost; the same key replays it', async () => {
    const order = await world.buy(world.card);
    await addFault({ sellerId: world.sellerId, op: 'orders.deliver', dropAfter: true, times: 1 });
    const idem = randomUUID();
    expect(await orderStatus(order)).toBe('awaiting_delivery');
    await expect(deliver(order, idem)).rejects.toThrow();
    expect(await orderStatus(order)).not.toBe('awaiting_delivery');
    const again = await deliver(order, idem);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('which calls a fault hits', () => {
  it("one seller's fault leaves another seller alone", async () => {
    const other = await world.newShop();
    await addFault({ sellerId: world.sellerId, op: '*', status: 500 });
    expect((await api('GET', '/me')).status).toBe(500);
    expect((await api('GET', '/me', { key: other.apiKey })).status).toBe(200);
  });

  it('an operation fault leaves the other operations alone', async () => {
    await addFault({ op: 'orders.list', status: 500 });
    expect((await api('GET', '/orders')).status).toBe(500);
    expect((await api('GET', '/me')).status).toBe(200);
  });

  it('* hits every seller-API call, never the sandbox nor /api/mcp', async () => {
    await addFault({ op: '*', status: 503 });
    expect((await api('GET', '/me')).status).toBe(503);
    expect((await api('GET', '/listings')).status).toBe(503);
    expect((await world.sandbox.clock()).now).toMatch(/Z$/);
    const mcp = await fetch(`${world.server.url}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'service_me', arguments: {} } }),
    });
    expect(mcp.status).toBe(200);
    expect(await mcp.text()).toContain(world.sellerId);
  });

  it('every 3: the 3rd and the 6th matching call, no other', async () => {
    await addFault({ op: 'me.get', status: 500, every: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await api('GET', '/me')).status);
    expect(statuses).toEqual([200, 200, 500, 200, 200, 500, 200]);
    const [fault] = (await world.sandbox.listFaults()).items;
    expect(fault).toMatchObject({ hits: 2, remaining: null, every: 3 });
  });

  it('times counts hits down; the fault ends at zero and is listed as ended, with its hits', async () => {
    const fault = await addFault({ op: 'me.get', status: 500, times: 3 });
    expect(fault).toMatchObject({ id: expect.stringMatching(/^flt_/), remaining: 3, hits: 0, expiresAt: null, endedAt: null });
    await api('GET', '/me');
    expect((await world.sandbox.listFaults()).items).toEqual([expect.objectContaining({ id: fault.id, remaining: 2, hits: 1, endedAt: null })]);
    await api('GET', '/me');
    await api('GET', '/me');
    expect((await api('GET', '/me')).status).toBe(200);
    const [ended] = (await world.sandbox.listFaults()).items;
    expect(ended).toMatchObject({ id: fault.id, remaining: 0, hits: 3, endedAt: expect.any(String) });
    // endedAt is the server clock's, as createdAt is.
    expect(Date.parse(ended!.endedAt!)).toBeGreaterThanOrEqual(Date.parse(fault.createdAt));
  });

  it('for: a duration of the server clock; a clock advance past it ends the fault, listed as ended at its expiresAt', async () => {
    const fault = await addFault({ op: 'me.get', status: 500, forMs: 60_000 });
    expect(Date.parse(fault.expiresAt!) - Date.parse(fault.createdAt)).toBe(60_000);
    expect((await api('GET', '/me')).status).toBe(500);
    await world.sandbox.advanceClock({ seconds: 61 });
    expect((await api('GET', '/me')).status).toBe(200);
    expect((await world.sandbox.listFaults()).items).toEqual([expect.objectContaining({ id: fault.id, hits: 1, endedAt: fault.expiresAt })]);
  });

  it('an ended fault stays listed after the faults in force, hits no call, and is cleared like one in force', async () => {
    const used = await addFault({ op: 'me.get', status: 500, times: 1 });
    await api('GET', '/me');
    const live = await addFault({ op: 'orders.list', status: 503 });
    expect((await world.sandbox.listFaults()).items.map((f) => [f.id, f.endedAt === null])).toEqual([
      [live.id, true],
      [used.id, false],
    ]);
    expect((await api('GET', '/me')).status).toBe(200);
    expect(await world.sandbox.clearFault(used.id)).toEqual({ cleared: 1 });
    expect((await world.sandbox.listFaults()).items.map((f) => f.id)).toEqual([live.id]);
  });
});

describe('the table', () => {
  it('lists oldest first; clears one (404 for an unknown id) or all', async () => {
    const a = await addFault({ op: 'me.get', status: 500 });
    const b = await addFault({ hooks: 'delay', delayMs: 1000 });
    expect((await world.sandbox.listFaults()).items.map((f) => f.id)).toEqual([a.id, b.id]);
    expect(await world.sandbox.clearFault(a.id)).toEqual({ cleared: 1 });
    await expect(world.sandbox.clearFault(a.id)).rejects.toMatchObject({ status: 404 });
    await addFault({ op: 'me.get', status: 500 });
    expect(await world.sandbox.clearFaults()).toEqual({ cleared: 2 });
    expect((await world.sandbox.listFaults()).items).toEqual([]);
  });

  it('a fault for an unknown seller is refused (404)', async () => {
    await expect(addFault({ sellerId: 'slr_nobody', op: 'me.get', status: 500 })).rejects.toMatchObject({ status: 404 });
  });

  it.each<[unknown, string]>([
    [{ op: 'orders.deliver' }, 'body.status'],
    [{ op: 'orders.deliver', status: 503, drop: true }, 'body.drop'],
    [{ status: 503 }, 'body.op'],
    [{ op: 'sandbox.pay', status: 503 }, 'body.op'],
    [{ op: 'orders.deliver', status: 418 }, 'body.status'],
    [{ op: 'orders.deliver', latencyMs: 60_001 }, 'body.latencyMs'],
    [{ hooks: 'delay' }, 'body.delayMs'],
    [{ hooks: 'fail', op: 'orders.deliver' }, 'body.op'],
    [{ op: 'orders.deliver', status: 503, every: 1 }, 'body.every'],
    [{ op: 'orders.deliver', status: 503, times: 0 }, 'body.times'],
    [{ op: 'orders.deliver', status: 503, forMs: -5 }, 'body.forMs'],
    [{ op: 'orders.deliver', latencyMs: 10, retryAfterMs: 1000 }, 'body.retryAfterMs'],
    [{ op: 'orders.deliver', status: 503, retryAfterMs: 3_600_001 }, 'body.retryAfterMs'],
    [{ op: 'orders.deliver', status: 503, surprise: true }, 'body'],
  ])('%j is refused naming %s', async (body, field) => {
    const res = await fetch(`${world.server.url}/sandbox/v1/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.server.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { error: string; detail: { message: string } };
    expect(answer.error).toBe('bad_request');
    expect(answer.detail.message).toContain(`${field}`);
    expect((await world.sandbox.listFaults()).items).toEqual([]);
  });
});
