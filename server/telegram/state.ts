/**
 * The Telegram emulator's state, one per server (`svc.telegram`, built by `buildApp`; issue #36):
 * its bots, each bot's private chats (the conversation as the person sees it) and its queue of
 * updates for `getUpdates`, with the one long poll that may wait on it. Kept in memory, as the
 * sandbox's faults are: a restart forgets every bot (a rehearsal creates its bot again).
 *
 * Nothing grows without end: a chat keeps its last {@link MESSAGES_KEPT} messages, a bot its last
 * {@link UPDATES_KEPT} unconfirmed updates and {@link CALLBACKS_KEPT} unanswered button presses.
 */
import { sameSecret } from '../auth.ts';
import { base62 } from '../ids.ts';
import { commandEntities, type MessageEntity } from './html.ts';

export const MESSAGES_KEPT = 2000;
export const UPDATES_KEPT = 10_000;
export const CALLBACKS_KEPT = 1000;
/** The first bot's id; the next ones follow. */
const FIRST_BOT_ID = 7_000_000_001;

export interface InlineButton {
  text: string;
  callback_data?: string;
  url?: string;
}

export interface ChatMessage {
  messageId: number;
  from: 'bot' | 'user';
  text: string;
  entities: MessageEntity[];
  /** The inline keyboard, row by row (empty: none). */
  buttons: InlineButton[][];
  atMs: number;
  editedMs: number | null;
  replyTo: number | null;
  document?: { file_id: string; file_unique_id: string; file_name: string; mime_type?: string; file_size?: number };
}

export interface Chat {
  id: number;
  nextMessageId: number;
  messages: ChatMessage[];
}

export type Update = { update_id: number } & Record<string, unknown>;

/** How a waiting `getUpdates` ends: an update came, its time ran out, another poll took its place, or the server closes. */
export type PollEnd = 'update' | 'timeout' | 'conflict' | 'close' | 'gone';

export interface Bot {
  id: number;
  token: string;
  username: string;
  firstName: string;
  nextUpdateId: number;
  updates: Update[];
  /** The update types `getUpdates` last asked for (kept until changed, as Telegram does); null: every type but a few. */
  allowedUpdates: string[] | null;
  /** Commands by `scope|language` (`default|` for the default). */
  commands: Map<string, { command: string; description: string }[]>;
  chats: Map<number, Chat>;
  /** Button presses not answered yet, by callback query id. */
  callbacks: Map<string, { chat: number; messageId: number }>;
  poll: ((end: PollEnd) => void) | null;
}

/** The person at the other end of a private chat (the chat's id is theirs). */
export const personOf = (chat: number) => ({ id: chat, is_bot: false, first_name: 'Sandbox', last_name: String(chat) });

export class TelegramEmulator {
  readonly #bots = new Map<number, Bot>();
  readonly #listeners = new Set<(bot: number, chat: number | null) => void>();
  #nextId = FIRST_BOT_ID;
  #closed = false;

  create(username: string | undefined, taken: (name: string) => boolean = () => false): Bot | undefined {
    const id = this.#nextId;
    const name = username ?? `sandbox_${id - FIRST_BOT_ID + 1}_bot`;
    if (taken(name) || [...this.#bots.values()].some((b) => b.username.toLowerCase() === name.toLowerCase())) return undefined;
    this.#nextId += 1;
    const bot: Bot = {
      id,
      token: `${id}:AA${base62(33)}`,
      username: name,
      firstName: `Sandbox ${id - FIRST_BOT_ID + 1}`,
      nextUpdateId: 1,
      updates: [],
      allowedUpdates: null,
      commands: new Map(),
      chats: new Map(),
      callbacks: new Map(),
      poll: null,
    };
    this.#bots.set(id, bot);
    this.touch(bot, null);
    return bot;
  }

  get(id: number): Bot | undefined {
    return this.#bots.get(id);
  }

  /** The bot a token is for; undefined for a token of no bot (compared in constant time). */
  byToken(token: string): Bot | undefined {
    const id = /^(\d{1,15}):[A-Za-z0-9_-]{1,64}$/.exec(token)?.[1];
    const bot = id === undefined ? undefined : this.#bots.get(Number(id));
    return bot && sameSecret(bot.token, token) ? bot : undefined;
  }

  list(): Bot[] {
    return [...this.#bots.values()];
  }

  /** The person writes to the bot: a message in the chat (started now if new) and an update. */
  say(bot: Bot, chatId: number, text: string, replyTo: number | null, nowMs: number): ChatMessage {
    const chat = this.#chat(bot, chatId, true)!;
    const message = this.append(bot, chat, { from: 'user', text, entities: commandEntities(text), buttons: [], atMs: nowMs, editedMs: null, replyTo });
    this.push(bot, { message: telegramMessage(bot, chat, message) });
    return message;
  }

  /** The person presses a button: an unanswered callback query, and an update. */
  press(bot: Bot, chat: Chat, message: ChatMessage, data: string): string {
    const id = `${bot.id}${base62(12)}`;
    bot.callbacks.set(id, { chat: chat.id, messageId: message.messageId });
    trim(bot.callbacks, CALLBACKS_KEPT);
    this.touch(bot, chat);
    this.push(bot, {
      callback_query: { id, from: personOf(chat.id), message: telegramMessage(bot, chat, message), chat_instance: String(bot.id + chat.id), data },
    });
    return id;
  }

  chat(bot: Bot, chatId: number): Chat | undefined {
    return this.#chat(bot, chatId, false);
  }

  /** Adds a message to a chat (its id the chat's next), dropping the oldest beyond {@link MESSAGES_KEPT}. */
  append(bot: Bot, chat: Chat, message: Omit<ChatMessage, 'messageId'>): ChatMessage {
    const full = { messageId: chat.nextMessageId++, ...message };
    chat.messages.push(full);
    if (chat.messages.length > MESSAGES_KEPT) chat.messages.splice(0, chat.messages.length - MESSAGES_KEPT);
    this.touch(bot, chat);
    return full;
  }

  /** Hears every change of a chat (the sandbox page's live stream, wired by `buildApp`). */
  listen(listener: (bot: number, chat: number | null) => void): void {
    this.#listeners.add(listener);
  }

  /** A chat changed (a message, an edit, a press), or the bot itself (null: made, its commands set). */
  touch(bot: Bot, chat: Chat | null): void {
    for (const listener of this.#listeners) listener(bot.id, chat?.id ?? null);
  }

  /** Queues an update (its id the bot's next) and wakes the waiting poll. */
  push(bot: Bot, payload: Record<string, unknown>): void {
    bot.updates.push({ update_id: bot.nextUpdateId++, ...payload });
    if (bot.updates.length > UPDATES_KEPT) bot.updates.splice(0, bot.updates.length - UPDATES_KEPT);
    this.#end(bot, 'update');
  }

  /**
   * Waits up to `ms` (real time) for an update of this bot. A poll that comes while another waits
   * ends the earlier one (`conflict`: Telegram's 409); closing the server ends every wait.
   */
  wait(bot: Bot, ms: number, gone: AbortSignal): Promise<PollEnd> {
    if (this.#closed) return Promise.resolve('close');
    this.#end(bot, 'conflict');
    return new Promise<PollEnd>((resolve) => {
      const timer = setTimeout(() => finish('timeout'), ms);
      const onGone = () => finish('gone');
      const finish = (end: PollEnd) => {
        clearTimeout(timer);
        gone.removeEventListener('abort', onGone);
        if (bot.poll === finish) bot.poll = null;
        resolve(end);
      };
      gone.addEventListener('abort', onGone, { once: true });
      bot.poll = finish;
    });
  }

  /** The server closes: every waiting poll ends at once. */
  close(): void {
    this.#closed = true;
    for (const bot of this.#bots.values()) this.#end(bot, 'close');
  }

  #end(bot: Bot, end: PollEnd): void {
    const poll = bot.poll;
    bot.poll = null;
    poll?.(end);
  }

  #chat(bot: Bot, chatId: number, start: boolean): Chat | undefined {
    let chat = bot.chats.get(chatId);
    if (!chat && start) bot.chats.set(chatId, (chat = { id: chatId, nextMessageId: 1, messages: [] }));
    return chat;
  }
}

function trim<K, V>(map: Map<K, V>, kept: number): void {
  for (const key of map.keys()) {
    if (map.size <= kept) return;
    map.delete(key);
  }
}

/** The Bot API's `User` of the bot itself (`getMe`, a message's `from`). */
export const botUser = (bot: Bot) => ({ id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username });

/** A chat message as the Bot API's `Message` object. */
export function telegramMessage(bot: Bot, chat: Chat, m: ChatMessage, withReply = true): Record<string, unknown> {
  const msg: Record<string, unknown> = {
    message_id: m.messageId,
    from: m.from === 'bot' ? botUser(bot) : personOf(chat.id),
    chat: { id: chat.id, first_name: 'Sandbox', last_name: String(chat.id), type: 'private' },
    date: Math.floor(m.atMs / 1000),
  };
  if (m.editedMs !== null) msg.edit_date = Math.floor(m.editedMs / 1000);
  const replied = withReply && m.replyTo !== null ? chat.messages.find((x) => x.messageId === m.replyTo) : undefined;
  if (replied) msg.reply_to_message = telegramMessage(bot, chat, replied, false);
  if (m.document) {
    msg.document = m.document;
    if (m.text) msg.caption = m.text;
    if (m.entities.length > 0) msg.caption_entities = m.entities;
  } else {
    msg.text = m.text;
    if (m.entities.length > 0) msg.entities = m.entities;
  }
  if (m.buttons.length > 0) msg.reply_markup = { inline_keyboard: m.buttons };
  return msg;
}
