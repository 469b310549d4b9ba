/**
 * `client.orders.watch()` against a real server while orders are bought, paid, messaged and
 * delivered concurrently: every (id, updatedAt) is yielded at most once, each order's changes
 * arrive in order, and every order's final state is seen, by a fast watcher, by a watcher that
 * is stopped and restarted from a stored watermark, and by a slow consumer that pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../sdk/contract/index.ts';
import type { Tolerant } from '../../sdk/open.ts';
import { memoryWatermarkStore, SandboxClient, SellerClient, type WatchOptions } from '../../sdk/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';

let server: TestServer;
let client: SellerClient;
let sandbox: SandboxClient;
let cards: number[];

beforeAll(async () => {
  // The watchers poll fast on one key: lift the rate limit so that the test measures the watch.
  server = await startTestServer({ rateLimit: NO_RATE_LIMIT });
  const { apiKey } = await server.newSeller();
  client = new SellerClient({ apiKey, baseUrl: server.url, strict: true });
  sandbox = new SandboxClient({ adminToken: server.adminToken, baseUrl: server.url, strict: true });
  const position = await client.catalog.get('spotify');
  cards = [];
  for (const price of [390, 450]) {
    const card = await client.listings.create({
      service: position.slug,
      tariff: position.tariffs[0]!.slug,
      productType: 'subscription',
      deliveryMethod: 'invite',
      priceRub: price,
      slaMinutes: position.slaChoices[0]!,
      guaranteeDays: position.guaranteeChoices.find((days) => days > 0)!,
    });
    await client.listings.setState(card.number, { active: true });
    cards.push(card.number);
  }
}, 60_000);
afterAll(async () => {
  // close() waits for every open connection: a keep-alive connection that was busy when the close
  // began stays open (up to the keep-alive timeout), so drop the connections of this process.
  const closing = server?.close();
  server?.app.server.closeAllConnections();
  await closing;
});

interface Seen {
  id: string;
  updatedAt: string;
  status: string;
}

/** Runs a watch into `seen` until `signal` aborts; `delayMs` makes a slow consumer. */
async function collect(seen: Seen[], options: WatchOptions, delayMs = 0): Promise<void> {
  for await (const order of client.orders.watch(options)) {
    seen.push({ id: order.id, updatedAt: order.updatedAt, status: order.status });
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

/**
 * A watcher stopped after every `every` orders it takes (or `everyMs` without any) and started
 * again from the same store, as a process that is restarted often would be.
 */
async function restarting(seen: Seen[], signal: AbortSignal, every: number, everyMs: number): Promise<number> {
  const store = memoryWatermarkStore();
  let runs = 0;
  while (!signal.aborted) {
    runs++;
    const stop = new AbortController();
    const run = AbortSignal.any([signal, stop.signal, AbortSignal.timeout(everyMs)]);
    let taken = 0;
    for await (const order of client.orders.watch({ store, intervalMs: 15, limit: 4, signal: run })) {
      seen.push({ id: order.id, updatedAt: order.updatedAt, status: order.status });
      if (++taken === every) stop.abort();
    }
  }
  return runs;
}

/** One buyer's whole order, with a few pauses so that the watchers see some states in between. */
async function lifeOfAnOrder(i: number): Promise<string> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 15)));
  const order = await sandbox.createOrder({ number: cards[i % cards.length]! });
  await pause();
  await sandbox.pay(order.id);
  await pause();
  await sandbox.message(order.id, { text: `hello from buyer ${i}` });
  await client.orders.message(order.id, { text: `hello buyer ${i}, working on it` });
  await pause();
  if (i % 5 === 4) {
    await sandbox.cancel(order.id);
    return order.id;
  }
  await client.orders.deliver(order.id, { nextChargeDay: '2026-12-21', note: 'Invite sent' });
  await pause();
  if (i % 2 === 0) await sandbox.accept(order.id);
  return order.id;
}

async function allOrders(): Promise<Tolerant<Order>[]> {
  const orders: Tolerant<Order>[] = [];
  for await (const order of client.orders.list({ limit: 200 })) orders.push(order);
  return orders;
}

function checkStream(name: string, seen: Seen[], final: Tolerant<Order>[]): void {
  const keys = seen.map((s) => `${s.id}|${s.updatedAt}`);
  const duplicates = keys.filter((key, i) => keys.indexOf(key) !== i);
  expect(duplicates, `${name}: changes yielded twice`).toEqual([]);
  const byId = new Map<string, Seen[]>();
  for (const s of seen) byId.set(s.id, [...(byId.get(s.id) ?? []), s]);
  for (const order of final) {
    const changes = byId.get(order.id) ?? [];
    expect(changes.length, `${name}: ${order.id} never seen`).toBeGreaterThan(0);
    const times = changes.map((c) => c.updatedAt);
    expect(times, `${name}: changes of ${order.id} out of order`).toEqual([...times].sort());
    expect(changes.at(-1), `${name}: final state of ${order.id}`).toEqual({ id: order.id, updatedAt: order.updatedAt, status: order.status });
  }
  expect(byId.size, `${name}: orders that do not exist`).toBe(final.length);
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('orders.watch against a real server', () => {
  it('sees every change exactly once while orders move concurrently', async () => {
    // Orders that exist before any watcher starts: the backlog comes first.
    const backlog = await Promise.all([0, 1, 2].map((i) => lifeOfAnOrder(100 + i)));

    const stop = new AbortController();
    const fast: Seen[] = [];
    const restarted: Seen[] = [];
    const slow: Seen[] = [];
    const watchers = Promise.all([
      collect(fast, { intervalMs: 10, limit: 3, signal: stop.signal }),
      restarting(restarted, stop.signal, 3, 200),
      collect(slow, { intervalMs: 50, limit: 2, signal: stop.signal }, 5),
    ]);

    const ids = [...backlog];
    for (let round = 0; round < 3; round++) {
      ids.push(...(await Promise.all(Array.from({ length: 8 }, (_, i) => lifeOfAnOrder(round * 8 + i)))));
    }
    const final = await allOrders();
    expect(final.map((o) => o.id).sort()).toEqual([...ids].sort());

    const caughtUp = (seen: Seen[]) => () => {
      const got = new Set(seen.map((s) => `${s.id}|${s.updatedAt}`));
      return final.every((o) => got.has(`${o.id}|${o.updatedAt}`));
    };
    await until('the fast watcher', caughtUp(fast));
    await until('the restarting watcher', caughtUp(restarted));
    await until('the slow watcher', caughtUp(slow), 30_000);
    // A little longer: nothing more may come, since nothing changes any more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop.abort();
    const [, runs] = await watchers;

    checkStream('fast', fast, final);
    checkStream('restarted', restarted, final);
    checkStream('slow', slow, final);
    expect(runs).toBeGreaterThan(2);
    // The fast watcher saw intermediate states too, not only the final ones.
    expect(fast.length).toBeGreaterThan(final.length);
    expect(fast.some((s) => s.status === 'awaiting_delivery')).toBe(true);

    // A watch from the beginning now yields exactly the final states, once each.
    const replay: Seen[] = [];
    const replayStop = new AbortController();
    const replaying = collect(replay, { intervalMs: 10, limit: 7, signal: replayStop.signal });
    await until('the replay', caughtUp(replay));
    replayStop.abort();
    await replaying;
    expect(replay).toHaveLength(final.length);
    checkStream('replay', replay, final);
  }, 90_000);

  it('waitFor sees a payment made while it waits', async () => {
    const order = await sandbox.createOrder({ number: cards[0]! });
    setTimeout(() => void sandbox.pay(order.id), 150);
    const paid = await client.orders.waitFor(order.id, (o) => o.status === 'awaiting_delivery', { intervalMs: 25, timeoutMs: 5000 });
    expect(paid).toMatchObject({ id: order.id, status: 'awaiting_delivery', needsAction: true });
    await expect(client.orders.waitFor(order.id, (o) => o.status === 'completed', { intervalMs: 25, timeoutMs: 200 })).rejects.toMatchObject({
      name: 'WaitTimeoutError',
      orderId: order.id,
    });
  });
});
