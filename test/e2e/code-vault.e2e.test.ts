/**
 * The vault rule of delivery (docs/decisions.md, "A code order is delivered through its vault") with
 * the `seller` binary against a real server: a paid `code` order with nothing in the seller's vault is
 * not marked delivered (exit 2, the order still awaits delivery); after `orders vault put` it is, and
 * the buyer reads the code from the vault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SellerClient } from '../../sdk/client.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { ensureBuilt, runSeller } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('delivering a code order', () => {
  it('is refused with an empty vault and goes through once the code is in it', async () => {
    const { apiKey } = await server.newSeller({ admission: 'complete' });
    const env = { SERVICE_BASE_URL: server.url, SERVICE_API_KEY: apiKey };
    const client = new SellerClient({ apiKey, baseUrl: server.url });
    const { number } = await client.listings.create({ ...CODE_CARD, productType: 'code', deliveryMethod: 'code' });
    await client.listings.setState(number, { active: true });
    const order = await server.sandbox<{ id: string }>('POST', '/orders', { number });
    await server.sandbox('POST', `/orders/${order.id}/pay`, {});

    const refused = await runSeller(['orders', 'deliver', order.id], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${order.id} is a code order and your vault is empty`);
    expect((await client.orders.get(order.id)).status).toBe('awaiting_delivery');

    const put = await runSeller(['orders', 'vault', 'put', order.id], { env, input: 'GIFT-CODE-1234\n' });
    expect(put.code, put.stderr).toBe(0);
    const delivered = await runSeller(['orders', 'deliver', order.id], { env });
    expect(delivered.code, delivered.stderr).toBe(0);
    expect((await client.orders.get(order.id)).status).toBe('delivered');
  }, 120_000);
});
