/**
 * `service-seller-server/msw` (issue 28): the reference app answering through msw in this process.
 * Its seller, its rules (a second delivery, an empty stock, a missing idempotency key, the rate
 * limit), its webhooks (kept, signed, verifiable), its clock, its reset, and no socket anywhere.
 */
import net from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SellerClient } from '../../sdk/client.ts';
import { ConnectionError, RejectedError } from '../../sdk/errors.ts';
import { verifyWebhook } from '../../sdk/webhooks/verify.ts';
import { verifyWebhookAsync } from '../../sdk/webhooks/verify-web.ts';
import { createSellerMock, type CardSeed, type SellerMock } from '../../server/msw/index.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';

// Any socket opened from here on is a failure: the mock must answer without one.
const listen = vi.spyOn(net.Server.prototype, 'listen');
const connect = vi.spyOn(net.Socket.prototype, 'connect');

/** A switched-on spotify code card. */
const CARD: CardSeed = { ...CODE_CARD, productType: 'code', deliveryMethod: 'code' };

let mock: SellerMock;
const server = setupServer();

beforeAll(async () => {
  mock = await createSellerMock({ cards: [{ ...CARD, items: ['CODE-1'], autoIssue: true }] });
  server.use(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => mock.reset());
afterAll(async () => {
  server.close();
  await mock.close();
});

const client = () => new SellerClient({ baseUrl: mock.baseUrl, apiKey: mock.seller.apiKey, maxRetries: 0 });

describe('createSellerMock', () => {
  it('seeds a seller like the demo seller (live, admission complete, a key of every scope) and its card with stock', async () => {
    const me = await client().me.get();
    expect(me).toMatchObject({ sellerId: mock.seller.sellerId, mode: 'live' });
    const keys = await client().keys.list();
    expect(keys.items[0]!.scopes).toEqual(expect.arrayContaining(['orders', 'listings', 'stock', 'hooks', 'keys']));
    const [number] = mock.seller.cards;
    expect(await client().listings.get(number!)).toMatchObject({ isActive: true, stock: { free: 1, issued: 0 } });
    expect(mock.baseUrl).toBe('http://seller-mock.local');
  });

  it('answers the real rules: a second delivery is refused, a missing idempotency key is a 400, an empty stock delivers nothing', async () => {
    const [number] = mock.seller.cards;
    const order = await mock.sandbox.createOrder({ number: number! });
    await mock.sandbox.pay(order.id);
    // Auto-delivery gave the one code: the order is delivered, a second delivery is refused.
    expect((await client().orders.get(order.id)).status).toBe('delivered');
    const again = await client().orders.deliver(order.id, {}).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(RejectedError);
    expect((again as RejectedError).refusal.kind).toBe('state_moved');
    const raw = await fetch(`${mock.baseUrl}/api/v1/orders/${order.id}/deliver`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.seller.apiKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ error: 'idempotency_key_required' });
    expect(await client().stock.get(number!)).toMatchObject({ free: 0, issued: 1 });
    // With the stock empty, the next paid order is not auto-delivered: it waits for the seller.
    const next = await mock.sandbox.createOrder({ number: number! });
    await mock.sandbox.pay(next.id);
    expect((await client().orders.get(next.id)).status).toBe('awaiting_delivery');
  });

  it('replays an idempotent call: the same key gives the same answer, marked replayed, and one order moves once', async () => {
    const [number] = mock.seller.cards;
    const order = await mock.sandbox.createOrder({ number: number! });
    await mock.sandbox.pay(order.id);
    const send = () =>
      fetch(`${mock.baseUrl}/api/v1/orders/${order.id}/deliver`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.seller.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'same-key-1' },
        body: '{}',
      });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(first.status);
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps each webhook delivery, signed with the secret mock.seller.webhookSecret holds once subscribed', async () => {
    expect(mock.seller.webhookSecret).toBeUndefined();
    const { secret } = await client().hooks.set({ url: 'https://receiver.example/hooks', events: ['order.paid', 'order.new'] });
    expect(mock.seller.webhookSecret).toBe(secret);
    const order = await mock.sandbox.createOrder({ number: mock.seller.cards[0]! });
    await mock.sandbox.pay(order.id);
    expect(mock.webhooks.map((w) => w.event)).toEqual(['order.new', 'order.paid']);
    for (const hook of mock.webhooks) {
      expect(verifyWebhook(hook.body, hook.headers, mock.seller.webhookSecret!)).toMatchObject({ event: hook.event, data: { order: order.id } });
      expect((await verifyWebhookAsync(hook.body, hook.headers, secret!)).event).toBe(hook.event);
      expect(hook.url).toBe('https://receiver.example/hooks');
    }
    const log = await client().hooks.deliveries();
    expect(log.items.every((d) => d.lastStatus === 204)).toBe(true);
  });

  it('moves the server clock: an unanswered order passes its deadline', async () => {
    const card = await client().listings.create({ ...CODE_CARD, slaMinutes: 30 });
    await client().listings.setState(card.number, { active: true });
    const order = await mock.sandbox.createOrder({ number: card.number });
    await mock.sandbox.pay(order.id);
    const before = mock.clock.now().getTime();
    const after = await mock.clock.advance('2h');
    expect(after.getTime() - before).toBeGreaterThanOrEqual(2 * 3600 * 1000);
    const moved = await client().orders.get(order.id);
    expect(moved.status).not.toBe('awaiting_delivery');
    await expect(mock.clock.advance('soon')).rejects.toThrow(/not a duration/);
  });

  it('reset() brings back the seeded state with the same seller, key and card numbers', async () => {
    const { sellerId, apiKey } = mock.seller;
    const [number] = mock.seller.cards;
    const order = await mock.sandbox.createOrder({ number: number! });
    await client().hooks.set({ url: 'https://receiver.example/hooks', events: ['order.paid'] });
    await mock.sandbox.pay(order.id);
    expect(mock.webhooks).toHaveLength(1);
    await mock.reset();
    expect(mock.seller).toMatchObject({ sellerId, apiKey, cards: [number], webhookSecret: undefined });
    expect(mock.webhooks).toEqual([]);
    expect((await client().orders.list()).items).toEqual([]);
    expect(await client().listings.get(number!)).toMatchObject({ isActive: true, stock: { free: 1, issued: 0 } });
  });

  it('answers only for its own address: another mock answers for its own, an unknown host is not handled', async () => {
    const other = await createSellerMock();
    try {
      expect(other.baseUrl).not.toBe(mock.baseUrl);
      server.use(...other.handlers);
      const me = await new SellerClient({ baseUrl: other.baseUrl, apiKey: other.seller.apiKey }).me.get();
      expect(me.sellerId).toBe(other.seller.sellerId);
      const wrongKey = await new SellerClient({ baseUrl: mock.baseUrl, apiKey: other.seller.apiKey, maxRetries: 0 }).me.get().catch((e: unknown) => e);
      expect(wrongKey).toMatchObject({ status: 401 });
      await expect(fetch('http://not-the-mock.local/api/v1/me')).rejects.toThrow();
    } finally {
      server.resetHandlers(...mock.handlers);
      await other.close();
    }
  });

  it("answers the sandbox's faults as the server does: a 503 once, then the real answer", async () => {
    await mock.sandbox.addFault({ op: 'orders.list', status: 503, times: 1 });
    const failed = await client().orders.list().catch((e: unknown) => e);
    expect(failed).toMatchObject({ status: 503 });
    expect((await client().orders.list()).items).toEqual([]);
  });

  it('answers a drop fault at once with a network error, as the server resets the socket (not a hang until the timeout)', async () => {
    await mock.sandbox.addFault({ op: 'me.get', drop: true, times: 1 });
    // A limit the test would see: before the fix the call waited it out and failed as a timeout.
    const failed = await new SellerClient({ baseUrl: mock.baseUrl, apiKey: mock.seller.apiKey, maxRetries: 0, timeoutMs: 10_000 }).me.get().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect((failed as ConnectionError).timedOut).toBe(false);
    await expect(mock.fetch(`${mock.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${mock.seller.apiKey}` } })).resolves.toMatchObject({ status: 200 });
  });

  it("answers a drop-after fault with a network error after the change: the SDK's retry gets the replay, the order moves once", async () => {
    const card = await client().listings.create(CODE_CARD);
    await client().listings.setState(card.number, { active: true });
    const order = await mock.sandbox.createOrder({ number: card.number });
    await mock.sandbox.pay(order.id);
    await mock.sandbox.addFault({ op: 'orders.deliver', dropAfter: true, times: 1 });
    const retrying = new SellerClient({ baseUrl: mock.baseUrl, apiKey: mock.seller.apiKey, maxRetries: 2, timeoutMs: 10_000, sleep: async () => {} });
    const delivered = await retrying.orders.deliver(order.id, { note: 'Enjoy (dropped)' });
    expect(delivered.status).toBe('delivered');
    const delivers = mock.calls.filter((c) => c.operation === 'orders.deliver');
    expect(delivers.map((c) => c.status)).toEqual([null, 200]);
    expect(delivers[1]!.idempotencyKey).toBe(delivers[0]!.idempotencyKey);
    expect((await client().orders.get(order.id)).messages.filter((m) => m.text === 'Enjoy (dropped)')).toHaveLength(1);
  });

  it('records the calls of the code under test in mock.calls: method, path, operation, idempotency key, status, in order', async () => {
    const card = await client().listings.create(CODE_CARD);
    await client().listings.setState(card.number, { active: true });
    const order = await mock.sandbox.createOrder({ number: card.number });
    await mock.sandbox.pay(order.id);
    const deliver = () =>
      fetch(`${mock.baseUrl}/api/v1/orders/${order.id}/deliver`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.seller.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'key-X' },
        body: '{}',
      });
    await deliver();
    await deliver();
    await fetch(`${mock.baseUrl}/api/v1/nowhere?x=1`, { headers: { authorization: `Bearer ${mock.seller.apiKey}` } });
    expect(mock.calls).toEqual([
      { method: 'POST', path: '/api/v1/listings', operation: 'listings.create', idempotencyKey: expect.any(String), status: 201 },
      { method: 'POST', path: `/api/v1/listings/${card.number}/state`, operation: 'listings.setState', idempotencyKey: expect.any(String), status: 200 },
      { method: 'POST', path: `/api/v1/orders/${order.id}/deliver`, operation: 'orders.deliver', idempotencyKey: 'key-X', status: 200 },
      { method: 'POST', path: `/api/v1/orders/${order.id}/deliver`, operation: 'orders.deliver', idempotencyKey: 'key-X', status: 200 },
      { method: 'GET', path: '/api/v1/nowhere', operation: null, idempotencyKey: null, status: 404 },
    ]);
    // What a test asks of it: deliver was called (twice, the second a replay) with key X, and nothing else delivered.
    expect(mock.calls.filter((c) => c.operation === 'orders.deliver').map((c) => c.idempotencyKey)).toEqual(['key-X', 'key-X']);
    await mock.reset();
    expect(mock.calls).toEqual([]);
  });

  it('gives each kept webhook its verified, typed event in parsed (event stays its kind)', async () => {
    const { secret } = await client().hooks.set({ url: 'https://receiver.example/hooks', events: ['order.paid'] });
    const order = await mock.sandbox.createOrder({ number: mock.seller.cards[0]! });
    await mock.sandbox.pay(order.id);
    const [hook] = mock.webhooks;
    expect(hook!.event).toBe('order.paid');
    expect(hook!.parsed).toEqual(verifyWebhook(hook!.body, hook!.headers, secret!));
    expect(hook!.parsed).toMatchObject({ event: 'order.paid', attempt: 1, data: { order: order.id, number: mock.seller.cards[0] } });
    const parsed = hook!.parsed;
    // Typed: narrowing on the kind gives the kind's data.
    if (parsed.event === 'order.paid') expect(parsed.data.slaMinutes).toBeGreaterThan(0);
  });

  it('makes the same ids, keys and times from the same idSeed and now: a frozen clock only advance moves', async () => {
    const now = '2026-03-01T09:00:00.000Z';
    const run = async (idSeed: string) => {
      const m = await createSellerMock({ idSeed, now, cards: [{ ...CARD, items: ['CODE-1'], autoIssue: true }] });
      try {
        const c = new SellerClient({ baseUrl: m.baseUrl, apiKey: m.seller.apiKey, fetch: m.fetch });
        const order = await m.sandbox.createOrder({ number: m.seller.cards[0]! });
        await m.sandbox.pay(order.id);
        const me = await m.fetch(`${m.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${m.seller.apiKey}` } });
        const seen = {
          seller: m.seller,
          adminToken: m.adminToken,
          order: await c.orders.get(order.id),
          requestId: me.headers.get('x-request-id'),
          date: me.headers.get('date'),
          clock: m.clock.now().toISOString(),
        };
        const later = await m.clock.advance('1h');
        // After a reset, the same calls make the same ids again.
        await m.reset();
        const replayed = await m.sandbox.createOrder({ number: m.seller.cards[0]! });
        expect(replayed.id).toBe(order.id);
        return { seen, later: later.toISOString() };
      } finally {
        await m.close();
      }
    };
    const [first, again, other] = [await run('snap-1'), await run('snap-1'), await run('snap-2')];
    expect(again).toEqual(first);
    expect(first.seen.clock).toBe(now);
    expect(first.seen.order).toMatchObject({ createdAt: now, paidAt: now, status: 'delivered' });
    expect(first.seen.date).toBe(new Date(now).toUTCString());
    expect(first.later).toBe('2026-03-01T10:00:00.000Z');
    expect(other.seen.seller.sellerId).not.toBe(first.seen.seller.sellerId);
    expect(other.seen.order.id).not.toBe(first.seen.order.id);
    expect(other.seen.requestId).not.toBe(first.seen.requestId);
  });

  it('limits the rate as the server does', async () => {
    const limited = await createSellerMock({ server: { rateLimit: { perMinute: 60, burst: 2 } } });
    try {
      const send = () => limited.fetch(`${limited.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${limited.seller.apiKey}` } });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await send()).status);
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      expect(statuses).toContain(429);
    } finally {
      await limited.close();
    }
  });

  it('seeds through the API: a card that breaks a rule fails the mock with the refusal', async () => {
    const error = await createSellerMock({ cards: [{ ...CARD, service: 'no-such-service' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RejectedError);
    expect((error as RejectedError).refusal).toMatchObject({ field: 'service' });
  });

});

describe('createSellerMock({ scenario })', () => {
  const SCENARIO = `
steps:
  - seller: { as: shop }
  - seller: { as: rival }
  - card: { as: codes, seller: shop, service: spotify, tariff: individual, productType: code,
            deliveryMethod: code, priceRub: 300, slaMinutes: 60, guaranteeDays: 7 }
  - stock: { card: codes, count: 2 }
  - on: { card: codes, autoIssue: true }
  - buy: { as: o1, card: codes }
  - pay: { order: o1 }
  - expect: { order: o1, status: delivered }
`;

  it("seeds from a scenario run in-process: mock.seller is its first seller, what it made is mock.scenario", async () => {
    const seeded = await createSellerMock({ scenario: SCENARIO });
    try {
      expect(seeded.sellers).toHaveLength(2);
      expect(seeded.scenario!.results.shop).toMatchObject({ id: seeded.seller.sellerId });
      const shop = new SellerClient({ baseUrl: seeded.baseUrl, apiKey: seeded.seller.apiKey, fetch: seeded.fetch });
      const [number] = seeded.seller.cards;
      expect(number).toBe(seeded.scenario!.results.codes!.number);
      expect(await shop.stock.get(number!)).toMatchObject({ free: 1, issued: 1 });
      const order = seeded.scenario!.results.o1!.id as string;
      expect((await shop.orders.get(order)).status).toBe('delivered');
      await seeded.reset();
      expect(seeded.seller.sellerId).toBe(seeded.scenario!.results.shop!.id);
      expect((await new SellerClient({ baseUrl: seeded.baseUrl, apiKey: seeded.seller.apiKey, fetch: seeded.fetch }).orders.list()).items).toHaveLength(1);
    } finally {
      await seeded.close();
    }
  });

  it("names every seller of the scenario in sellersByName, with its key and the signing secret its hooks step subscribed with", async () => {
    const seeded = await createSellerMock({
      scenario: `${SCENARIO}
  - hooks: { seller: rival, url: https://receiver.example/rival, events: [order.paid] }
  - card: { as: rival-codes, seller: rival, service: spotify, tariff: individual, productType: code,
            deliveryMethod: code, priceRub: 300, slaMinutes: 60, guaranteeDays: 7 }
  - on: { card: rival-codes }
  - buy: { as: o2, card: rival-codes }
  - pay: { order: o2 }
`,
    });
    try {
      const { shop, rival } = seeded.sellersByName;
      expect(Object.keys(seeded.sellersByName)).toEqual(['shop', 'rival']);
      expect(shop).toBe(seeded.seller);
      expect(rival).toBe(seeded.sellers[1]);
      expect(rival).toMatchObject({ name: 'rival', sellerId: seeded.scenario!.results.rival!.id, apiKey: expect.stringMatching(/^service_live_/) });
      expect(shop!.webhookSecret).toBeUndefined();
      expect(rival!.webhookSecret).toEqual(expect.any(String));
      const paid = seeded.webhooks.filter((w) => w.event === 'order.paid');
      expect(paid).toHaveLength(1);
      expect(verifyWebhook(paid[0]!.body, paid[0]!.headers, rival!.webhookSecret!)).toMatchObject({ data: { order: seeded.scenario!.results.o2!.id } });
      const me = await new SellerClient({ baseUrl: seeded.baseUrl, apiKey: rival!.apiKey, fetch: seeded.fetch }).me.get();
      expect(me.sellerId).toBe(rival!.sellerId);
      // A reset runs the scenario again: new sellers in the same objects, the new secret with them.
      const before = rival!.webhookSecret;
      await seeded.reset();
      expect(seeded.sellersByName.rival).toBe(rival);
      expect(rival!.webhookSecret).toEqual(expect.any(String));
      expect(rival!.webhookSecret).not.toBe(before);
      const [again] = seeded.webhooks.filter((w) => w.event === 'order.paid');
      expect(verifyWebhook(again!.body, again!.headers, rival!.webhookSecret!).event).toBe('order.paid');
    } finally {
      await seeded.close();
    }
  });

  it('refuses a scenario with sellers or cards besides', async () => {
    await expect(createSellerMock({ scenario: SCENARIO, cards: [CARD] })).rejects.toThrow(/not both/);
  });
});

// Last in the file: every test above ran without a socket.
describe('the mock', () => {
  it('opens no socket: nothing listens, nothing connects', () => {
    expect(listen).not.toHaveBeenCalled();
    expect(connect).not.toHaveBeenCalled();
    const resources = process.getActiveResourcesInfo();
    expect(resources.filter((r) => /TCP/.test(r))).toEqual([]);
  });
});
