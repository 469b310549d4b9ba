/**
 * `seller sandbox telegram bot|bots|say|press|chat` in-process against a real server (issue #36):
 * the token alone on stdout, the person's message and press reaching the bot's getUpdates, the
 * conversation as the person reads it (in English and Russian; from an older server without `replyTo`
 * too), `--json` as the sandbox answers;
 * and `seller sandbox fault add --op telegram.… --bot` with its refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachItem, startDriftingFake } from '../helpers/drifting-fake.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bufferIO, run, tableBody, tempConfigDir } from './helpers.ts';

let server: TestServer;
let config: ReturnType<typeof tempConfigDir>;

const cli = (argv: string[], env: Record<string, string> = {}) =>
  run(argv, bufferIO({ env: { SELLER_CONFIG_DIR: config.dir, SERVICE_BASE_URL: server.url, SERVICE_ADMIN_TOKEN: server.adminToken, LANG: 'C', ...env } }));

const botApi = async (token: string, method: string, body: unknown = {}) =>
  (await (await fetch(`${server.url}/sandbox/telegram/bot${token}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { ok: boolean; result: any };

beforeAll(async () => {
  server = await startTestServer();
  config = tempConfigDir();
});
afterAll(async () => {
  await server.close();
  config.cleanup();
});

async function newBot(): Promise<{ id: number; token: string }> {
  const created = await cli(['sandbox', 'telegram', 'bot', '--json']);
  expect(created.code, created.err).toBe(0);
  return JSON.parse(created.out);
}

describe('seller sandbox telegram', () => {
  it('bot prints the token alone on stdout, the id, username and API root on stderr', async () => {
    const created = await cli(['sandbox', 'telegram', 'bot', '--username', 'cli_phone_bot']);
    expect(created.code, created.err).toBe(0);
    const token = created.out.trim();
    expect(token).toMatch(/^\d+:[A-Za-z0-9_-]+$/);
    const id = token.split(':')[0];
    expect(created.err).toContain(`Telegram bot ${id} @cli_phone_bot; its API root (the autopilot's apiRoot): ${server.url}/sandbox/telegram`);
    expect((await botApi(token, 'getMe')).result).toMatchObject({ id: Number(id), username: 'cli_phone_bot' });
  });

  it('say and press reach the bot; chat shows the conversation with its buttons; bots lists the chat', async () => {
    const bot = await newBot();
    const said = await cli(['sandbox', 'telegram', 'say', String(bot.id), '5', '/status']);
    expect(said.code, said.err).toBe(0);
    expect(said.out).toBe('1\n');
    const sent = await botApi(bot.token, 'sendMessage', { chat_id: 5, text: 'Running: 2 orders wait', reply_parameters: { message_id: 1 }, reply_markup: { inline_keyboard: [[{ text: 'Orders', callback_data: 'orders' }]] } });
    const pressed = await cli(['sandbox', 'telegram', 'press', String(bot.id), '5', 'orders']);
    expect(pressed.code, pressed.err).toBe(0);
    const updates = (await botApi(bot.token, 'getUpdates')).result;
    expect(updates.map((u: any) => u.message?.text ?? u.callback_query?.data)).toEqual(['/status', 'orders']);
    expect(updates[1].callback_query.id).toBe(pressed.out.trim());

    const chat = await cli(['sandbox', 'telegram', 'chat', String(bot.id), '5']);
    expect(chat.code, chat.err).toBe(0);
    // The bot's answer names the message it replies to.
    expect(chat.out).toMatch(/^.+ person #1: \/status\n.+ bot #2 \(reply to #1\): Running: 2 orders wait\n {4}\[Orders\] orders\n$/);
    const ru = await cli(['sandbox', 'telegram', 'chat', String(bot.id), '5'], { LANG: 'ru_RU.UTF-8' });
    expect(ru.out).toMatch(/человек #1: \/status\n.+ бот #2 \(ответ на #1\): Running/);
    const items = JSON.parse((await cli(['sandbox', 'telegram', 'chat', String(bot.id), '5', '--json'])).out).items;
    expect(items.map((m: { replyTo: number | null }) => m.replyTo)).toEqual([null, 1]);

    const bots = await cli(['sandbox', 'telegram', 'bots']);
    expect(tableBody(bots.out)).toContain(`${bot.id}\t@`);
    expect(tableBody(bots.out)).toMatch(new RegExp(`${bot.id}\\t@\\S+\\t5\\t`));
  });

  it('an older server that sends no replyTo: chat shows the conversation without a reply mark', async () => {
    const bot = await newBot();
    await cli(['sandbox', 'telegram', 'say', String(bot.id), '8', '/status']);
    await botApi(bot.token, 'sendMessage', { chat_id: 8, text: 'Running', reply_parameters: { message_id: 1 } });
    const older = await startDriftingFake(server.url, [{ method: 'GET', path: /\/telegram\/bots\/\d+\/chats\/\d+\/messages$/, body: eachItem(({ replyTo: _replyTo, ...m }) => m) }]);
    try {
      const chat = await cli(['sandbox', 'telegram', 'chat', String(bot.id), '8'], { SERVICE_BASE_URL: older.url });
      expect(chat.code, chat.err).toBe(0);
      expect(chat.out).toMatch(/^.+ person #1: \/status\n.+ bot #2: Running\n$/);
    } finally {
      await older.close();
    }
  });

  it('a link button (the autopilot\'s Timeline) is kept beside an act: chat shows its URL, --json its url and no data', async () => {
    const bot = await newBot();
    await cli(['sandbox', 'telegram', 'say', String(bot.id), '7', '/orders']);
    const link = `${server.url}/sandbox?order=ord_1`;
    const sent = await botApi(bot.token, 'sendMessage', { chat_id: 7, text: 'ord_1 is paid', reply_markup: { inline_keyboard: [[{ text: 'Deliver', callback_data: 'deliver:ord_1' }, { text: 'Timeline', url: link }]] } });
    expect(sent.result.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Deliver', callback_data: 'deliver:ord_1' }, { text: 'Timeline', url: link }]] });
    const chat = await cli(['sandbox', 'telegram', 'chat', String(bot.id), '7']);
    expect(chat.out).toContain(`    [Deliver] deliver:ord_1   [Timeline] ${link}\n`);
    const items = JSON.parse((await cli(['sandbox', 'telegram', 'chat', String(bot.id), '7', '--json'])).out).items;
    expect(items[1].buttons).toEqual([[{ text: 'Deliver', data: 'deliver:ord_1' }, { text: 'Timeline', url: link }]]);
  });

  it('a button not on the message, a bot that is not there: exit 1 with the refusal', async () => {
    const bot = await newBot();
    await cli(['sandbox', 'telegram', 'say', String(bot.id), '1', 'hi']);
    const sent = await botApi(bot.token, 'sendMessage', { chat_id: 1, text: 'x', reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] } });
    const wrong = await cli(['sandbox', 'telegram', 'press', String(bot.id), '1', 'b', '--message', String(sent.result.message_id)]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('data:');
    const none = await cli(['sandbox', 'telegram', 'say', '99', '1', 'hi'], { LANG: 'ru_RU.UTF-8' });
    expect(none.code).toBe(1);
    expect(none.err).toContain('Telegram-бота 99 нет');
  });
});

describe('seller sandbox fault add for Telegram', () => {
  it('--op telegram.sendMessage --bot: the bot is refused with Telegram\'s 429; list names the bot', async () => {
    const bot = await newBot();
    await cli(['sandbox', 'telegram', 'say', String(bot.id), '1', '/start']);
    const added = await cli(['sandbox', 'fault', 'add', '--op', 'telegram.sendMessage', '--bot', String(bot.id), '--status', '429', '--times', '1']);
    expect(added.code, added.err).toBe(0);
    expect(added.err).toContain(`telegram.sendMessage → 429 for Telegram bot ${bot.id}, 1 hit left`);
    expect(tableBody((await cli(['sandbox', 'fault', 'list'])).out)).toContain(`Telegram bot ${bot.id}`);
    expect(await botApi(bot.token, 'sendMessage', { chat_id: 1, text: 'x' })).toMatchObject({ ok: false, error_code: 429, parameters: { retry_after: 1 } });
    expect((await botApi(bot.token, 'sendMessage', { chat_id: 1, text: 'x' })).ok).toBe(true);
  });

  it.each<[string[], RegExp]>([
    [['--op', 'orders.list', '--bot', '1', '--status', '500'], /--bot: only with a Telegram operation/],
    [['--op', 'telegram.sendMessage', '--seller', 'sel_x', '--status', '500'], /--seller: a Telegram fault is for a bot/],
    [['--op', 'telegram.sendMessage', '--bot', 'phone', '--status', '500'], /--bot: a bot's id/],
    [['--op', 'telegram.sendMesage', '--status', '500'], /did you mean telegram\.sendMessage\?/],
  ])('%j exits 2 naming the flag', async (flags, message) => {
    const r = await cli(['sandbox', 'fault', 'add', ...flags]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });
});
