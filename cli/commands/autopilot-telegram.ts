/**
 * `notify.telegram` of `seller autopilot`: the seller's phone through the Bot API, with grammY
 * (loaded only when the config has `notify.telegram`: nothing else pays for it). It gives the
 * autopilot a `telegram` channel (each chosen event worded from the catalogue, autopilot-phone-words.ts,
 * sent to every chat of `chats`; the SDK's outbox keeps and retries it; lines without buttons that
 * wait together, a burst of sales, go as one message) and takes commands from
 * those chats only (autopilot-phone.ts); any other chat gets no answer and changes nothing, and the
 * attempt is noted on stderr without its text.
 *
 * The token (`SERVICE_TELEGRAM_TOKEN`, or the file `tokenFile` names, relative to the config file) is
 * a secret: the Bot API puts it in every URL, so every error said or passed on is redacted first.
 */
import { dirname, resolve } from 'node:path';
import type { TelegramNotify } from '../../sdk/autopilot/config.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { NotifyFailure, type NotifyChannel } from '../../sdk/autopilot/outbox.ts';
import type { Autopilot } from '../../sdk/autopilot/runner.ts';
import type { SellerClient } from '../../sdk/client.ts';
import { t } from '../i18n/index.ts';
import { nodeFetch } from '../lib/http.ts';
import type { Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { note } from '../lib/output.ts';
import { html, phoneMessage, type Buttons } from './autopilot-phone-words.ts';
import { completed, parsePhoneCommand, pressed, runPhoneCommand, type Pending, type PhoneAnswer, type PhoneContext } from './autopilot-phone.ts';

export interface Phone {
  channel: NotifyChannel;
  /** Starts taking commands for `autopilot`. */
  listen(autopilot: Autopilot, client: SellerClient): void;
  /** Stops taking commands. */
  close(): Promise<void>;
}

/** The least time between two messages to one chat (Telegram answers 429 to a faster pace). */
export const TELEGRAM_PACE_MS = 1000;

/** Long polling's wait for updates (s); the client's time limit is above it. */
const POLL_SECONDS = 10;

/** Telegram's longest message (4096) with room to spare: a longer answer is cut, never half an HTML entity. */
const MESSAGE_MAX = 4000;
export const fitted = (text: string): string => (text.length <= MESSAGE_MAX ? text : `${text.slice(0, MESSAGE_MAX).replace(/&[a-z]*$/, '')}…`);

/**
 * What waits for a chat, as one message: the first, joined with the messages after it while none has
 * buttons (an act or a link belongs to its own message) and the text fits; answers how many it took.
 */
export function joinedMessage(messages: readonly PhoneAnswer[]): { message: PhoneAnswer; count: number } {
  const [first] = messages;
  if (first === undefined) throw new TypeError('joinedMessage: no message');
  if (first.buttons) return { message: first, count: 1 };
  let text = first.text;
  let count = 1;
  for (const next of messages.slice(1)) {
    if (next.buttons || text.length + 1 + next.text.length > MESSAGE_MAX) break;
    text += `\n${next.text}`;
    count++;
  }
  return { message: { text }, count };
}

/** The bot token: SERVICE_TELEGRAM_TOKEN, else the `tokenFile` (relative to the config file). */
export async function botToken(config: TelegramNotify, configPath: string, env: Record<string, string | undefined>): Promise<string> {
  if (config.tokenFile === undefined) {
    const token = env['SERVICE_TELEGRAM_TOKEN']?.trim();
    if (!token) throw new UsageError(t('autopilot.phone.noToken'), t('autopilot.phone.noTokenHint'));
    return token;
  }
  const file = resolve(dirname(configPath), config.tokenFile);
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    throw new UsageError(t('autopilot.phone.tokenFile', { file, why: (error as NodeJS.ErrnoException).code ?? 'unreadable' }));
  }
  if (text === '') throw new UsageError(t('autopilot.phone.emptyTokenFile', { file }));
  return text;
}

/** A text with the token (and its secret half, and either URL-encoded) taken out. */
export function redactor(token: string): (text: string) => string {
  const secret = token.includes(':') ? token.slice(token.indexOf(':') + 1) : token;
  const forms = [...new Set([token, encodeURIComponent(token), secret, encodeURIComponent(secret)])].filter((form) => form.length >= 6).sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((said, form) => said.split(form).join('<token>'), text);
}

/** Opens the phone: reads the token, loads grammY, makes the bot. */
export async function openPhone(config: TelegramNotify, configPath: string, deps: Deps): Promise<Phone> {
  const token = await botToken(config, configPath, deps.io.env);
  const redact = redactor(token);
  // grammY's own build for a platform with fetch (`grammy/web`), given the CLI's fetch (lib/http.ts,
  // which the SDK client already uses): its Node build brings node-fetch, whatwg-url and tr46, and
  // Node's own fetch brings undici: ~5× the load time and ~17 MB more memory, and the phone's bench row
  // went from 0.90× to 0.93× when they went (docs/benchmarks.md, session 10).
  const { Bot, GrammyError, HttpError } = await import('grammy/web');
  const bot = new Bot(token, { client: { apiRoot: config.apiRoot, timeoutSeconds: POLL_SECONDS + 20, fetch: nodeFetch as typeof globalThis.fetch } });
  const chats = new Set(config.chats);

  /** A failed call as the outbox reads it: when to try again (429's retry_after, a 5xx, no answer), or never; its words redacted. */
  const failure = (error: unknown): NotifyFailure => {
    if (error instanceof GrammyError) {
      const words = redact(`${error.error_code}: ${error.description}`);
      if (error.error_code === 429) return new NotifyFailure(words, { retryAfterMs: (error.parameters.retry_after ?? 1) * 1000 });
      return new NotifyFailure(words, { permanent: error.error_code < 500 });
    }
    if (error instanceof HttpError) return new NotifyFailure(redact(`${error.message} ${error.error instanceof Error ? error.error.message : ''}`.trim()));
    return new NotifyFailure(redact(error instanceof Error ? error.message : String(error)));
  };
  /** Sends `answer` to `chat`; as a reply to message `replyTo` when given (so an answer is seen beside its command, however the outbox's messages fall between). */
  const sendTo = async (chat: number, answer: PhoneAnswer, replyTo?: number): Promise<void> => {
    await bot.api.sendMessage(chat, fitted(answer.text), {
      parse_mode: 'HTML',
      ...(answer.buttons ? { reply_markup: { inline_keyboard: answer.buttons as Buttons } } : {}),
      ...(replyTo !== undefined ? { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } } : {}),
    });
  };
  const said = (what: string, error: unknown) => note(deps.io, t('autopilot.phone.telegramFailed', { what, reason: failure(error).message }));

  const sendMany = async (events: readonly AutopilotEvent[], to: string): Promise<number> => {
    const joined = joinedMessage(events.map((event) => phoneMessage(event, config.orderUrl)));
    try {
      await sendTo(Number(to), joined.message);
    } catch (error) {
      throw failure(error);
    }
    return joined.count;
  };
  const channel: NotifyChannel = {
    name: 'telegram',
    targets: config.chats.map(String),
    events: config.events,
    sales: config.sales,
    // The outbox hands what waits to sendMany; send is one of them.
    send: async (event: AutopilotEvent, to: string) => void (await sendMany([event], to)),
    // Telegram's limit: about one message a second to one chat; a burst waits and goes as one.
    paceMs: TELEGRAM_PACE_MS,
    sendMany,
  };

  let running: Promise<void> | undefined;
  let stopped = false;
  return {
    channel,
    listen(autopilot, client) {
      const ctx: PhoneContext = { autopilot, client, deps, orderUrl: config.orderUrl };
      const pending: Pending = new Map();
      /** Answers an allowed chat, as a reply to message `replyTo`; a failed answer is noted (the act itself was done or refused already). */
      const answer = async (chat: number, replyTo: number | undefined, work: () => Promise<PhoneAnswer | undefined>) => {
        let reply: PhoneAnswer | undefined;
        try {
          reply = await work();
        } catch (error) {
          const { reportError } = await import('../lib/errors.ts');
          let out = '';
          reportError({ ...deps.io, stderr: { write: (text: string) => (out += text) } }, error);
          reply = { text: html(redact(out.trim())) };
        }
        if (reply) await sendTo(chat, reply, replyTo).catch((error: unknown) => said('sendMessage', error));
      };
      const allowed = (chat: number | undefined): chat is number => {
        if (chat !== undefined && chats.has(chat)) return true;
        note(deps.io, t('autopilot.phone.stranger', { chat: String(chat) }));
        return false;
      };
      bot.on('message:text', async (update) => {
        const chat = update.chat.id;
        if (!allowed(chat)) return;
        const text = update.message.text;
        const command = parsePhoneCommand(text);
        const waiting = pending.get(chat);
        pending.delete(chat);
        const replyTo = update.message.message_id;
        if (command) await answer(chat, replyTo, () => runPhoneCommand(command, ctx));
        else if (waiting) await answer(chat, replyTo, () => completed(waiting, text, ctx, { chat, pending }));
        else await answer(chat, replyTo, async () => ({ text: t('autopilot.phone.unknown') }));
      });
      bot.on('callback_query:data', async (update) => {
        const chat = update.chat?.id ?? update.from.id;
        if (!allowed(chat)) return;
        await update.answerCallbackQuery().catch((error: unknown) => said('answerCallbackQuery', error));
        // The answer to a button replies to the message the button is under.
        await answer(chat, update.callbackQuery.message?.message_id, () => pressed(update.callbackQuery.data, chat, pending, ctx));
      });
      bot.catch((error) => said('update', error.error));
      note(deps.io, t('autopilot.phone.listening', { chats: config.chats.join(', ') }));
      running = (async () => {
        for (;;) {
          try {
            await bot.start({ allowed_updates: ['message', 'callback_query'], timeout: POLL_SECONDS });
            return;
          } catch (error) {
            said('getUpdates', error);
            // 409 (another poller of the same bot, e.g. a run not yet ended): tried again a little later.
            if (!(error instanceof GrammyError) || error.error_code !== 409 || stopped) return;
            await new Promise((resolve) => setTimeout(resolve, 5_000).unref());
            if (stopped) return;
          }
        }
      })();
    },
    async close() {
      stopped = true;
      if (bot.isRunning()) await bot.stop().catch(() => {});
      await running;
    },
  };
}
