/**
 * Webhook chaos (issue #27, section 3) against a real seller-server and a local receiver: each kind
 * seen happening. A duplicate is the same delivery id sent again as the next attempt; a reorder
 * holds an event until the seller's next one has been sent; a delay holds it in real time; a fail
 * fails first attempts as a broken network would, and the ladder's next attempt goes through.
 * Every request the receiver gets is signed (it verifies), with its true attempt number.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/webhooks/index.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

interface Got {
  at: number;
  delivery: string;
  attempt: number;
  /** The order an `order.paid` event is about. */
  order: unknown;
}

const world = useSellerWorld({ server: { allowLocalHooks: true, rateLimit: NO_RATE_LIMIT }, card: {} });
let receiver: http.Server;
let secret: string;
const got: Got[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = verifyWebhook(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>, secret);
      got.push({ at: performance.now(), delivery: event.delivery, attempt: event.attempt, order: (event.data as { order?: unknown }).order });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  secret = (await world.client.hooks.set({ url, events: ['order.paid'] })).secret!;
});
afterEach(async () => {
  await world.sandbox.clearFaults();
  got.length = 0;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** A test delivery of the seller's (hooks.test); answers its id. */
const send = async () => (await world.client.hooks.test({})).delivery;
const logged = async (id: string) => (await world.client.hooks.deliveries()).items.find((d) => d.id === id)!;
const arrivals = (id: string) => got.filter((g) => g.delivery === id);

describe('webhook chaos', () => {
  it('duplicate: after a success, the same delivery id again as the next attempt', async () => {
    await world.sandbox.addFault({ sellerId: world.sellerId, hooks: 'duplicate', times: 1 });
    const id = await send();
    await waitFor('the duplicate', () => arrivals(id).length >= 2);
    expect(arrivals(id).map((g) => g.attempt)).toEqual([1, 2]);
    await waitFor('the log to show both attempts', async () => (await logged(id)).attempts === 2);
    expect(await logged(id)).toMatchObject({ attempts: 2, lastStatus: 204, deliveredAt: expect.any(String), nextAttemptAt: null });
    // times: 1 — the next delivery comes once.
    const next = await send();
    await waitFor('the next delivery', () => arrivals(next).length === 1);
    expect((await world.sandbox.listFaults()).items).toEqual([expect.objectContaining({ hooks: 'duplicate', hits: 1, remaining: 0, endedAt: expect.any(String) })]);
  });

  it('reorder: an event is held until the next one has been sent', async () => {
    await world.sandbox.addFault({ sellerId: world.sellerId, hooks: 'reorder', times: 1 });
    const first = await send();
    const second = await send();
    await waitFor('both deliveries', () => arrivals(first).length === 1 && arrivals(second).length === 1);
    expect(got.map((g) => g.delivery)).toEqual([second, first]);
    expect(arrivals(first)[0]!.attempt).toBe(1);
  });

  it('reorder with no limit: a held event goes after the next one, so the receiver sees a later event first', async () => {
    await world.sandbox.addFault({ sellerId: world.sellerId, hooks: 'reorder' });
    const orders = [await world.buy(world.card), await world.buy(world.card), await world.buy(world.card)];
    const paid = () => got.filter((g) => orders.includes(g.order as string)).map((g) => g.order);
    await waitFor('the three order.paid deliveries', () => paid().length === 3, { ms: 30_000 });
    expect(paid()).not.toEqual(orders);
    // The first is held until the second has been sent: the second arrives first.
    expect(paid().indexOf(orders[1])).toBeLessThan(paid().indexOf(orders[0]));
  });

  it('reorder: held at most 5 s when no next event comes', async () => {
    await world.sandbox.addFault({ hooks: 'reorder', times: 1 });
    const started = performance.now();
    const alone = await send();
    await waitFor('the held delivery', () => arrivals(alone).length === 1, { ms: 30_000 });
    expect(arrivals(alone)[0]!.at - started).toBeGreaterThanOrEqual(5_000);
  });

  it('delay: the delivery comes that much later in real time', async () => {
    await world.sandbox.addFault({ sellerId: world.sellerId, hooks: 'delay', delayMs: 800, times: 1 });
    const started = performance.now();
    const id = await send();
    await waitFor('the delayed delivery', () => arrivals(id).length === 1);
    expect(arrivals(id)[0]!.at - started).toBeGreaterThanOrEqual(800);
    expect(arrivals(id)[0]!.attempt).toBe(1);
  });

  it('fail: the first attempts fail as a broken network; the ladder delivers the next, with its true number', async () => {
    await world.sandbox.addFault({ sellerId: world.sellerId, hooks: 'fail', times: 2 });
    const id = await send();
    await waitFor('the first attempt logged', async () => (await logged(id)).attempts === 1);
    expect(await logged(id)).toMatchObject({ lastStatus: null, lastError: expect.stringContaining('sandbox fault'), deliveredAt: null });
    await world.sandbox.advanceClock({ seconds: 10 });
    await waitFor('the second attempt logged', async () => (await logged(id)).attempts === 2);
    expect(arrivals(id)).toEqual([]);
    await world.sandbox.advanceClock({ seconds: 60 });
    await waitFor('the third attempt', () => arrivals(id).length === 1);
    expect(arrivals(id)[0]!.attempt).toBe(3);
    await waitFor('the log to say delivered', async () => (await logged(id)).deliveredAt !== null);
  });

  it("one seller's chaos leaves another seller's deliveries alone", async () => {
    const other = await world.newShop();
    await world.sandbox.addFault({ sellerId: other.sellerId, hooks: 'fail' });
    const id = await send();
    await waitFor('the delivery', () => arrivals(id).length === 1);
    expect(arrivals(id)[0]!.attempt).toBe(1);
  });
});
