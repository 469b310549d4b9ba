/**
 * The seller's phone in e2e tests (issue 36): a running `seller autopilot --json` with
 * `notify.telegram` pointed at the sandbox's Telegram emulator, the person played by the sandbox's
 * operations. `phoneKit(world)` gives a test file what it needs on its seller world:
 *
 * - `setUp(name)`: a new bot that the seller's chat (and a stranger's) started, and a config file for
 *   it (with its own state file): the `rules` given, `notify.telegram` with `chats: [SELLER]`, the
 *   emulator's apiRoot and the `telegram` fields given;
 * - `Run`: the autopilot running with the bot's token, its events read from its `--json` lines;
 * - `until`, `chat`, `fromBot`, `about`, `command` (says a text as the seller and waits for the bot's
 *   answer), `started`, `ready` (started, the seller's `/start` answered), `stateOf`, `drained`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { expect } from 'vitest';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { fileAutopilotStore } from '../../sdk/autopilot/state.ts';
import type { TelegramBot } from '../../sdk/contract/index.ts';
import type { Lang, SellerWorld, Shop } from './seller-world.ts';
import { waitFor } from './wait.ts';

/** The seller's chat (the person's id), and a stranger's. */
export const SELLER = 1001;
export const STRANGER = 2002;

/** A running `seller autopilot --json` of `shop` with the bot's token in its environment (TZ Europe/Moscow). */
export class Run {
  readonly events: AutopilotEvent[] = [];
  stdout = '';
  stderr = '';
  readonly child: ChildProcessWithoutNullStreams;
  readonly closed: Promise<number | null>;
  constructor(shop: Pick<Shop, 'spawn'>, config: string, token: string, lang?: Lang) {
    this.child = shop.spawn(['autopilot', '--config', config, '--json'], { lang, env: { SERVICE_TELEGRAM_TOKEN: token, TZ: 'Europe/Moscow' } });
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => {
      this.stdout += text;
      this.events.splice(0, Infinity, ...this.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as AutopilotEvent));
    });
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    this.closed = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }
  event(rule: string, type: string, order?: string): AutopilotEvent | undefined {
    return this.events.find((e) => e.rule === rule && e.type === type && (order === undefined || e.order === order));
  }
  async stop(): Promise<void> {
    this.child.kill('SIGINT');
    expect(await this.closed).toBe(0);
  }
}

/** Waits for `probe`; a timeout shows what the autopilot printed. */
export const until = <T>(what: string, run: Run | undefined, probe: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> =>
  waitFor(what, probe, { ms, every: 100, describe: () => (run ? `the autopilot printed:\n${run.stdout}\n${run.stderr}` : '') });

export const started = (run: Run) => until('start', run, () => run.event('autopilot', 'started'));

/** The state on disk, read as the autopilot reads it after a restart (the state file, the outbox's file and the state's `outboxTail`). */
export const stateOf = (path: string) => fileAutopilotStore(path).load();
/** What the autopilot keeps on disk, as text: the state file and the outbox's file. */
export const keptText = (path: string): string => [path, `${path}.outbox`].map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : '')).join('\n');
/** The outbox is empty on disk: every message decided was sent (nothing more is coming). */
export const drained = (state: string, run: Run) => until('the outbox sent', run, async () => (await stateOf(state)).outbox.length === 0);

export interface PhoneSetUp {
  /** The autopilot's rules besides `notify` (`deliver`, `stock`…). */
  rules?: Record<string, unknown>;
  /** More fields of `notify.telegram` (`orderUrl`, `events`…). */
  telegram?: Record<string, unknown>;
}

export function phoneKit(world: SellerWorld & { dir: string }) {
  const chat = async (bot: TelegramBot, person = SELLER) => (await world.sandbox.telegramMessages(bot.id, person)).items;
  const fromBot = async (bot: TelegramBot, person = SELLER) => (await chat(bot, person)).filter((m) => m.from === 'bot');
  return {
    /** A new bot whose seller (and a stranger) started it, and a config for it (its own state file). */
    async setUp(name: string, options: PhoneSetUp = {}): Promise<{ bot: TelegramBot; config: string; state: string }> {
      const bot = await world.sandbox.createTelegramBot({});
      for (const person of [SELLER, STRANGER]) await world.sandbox.telegramSay(bot.id, person, { text: '/start' });
      const config = join(world.dir, `${name}.json`);
      const telegram = { chats: [SELLER], apiRoot: `${world.server.url}/sandbox/telegram`, ...options.telegram };
      writeFileSync(config, JSON.stringify({ pollSeconds: 0.2, ...options.rules, notify: { telegram } }));
      return { bot, config, state: join(world.dir, `.${name}.state.json`) };
    },
    chat,
    fromBot,
    /** The autopilot started and has answered the seller's `/start` (so that answer is not taken for the next one's). */
    async ready(bot: TelegramBot, run: Run): Promise<void> {
      await started(run);
      await until('the /start answered', run, async () => (await fromBot(bot)).length > 0);
    },
    /** The bot's messages to the seller naming `order`. */
    about: async (bot: TelegramBot, order: string) => (await fromBot(bot)).filter((m) => m.text.includes(order)),
    /**
     * Says `text` as the person and waits for the bot's answer to it: the bot's reply to that message
     * (the outbox's notices, sent at their own pace, may land between a command and its answer).
     */
    async command(bot: TelegramBot, text: string, run: Run, person = SELLER): Promise<string> {
      const { messageId } = await world.sandbox.telegramSay(bot.id, person, { text });
      return until(`an answer to ${text}`, run, async () => (await fromBot(bot, person)).find((m) => m.replyTo === messageId)?.text);
    },
  };
}
