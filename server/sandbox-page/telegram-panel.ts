/**
 * The seller's phone (issue #36): the Telegram emulator's bots, each private chat as a conversation
 * (the bot's messages on the left with their buttons, the person's on the right, edits applied),
 * kept live by the stream's `telegram` events. The page plays the person: it writes in a chat and
 * presses a button. A new bot's token is shown once, like a seller's key.
 */
import { useEffect, useState } from 'preact/hooks';
import { t, time } from './i18n.ts';
import type { Live } from './live.ts';
import { act, field, html } from './ui.ts';

type Answer<K extends keyof Live['sb']> = Live['sb'][K] extends (...args: never[]) => infer R ? Awaited<R> : never;
type Bot = Answer<'listTelegramBots'>['items'][number];
type Message = Answer<'telegramMessages'>['items'][number];

interface Open {
  bot: number;
  chat: number;
}

export function TelegramPanel({ live }: { live: Live }) {
  const sb = live.sb;
  const [bots, setBots] = useState<Bot[]>([]);
  const [open, setOpen] = useState<Open | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [created, setCreated] = useState<{ id: number; token: string } | null>(null);
  const reload = async () => {
    const read = await act(() => sb.listTelegramBots());
    if (read) setBots(read.items);
    if (open) {
      const chat = await act(() => sb.telegramMessages(open.bot, open.chat));
      if (chat) setMessages(chat.items);
    }
  };
  // every message, edit or press in any chat comes as a `telegram` event: read again
  useEffect(() => void reload(), [live.telegramChanges, open?.bot, open?.chat]);
  const create = async () => {
    const bot = await act(() => sb.createTelegramBot({}));
    if (!bot) return;
    setCreated({ id: bot.id, token: bot.token });
    await reload();
  };
  const say = async (e: Event, to: Open) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const text = field(form, 'text');
    if (!text) return;
    if ((await act(() => sb.telegramSay(to.bot, to.chat, { text }))) === undefined) return;
    (form.elements.namedItem('text') as HTMLInputElement).value = '';
    setOpen(to);
  };
  const startChat = (e: Event, bot: number) => {
    e.preventDefault();
    const chat = Number(field(e.currentTarget as HTMLFormElement, 'chat'));
    if (Number.isSafeInteger(chat) && chat > 0) setOpen({ bot, chat });
  };
  const press = (m: Message, data: string) => act(() => sb.telegramPress(open!.bot, open!.chat, { messageId: m.messageId, data }), () => t('telegram.pressed', { data }));
  return html`<section aria-labelledby="telegram-h">
    <h2 id="telegram-h">${t('telegram.heading')}</h2>
    <p class="muted">${t('telegram.hint', { root: `${location.origin}/sandbox/telegram` })}</p>
    <button type="button" onClick=${create}>${t('telegram.create')}</button>
    ${created
      ? html`<p class="once" role="note" data-bot-created=${created.id}>${t('telegram.tokenOnce', { id: created.id })}<code data-token>${created.token}</code></p>`
      : null}
    ${bots.length === 0 ? html`<p class="muted">${t('telegram.none')}</p>` : null}
    ${bots.map(
      (b) => html`<div class="bot" key=${b.id} data-bot=${b.id}>
        <h3>@${b.username} <span class="muted">${b.id}</span></h3>
        ${b.commands.length > 0 ? html`<p class="muted">${t('telegram.commands')} ${b.commands.map((c) => html`<code key=${c.command}>/${c.command}</code> `)}</p>` : null}
        <div class="acts">
          ${b.chats.map(
            (c) => html`<button type="button" key=${c.chat} aria-pressed=${open?.bot === b.id && open.chat === c.chat} onClick=${() => setOpen({ bot: b.id, chat: c.chat })}>
              ${t('telegram.chat', { chat: c.chat, count: c.messages })}
            </button>`,
          )}
          <form class="inline" onSubmit=${(e: Event) => startChat(e, b.id)}>
            <label>${t('telegram.chatId')} <input name="chat" type="number" min="1" value="1" class="count" /></label>
            <button type="submit">${t('telegram.openChat')}</button>
          </form>
        </div>
        ${open?.bot === b.id ? conversation(open, messages, press, (e: Event) => say(e, open)) : null}
      </div>`,
    )}
  </section>`;
}

/** The message a reply answers, quoted above it as Telegram shows it: its first line, shortened. */
function quote(messages: Message[], id: number) {
  const text = messages.find((m) => m.messageId === id)?.text.split('\n')[0] ?? `#${id}`;
  return html`<blockquote class="reply muted" data-reply-to=${id} title=${t('telegram.replyTo', { id })}>${text.length > 80 ? `${text.slice(0, 79)}…` : text}</blockquote>`;
}

function conversation(open: Open, messages: Message[], press: (m: Message, data: string) => unknown, say: (e: Event) => unknown) {
  return html`<div class="chat" data-chat=${open.chat} aria-label=${t('telegram.conversation', { chat: open.chat })}>
    ${messages.length === 0 ? html`<p class="muted">${t('telegram.empty')}</p>` : null}
    <ol>
      ${messages.map(
        (m) => html`<li key=${m.messageId} class=${`from-${m.from}`} data-message=${m.messageId}>
          ${m.replyTo != null ? quote(messages, m.replyTo) : null}
          <div class="text">${m.text}${m.document ? html` <code>${m.document}</code>` : null}</div>
          ${m.buttons.map(
            (row, i) => html`<div class="acts" key=${i}>
              ${row.map((b) =>
                b.data !== undefined
                  ? html`<button type="button" key=${b.data} data-press=${b.data} onClick=${() => press(m, b.data!)}>${b.text}</button>`
                  : html`<a key=${b.url} href=${b.url} rel="noreferrer" target="_blank">${b.text}</a>`,
              )}
            </div>`,
          )}
          <time class="muted">${t(m.from === 'bot' ? 'telegram.fromBot' : 'telegram.fromUser')} · ${time(m.editedAt ?? m.at)}${m.editedAt ? ` · ${t('telegram.edited')}` : ''}</time>
        </li>`,
      )}
    </ol>
    <form class="row" onSubmit=${say}>
      <label>${t('telegram.write', { chat: open.chat })} <input name="text" size="40" autocomplete="off" /></label>
      <button type="submit">${t('telegram.send')}</button>
    </form>
  </div>`;
}
