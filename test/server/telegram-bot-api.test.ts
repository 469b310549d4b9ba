/**
 * The sandbox plays Telegram (issue #36, section 3): each Bot API method of the emulator and each of
 * its refusals, through a real HTTP client against a real seller-server on a port, in Telegram's
 * shapes; the person's side through the SDK's sandbox client (say, press, read the conversation).
 */
import { describe, expect, it } from 'vitest';
import type { TelegramBot } from '../../sdk/contract/index.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

const world = useSellerWorld();

interface Raw {
  status: number;
  json: any;
}

/** One Bot API call: JSON body (POST), query (GET), or a form. */
async function call(token: string, method: string, params: Record<string, unknown> = {}, as: 'json' | 'get' | 'form' = 'json'): Promise<Raw> {
  const base = `${world.server.url}/sandbox/telegram/bot${token}/${method}`;
  const flat = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]));
  const res =
    as === 'get'
      ? await fetch(`${base}?${new URLSearchParams(flat)}`)
      : as === 'form'
        ? await fetch(base, { method: 'POST', body: new URLSearchParams(flat) })
        : await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
  return { status: res.status, json: await res.json() };
}

async function newBot(): Promise<TelegramBot> {
  return world.sandbox.createTelegramBot({});
}

/** A bot whose person in chat 1 has written `/start` (a private chat exists once its person wrote). */
async function startedBot(chat = 1): Promise<TelegramBot> {
  const bot = await newBot();
  await world.sandbox.telegramSay(bot.id, chat, { text: '/start' });
  return bot;
}

const refusal = (code: number, description: string | RegExp) => ({ ok: false, error_code: code, description: typeof description === 'string' ? description : expect.stringMatching(description) });

describe('bots and tokens', () => {
  it('a new bot has an id, a token ID:SECRET and a username; getMe answers it by GET or POST', async () => {
    const bot = await newBot();
    expect(bot.token).toMatch(new RegExp(`^${bot.id}:[A-Za-z0-9_-]{30,}$`));
    expect(bot.username).toMatch(/bot$/);
    for (const as of ['get', 'json'] as const) {
      const me = await call(bot.token, 'getMe', {}, as);
      expect(me).toEqual({ status: 200, json: { ok: true, result: expect.objectContaining({ id: bot.id, is_bot: true, username: bot.username }) } });
    }
  });

  it('a token of no bot is 401, a wrong secret too; an unknown method is 404; names are case-insensitive', async () => {
    const bot = await newBot();
    expect(await call('123:nope', 'getMe')).toEqual({ status: 401, json: refusal(401, 'Unauthorized') });
    expect(await call(`${bot.id}:${'x'.repeat(35)}`, 'getMe')).toEqual({ status: 401, json: refusal(401, 'Unauthorized') });
    expect(await call(bot.token, 'sendPoll')).toEqual({ status: 404, json: refusal(404, 'Not Found') });
    expect((await call(bot.token, 'getme')).json.ok).toBe(true);
  });

  it('a username is chosen or given; a taken one is refused', async () => {
    const bot = await world.sandbox.createTelegramBot({ username: 'shop_phone_bot' });
    expect(bot.username).toBe('shop_phone_bot');
    await expect(world.sandbox.createTelegramBot({ username: 'Shop_Phone_Bot' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(world.sandbox.createTelegramBot({ username: 'not a bot' })).rejects.toMatchObject({ code: 'bad_request' });
  });
});

describe('sendMessage', () => {
  it('HTML becomes text with entities; an inline keyboard is kept; the person reads it, buttons and all', async () => {
    const bot = await startedBot();
    const sent = await call(bot.token, 'sendMessage', {
      chat_id: 1,
      text: 'Order <b>ord_1</b> &lt;paid&gt; <a href="https://example.com/o">open</a>',
      parse_mode: 'HTML',
      reply_markup: { inline_keyboard: [[{ text: 'Deliver', callback_data: 'deliver:ord_1' }, { text: 'Timeline', url: 'https://example.com/t' }]] },
    });
    expect(sent.status).toBe(200);
    expect(sent.json.result).toMatchObject({
      message_id: 2,
      chat: { id: 1, type: 'private' },
      from: { id: bot.id, is_bot: true },
      text: 'Order ord_1 <paid> open',
      entities: [
        { type: 'bold', offset: 6, length: 5 },
        { type: 'text_link', offset: 19, length: 4, url: 'https://example.com/o' },
      ],
      reply_markup: { inline_keyboard: [[{ text: 'Deliver', callback_data: 'deliver:ord_1' }, { text: 'Timeline', url: 'https://example.com/t' }]] },
    });
    const { items } = await world.sandbox.telegramMessages(bot.id, 1);
    expect(items.map((m) => [m.messageId, m.from, m.text])).toEqual([
      [1, 'user', '/start'],
      [2, 'bot', 'Order ord_1 <paid> open'],
    ]);
    expect(items[1]).toMatchObject({ editedAt: null, buttons: [[{ text: 'Deliver', data: 'deliver:ord_1' }, { text: 'Timeline', url: 'https://example.com/t' }]] });
    expect(items[1]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('takes a form body and a query string, reply_markup as JSON text', async () => {
    const bot = await startedBot();
    const keyboard = { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] };
    expect((await call(bot.token, 'sendMessage', { chat_id: 1, text: 'by form', reply_markup: keyboard }, 'form')).json.result.reply_markup).toEqual(keyboard);
    expect((await call(bot.token, 'sendMessage', { chat_id: 1, text: 'by query' }, 'get')).json.result.text).toBe('by query');
  });

  it.each([
    ['a chat whose person never wrote', { chat_id: 999, text: 'hi' }, 'Bad Request: chat not found'],
    ['no chat_id', { text: 'hi' }, 'Bad Request: chat_id is empty'],
    ['no text', { chat_id: 1 }, 'Bad Request: message text is empty'],
    ['a text too long', { chat_id: 1, text: 'x'.repeat(4097) }, 'Bad Request: message is too long'],
    ['an unknown tag', { chat_id: 1, text: 'a <x> b', parse_mode: 'HTML' }, /^Bad Request: can't parse entities: Unsupported start tag "x" at byte offset 2$/],
    ['an unclosed tag', { chat_id: 1, text: '<b>bold', parse_mode: 'HTML' }, /can't parse entities: Can't find end tag corresponding to start tag "b"/],
    ['a stray <', { chat_id: 1, text: 'price < 5', parse_mode: 'HTML' }, /can't parse entities/],
    ['Markdown', { chat_id: 1, text: '*b*', parse_mode: 'MarkdownV2' }, /unsupported parse_mode/],
    ['callback data over 64 bytes', { chat_id: 1, text: 'x', reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'я'.repeat(33) }]] } }, 'Bad Request: BUTTON_DATA_INVALID'],
    ['a button to localhost', { chat_id: 1, text: 'x', reply_markup: { inline_keyboard: [[{ text: 'A', url: 'http://localhost:3000/' }]] } }, /Wrong HTTP URL/],
    ['a reply to no message', { chat_id: 1, text: 'x', reply_parameters: { message_id: 99 } }, 'Bad Request: message to be replied not found'],
  ])('refuses %s with a 400', async (_what, params, description) => {
    const bot = await startedBot();
    expect(await call(bot.token, 'sendMessage', params)).toEqual({ status: 400, json: refusal(400, description) });
    expect((await world.sandbox.telegramMessages(bot.id, 1)).items).toHaveLength(1);
  });

  it('a body that is not JSON is a 400 in Telegram\'s shape', async () => {
    const bot = await startedBot();
    const res = await fetch(`${world.server.url}/sandbox/telegram/bot${bot.token}/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect({ status: res.status, json: await res.json() }).toEqual({ status: 400, json: refusal(400, /^Bad Request: /) });
  });
});

describe('editing', () => {
  it('editMessageText replaces text and keyboard (none given: none kept); editMessageReplyMarkup the keyboard; the person sees edits', async () => {
    const bot = await startedBot();
    const keyboard = { inline_keyboard: [[{ text: 'Deliver', callback_data: 'd' }]] };
    const { message_id } = (await call(bot.token, 'sendMessage', { chat_id: 1, text: 'first', reply_markup: keyboard })).json.result;
    const edited = await call(bot.token, 'editMessageText', { chat_id: 1, message_id, text: '<i>second</i>', parse_mode: 'HTML', reply_markup: keyboard });
    expect(edited.json.result).toMatchObject({ message_id, text: 'second', entities: [{ type: 'italic', offset: 0, length: 6 }], edit_date: expect.any(Number), reply_markup: keyboard });
    const bare = await call(bot.token, 'editMessageReplyMarkup', { chat_id: 1, message_id });
    expect(bare.json.result.reply_markup).toBeUndefined();
    expect((await world.sandbox.telegramMessages(bot.id, 1)).items[1]).toMatchObject({ text: 'second', buttons: [], editedAt: expect.any(String) });
    await call(bot.token, 'editMessageReplyMarkup', { chat_id: 1, message_id, reply_markup: keyboard });
    const plain = await call(bot.token, 'editMessageText', { chat_id: 1, message_id, text: 'third' });
    expect(plain.json.result.reply_markup).toBeUndefined();
  });

  it.each([
    ['the same content', (id: number) => ({ chat_id: 1, message_id: id, text: 'same' }), /^Bad Request: message is not modified/],
    ['no message id', () => ({ chat_id: 1, text: 'x' }), 'Bad Request: message identifier is not specified'],
    ['a message of no chat', (id: number) => ({ chat_id: 1, message_id: id + 10, text: 'x' }), 'Bad Request: message to edit not found'],
    ["the person's message", () => ({ chat_id: 1, message_id: 1, text: 'x' }), "Bad Request: message can't be edited"],
  ])('editMessageText refuses %s', async (_what, params, description) => {
    const bot = await startedBot();
    const { message_id } = (await call(bot.token, 'sendMessage', { chat_id: 1, text: 'same' })).json.result;
    expect(await call(bot.token, 'editMessageText', params(message_id))).toEqual({ status: 400, json: refusal(400, description) });
  });
});

describe('getUpdates and the person', () => {
  it('a message of the person is an update with its command entity; offset confirms (drops) what came before', async () => {
    const bot = await newBot();
    const said = await world.sandbox.telegramSay(bot.id, 42, { text: '/pause now' });
    await world.sandbox.telegramSay(bot.id, 42, { text: '/пауза' });
    const first = await call(bot.token, 'getUpdates');
    expect(first.json.result).toEqual([
      {
        update_id: 1,
        message: expect.objectContaining({
          message_id: said.messageId,
          from: expect.objectContaining({ id: 42, is_bot: false }),
          chat: expect.objectContaining({ id: 42, type: 'private' }),
          text: '/pause now',
          entities: [{ type: 'bot_command', offset: 0, length: 6 }],
          date: expect.any(Number),
        }),
      },
      { update_id: 2, message: expect.not.objectContaining({ entities: expect.anything() }) },
    ]);
    expect((await call(bot.token, 'getUpdates', { offset: 2 })).json.result.map((u: any) => u.update_id)).toEqual([2]);
    expect((await call(bot.token, 'getUpdates', { offset: 3 })).json.result).toEqual([]);
    // Confirmed updates are gone: asking from the start again finds none of them.
    expect((await call(bot.token, 'getUpdates')).json.result).toEqual([]);
  });

  it('limit takes the first; a negative offset keeps the last', async () => {
    const bot = await newBot();
    for (const text of ['a', 'b', 'c', 'd']) await world.sandbox.telegramSay(bot.id, 1, { text });
    expect((await call(bot.token, 'getUpdates', { limit: 2 })).json.result.map((u: any) => u.message.text)).toEqual(['a', 'b']);
    expect((await call(bot.token, 'getUpdates', { offset: -1 })).json.result.map((u: any) => u.message.text)).toEqual(['d']);
  });

  it('a long poll waits for the next update and answers it when it comes', async () => {
    const bot = await newBot();
    const polling = call(bot.token, 'getUpdates', { timeout: 30 });
    // The poll is waiting on the server (no update yet); the person writes; the poll answers at once.
    await waitUntilPolling(bot);
    await world.sandbox.telegramSay(bot.id, 7, { text: 'hello' });
    expect((await polling).json.result).toEqual([expect.objectContaining({ message: expect.objectContaining({ text: 'hello' }) })]);
  });

  it('a second poll while one waits ends the first with 409, as Telegram does', async () => {
    const bot = await newBot();
    const first = call(bot.token, 'getUpdates', { timeout: 30 });
    await waitUntilPolling(bot);
    const second = call(bot.token, 'getUpdates', { timeout: 30 });
    expect(await first).toEqual({ status: 409, json: refusal(409, /^Conflict: terminated by other getUpdates request/) });
    await world.sandbox.telegramSay(bot.id, 7, { text: 'after' });
    expect((await second).json.result).toHaveLength(1);
  });

  it('a button pressed is a callback_query with the message and data; answerCallbackQuery answers it once', async () => {
    const bot = await startedBot();
    const { message_id } = (await call(bot.token, 'sendMessage', { chat_id: 1, text: 'Paid', reply_markup: { inline_keyboard: [[{ text: 'Deliver', callback_data: 'deliver:ord_9' }]] } })).json.result;
    const { callbackQueryId } = await world.sandbox.telegramPress(bot.id, 1, { messageId: message_id, data: 'deliver:ord_9' });
    const updates = (await call(bot.token, 'getUpdates', { allowed_updates: ['callback_query'] })).json.result;
    expect(updates).toEqual([
      {
        update_id: 2,
        callback_query: expect.objectContaining({ id: callbackQueryId, data: 'deliver:ord_9', from: expect.objectContaining({ id: 1 }), message: expect.objectContaining({ message_id, text: 'Paid' }), chat_instance: expect.any(String) }),
      },
    ]);
    expect(await call(bot.token, 'answerCallbackQuery', { callback_query_id: callbackQueryId, text: 'Send the text' })).toEqual({ status: 200, json: { ok: true, result: true } });
    expect(await call(bot.token, 'answerCallbackQuery', { callback_query_id: callbackQueryId })).toEqual({ status: 400, json: refusal(400, /query is too old/) });
  });

  it('a press naming no message presses the newest with that button', async () => {
    const bot = await startedBot();
    const keyboard = { inline_keyboard: [[{ text: 'Deliver', callback_data: 'deliver' }]] };
    await call(bot.token, 'sendMessage', { chat_id: 1, text: 'older', reply_markup: keyboard });
    const newer = (await call(bot.token, 'sendMessage', { chat_id: 1, text: 'newer', reply_markup: keyboard })).json.result;
    await call(bot.token, 'sendMessage', { chat_id: 1, text: 'no buttons' });
    await world.sandbox.telegramPress(bot.id, 1, { data: 'deliver' });
    const updates = (await call(bot.token, 'getUpdates', { offset: 2 })).json.result;
    expect(updates.map((u: any) => u.callback_query.message.message_id)).toEqual([newer.message_id]);
    await expect(world.sandbox.telegramPress(bot.id, 1, { data: 'nothing' })).rejects.toMatchObject({ status: 404, detail: { record: 'telegram_message' } });
  });

  it('allowed_updates is kept until changed: the types left out are not delivered', async () => {
    const bot = await startedBot();
    await call(bot.token, 'getUpdates', { allowed_updates: ['callback_query'] });
    await world.sandbox.telegramSay(bot.id, 1, { text: 'not wanted' });
    expect((await call(bot.token, 'getUpdates')).json.result).toEqual([]);
    await call(bot.token, 'getUpdates', { allowed_updates: [] });
    await world.sandbox.telegramSay(bot.id, 1, { text: 'wanted' });
    expect((await call(bot.token, 'getUpdates')).json.result.map((u: any) => u.message.text)).toEqual(['wanted']);
  });

  it('a reply to the bot\'s question carries reply_to_message', async () => {
    const bot = await startedBot();
    const { message_id } = (await call(bot.token, 'sendMessage', { chat_id: 1, text: 'Text for ord_1?', reply_markup: { force_reply: true } })).json.result;
    await call(bot.token, 'getUpdates', { offset: -1 });
    await world.sandbox.telegramSay(bot.id, 1, { text: 'the code is 123', replyTo: message_id });
    const [update] = (await call(bot.token, 'getUpdates', { offset: 2 })).json.result;
    expect(update.message.reply_to_message).toMatchObject({ message_id, text: 'Text for ord_1?' });
  });

  it('the person presses only what is there: no message 404, no button with that data 400', async () => {
    const bot = await startedBot();
    const { message_id } = (await call(bot.token, 'sendMessage', { chat_id: 1, text: 'x', reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] } })).json.result;
    await expect(world.sandbox.telegramPress(bot.id, 1, { messageId: 99, data: 'a' })).rejects.toMatchObject({ status: 404, detail: { record: 'telegram_message' } });
    await expect(world.sandbox.telegramPress(bot.id, 1, { messageId: message_id, data: 'b' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(world.sandbox.telegramSay(99, 1, { text: 'x' })).rejects.toMatchObject({ status: 404, detail: { record: 'telegram_bot' } });
  });
});

describe('commands, webhook, documents', () => {
  it('setMyCommands keeps the commands (getMyCommands, the bot list); invalid ones are refused', async () => {
    const bot = await newBot();
    const commands = [
      { command: 'status', description: 'Status' },
      { command: 'pause', description: 'Pause' },
    ];
    expect((await call(bot.token, 'setMyCommands', { commands })).json).toEqual({ ok: true, result: true });
    expect((await call(bot.token, 'getMyCommands')).json.result).toEqual(commands);
    expect((await call(bot.token, 'getMyCommands', { language_code: 'ru' })).json.result).toEqual([]);
    expect((await world.sandbox.listTelegramBots()).items.find((b) => b.id === bot.id)).toMatchObject({ commands, chats: [] });
    expect(await call(bot.token, 'setMyCommands', { commands: [{ command: 'Bad-Name', description: 'x' }] })).toEqual({ status: 400, json: refusal(400, 'Bad Request: BOT_COMMAND_INVALID') });
  });

  it('deleteWebhook answers true and may drop pending updates; getWebhookInfo counts them', async () => {
    const bot = await newBot();
    await world.sandbox.telegramSay(bot.id, 1, { text: 'pending' });
    expect((await call(bot.token, 'getWebhookInfo')).json.result).toMatchObject({ url: '', pending_update_count: 1 });
    expect((await call(bot.token, 'deleteWebhook')).json.result).toBe(true);
    expect((await call(bot.token, 'getWebhookInfo')).json.result.pending_update_count).toBe(1);
    await call(bot.token, 'deleteWebhook', { drop_pending_updates: true });
    expect((await call(bot.token, 'getUpdates')).json.result).toEqual([]);
  });

  it('sendDocument takes an uploaded file with a caption', async () => {
    const bot = await startedBot();
    const form = new FormData();
    form.set('chat_id', '1');
    form.set('caption', 'Report');
    form.set('document', new File(['a,b\n'], 'orders.csv', { type: 'text/csv' }));
    const res = await fetch(`${world.server.url}/sandbox/telegram/bot${bot.token}/sendDocument`, { method: 'POST', body: form });
    expect((await res.json()).result).toMatchObject({ caption: 'Report', document: { file_name: 'orders.csv', mime_type: 'text/csv', file_size: 4 } });
    expect((await world.sandbox.telegramMessages(bot.id, 1)).items[1]).toMatchObject({ text: 'Report', document: 'orders.csv' });
  });
});

/** Until the bot's long poll is waiting on the server (the server's own state). */
const waitUntilPolling = (bot: TelegramBot) => waitFor('the long poll', () => world.server.app.service.telegram.get(bot.id)?.poll !== null);
