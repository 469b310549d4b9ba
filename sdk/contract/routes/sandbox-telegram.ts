/** The routes of the sandbox's Telegram operations (reference server only; schemas: ../sandbox-telegram.ts). No zod here. */
import { route } from '../route.ts';

/** The Bot API methods the emulator answers (`/sandbox/telegram/bot{TOKEN}/{method}`); a fault names one as `telegram.{method}`. */
export const TELEGRAM_METHODS = [
  'getMe',
  'sendMessage',
  'editMessageText',
  'editMessageReplyMarkup',
  'answerCallbackQuery',
  'getUpdates',
  'setMyCommands',
  'getMyCommands',
  'deleteWebhook',
  'getWebhookInfo',
  'sendDocument',
] as const;

/** The fault operation ids of the emulator: `telegram.{method}`, and `telegram.*` for every method (`*` is the seller API's only). */
export const TELEGRAM_FAULT_OPERATIONS: readonly string[] = ['telegram.*', ...TELEGRAM_METHODS.map((m) => `telegram.${m}`)];

export const sandboxTelegramRoutes = {
  'sandbox.createTelegramBot': route({
    id: 'sandbox.createTelegramBot',
    method: 'POST',
    path: '/telegram/bots',
    surface: 'sandbox',
    scope: null,
    summary: 'A new bot of the Telegram emulator: its id, its token (a secret) and its username.',
    status: 201,
    input: 'json',
  }),
  'sandbox.listTelegramBots': route({
    id: 'sandbox.listTelegramBots',
    method: 'GET',
    path: '/telegram/bots',
    surface: 'sandbox',
    scope: null,
    summary: "The emulator's bots, oldest first: each with its chats and the commands it set (no tokens).",
  }),
  'sandbox.telegramSay': route({
    id: 'sandbox.telegramSay',
    method: 'POST',
    path: '/telegram/bots/{bot}/chats/{chat}/messages',
    surface: 'sandbox',
    scope: null,
    summary: 'The person in private chat {chat} writes to the bot: an update for its getUpdates.',
    status: 201,
    input: 'json',
  }),
  'sandbox.telegramPress': route({
    id: 'sandbox.telegramPress',
    method: 'POST',
    path: '/telegram/bots/{bot}/chats/{chat}/callbacks',
    surface: 'sandbox',
    scope: null,
    summary: "The person presses a button of one of the bot's messages (by its callback data; no message named: the newest with that button): an update for its getUpdates.",
    status: 201,
    input: 'json',
  }),
  'sandbox.telegramMessages': route({
    id: 'sandbox.telegramMessages',
    method: 'GET',
    path: '/telegram/bots/{bot}/chats/{chat}/messages',
    surface: 'sandbox',
    scope: null,
    summary: 'The conversation of a private chat, oldest first, edits applied.',
  }),
} as const;
