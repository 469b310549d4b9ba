/**
 * The sandbox plays Telegram (reference server only, issue #36): the subset of the Bot API the
 * autopilot uses is served at `/sandbox/telegram/bot{TOKEN}/{method}` (server/telegram/, Telegram's
 * own shapes, not this contract's), and these operations play the person on the phone: a new bot,
 * a message the person writes in a private chat, a button the person presses, the conversation as
 * the person sees it. A bot's id is Telegram's (the number its token starts with); a private chat's
 * id is the person's user id. Server-only: not part of the seller API, left out of OpenAPI.
 */
import { z } from 'zod';
import { intParam, Text, Timestamp } from './common.ts';
import { op } from './operation.ts';
import { sandboxTelegramRoutes as R, TELEGRAM_METHODS } from './routes/sandbox-telegram.ts';

export { TELEGRAM_METHODS };

/** The longest callback data Telegram takes, in bytes. */
export const TELEGRAM_CALLBACK_DATA_MAX = 64;

const chatParam = z.strictObject({ bot: intParam(1), chat: intParam(1) });

export const TelegramBot = z.object({
  id: z.number().int(),
  /** The bot's token, `ID:SECRET`: a secret, as Telegram's; the Bot API's URLs carry it. */
  token: z.string(),
  username: z.string(),
});
export type TelegramBot = z.infer<typeof TelegramBot>;

/** A button of a message: its label, and its callback data (or the link it opens). */
export const TelegramButton = z.object({ text: z.string(), data: z.string().optional(), url: z.string().optional() });

export const TelegramChatMessage = z.object({
  messageId: z.number().int(),
  from: z.enum(['bot', 'user']),
  /** The text as the person reads it (HTML tags taken out); a document's caption. */
  text: z.string(),
  at: Timestamp,
  /** The last edit, or null. */
  editedAt: Timestamp.nullable(),
  /** The message this one answers (Telegram's reply: `reply_parameters`), or null. */
  replyTo: z.number().int().nullable(),
  /** The inline keyboard, row by row; empty without one. */
  buttons: z.array(z.array(TelegramButton)),
  /** A document's file name, for a document. */
  document: z.string().optional(),
});
export type TelegramChatMessage = z.infer<typeof TelegramChatMessage>;

export const TelegramBotSummary = z.object({
  id: z.number().int(),
  username: z.string(),
  /** The commands the bot set (`setMyCommands`, default scope and language). */
  commands: z.array(z.object({ command: z.string(), description: z.string() })),
  /** Its private chats, by the person's id, oldest first. */
  chats: z.array(z.object({ chat: z.number().int(), messages: z.number().int(), lastAt: Timestamp })),
});

export const sandboxTelegramOperations = {
  'sandbox.createTelegramBot': op(R['sandbox.createTelegramBot'], {
    body: z.strictObject({
      /** The bot's username (ending in `bot`, as Telegram wants); default: a new `sandbox_N_bot`. */
      username: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{1,28}[Bb][Oo][Tt]$/, 'a Telegram bot username: letters, digits, _, ending in bot').optional(),
    }),
    answer: TelegramBot,
  }),
  'sandbox.listTelegramBots': op(R['sandbox.listTelegramBots'], { answer: z.object({ items: z.array(TelegramBotSummary) }) }),
  'sandbox.telegramSay': op(R['sandbox.telegramSay'], {
    params: chatParam,
    body: z.strictObject({
      text: Text(4096),
      /** The bot's message this one replies to (a reply to a `force_reply` question). */
      replyTo: z.number().int().min(1).optional(),
    }),
    answer: z.object({ messageId: z.number().int() }),
  }),
  'sandbox.telegramPress': op(R['sandbox.telegramPress'], {
    params: chatParam,
    body: z.strictObject({
      /** The bot's message; absent: the newest of its messages in the chat with a button of this data. */
      messageId: z.number().int().min(1).optional(),
      data: z.string().min(1).max(TELEGRAM_CALLBACK_DATA_MAX),
    }),
    /** The callback query's id, as `answerCallbackQuery` names it. */
    answer: z.object({ callbackQueryId: z.string() }),
  }),
  'sandbox.telegramMessages': op(R['sandbox.telegramMessages'], {
    params: chatParam,
    answer: z.object({ items: z.array(TelegramChatMessage) }),
  }),
} as const;
