/**
 * `seller sandbox telegram …`: the person on the phone of a local seller-server's Telegram emulator
 * (issue #36): a new bot (its token goes to the autopilot), what the person writes, the buttons they
 * press, and the conversation as they see it.
 *
 *   seller sandbox telegram bot                      # the token on stdout
 *   seller sandbox telegram say 7000000001 1 /status
 *   seller sandbox telegram press 7000000001 1 deliver:ord_…   # the newest message with that button
 *   seller sandbox telegram chat 7000000001 1
 */
import type { Command } from 'commander';
import { t } from '../i18n/index.ts';
import { dateTime } from '../i18n/format.ts';
import { positiveInt, type App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { note, printJson, printTable, say, warn } from '../lib/output.ts';
import type { SandboxOf } from './sandbox-fault.ts';

/** `seller sandbox telegram …`; `sandboxClient` is passed in by sandbox.ts (no import back: no cycle). */
export function registerTelegram(noun: Command, app: App, sandboxClient: SandboxOf): void {
  const telegram = noun.command('telegram').description(t('sandboxTelegram.description')).addHelpText('after', t('sandboxTelegram.examples'));
  telegram
    .command('bot')
    .description(t('sandboxTelegram.botDescription'))
    .option('--username <name>', t('sandboxTelegram.username'))
    .action(app.run((o: { username?: string }) => ({ username: o.username }), (o: { username?: string | undefined }, deps: Deps) => runCreateBot(o, deps, sandboxClient)));
  telegram
    .command('bots')
    .description(t('sandboxTelegram.botsDescription'))
    .action(app.run(() => ({}), (_o: object, deps: Deps) => runListBots(deps, sandboxClient)));
  telegram
    .command('say')
    .description(t('sandboxTelegram.sayDescription'))
    .argument('<bot>', t('sandboxTelegram.bot'), positiveInt)
    .argument('<chat>', t('sandboxTelegram.chat'), positiveInt)
    .argument('<text>', t('sandboxTelegram.text'))
    .option('--reply-to <message>', t('sandboxTelegram.replyTo'), positiveInt)
    .action(
      app.run(
        (bot: number, chat: number, text: string, o: { replyTo?: number }) => ({ bot, chat, text, replyTo: o.replyTo }),
        (o: SayOptions, deps: Deps) => runSay(o, deps, sandboxClient),
      ),
    );
  telegram
    .command('press')
    .description(t('sandboxTelegram.pressDescription'))
    .argument('<bot>', t('sandboxTelegram.bot'), positiveInt)
    .argument('<chat>', t('sandboxTelegram.chat'), positiveInt)
    .argument('<data>', t('sandboxTelegram.data'))
    .option('--message <n>', t('sandboxTelegram.message'), positiveInt)
    .action(
      app.run(
        (bot: number, chat: number, data: string, o: { message?: number }) => ({ bot, chat, data, messageId: o.message }),
        (o: PressOptions, deps: Deps) => runPress(o, deps, sandboxClient),
      ),
    );
  telegram
    .command('chat')
    .description(t('sandboxTelegram.chatDescription'))
    .argument('<bot>', t('sandboxTelegram.bot'), positiveInt)
    .argument('<chat>', t('sandboxTelegram.chat'), positiveInt)
    .action(app.run((bot: number, chat: number) => ({ bot, chat }), (o: { bot: number; chat: number }, deps: Deps) => runChat(o, deps, sandboxClient)));
}

interface SayOptions {
  bot: number;
  chat: number;
  text: string;
  replyTo?: number | undefined;
}

interface PressOptions {
  bot: number;
  chat: number;
  messageId?: number | undefined;
  data: string;
}

export async function runCreateBot(opts: { username?: string | undefined }, deps: Deps, sandboxClient: SandboxOf): Promise<void> {
  const bot = await sandboxClient(deps).createTelegramBot({ username: opts.username });
  if (wantsJson(deps)) {
    printJson(deps.io, bot);
    return;
  }
  note(deps.io, t('sandboxTelegram.created', { id: bot.id, username: bot.username, root: `${deps.settings().baseUrl}/sandbox/telegram` }));
  say(deps.io, bot.token);
  warn(deps.io, t('sandboxTelegram.tokenOnce'));
}

export async function runListBots(deps: Deps, sandboxClient: SandboxOf): Promise<void> {
  const { items } = await sandboxClient(deps).listTelegramBots();
  if (wantsJson(deps)) {
    printJson(deps.io, { items });
    return;
  }
  printTable(
    deps.io,
    items,
    [
      { header: t('sandboxTelegram.columns.id'), value: (b) => b.id },
      { header: t('sandboxTelegram.columns.username'), value: (b) => `@${b.username}` },
      { header: t('sandboxTelegram.columns.chats'), value: (b) => b.chats.map((c) => c.chat).join(', ') },
      { header: t('sandboxTelegram.columns.commands'), value: (b) => b.commands.map((c) => `/${c.command}`).join(' ') },
    ],
    t('sandboxTelegram.noBots'),
  );
}

export async function runSay(opts: SayOptions, deps: Deps, sandboxClient: SandboxOf): Promise<void> {
  const said = await sandboxClient(deps).telegramSay(opts.bot, opts.chat, { text: opts.text, replyTo: opts.replyTo });
  if (wantsJson(deps)) printJson(deps.io, said);
  else say(deps.io, String(said.messageId));
}

export async function runPress(opts: PressOptions, deps: Deps, sandboxClient: SandboxOf): Promise<void> {
  const pressed = await sandboxClient(deps).telegramPress(opts.bot, opts.chat, { messageId: opts.messageId, data: opts.data });
  if (wantsJson(deps)) printJson(deps.io, pressed);
  else say(deps.io, pressed.callbackQueryId);
}

/** The conversation, oldest first: `12:03 bot #2: text`, each row of buttons under its message. */
export async function runChat(opts: { bot: number; chat: number }, deps: Deps, sandboxClient: SandboxOf): Promise<void> {
  const { items } = await sandboxClient(deps).telegramMessages(opts.bot, opts.chat);
  if (wantsJson(deps)) {
    printJson(deps.io, { items });
    return;
  }
  if (items.length === 0) say(deps.io, t('sandboxTelegram.noMessages'));
  for (const m of items) {
    const who = t(m.from === 'bot' ? 'sandboxTelegram.fromBot' : 'sandboxTelegram.fromUser');
    const edited = m.editedAt === null ? '' : ` ${t('sandboxTelegram.edited')}`;
    // A reply names the message it answers (an older server sends no replyTo).
    const reply = m.replyTo == null ? '' : ` ${t('sandboxTelegram.repliesTo', { id: m.replyTo })}`;
    say(deps.io, t('sandboxTelegram.line', { at: dateTime(m.at) ?? m.at, who, id: m.messageId, reply, edited, text: m.text }));
    for (const row of m.buttons) say(deps.io, `    ${row.map((b) => `[${b.text}] ${b.data ?? b.url ?? ''}`.trim()).join('   ')}`);
  }
}
