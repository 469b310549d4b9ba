import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Order, OrderStatus } from '../../sdk/contract/index.ts';
import type { Tolerant } from '../../sdk/open.ts';
import { AuthenticationError, NotFoundError, PermissionError, SellerClient } from '../../sdk/index.ts';
import {
  backoffDelay,
  EPOCH,
  fileWatermarkStore,
  memoryWatermarkStore,
  WaitTimeoutError,
  type WatchOptions,
} from '../../sdk/watch.ts';
import { netflixOrder } from '../helpers/fixtures.ts';

const BASE = 'http://seller.test';
const T0 = Date.parse('2026-11-21T08:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function order(id: string, updatedMs: number, status: OrderStatus = 'awaiting_payment'): Order {
  return netflixOrder(id, status, { deliverBy: null, createdAt: at(0), paidAt: null, updatedAt: at(updatedMs) });
}

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * A fake seller API holding orders: `GET /orders?updatedSince` inclusive and ascending by
 * (updatedAt, id), paged by cursor; `GET /orders/{id}`. `failNext` queues error answers.
 */
function fakeApi() {
  const orders = new Map<string, Order>();
  const failures: Reply[] = [];
  const requests: URL[] = [];
  let hang = false;
  const put = (...list: Order[]) => list.forEach((o) => orders.set(o.id, o));
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    requests.push(url);
    if (hang) {
      return new Promise((_, reject) => {
        const signal = init?.signal;
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    const reply = failures.shift() ?? answer(url);
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  function answer(url: URL): Reply {
    const single = /\/api\/v1\/orders\/(ord_\w+)$/.exec(url.pathname);
    if (single) {
      const found = orders.get(single[1]!);
      return found ? { status: 200, body: { ...found, messages: [] } } : { status: 404, body: { error: 'not_found' } };
    }
    const since = url.searchParams.get('updatedSince') ?? EPOCH;
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const cursor = url.searchParams.get('cursor');
    const key = (o: Order) => `${o.updatedAt}|${o.id}`;
    const sorted = [...orders.values()].filter((o) => o.updatedAt >= since).sort((a, b) => (key(a) < key(b) ? -1 : 1));
    const rest = cursor ? sorted.filter((o) => key(o) > cursor) : sorted;
    const items = rest.slice(0, limit);
    const nextCursor = rest.length > limit ? key(items[items.length - 1]!) : null;
    return { status: 200, body: { items, nextCursor } };
  }
  return {
    orders,
    put,
    requests,
    failNext: (...replies: Reply[]) => failures.push(...replies),
    hangRequests: () => (hang = true),
    client: new SellerClient({ apiKey: 'service_test_watch', baseUrl: BASE, maxRetries: 0, fetch }),
  };
}

/**
 * Runs a watch whose pauses play a script: each pause runs the next step (a change of the
 * world); when the script is over, the watch is aborted. Answers what was yielded and the waits.
 */
async function collect(
  api: ReturnType<typeof fakeApi>,
  script: Array<() => void>,
  options: Partial<WatchOptions> = {},
): Promise<{ seen: string[]; waits: number[]; orders: Tolerant<Order>[] }> {
  const controller = new AbortController();
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
    const step = script.shift();
    if (step) step();
    else controller.abort();
  };
  const orders: Tolerant<Order>[] = [];
  for await (const o of api.client.orders.watch({ intervalMs: 10, limit: 2, sleep, signal: controller.signal, ...options })) {
    orders.push(o);
  }
  return { seen: orders.map((o) => `${o.id}@${o.updatedAt.slice(17, 23)}:${o.status}`), waits, orders };
}

describe('orders.watch', () => {
  it('yields every order once across pages, then only changes; inclusive repeats are dropped', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1), order('ord_b', 2), order('ord_c', 3), order('ord_d', 4), order('ord_e', 5));
    const { seen, waits } = await collect(api, [
      () => {}, // a poll with nothing new: ord_e comes back (inclusive) and is dropped
      () => api.put(order('ord_b', 6, 'awaiting_delivery'), order('ord_f', 7)),
      () => api.put(order('ord_a', 8, 'cancelled')),
    ]);
    expect(seen).toEqual([
      'ord_a@00.001:awaiting_payment',
      'ord_b@00.002:awaiting_payment',
      'ord_c@00.003:awaiting_payment',
      'ord_d@00.004:awaiting_payment',
      'ord_e@00.005:awaiting_payment',
      'ord_b@00.006:awaiting_delivery',
      'ord_f@00.007:awaiting_payment',
      'ord_a@00.008:cancelled',
    ]);
    expect(waits).toEqual([10, 10, 10, 10]);
    const sinces = api.requests.map((u) => u.searchParams.get('updatedSince'));
    expect(sinces[0]).toBe(EPOCH);
    expect(sinces).toContain(at(5));
    expect(api.requests.every((u) => u.searchParams.get('limit') === '2')).toBe(true);
  });

  it('handles many orders at the same timestamp, across page ends, and a late one at that time', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1), order('ord_b', 1), order('ord_c', 1));
    const { seen } = await collect(
      api,
      [() => api.put(order('ord_d', 1)), () => {}, () => api.put(order('ord_a', 2, 'cancelled'))],
      { limit: 1 },
    );
    expect(seen).toEqual([
      'ord_a@00.001:awaiting_payment',
      'ord_b@00.001:awaiting_payment',
      'ord_c@00.001:awaiting_payment',
      'ord_d@00.001:awaiting_payment',
      'ord_a@00.002:cancelled',
    ]);
  });

  it('starts at `since` when given (Date or string) and rejects a non-date', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1), order('ord_b', 5));
    const { seen } = await collect(api, [], { since: new Date(T0 + 3) });
    expect(seen).toEqual(['ord_b@00.005:awaiting_payment']);
    expect(api.requests[0]!.searchParams.get('updatedSince')).toBe(at(3));
    const bad = api.client.orders.watch({ since: 'yesterday-ish' });
    await expect(bad.next()).rejects.toThrow(TypeError);
  });

  it('resumes from a stored watermark: nothing twice across restarts', async () => {
    const api = fakeApi();
    const store = memoryWatermarkStore();
    api.put(order('ord_a', 1), order('ord_b', 2), order('ord_c', 2));
    const first = await collect(api, [], { store });
    expect(first.seen).toHaveLength(3);
    expect(store.current).toEqual({ since: at(2), seen: [`ord_b|${at(2)}`, `ord_c|${at(2)}`] });

    api.put(order('ord_d', 2), order('ord_a', 3, 'cancelled'));
    const second = await collect(api, [], { store, since: EPOCH });
    expect(second.seen).toEqual(['ord_d@00.002:awaiting_payment', 'ord_a@00.003:cancelled']);

    const third = await collect(api, [], { store });
    expect(third.seen).toEqual([]);
  });

  it('saves the watermark only once the consumer asks for more: a consumer that dies gets the order again', async () => {
    const api = fakeApi();
    const store = memoryWatermarkStore();
    api.put(order('ord_a', 1), order('ord_b', 2), order('ord_c', 3));
    const taken: string[] = [];
    await expect(async () => {
      for await (const o of api.client.orders.watch({ store, intervalMs: 10 })) {
        taken.push(o.id);
        if (o.id === 'ord_b') throw new Error('crash while handling ord_b');
      }
    }).rejects.toThrow('crash');
    expect(taken).toEqual(['ord_a', 'ord_b']);
    expect(store.current).toEqual({ since: at(1), seen: [`ord_a|${at(1)}`] });
    const again = await collect(api, [], { store });
    expect(again.orders.map((o) => o.id)).toEqual(['ord_b', 'ord_c']);
  });

  it('keeps the watermark in a file, written by rename', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watermark-'));
    try {
      const path = join(dir, 'nested', 'orders.json');
      const store = fileWatermarkStore(path);
      expect(await store.get()).toBeNull();
      const api = fakeApi();
      api.put(order('ord_a', 1), order('ord_b', 2));
      await collect(api, [], { store });
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ since: at(2), seen: [`ord_b|${at(2)}`] });
      expect(readdirSync(join(dir, 'nested'))).toEqual(['orders.json']);
      const restarted = await collect(api, [], { store: fileWatermarkStore(path) });
      expect(restarted.seen).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a broken watermark file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watermark-'));
    try {
      const path = join(dir, 'w.json');
      await import('node:fs/promises').then((fs) => fs.writeFile(path, '{"since": 1}'));
      await expect(fileWatermarkStore(path).get()).rejects.toThrow(/not a watermark file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('backs off on failures with growing jittered waits, recovers, and resets after a success', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1));
    const server = { status: 500, body: { error: 'internal' } };
    api.failNext(server, server, { status: 429, body: { error: 'rate' }, headers: { 'retry-after': '7' } });
    const errors: Array<{ attempt: number; delayMs: number; code: unknown }> = [];
    const { seen, waits } = await collect(
      api,
      [() => {}, () => {}, () => {}, () => api.failNext(server), () => {}],
      {
        random: () => 1,
        onError: (error, retry) => errors.push({ ...retry, code: (error as { code?: unknown }).code }),
      },
    );
    expect(errors).toEqual([
      { attempt: 1, delayMs: 1000, code: 'internal' },
      { attempt: 2, delayMs: 2000, code: 'internal' },
      { attempt: 3, delayMs: 7000, code: 'rate' },
      { attempt: 1, delayMs: 1000, code: 'internal' },
    ]);
    expect(seen).toEqual(['ord_a@00.001:awaiting_payment']);
    expect(waits).toEqual([1000, 2000, 7000, 10, 1000, 10]);
  });

  it('caps the backoff and keeps the jitter between half and all of the step', () => {
    expect(backoffDelay(1, new Error(), 1000, 60_000, () => 0)).toBe(500);
    expect(backoffDelay(3, new Error(), 1000, 60_000, () => 1)).toBe(4000);
    expect(backoffDelay(20, new Error(), 1000, 60_000, () => 1)).toBe(60_000);
    expect(backoffDelay(20, new Error(), 1000, 60_000, () => 0)).toBe(30_000);
  });

  it('ends by throwing on an authentication or permission failure, without retrying', async () => {
    for (const [status, body, type] of [
      [401, { error: 'revoked' }, AuthenticationError],
      [403, { error: 'scope', detail: { needed: 'orders' } }, PermissionError],
    ] as const) {
      const api = fakeApi();
      api.put(order('ord_a', 1));
      api.failNext({ status, body });
      const onError = vi.fn();
      await expect(collect(api, [() => {}], { onError })).rejects.toBeInstanceOf(type);
      expect(onError).not.toHaveBeenCalled();
      expect(api.requests).toHaveLength(1);
    }
  });

  it('stops cleanly when aborted during the pause between polls', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1));
    const controller = new AbortController();
    const iterator = api.client.orders.watch({ intervalMs: 60_000, signal: controller.signal });
    expect((await iterator.next()).value?.id).toBe('ord_a');
    const pending = iterator.next();
    setTimeout(() => controller.abort(), 20);
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('stops cleanly when aborted during a request', async () => {
    const api = fakeApi();
    api.hangRequests();
    const controller = new AbortController();
    const iterator = api.client.orders.watch({ signal: controller.signal });
    const pending = iterator.next();
    setTimeout(() => controller.abort(), 20);
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect(api.requests).toHaveLength(1);
  });

  it('yields nothing when the signal is already aborted', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1));
    const iterator = api.client.orders.watch({ signal: AbortSignal.abort() });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
    expect(api.requests).toHaveLength(0);
  });

  it('a consumer that breaks ends the polling', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1), order('ord_b', 2));
    for await (const o of api.client.orders.watch({ intervalMs: 10 })) {
      expect(o.id).toBe('ord_a');
      break;
    }
    expect(api.requests).toHaveLength(1);
  });
});

describe('orders.waitFor', () => {
  afterEach(() => vi.useRealTimers());

  it('polls until the predicate holds and resolves with the order', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1));
    let reads = 0;
    const sleep = vi.fn(async () => {
      if (++reads === 3) api.put(order('ord_a', 2, 'awaiting_delivery'));
    });
    const found = await api.client.orders.waitFor('ord_a', (o) => o.status === 'awaiting_delivery', { sleep, intervalMs: 250 });
    expect(found.status).toBe('awaiting_delivery');
    expect(found.messages).toEqual([]);
    expect(sleep).toHaveBeenCalledTimes(3);
    expect(sleep.mock.calls[0]).toEqual([250, undefined]);
  });

  it('rejects with WaitTimeoutError after timeoutMs, carrying the last order read', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1));
    let now = 0;
    const sleep = async (ms: number) => {
      now += ms;
    };
    const wait = api.client.orders.waitFor('ord_a', (o) => o.status === 'completed', {
      timeoutMs: 2500,
      intervalMs: 1000,
      sleep,
      now: () => now,
    });
    const error = await wait.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ orderId: 'ord_a', timeoutMs: 2500, lastOrder: { status: 'awaiting_payment' } });
    expect((error as Error).message).toMatch(/ord_a .*2500 ms.*awaiting_payment/);
    expect(api.requests).toHaveLength(4);
  });

  it('times out in real time with the default sleep', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1));
    const started = Date.now();
    await expect(api.client.orders.waitFor('ord_a', () => false, { timeoutMs: 120, intervalMs: 30 })).rejects.toBeInstanceOf(WaitTimeoutError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('retries transient failures but rejects at once on not_found', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1, 'awaiting_delivery'));
    api.failNext({ status: 503, body: { error: 'internal' } });
    const sleep = async () => {};
    await expect(api.client.orders.waitFor('ord_a', (o) => o.needsAction, { sleep })).resolves.toMatchObject({ id: 'ord_a' });
    await expect(api.client.orders.waitFor('ord_zzz', () => true, { sleep })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('rejects with the abort reason when cancelled', async () => {
    const api = fakeApi();
    api.put(order('ord_a', 1));
    const controller = new AbortController();
    const wait = api.client.orders.waitFor('ord_a', () => false, { signal: controller.signal, intervalMs: 10_000 });
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(wait).rejects.toThrow('stop');
  });
});
