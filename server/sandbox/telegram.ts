/** Sandbox: the person on the phone of the Telegram emulator (issue #36; the emulator: server/telegram/). */
import { badRequest } from '../http/errors.ts';
import { sandboxHandlers } from '../http/handlers.ts';
import type { CallContext } from '../http/handlers.ts';
import type { Bot, ChatMessage } from '../telegram/state.ts';

const at = (ms: number) => new Date(ms).toISOString();

export const telegramSandboxHandlers = sandboxHandlers({
  'sandbox.createTelegramBot': (ctx, { body }) => {
    const bot = ctx.svc.telegram.create(body.username);
    if (!bot) throw badRequest(['username'], 'custom', 'another bot of this server has this username');
    return { id: bot.id, token: bot.token, username: bot.username };
  },
  'sandbox.listTelegramBots': (ctx) => ({
    items: ctx.svc.telegram.list().map((bot) => ({
      id: bot.id,
      username: bot.username,
      commands: bot.commands.get('default|') ?? [],
      chats: [...bot.chats.values()].map((chat) => ({ chat: chat.id, messages: chat.messages.length, lastAt: at(chat.messages.at(-1)?.atMs ?? 0) })),
    })),
  }),
  'sandbox.telegramSay': (ctx, { params, body }) => {
    const bot = botOf(ctx, params.bot);
    const chat = ctx.svc.telegram.chat(bot, params.chat);
    if (body.replyTo !== undefined && !chat?.messages.some((m) => m.messageId === body.replyTo)) throw ctx.notFound('telegram_message', body.replyTo);
    return { messageId: ctx.svc.telegram.say(bot, params.chat, body.text, body.replyTo ?? null, ctx.now.getTime()).messageId };
  },
  'sandbox.telegramPress': (ctx, { params, body }) => {
    const bot = botOf(ctx, params.bot);
    const chat = ctx.svc.telegram.chat(bot, params.chat);
    const hasButton = (m: ChatMessage) => m.buttons.some((row) => row.some((b) => b.callback_data === body.data));
    const message =
      body.messageId === undefined
        ? chat?.messages.findLast((m) => m.from === 'bot' && hasButton(m))
        : chat?.messages.find((m) => m.messageId === body.messageId && m.from === 'bot');
    if (!chat || !message) throw ctx.notFound('telegram_message', body.messageId);
    if (!hasButton(message)) throw badRequest(['data'], 'custom', `no button of message ${body.messageId} has this callback data`);
    return { callbackQueryId: ctx.svc.telegram.press(bot, chat, message, body.data) };
  },
  'sandbox.telegramMessages': (ctx, { params }) => {
    const chat = ctx.svc.telegram.chat(botOf(ctx, params.bot), params.chat);
    return { items: (chat?.messages ?? []).map(view) };
  },
});

function botOf(ctx: CallContext, id: number): Bot {
  const bot = ctx.svc.telegram.get(id);
  if (!bot) throw ctx.notFound('telegram_bot', id);
  return bot;
}

function view(m: ChatMessage) {
  return {
    messageId: m.messageId,
    from: m.from,
    text: m.text,
    at: at(m.atMs),
    editedAt: m.editedMs === null ? null : at(m.editedMs),
    replyTo: m.replyTo,
    buttons: m.buttons.map((row) => row.map((b) => ({ text: b.text, ...(b.callback_data === undefined ? {} : { data: b.callback_data }), ...(b.url === undefined ? {} : { url: b.url }) }))),
    ...(m.document ? { document: m.document.file_name } : {}),
  };
}
