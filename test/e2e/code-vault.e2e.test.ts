/**
 * The vault rule of delivery (docs/decisions.md, "A code order is delivered through its vault") with
 * the `seller` binary against a real server: a paid `code` order with nothing in the seller's vault is
 * not marked delivered (exit 2, the order still awaits delivery); after `orders vault put` it is, and
 * the buyer reads the code from the vault.
 */
import { describe, expect, it } from 'vitest';
import { useSellerWorld } from '../helpers/seller-world.ts';

/** A seller with complete papers and a switched-on code card (CODE_CARD). */
const world = useSellerWorld({ cli: true, card: {} });

describe('delivering a code order', () => {
  it('is refused with an empty vault and goes through once the code is in it', async () => {
    const { server, client, card: number } = world;
    const order = await server.sandbox<{ id: string }>('POST', '/orders', { number });
    await server.sandbox('POST', `/orders/${order.id}/pay`, {});

    const refused = await world.run(['orders', 'deliver', order.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${order.id} is a code order and your vault is empty`);
    expect((await client.orders.get(order.id)).status).toBe('awaiting_delivery');

    const put = await world.run(['orders', 'vault', 'put', order.id], { input: 'GIFT-CODE-1234\n' });
    expect(put.code, put.stderr).toBe(0);
    const delivered = await world.run(['orders', 'deliver', order.id]);
    expect(delivered.code, delivered.stderr).toBe(0);
    expect((await client.orders.get(order.id)).status).toBe('delivered');
  }, 120_000);
});
