/**
 * A seller account with something in every list, made through the real API and sandbox of a test
 * `seller-server`: cards (one with stock), orders (paid, completed, one with a vault), a review,
 * a question, a complaint, a catalogue request, a subscription to the probe receiver with
 * deliveries and probe hits. For sweeps that must see every kind of record (`seller doctor`).
 */
import { SellerClient } from '../../sdk/client.ts';
import { CODE_CARD } from './fixtures.ts';
import type { TestServer } from './server.ts';

export interface SeededAccount {
  apiKey: string;
  sellerId: string;
  cardNumber: number;
  orderIds: string[];
  /** The probe receiver's address, subscribed to every event kind. */
  probeUrl: string;
  /** The signing secret of the subscription. */
  secret: string;
}

/** Waits until `check` answers something. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function seedAccount(server: TestServer): Promise<SeededAccount> {
  const { apiKey, sellerId } = await server.newSeller();
  const client = new SellerClient({ apiKey, baseUrl: server.url, maxRetries: 0 });

  const { url: probeUrl } = await client.hooks.createProbe();
  const hooks = await client.hooks.set({ url: probeUrl, events: ['order.new', 'order.paid', 'order.message', 'order.completed', 'review.new', 'question.new'] });
  const secret = hooks.secret!;

  const card = await client.listings.create({ ...CODE_CARD, description: 'Activation code, sent at once.' } as never);
  await client.listings.setState(card.number, { active: true });
  const spare = await client.listings.create({ ...CODE_CARD, priceRub: 500 } as never);
  await client.stock.refill(spare.number, { items: ['CODE-AAAA-1111', 'CODE-BBBB-2222'] });

  const orderIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const order = await server.sandbox<{ id: string }>('POST', '/orders', { number: card.number });
    await server.sandbox('POST', `/orders/${order.id}/pay`);
    orderIds.push(order.id);
  }
  const [completed, talking, vaulted] = orderIds as [string, string, string];
  await client.orders.deliver(completed, {});
  await server.sandbox('POST', `/orders/${completed}/accept`);
  await server.sandbox('POST', `/orders/${completed}/review`, { stars: 5, text: 'Quick and fine.' });
  await server.sandbox('POST', `/orders/${talking}/message`, { text: 'Hello, is it region free?' });
  await client.orders.message(talking, { text: 'Yes, it works everywhere.' });
  await client.orders.putVault(vaulted, { secret: 'login: a / password: b' });
  await server.sandbox('POST', '/questions', { number: card.number, text: 'Does it renew itself?' });
  await client.complaints.create({ order: talking, reason: 'other', text: 'Asked for a refund twice before delivery.' });
  await client.catalogRequests.create({ title: 'Tidal HiFi', comment: 'Often asked for.' });
  await client.hooks.test({ event: 'order.paid' });
  await until('the probe hits', async () => ((await client.hooks.probe({})).items.length >= 3 ? true : undefined));
  return { apiKey, sellerId, cardNumber: card.number, orderIds, probeUrl, secret };
}
