/**
 * The reference server inside the test, through msw: no port, no process, the real rules.
 * npm i -D service-seller-server msw vitest
 */
import { setupServer } from 'msw/node';
import { SellerClient } from 'service-seller';
import { createSellerMock } from 'service-seller-server/msw';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { deliverWaiting, onWebhook } from './shop.ts';

const CODE_CARD = { service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 300, slaMinutes: 60, guaranteeDays: 7 } as const;

// One seller (live, admission complete, a key of every scope) with a switched-on code card.
const mock = await createSellerMock({ cards: [CODE_CARD] });
const server = setupServer(...mock.handlers);
const client = new SellerClient({ baseUrl: mock.baseUrl, apiKey: mock.seller.apiKey });
const [card] = mock.seller.cards;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset()); // the seeded state again: same seller, same key, same card
afterAll(async () => {
  server.close();
  await mock.close();
});

test('delivers what was paid, and only once', async () => {
  const order = await mock.sandbox.createOrder({ number: card! }); // a buyer presses buy
  expect(await deliverWaiting(client)).toEqual([]); // not paid yet
  await mock.sandbox.pay(order.id);
  expect(await deliverWaiting(client)).toEqual([order.id]);
  expect(await deliverWaiting(client)).toEqual([]);
  // The server's own rule: a delivered order cannot be delivered again.
  await expect(client.orders.deliver(order.id, {})).rejects.toMatchObject({ refusal: { kind: 'state_moved' } });
  // What the code sent, in order: one delivery that went through, then the refused one.
  expect(mock.calls.filter((c) => c.operation === 'orders.deliver').map((c) => c.status)).toEqual([200, 409]);
});

test('handles the webhooks the server would send', async () => {
  await client.hooks.set({ url: 'https://shop.example/hooks', events: ['order.paid'] });
  const order = await mock.sandbox.createOrder({ number: card! });
  await mock.sandbox.pay(order.id);
  const [paid] = mock.webhooks; // kept, not sent; signed with the subscription's secret
  expect(await onWebhook(paid!.body, paid!.headers, mock.seller.webhookSecret!)).toBe(`deliver ${order.id}`);
  expect(paid!.parsed).toMatchObject({ event: 'order.paid', data: { order: order.id } }); // verified and typed
});

test('moves the server clock instead of waiting', async () => {
  const order = await mock.sandbox.createOrder({ number: card! });
  await mock.sandbox.pay(order.id);
  await mock.clock.advance('2h'); // the 60-minute deadline passes
  expect((await client.orders.get(order.id)).status).not.toBe('awaiting_delivery');
});
