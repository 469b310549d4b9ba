/**
 * The Bot API methods the emulator answers (the subset the autopilot uses: TELEGRAM_METHODS in the
 * contract), each as Telegram answers it: its `result`, or a `TelegramError` with Telegram's code and
 * words. Unknown parameters are ignored, as Telegram ignores them.
 */
import type { TELEGRAM_METHODS } from '../../sdk/contract/index.ts';
import { composeText, inlineKeyboard } from './compose.ts';
import { badRequest, bool, int, json, optionalInt, str, TelegramError, type Params } from './params.ts';
import { botUser, telegramMessage, type Bot, type Chat, type ChatMessage, type TelegramEmulator, type Update } from './state.ts';

export interface MethodContext {
  tg: TelegramEmulator;
  bot: Bot;
  p: Params;
  nowMs: number;
  /** Aborts when the caller's connection is gone (a long poll stops waiting). */
  gone: AbortSignal;
}

type Method = (ctx: MethodContext) => unknown;

/** Update types delivered when `allowed_updates` was never given (Telegram leaves out a few; none the emulator makes). */
const UPDATE_TYPES = ['message', 'edited_message', 'callback_query'];
const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

export const telegramMethods: Record<(typeof TELEGRAM_METHODS)[number], Method> = {
  getMe: ({ bot }) => ({ ...botUser(bot), can_join_groups: false, can_read_all_group_messages: false, supports_inline_queries: false }),
  sendMessage: ({ tg, bot, p, nowMs }) => {
    const chat = chatOf(tg, bot, p);
    const { text, entities } = composeText(p, 'text', true);
    const buttons = inlineKeyboard(p);
    const replyTo = replyTarget(chat, p);
    return telegramMessage(bot, chat, tg.append(bot, chat, { from: 'bot', text, entities, buttons, atMs: nowMs, editedMs: null, replyTo }));
  },
  sendDocument: ({ tg, bot, p, nowMs }) => {
    const chat = chatOf(tg, bot, p);
    const document = documentOf(p.document);
    const { text, entities } = composeText(p, 'caption', false);
    const buttons = inlineKeyboard(p);
    const replyTo = replyTarget(chat, p);
    return telegramMessage(bot, chat, tg.append(bot, chat, { from: 'bot', text, entities, buttons, atMs: nowMs, editedMs: null, replyTo, document }));
  },
  editMessageText: ({ tg, bot, p, nowMs }) => {
    const { chat, message } = editable(tg, bot, p);
    const { text, entities } = composeText(p, 'text', true);
    // Without `reply_markup` the edit takes the inline keyboard away, as Telegram's does.
    const buttons = inlineKeyboard(p);
    if (text === message.text && same(entities, message.entities) && same(buttons, message.buttons)) throw badRequest(NOT_MODIFIED);
    Object.assign(message, { text, entities, buttons, editedMs: nowMs });
    tg.touch(bot, chat);
    return telegramMessage(bot, chat, message);
  },
  editMessageReplyMarkup: ({ tg, bot, p, nowMs }) => {
    const { chat, message } = editable(tg, bot, p);
    const buttons = inlineKeyboard(p);
    if (same(buttons, message.buttons)) throw badRequest(NOT_MODIFIED);
    Object.assign(message, { buttons, editedMs: nowMs });
    tg.touch(bot, chat);
    return telegramMessage(bot, chat, message);
  },
  answerCallbackQuery: ({ bot, p }) => {
    const id = str(p, 'callback_query_id') ?? '';
    if (!bot.callbacks.delete(id)) throw badRequest('query is too old and response timeout expired or query ID is invalid');
    if ((str(p, 'text') ?? '').length > 200) throw badRequest('MESSAGE_TOO_LONG');
    return true;
  },
  getUpdates: async (ctx) => {
    const { tg, bot, p } = ctx;
    const allowed = json(p, 'allowed_updates');
    if (allowed !== undefined) {
      if (!Array.isArray(allowed) || allowed.some((t) => typeof t !== 'string')) throw badRequest("can't parse allowed updates");
      bot.allowedUpdates = allowed.length === 0 ? null : (allowed as string[]);
    }
    confirm(bot, optionalInt(p, 'offset'));
    const limit = Math.min(100, Math.max(1, optionalInt(p, 'limit') ?? 100));
    const timeout = Math.max(0, optionalInt(p, 'timeout') ?? 0);
    let found = deliverable(bot, limit);
    if (found.length === 0 && timeout > 0) {
      const end = await tg.wait(bot, timeout * 1000, ctx.gone);
      if (end === 'conflict') throw new TelegramError(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
      found = deliverable(bot, limit);
    }
    return found;
  },
  setMyCommands: ({ tg, bot, p }) => {
    const commands = json(p, 'commands');
    if (!Array.isArray(commands) || commands.length > 100) throw badRequest('commands must be an array of at most 100 BotCommand');
    const read = commands.map((c: { command?: unknown; description?: unknown }) => {
      const command = typeof c?.command === 'string' ? c.command.replace(/^\//, '') : '';
      const description = typeof c?.description === 'string' ? c.description : '';
      if (!/^[a-z0-9_]{1,32}$/.test(command)) throw badRequest('BOT_COMMAND_INVALID');
      if (description.trim() === '' || description.length > 256) throw badRequest('BOT_COMMAND_DESCRIPTION_INVALID');
      return { command, description };
    });
    bot.commands.set(commandsKey(p), read);
    tg.touch(bot, null);
    return true;
  },
  getMyCommands: ({ bot, p }) => bot.commands.get(commandsKey(p)) ?? [],
  deleteWebhook: ({ bot, p }) => {
    if (bool(p, 'drop_pending_updates')) bot.updates.length = 0;
    return true;
  },
  getWebhookInfo: ({ bot }) => ({ url: '', has_custom_certificate: false, pending_update_count: bot.updates.length }),
};

/** The method a name calls (Telegram's names are case-insensitive), or undefined. */
export function methodNamed(name: string): keyof typeof telegramMethods | undefined {
  const lower = name.toLowerCase();
  return (Object.keys(telegramMethods) as (keyof typeof telegramMethods)[]).find((m) => m.toLowerCase() === lower);
}

/** `offset` confirms every update before it (they are dropped); a negative one keeps only the last `-offset`. */
function confirm(bot: Bot, offset: number | undefined): void {
  if (offset === undefined || offset === 0) return;
  if (offset < 0) bot.updates.splice(0, Math.max(0, bot.updates.length + offset));
  else {
    const kept = bot.updates.findIndex((u) => u.update_id >= offset);
    bot.updates.splice(0, kept < 0 ? bot.updates.length : kept);
  }
}

/** The first `limit` updates of the types asked for (those of other types are dropped, never delivered). */
function deliverable(bot: Bot, limit: number): Update[] {
  const types = bot.allowedUpdates ?? UPDATE_TYPES;
  for (let i = bot.updates.length - 1; i >= 0; i--) {
    if (!types.some((t) => t in bot.updates[i]!)) bot.updates.splice(i, 1);
  }
  return bot.updates.slice(0, limit);
}

function chatOf(tg: TelegramEmulator, bot: Bot, p: Params): Chat {
  const raw = p.chat_id;
  if (raw === undefined || raw === null || raw === '') throw badRequest('chat_id is empty');
  const id = typeof raw === 'string' && raw.startsWith('@') ? undefined : optionalInt(p, 'chat_id');
  // A private chat exists once its person has written to the bot (Telegram's bots cannot start one).
  const chat = id === undefined ? undefined : tg.chat(bot, id);
  if (!chat) throw badRequest('chat not found');
  return chat;
}

function replyTarget(chat: Chat, p: Params): number | null {
  const params = json(p, 'reply_parameters') as { message_id?: unknown; allow_sending_without_reply?: unknown } | undefined;
  const id = typeof params?.message_id === 'number' ? params.message_id : optionalInt(p, 'reply_to_message_id');
  if (id === undefined) return null;
  if (chat.messages.some((m) => m.messageId === id)) return id;
  if (params?.allow_sending_without_reply === true || bool(p, 'allow_sending_without_reply')) return null;
  throw badRequest('message to be replied not found');
}

function editable(tg: TelegramEmulator, bot: Bot, p: Params): { chat: Chat; message: ChatMessage } {
  if (p.inline_message_id !== undefined) throw badRequest("the sandbox's Telegram has no inline messages: name chat_id and message_id");
  const chat = chatOf(tg, bot, p);
  const id = int(p, 'message_id', 'message identifier is not specified');
  const message = chat.messages.find((m) => m.messageId === id);
  if (!message) throw badRequest('message to edit not found');
  if (message.from !== 'bot') throw badRequest("message can't be edited");
  return { chat, message };
}

/** A document sent by file id or URL (a string), or uploaded (a multipart file). */
function documentOf(value: unknown): NonNullable<ChatMessage['document']> {
  const unique = `sbx${Math.random().toString(36).slice(2, 12)}`;
  if (typeof value === 'string' && value !== '') {
    const name = value.split(/[/?#]/).filter(Boolean).pop() ?? 'document';
    return { file_id: `BQ${unique}`, file_unique_id: unique, file_name: name };
  }
  if (value instanceof File) return { file_id: `BQ${unique}`, file_unique_id: unique, file_name: value.name || 'document', mime_type: value.type || 'application/octet-stream', file_size: value.size };
  throw badRequest('there is no document in the request');
}

const commandsKey = (p: Params) => {
  const scope = json(p, 'scope') as { type?: unknown; chat_id?: unknown } | undefined;
  return `${typeof scope?.type === 'string' ? scope.type : 'default'}${scope?.chat_id === undefined ? '' : `:${String(scope.chat_id)}`}|${str(p, 'language_code') ?? ''}`;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
