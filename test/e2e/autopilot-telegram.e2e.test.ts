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
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import type { TelegramBot } from '../../sdk/contract/index.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { useSellerWorld, type Lang, type Shop } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

const world = useSellerWorld({ cli: true, server: { rateLimit: NO_RATE_LIMIT }, dir: 'autopilot-telegram-' });
const cards = { subs: 0, manual: 0 };
/** The seller's chat (the person's id), and a stranger's. */
const SELLER = 1001;
const STRANGER = 2002;

const DELIVER_SCRIPT = `process.stdout.write(JSON.stringify({ nextChargeDay: '2031-01-31', note: 'Activated, enjoy!' }));`;

beforeAll(async () => {
  cards.subs = await world.newCard({ body: { service: 'spotify', tariff: 'individual', productType: 'subscription', deliveryMethod: 'invite' } });
  cards.manual = await world.newCard({ body: { service: 'spotify', tariff: 'duo', productType: 'subscription', deliveryMethod: 'own_account' } });
  writeFileSync(join(world.dir, 'deliver.cjs'), DELIVER_SCRIPT);
}, 120_000);

/** A new bot whose seller (and a stranger) started it, and a config for it (its own state file). */
async function setUp(name: string): Promise<{ bot: TelegramBot; config: string; state: string }> {
  const bot = await world.sandbox.createTelegramBot({});
  for (const chat of [SELLER, STRANGER]) await world.sandbox.telegramSay(bot.id, chat, { text: '/start' });
  const config = join(world.dir, `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      pollSeconds: 0.2,
      deliver: [{ name: 'subs', match: { card: cards.subs }, action: { command: `node ${join(world.dir, 'deliver.cjs')}` } }],
      notify: { telegram: { chats: [SELLER], apiRoot: `${world.server.url}/sandbox/telegram` } },
    }),
  );
  return { bot, config, state: join(world.dir, `.${name}.state.json`) };
}

/** A running `seller autopilot --json` with the bot's token in its environment. */
class Run {
  readonly events: AutopilotEvent[] = [];
  stdout = '';
  stderr = '';
  readonly child: ChildProcessWithoutNullStreams;
  readonly closed: Promise<number | null>;
  constructor(config: string, token: string, lang?: Lang, shop: Pick<Shop, 'spawn'> = world) {
    this.child = shop.spawn(['autopilot', '--config', config, '--json'], { lang, env: { SERVICE_TELEGRAM_TOKEN: token, TZ: 'Europe/Moscow' } });
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => {
      this.stdout += text;
      this.events.splice(0, Infinity, ...this.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as AutopilotEvent));
    });
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    this.closed = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }
  event(rule: string, type: string, order?: string): AutopilotEvent | undefined {
    return this.events.find((e) => e.rule === rule && e.type === type && (order === undefined || e.order === order));
  }
  async stop(): Promise<void> {
    this.child.kill('SIGINT');
    expect(await this.closed).toBe(0);
  }
}

const until = <T>(what: string, run: Run | undefined, probe: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> =>
  waitFor(what, probe, { ms, every: 100, describe: () => (run ? `the autopilot printed:\n${run.stdout}\n${run.stderr}` : '') });

const chat = async (bot: TelegramBot, person = SELLER) => (await world.sandbox.telegramMessages(bot.id, person)).items;
const fromBot = async (bot: TelegramBot, person = SELLER) => (await chat(bot, person)).filter((m) => m.from === 'bot');
const about = async (bot: TelegramBot, order: string) => (await fromBot(bot)).filter((m) => m.text.includes(order));
const status = async (order: string) => (await world.client.orders.get(order)).status;
const started = (run: Run) => until('start', run, () => run.event('autopilot', 'started'));
const stateOf = (path: string) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { paused: false, outbox: [] }) as { paused: boolean; outbox: Array<{ event: AutopilotEvent }> };
/** The outbox is empty on disk: every message decided was sent (nothing more is coming). */
const drained = (state: string, run: Run) => until('the outbox sent', run, () => stateOf(state).outbox.length === 0);

/** Says `text` as the seller and waits for the bot's answer to it. */
async function command(bot: TelegramBot, text: string, run: Run, person = SELLER): Promise<string> {
  const before = (await fromBot(bot, person)).length;
  await world.sandbox.telegramSay(bot.id, person, { text });
  return until(`an answer to ${text}`, run, async () => (await fromBot(bot, person))[before]?.text);
}

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
    const listed = (await fromBot(bot)).length;
    await world.sandbox.telegramSay(bot.id, SELLER, { text: '/заказы' });
    const orders = await until('the orders', run, async () => (await fromBot(bot))[listed]);
    expect(orders.text).toContain(`${manual} №${cards.manual} подписка, 300\u00a0₽: ждёт выдачи`);
    expect(orders.buttons.flat().map((b) => b.data)).toEqual(expect.arrayContaining([`deliver:${manual}`, `reply:${manual}`]));
    await command(bot, `/reply ${manual} Скоро выдам, спасибо за ожидание`, run);
    expect((await world.client.orders.get(manual)).messages.map((m) => m.text)).toContain('Скоро выдам, спасибо за ожидание');

    // Deliver pressed: the bot asks for the date (a subscription) and the note; both typed → delivered.
    const asked = (await fromBot(bot)).length;
    await world.sandbox.telegramPress(bot.id, SELLER, { messageId: told.messageId, data: `deliver:${manual}` });
    expect(await until('the question', run, async () => (await fromBot(bot))[asked]?.text)).toContain(`Напишите дату следующего списания ${manual}`);
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
    expect(stateOf(state).paused).toBe(false);

    // /пауза: a paid order a rule would deliver is held, across a restart; /resume delivers it.
    expect(await command(bot, '/пауза', run)).toContain('Пауза');
    const held = await world.buy(cards.subs);
    await until('held', run, () => run.event('deliver', 'held', held));
    await run.stop();
    expect(stateOf(state).paused).toBe(true);
    const again = new Run(config, bot.token, 'ru');
    await started(again);
    expect(await command(bot, '/status', again)).toMatch(/^Автопилот на паузе/);
    expect(await status(held)).toBe('awaiting_delivery');
    expect(await command(bot, '/resume', again)).toContain('Продолжаю: 1 отложенный заказ выдаётся сейчас.');
    await until('the held order delivered', again, () => again.event('deliver', 'delivered', held));
    await again.stop();

    for (const said of [run.stdout, run.stderr, again.stdout, again.stderr, readFileSync(state, 'utf8')]) {
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
    await until('the message decided', run, () => stateOf(state).outbox.some((e) => e.event.order === manual));
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
    await until('the message decided', run, () => stateOf(state).outbox.some((e) => e.event.order === manual));
    run.child.kill('SIGKILL');
    await run.closed;
    await world.sandbox.clearFaults();
    expect(await about(bot, manual)).toEqual([]);
    const again = new Run(config, bot.token);
    await until('the message after the restart', again, async () => (await about(bot, manual))[0]);
    await drained(state, again);
    expect(await about(bot, manual)).toHaveLength(1);
    await again.stop();
    expect(readFileSync(state, 'utf8')).not.toContain(bot.token.split(':')[1]);
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
