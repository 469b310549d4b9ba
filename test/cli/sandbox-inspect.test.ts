/**
 * `seller sandbox` verbs of the inspector against a real seller-server (in process): the sellers'
 * list, a seller's cards (refill, on/off), orders, an order's timeline, deliveries, resend, the probe
 * inbox, in English and Russian; `--json` the same in both; no stock unit or key printed.
 */
import { describe, expect, it } from 'vitest';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { startSellerWorld, useSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';
import { bufferIO, run } from './helpers.ts';

const world = useSellerWorld({ card: { body: CODE_CARD } });

const sandbox = (args: string[], lang: 'en' | 'ru' = 'en') =>
  run(['sandbox', ...args], bufferIO({ env: { ...world.adminEnv, LANG: lang === 'ru' ? 'ru_RU.UTF-8' : 'C', TZ: 'UTC' } }));

describe('seller sandbox seller list', () => {
  it('lists the sellers with status, admission, key prefixes and counts; never a whole key', async () => {
    const listed = await sandbox(['seller', 'list']);
    expect(listed.code).toBe(0);
    const [header, ...rows] = listed.out.trim().split('\n').map((line) => line.split('\t'));
    expect(header).toEqual(['SELLER', 'STATUS', 'MODE', 'ADMISSION', 'KEYS', 'CARDS', 'ORDERS']);
    const mine = rows.find((row) => row[0] === world.sellerId)!;
    expect(mine.slice(0, 4)).toEqual([world.sellerId, 'active', 'live', 'complete']);
    expect(mine[4]).toContain(`${world.apiKey.slice(0, 18)}…`);
    expect(listed.out).not.toContain(world.apiKey);
    expect(mine[5]).toBe('1');

    const ru = await sandbox(['seller', 'list'], 'ru');
    expect(ru.out.split('\n')[0]!.split('\t')).toEqual(['ПРОДАВЕЦ', 'СТАТУС', 'РЕЖИМ', 'ДОПУСК', 'КЛЮЧИ', 'КАРТОЧКИ', 'ЗАКАЗЫ']);
    const [en, ruJson] = [await sandbox(['--json', 'seller', 'list']), await sandbox(['--json', 'seller', 'list'], 'ru')];
    expect(ruJson.out).toBe(en.out);
    expect(JSON.parse(en.out).items.some((s: { sellerId: string }) => s.sellerId === world.sellerId)).toBe(true);
  });
});

describe('seller sandbox card', () => {
  it('refills a card with generated units, switches it on with auto-delivery and off, and lists it', async () => {
    const number = await world.newCard({ body: CODE_CARD, active: false });
    const refused = await sandbox(['card', 'on', String(number), '--auto']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`seller sandbox card refill ${number} --count 10`);
    const refilled = await sandbox(['card', 'refill', String(number), '--count', '3'], 'ru');
    expect(refilled.out).toBe(`Карточка ${number}: добавлено 3 единицы, свободно 3.\n`);
    expect((await sandbox(['card', 'on', String(number), '--auto'])).out).toBe(`Card ${number} is on, with auto-delivery.\n`);
    const listed = await sandbox(['card', 'list', world.sellerId]);
    const row = listed.out.split('\n').find((line) => line.startsWith(`${number}\t`))!.split('\t');
    expect(row).toEqual([String(number), 'spotify/individual', '300', 'yes', 'no', 'yes', '3', '0']);
    expect((await sandbox(['card', 'off', String(number)])).out).toBe(`Card ${number} is off.\n`);
    expect(listed.out).not.toContain('sandbox-unit-');
  });
});

describe('seller sandbox card create and hooks (what the page does, a script does)', () => {
  it("creates a card for a seller as the page's form does, and shows the seller's subscription", async () => {
    const shop = await world.newShop();
    const made = await sandbox(['--json', 'card', 'create', shop.sellerId, '--service', 'spotify', '--tariff', 'individual', '--price', '1299', '--sla', '60', '--guarantee', '7']);
    expect(made.code).toBe(0);
    const card = JSON.parse(made.out) as { number: number };
    const listed = await sandbox(['card', 'list', shop.sellerId]);
    expect(listed.out).toContain(`${card.number}\tspotify/individual\t1299\tno\t`);
    expect((await sandbox(['card', 'create', shop.sellerId, '--service', 'spotify', '--tariff', 'individual', '--price', '1299', '--sla', '60', '--guarantee', '7'], 'ru')).out).toMatch(/^Карточка №\d+ создана \(выключена\)\.\n$/);

    const none = await sandbox(['hooks', shop.sellerId]);
    expect(none.err).toContain('This seller has no webhook subscription.');
    const { url } = await shop.client.hooks.createProbe();
    const set = await shop.client.hooks.set({ url, events: ['order.new'] });
    const shown = await sandbox(['hooks', shop.sellerId], 'ru');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(url);
    expect(shown.out).toContain('активна');
    expect(shown.out).not.toContain(set.secret!);
    expect(JSON.parse((await sandbox(['--json', 'hooks', shop.sellerId])).out)).toMatchObject({ url, status: 'active', events: ['order.new'], probeUrl: url });
  });
});

describe('seller sandbox orders and timeline', () => {
  it("lists a seller's orders by status and shows an order's moves, in English and Russian", async () => {
    const orderId = await world.buy(world.card);
    const listed = await sandbox(['orders', world.sellerId, '--status', 'awaiting_delivery']);
    expect(listed.out).toContain(`${orderId}\t${world.card}\tawaiting_delivery\t300\t`);
    expect((await sandbox(['orders', world.sellerId, '--status', 'refunded'])).out).not.toContain(orderId);
    const shown = await sandbox(['timeline', orderId]);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(new RegExp(`^Order: +${orderId}$`, 'm'));
    expect(shown.out).toMatch(/^Deadline: +delivery by \d{4}-\d\d-\d\dT/m);
    expect(shown.out).toMatch(/ {2}awaiting_payment → awaiting_delivery \(by the buyer\)$/m);
    const ru = await sandbox(['timeline', orderId], 'ru');
    expect(ru.out).toMatch(/ {2}ждёт оплаты → ждёт выдачи \(покупатель\)$/m);

    const advanced = await sandbox(['clock', 'advance', `${CODE_CARD.slaMinutes + 1}m`], 'ru');
    expect(advanced.out).toMatch(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d UTC\n$/);
    expect(advanced.err).toContain(`${orderId}: ждёт выдачи → возврат (истёк срок)`);
  });
});

describe('seller sandbox deliveries, resend, inbox', () => {
  it('lists the deliveries with their attempts, resends one as a new attempt, shows the probe inbox', async () => {
    const shop = await world.newShop({ card: { body: CODE_CARD } });
    const { url } = await shop.client.hooks.createProbe();
    await shop.client.hooks.set({ url, events: ['order.new'] });
    await world.sandbox.createOrder({ number: shop.card });
    const delivered = await waitFor('a delivered delivery', async () => (await world.sandbox.sellerDeliveries(shop.sellerId)).items.find((d) => d.deliveredAt));
    const listed = await sandbox(['deliveries', shop.sellerId]);
    expect(listed.out).toContain(`${delivered.id}\torder.new\t1:204\t`);
    const resent = await sandbox(['resend', shop.sellerId, delivered.id]);
    expect(resent.out).toBe(`Delivery ${delivered.id}: attempt 2 answered 204.\n`);
    const inbox = await sandbox(['inbox', shop.sellerId]);
    expect(inbox.out.split('\n').filter((line) => line.includes(delivered.id))).toHaveLength(2);
    await shop.client.hooks.delete();
    const refused = await sandbox(['resend', shop.sellerId, delivered.id]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('seller hooks resume');
  });
});

describe('seller sandbox watch', () => {
  it('prints each change as it is made (--json: one event a line) and ends when the server closes', async () => {
    const own = await startSellerWorld({ card: { body: CODE_CARD } });
    const io = bufferIO({ env: { ...own.adminEnv, LANG: 'C' } });
    const watching = run(['--json', 'sandbox', 'watch', '--seller', own.sellerId], io);
    const events = () => io.out().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; change?: string; order?: { id: string } });
    try {
      await waitFor('ready', () => events().some((e) => e.type === 'ready'));
      const order = await own.sandbox.createOrder({ number: own.card });
      await waitFor('the new order', () => events().some((e) => e.type === 'order' && e.change === 'created' && e.order?.id === order.id));
    } finally {
      // The server's own close (the streams end first), not the world's (it cuts every connection at once).
      await own.server.close();
    }
    const ended = await watching;
    expect(ended.err).toBe('');
    expect(ended.code).toBe(0);

    const text = await startSellerWorld({ card: { body: CODE_CARD } });
    const ru = bufferIO({ env: { ...text.adminEnv, LANG: 'ru_RU.UTF-8' } });
    const lines = run(['sandbox', 'watch'], ru);
    try {
      await waitFor('ready', () => ru.err().includes('Слежу за изменениями'));
      const id = await text.buy(text.card);
      await waitFor('the payment line', () => ru.out().includes(`заказ ${id}: ждёт оплаты → ждёт выдачи (покупатель)`), { describe: () => ru.out() });
    } finally {
      await text.server.close();
    }
    expect((await lines).code).toBe(0);
  });
});
