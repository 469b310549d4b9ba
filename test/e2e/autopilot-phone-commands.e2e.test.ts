/**
 * The seller's phone commands (issue 36, "Commands from the phone") beyond the walk of
 * autopilot-telegram.e2e.test.ts, through the built `seller autopilot` against a real seller-server
 * and its Telegram emulator, under a Russian seller:
 *
 * - `/stock` (`/склад`): free stock per card; `/mode` (`/режим`): shown, then set (read back
 *   through the API); `/help` (`/помощь`): the commands listed in Russian; `/статус`, `/продолжить`,
 *   `/ответить`, `/выдать` taken beside the Latin ones;
 * - `/deliver ORDER DATE TEXT` typed directly, the day as DD.MM.YYYY and as YYYY-MM-DD; a code
 *   order with an empty vault answered with the vault command (nothing delivered); a note with a
 *   phone number refused offline by the contact filter (nothing asked of the server, nothing
 *   delivered); a refusal of the server answered in Russian from its data;
 * - a stranger's `/stock` and `/deliver` get no answer and change nothing;
 * - with `notify.telegram.orderUrl`, the needs-hand message carries a Timeline link to the order.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { phoneKit, Run, SELLER, STRANGER, until } from '../helpers/phone.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';

const world = useSellerWorld({ cli: true, server: { rateLimit: NO_RATE_LIMIT }, dir: 'autopilot-phone-commands-' });
const { setUp, chat, fromBot, about, command, ready } = phoneKit(world);
const cards = { code: 0, manual: 0 };

beforeAll(async () => {
  cards.code = await world.newCard({ stock: ['CODE-1', 'CODE-2', 'CODE-3'] });
  cards.manual = await world.newCard({ body: { service: 'spotify', tariff: 'duo', productType: 'subscription', deliveryMethod: 'own_account' } });
}, 120_000);

const order = (id: string) => world.client.orders.get(id);
/**
 * Counts the seller's `orders.deliver` calls from now on: a fault of 1 ms latency (it changes no
 * answer) whose hits the sandbox keeps; answers the count so far.
 */
async function countDelivers(): Promise<() => Promise<number>> {
  const { id } = await world.sandbox.addFault({ op: 'orders.deliver', sellerId: world.sellerId, latencyMs: 1 });
  return async () => (await world.sandbox.listFaults()).items.find((f) => f.id === id)!.hits;
}

describe('the phone\'s commands, under a Russian seller', () => {
  it('/stock, /mode shown and set, /help, and the Russian words for them', async () => {
    const { bot, config } = await setUp('words');
    const run = new Run(world, config, bot.token, 'ru');
    await ready(bot, run);

    const stock = await command(bot, '/stock', run);
    expect(stock).toMatch(/^Свободный склад:\n/);
    expect(stock).toContain(`№${cards.code} spotify individual: свободно 3`);
    expect(stock).toContain(`№${cards.manual} spotify duo: свободно 0`);
    expect(await command(bot, '/склад', run)).toBe(stock);

    const shown = await command(bot, '/mode', run);
    expect(shown).toBe(await command(bot, '/режим', run));
    // One space after each label: a phone's proportional font has no columns to pad to.
    expect(shown).toMatch(/^Загрузка: без ограничения\nНе беспокоить: выключено/);
    expect(await command(bot, '/mode capacity 3', run)).toMatch(/^Загрузка: 3 заказа одновременно/);
    expect((await world.client.workMode.get()).capacity).toBe(3);
    await command(bot, '/режим dnd on', run);
    expect((await world.client.workMode.get()).doNotDisturb).toBe(true);
    await command(bot, '/режим capacity none', run);
    await command(bot, '/mode dnd off', run);
    expect(await world.client.workMode.get()).toMatchObject({ capacity: null, doNotDisturb: false });
    expect(await command(bot, '/mode speed 9', run)).toBe('Как писать: /mode, /mode capacity N|none, /mode dnd on|off');

    const help = await command(bot, '/help', run);
    expect(help).toMatch(/^Команды:\n/);
    for (const [latin, russian] of [['status', 'статус'], ['orders', 'заказы'], ['stock', 'склад'], ['pause', 'пауза'], ['resume', 'продолжить'], ['deliver', 'выдать'], ['reply', 'ответить'], ['mode', 'режим'], ['help', 'помощь']]) {
      expect(help).toContain(`/${latin} (/${russian})`);
    }
    expect(help).toContain('ДД.ММ.ГГГГ или ГГГГ-ММ-ДД');
    expect(await command(bot, '/помощь', run)).toBe(help);

    expect(await command(bot, '/статус', run)).toMatch(/^Автопилот работает\./);
    expect(await command(bot, '/продолжить', run)).toBe('Автопилот не на паузе.');
    const manual = await world.buy(cards.manual);
    await command(bot, `/ответить ${manual} Выдам через час`, run);
    expect((await order(manual)).messages.map((m) => m.text)).toContain('Выдам через час');
    await run.stop();
  }, 120_000);

  it('/deliver typed: both date forms deliver; a code order is told the vault command; contacts are refused offline; a server refusal is said in Russian', async () => {
    const { bot, config } = await setUp('deliver');
    const run = new Run(world, config, bot.token, 'ru');
    await ready(bot, run);

    // DD.MM.YYYY and YYYY-MM-DD, with the Russian word and the Latin one
    const first = await world.buy(cards.manual);
    const second = await world.buy(cards.manual);
    expect(await command(bot, `/выдать ${first} 31.01.2031 Готово, пользуйтесь!`, run)).toContain(first);
    expect(await command(bot, `/deliver ${second} 2031-02-28 Готово`, run)).toContain(second);
    for (const [id, day, note] of [[first, '2031-01-31', 'Готово, пользуйтесь!'], [second, '2031-02-28', 'Готово']] as const) {
      const read = await world.sandbox.orderTimeline(id);
      expect(['delivered', 'completed']).toContain(read.order.status);
      expect(read.order.nextChargeDay).toBe(day);
      expect(read.note).toBe(note);
    }
    const delivers = await countDelivers();

    // without the day: asked for it, nothing delivered
    const third = await world.buy(cards.manual);
    expect(await command(bot, `/deliver ${third} Готово`, run)).toBe(`${third} — подписка: выдаётся с датой следующего списания: /deliver ${third} ДД.ММ.ГГГГ ТЕКСТ`);
    expect((await order(third)).status).toBe('awaiting_delivery');

    // a code order, its vault empty: the vault command to use, nothing delivered
    const code = await world.buy(cards.code);
    const vault = await command(bot, `/deliver ${code} Ваш код в сейфе`, run);
    expect(vault).toContain('сейф пуст');
    expect(vault).toContain(`seller orders vault put ${code}`);
    expect((await order(code)).status).toBe('awaiting_delivery');

    // a phone number in the note: refused offline by the contact filter, with the phone's hint
    const refused = await command(bot, `/deliver ${third} 31.01.2031 Звоните +7 912 345-67-89`, run);
    expect(refused).toContain('записка содержит');
    expect(refused).toContain('ничего не отправлено');
    expect(refused).toContain(`/deliver ${third} [ДАТА] без текста`);
    expect(refused).not.toContain('--note');
    expect((await order(third)).status).toBe('awaiting_delivery');
    expect(await delivers()).toBe(0);

    // the server refuses (the order was delivered already): said in Russian from its data
    const again = await command(bot, `/deliver ${first} 31.01.2031 Ещё раз`, run);
    expect(again).toMatch(/^ошибка: заказ уже сдвинулся/);
    expect(again).toContain('статус заказа: выдан');
    expect(again).toContain(`seller orders show ${first}`);
    expect(await delivers()).toBe(1);
    expect((await world.sandbox.orderTimeline(first)).note).toBe('Готово, пользуйтесь!');
    await world.sandbox.clearFaults();
    await run.stop();
  }, 120_000);

  it("a stranger's /stock and /deliver get no answer and change nothing", async () => {
    const { bot, config } = await setUp('stranger');
    const run = new Run(world, config, bot.token, 'ru');
    await ready(bot, run);
    const manual = await world.buy(cards.manual);
    const delivers = await countDelivers();
    const before = (await chat(bot, STRANGER)).length;
    await world.sandbox.telegramSay(bot.id, STRANGER, { text: '/stock' });
    await world.sandbox.telegramSay(bot.id, STRANGER, { text: `/deliver ${manual} 31.01.2031 Готово` });
    // noted: its /start, /stock and /deliver (without their text)
    await until('all three noted', run, () => run.stderr.split(`${STRANGER}`).length > 3);
    // the seller's own command is answered after them: the stranger's were read and dropped
    expect(await command(bot, '/stock', run)).toMatch(/^Свободный склад:/);
    expect(run.stderr).not.toContain('/stock');
    expect(run.stderr).not.toContain('/deliver');
    expect(await fromBot(bot, STRANGER)).toEqual([]);
    expect((await chat(bot, STRANGER)).length).toBe(before + 2);
    expect((await order(manual)).status).toBe('awaiting_delivery');
    expect(await delivers()).toBe(0);
    await world.sandbox.clearFaults();
    expect((await fromBot(bot, SELLER)).filter((m) => m.text.includes('Готово'))).toEqual([]);
    await run.stop();
  }, 60_000);

  it('with notify.telegram.orderUrl, the needs-hand message carries a Timeline link to the order', async () => {
    const orderUrl = `${world.server.url}/sandbox?order={order}`;
    const { bot, config } = await setUp('timeline', { telegram: { orderUrl } });
    const run = new Run(world, config, bot.token, 'ru');
    await ready(bot, run);
    const manual = await world.buy(cards.manual);
    const told = await until('the needs-hand message', run, async () => (await about(bot, manual))[0]);
    expect(told.buttons).toEqual([
      [
        { text: 'Выдать', data: `deliver:${manual}` },
        { text: 'Ответить', data: `reply:${manual}` },
        { text: 'Хронология', url: `${world.server.url}/sandbox?order=${manual}` },
      ],
    ]);
    // /orders carries it too, per order
    const listed = (await fromBot(bot)).length;
    await world.sandbox.telegramSay(bot.id, SELLER, { text: '/orders' });
    const orders = await until('the orders', run, async () => (await fromBot(bot))[listed]);
    expect(orders.buttons.flat()).toContainEqual({ text: `Хронология ${manual}`, url: `${world.server.url}/sandbox?order=${manual}` });
    await run.stop();
  }, 60_000);
});
