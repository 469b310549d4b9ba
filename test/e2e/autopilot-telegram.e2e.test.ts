/**
 * The seller's phone (issue 36), through the built `seller autopilot` against a real seller-server
 * and its Telegram emulator (`/sandbox/telegram`), the person played by the sandbox's operations:
 *
 * - a paid order no rule delivers → a message in Russian under a Russian locale, with the order id
 *   and price and a Deliver button; Deliver pressed, the date and text typed → the order delivered;
 * - `/status` answers; `/пауза` → a newly paid order a rule would deliver stays undelivered (held,
 *   kept across a restart); `/resume` → delivered;
 * - a chat not in `chats` gets nothing and changes nothing (its `/pause` pauses nothing);
 * - two 429s then ok → one message; Telegram failing for 20 s → the message arrives once afterwards,
 *   and a delivery meanwhile is not held up; a SIGKILL between the decision and the send → sent
 *   after the restart, once;
 * - the token in no output, log, state file or error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { keptText, phoneKit, Run as RunOf, SELLER, STRANGER, drained, started, stateOf, until } from '../helpers/phone.ts';
import { useSellerWorld, type Lang, type Shop } from '../helpers/seller-world.ts';

const world = useSellerWorld({ cli: true, server: { rateLimit: NO_RATE_LIMIT }, dir: 'autopilot-telegram-' });
const cards = { subs: 0, manual: 0 };

const DELIVER_SCRIPT = `process.stdout.write(JSON.stringify({ nextChargeDay: '2031-01-31', note: 'Activated, enjoy!' }));`;

beforeAll(async () => {
  cards.subs = await world.newCard({ body: { service: 'spotify', tariff: 'individual', productType: 'subscription', deliveryMethod: 'invite' } });
  cards.manual = await world.newCard({ body: { service: 'spotify', tariff: 'duo', productType: 'subscription', deliveryMethod: 'own_account' } });
  writeFileSync(join(world.dir, 'deliver.cjs'), DELIVER_SCRIPT);
}, 120_000);

const kit = phoneKit(world);
const { chat, fromBot, about, command } = kit;
/** A new bot and a config whose one rule delivers the `subs` card by a script (helpers/phone.ts). */
const setUp = (name: string) => kit.setUp(name, { rules: { deliver: [{ name: 'subs', match: { card: cards.subs }, action: { command: `node ${join(world.dir, 'deliver.cjs')}` } }] } });
/** The autopilot of `shop` (the world's seller by default). */
class Run extends RunOf {
  constructor(config: string, token: string, lang?: Lang, shop: Pick<Shop, 'spawn'> = world) {
    super(shop, config, token, lang);
  }
}
const status = async (order: string) => (await world.client.orders.get(order)).status;

describe('seller autopilot with notify.telegram, against the sandbox\'s Telegram', () => {
  it('tells a Russian seller of an order no rule delivers, delivers it from the Deliver button, pauses and resumes from the phone; a stranger changes nothing', async () => {
    const { bot, config, state } = await setUp('phone');
    const run = new Run(config, bot.token, 'ru');
    await started(run);

    const manual = await world.buy(cards.manual);
    const told = await until('the needs-hand message', run, async () => (await about(bot, manual))[0]);
    expect(told.text).toContain(`${manual} (№${cards.manual} подписка, 300\u00a0₽) оплачен, и ни одно правило его не выдаёт: выдайте вручную`);
    expect(told.buttons).toEqual([[{ text: 'Выдать', data: `deliver:${manual}` }, { text: 'Ответить', data: `reply:${manual}` }]]);

    // /orders lists it with its buttons; /reply writes to its buyer.
    const { messageId: asking } = await world.sandbox.telegramSay(bot.id, SELLER, { text: '/заказы' });
    // The answer is a reply to the command (so it is seen beside it, whatever the outbox sends meanwhile).
    const orders = await until('the orders', run, async () => (await fromBot(bot)).find((m) => m.replyTo === asking));
    expect(orders.text).toContain(`${manual} №${cards.manual} подписка, 300\u00a0₽: ждёт выдачи`);
    expect(orders.buttons.flat().map((b) => b.data)).toEqual(expect.arrayContaining([`deliver:${manual}`, `reply:${manual}`]));
    await command(bot, `/reply ${manual} Скоро выдам, спасибо за ожидание`, run);
    expect((await world.client.orders.get(manual)).messages.map((m) => m.text)).toContain('Скоро выдам, спасибо за ожидание');

    // Deliver pressed: the bot asks for the date (a subscription) and the note; both typed → delivered.
    // Its answer replies to the message the button is under.
    await world.sandbox.telegramPress(bot.id, SELLER, { messageId: told.messageId, data: `deliver:${manual}` });
    expect(await until('the question', run, async () => (await fromBot(bot)).find((m) => m.replyTo === told.messageId)?.text)).toContain(`Напишите дату следующего списания ${manual}`);
    // An answer without the date, or with a day that does not exist, leaves the question open.
    expect(await command(bot, 'Готово, пользуйтесь!', run)).toContain(`Сначала напишите дату следующего списания ${manual}`);
    expect(await command(bot, '31.02.2031 Готово', run)).toMatch(/31\.02\.2031.*Сначала напишите дату/s);
    expect(await status(manual)).toBe('awaiting_delivery');
    const done = await command(bot, '31.01.2031 Готово, пользуйтесь!', run);
    expect(done).toContain(manual);
    expect(['delivered', 'completed']).toContain(await status(manual));

    expect(await command(bot, '/status', run)).toMatch(/^Автопилот работает\.\n0 заказов ждут выдачи\./);

    // A stranger's /pause: no answer, nothing paused, the attempt noted without its text.
    const strangerBefore = (await chat(bot, STRANGER)).length;
    await world.sandbox.telegramSay(bot.id, STRANGER, { text: '/pause' });
    await until('the stranger noted', run, () => run.stderr.includes(`${STRANGER}`));
    expect(run.stderr).not.toContain('/pause');
    const subs = await world.buy(cards.subs);
    await until('a delivery', run, () => run.event('deliver', 'delivered', subs));
    expect(await fromBot(bot, STRANGER)).toEqual([]);
    expect((await chat(bot, STRANGER)).length).toBe(strangerBefore + 1);
    expect((await stateOf(state)).paused).toBe(false);

    // /пауза: a paid order a rule would deliver is held, across a restart; /resume delivers it.
    expect(await command(bot, '/пауза', run)).toContain('Пауза');
    const held = await world.buy(cards.subs);
    await until('held', run, () => run.event('deliver', 'held', held));
    await run.stop();
    expect((await stateOf(state)).paused).toBe(true);
    const again = new Run(config, bot.token, 'ru');
    await started(again);
    expect(await command(bot, '/status', again)).toMatch(/^Автопилот на паузе/);
    expect(await status(held)).toBe('awaiting_delivery');
    expect(await command(bot, '/resume', again)).toContain('Продолжаю: 1 отложенный заказ выдаётся сейчас.');
    await until('the held order delivered', again, () => again.event('deliver', 'delivered', held));
    await again.stop();

    for (const said of [run.stdout, run.stderr, again.stdout, again.stderr, keptText(state)]) {
      expect(said).not.toContain(bot.token);
      expect(said).not.toContain(bot.token.split(':')[1]);
    }
  }, 120_000);

  it('two 429s then ok: one message', async () => {
    const { bot, config, state } = await setUp('rate');
    await world.sandbox.addFault({ op: 'telegram.sendMessage', bot: bot.id, status: 429, times: 2 });
    const run = new Run(config, bot.token);
    await started(run);
    const manual = await world.buy(cards.manual);
    await until('the message', run, async () => (await about(bot, manual))[0]);
    await drained(state, run);
    expect(await about(bot, manual)).toHaveLength(1);
    await run.stop();
  }, 60_000);

  it('Telegram failing for 20 s: deliveries go on meanwhile, and the message arrives once afterwards', async () => {
    const { bot, config, state } = await setUp('down');
    const run = new Run(config, bot.token);
    await started(run);
    await world.sandbox.addFault({ op: 'telegram.*', bot: bot.id, status: 500 });
    const down = Date.now();
    const manual = await world.buy(cards.manual);
    await until('the message decided', run, async () => (await stateOf(state)).outbox.some((e) => e.event.order === manual));
    const subs = await world.buy(cards.subs);
    await until('a delivery while Telegram is down', run, () => run.event('deliver', 'delivered', subs));
    expect(await about(bot, manual)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20_000 - (Date.now() - down))));
    expect(await about(bot, manual)).toEqual([]);
    await world.sandbox.clearFaults();
    await until('the message after', run, async () => (await about(bot, manual))[0], 30_000);
    await drained(state, run);
    expect(await about(bot, manual)).toHaveLength(1);
    await run.stop();
  }, 90_000);

  it('a SIGKILL between the decision and the send: sent after the restart, once', async () => {
    const { bot, config, state } = await setUp('killed');
    await world.sandbox.addFault({ op: 'telegram.sendMessage', bot: bot.id, status: 500 });
    const run = new Run(config, bot.token);
    await started(run);
    const manual = await world.buy(cards.manual);
    await until('the message decided', run, async () => (await stateOf(state)).outbox.some((e) => e.event.order === manual));
    run.child.kill('SIGKILL');
    await run.closed;
    await world.sandbox.clearFaults();
    expect(await about(bot, manual)).toEqual([]);
    const again = new Run(config, bot.token);
    await until('the message after the restart', again, async () => (await about(bot, manual))[0]);
    await drained(state, again);
    expect(await about(bot, manual)).toHaveLength(1);
    await again.stop();
    expect(keptText(state)).not.toContain(bot.token.split(':')[1]);
  }, 60_000);

  it('a key refused: the phone is told before the autopilot stops', async () => {
    const { bot, config } = await setUp('key');
    const shop = await world.newShop({});
    const run = new Run(config, bot.token, 'ru', shop);
    await started(run);
    await shop.client.keys.revoke(shop.keyId);
    const told = await until('the key-failed message', run, async () => (await fromBot(bot)).find((m) => m.text.includes('ключ API отклонён')));
    expect(told.text).toContain('автопилот останавливается');
    expect(run.event('autopilot', 'key-failed')).toBeDefined();
    expect(await run.closed).toBe(4);
    expect(run.event('autopilot', 'stopped')).toBeDefined();
  }, 60_000);

  it('a token Telegram refuses: the message is dropped with a reason, and the token is in no output', async () => {
    const { config } = await setUp('wrong-token');
    const token = '987654321:AAWrong-secret-token_value';
    const run = new Run(config, token);
    await started(run);
    const manual = await world.buy(cards.manual);
    await until('the order seen', run, () => run.event('orders', 'needs-hand', manual));
    const dropped = await until('a message dropped', run, () => run.event('autopilot', 'notify-failed'));
    expect(dropped.message).toMatch(/^a telegram message about orders.needs-hand was not sent: 401: Unauthorized/);
    await until('getUpdates refused, noted', run, () => run.stderr.includes('telegram: getUpdates failed'));
    await run.stop();
    for (const said of [run.stdout, run.stderr]) {
      expect(said).not.toContain(token);
      expect(said).not.toContain('AAWrong-secret-token_value');
    }
  }, 60_000);
});
