/**
 * The reference server on a port of its own, in the test's process: for code that makes its own
 * connections (another language's client, a browser, a webhook receiver the server calls).
 * npm i -D service-seller-server vitest
 */
import { SandboxClient, SellerClient } from 'service-seller';
import { startServer, type RunningServer } from 'service-seller-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deliverWaiting } from './shop.ts';

let server: RunningServer;
let client: SellerClient;
let sandbox: SandboxClient;

beforeAll(async () => {
  // A free port on 127.0.0.1, an in-memory store, the demo seller.
  server = await startServer({ port: 0, memory: true, demo: true, adminToken: 'test-admin' });
  client = new SellerClient({ baseUrl: server.url, apiKey: server.demo!.apiKey });
  sandbox = new SandboxClient({ baseUrl: server.url, adminToken: server.adminToken });
});
afterAll(() => server.close());

test('delivers what was paid', async () => {
  const { number } = await client.listings.create({ service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 300, slaMinutes: 60, guaranteeDays: 7 });
  await client.listings.setState(number, { active: true });
  const order = await sandbox.createOrder({ number });
  await sandbox.pay(order.id);
  expect(await deliverWaiting(client)).toEqual([order.id]);
});
