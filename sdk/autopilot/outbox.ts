/**
 * The autopilot's messages to the seller (config `notify`): the chosen events go through an outbox
 * kept with the state (`state.outbox`; a file store keeps it in `<state>.outbox`), so that a channel
 * down, slow or answering 429 never slows a delivery, and a message decided before a crash is sent
 * after the restart.
 *
 * - An event is chosen by `events` (a `type`, or `rule.type`; default {@link NEEDS_A_HUMAN}) and
 *   `sales` (also {@link SALES}); each channel's own choice wins over the top-level one.
 * - A chosen event becomes one entry per channel target (a Telegram chat), put on disk before it may
 *   be sent; one sender sends the entries in order, one message at a time, and removes them from the
 *   outbox once sent: a crash between a send and its removal sends that message again (at most one
 *   duplicate). A channel with `sendMany` is handed what waits for a target and may say several
 *   waiting events in one message; with `paceMs` (Telegram: about one message a second per chat)
 *   a target is sent no faster, so a burst, or what piled up behind a 429's `retry_after` or an
 *   outage, goes as a few messages, not one per event.
 * - A send that fails is tried again: after the `retryAfterMs` a channel's failure names (Telegram's
 *   429 `retry_after`), else with backoff up to {@link MAX_BACKOFF_MS}; a failure a retry cannot mend
 *   (`permanent`: a chat that blocked the bot, a wrong request) drops the entry with a `notify-failed`
 *   event. Later entries for the same target wait behind a failing one (messages keep their order);
 *   other targets go on.
 *
 * The channels are given: the top-level `command` or `hook` here (the event as JSON on stdin or as
 * the POST body), Telegram by whoever runs the autopilot (`seller autopilot` words each event from
 * its catalogue and sends it with grammY): {@link NotifyChannel}.
 */
import { jitteredBackoff } from '../backoff.ts';
import { runAction } from './actions.ts';
import type { NotifyConfig } from './config.ts';
import type { AutopilotEvent } from './events.ts';
import type { AutopilotState, OutboxEntry } from './state.ts';

/** What needs a human: the events sent by default. */
export const NEEDS_A_HUMAN: readonly string[] = [
  'orders.needs-hand',
  'deliver.failed',
  'deliver.refused',
  'deadline.warned',
  'deadline.dispute',
  'deadline.missed',
  'orders.disputed',
  'orders.refunded',
  'stock.low',
  'stock.out',
  'autopilot.key-failed',
  'autopilot.stopped',
];

/** A sale: with `sales`, every paid and every delivered order. */
export const SALES: readonly string[] = ['orders.paid', 'deliver.delivered'];

/**
 * Events offered within this long share one append to the outbox's file; meanwhile they ride in the
 * state's writes (`outboxTail`, state.ts), so the longer, the more each state write carries: 20 ms
 * keeps both small in a burst of sales (docs/benchmarks.md, session 10).
 */
const OFFER_WRITE_MS = 20;
/** After a failed write of offered events, the next try. */
const OFFER_RETRY_MS = 1_000;

/** Longest wait between two tries of a failing send. */
export const MAX_BACKOFF_MS = 8_000;
const BASE_BACKOFF_MS = 500;
/** Tries of a send that keeps failing before it is dropped (a day of {@link MAX_BACKOFF_MS} waits and more). */
const MAX_TRIES = 10_000;

/** A channel's failed send: when to try again, or never. */
export class NotifyFailure extends Error {
  override name = 'NotifyFailure';
  constructor(
    message: string,
    readonly options: { retryAfterMs?: number | undefined; permanent?: boolean | undefined } = {},
  ) {
    super(message);
  }
}

/** Where messages go. */
export interface NotifyChannel {
  /** `telegram`, `command`, `hook`: the outbox entries' `channel`. */
  name: string;
  /** Its targets (Telegram's chats), `['']` for a channel with one. */
  targets: readonly string[];
  /** Its own choice, when it has one. */
  events?: readonly string[] | undefined;
  sales?: boolean | undefined;
  /** Sends one event to one target; throws a {@link NotifyFailure} (or any error: retried with backoff). */
  send(event: AutopilotEvent, to: string): Promise<void>;
  /**
   * Optional: sends the first events of a backlog for one target as one message and answers how
   * many it took (at least one: the first). Given, the outbox hands it what waits for a target
   * (at most {@link BATCH_MAX}, in order) instead of one event at a time; a failure counts against the first.
   */
  sendMany?(events: readonly AutopilotEvent[], to: string): Promise<number>;
  /**
   * Optional: the least time between two messages to one target (Telegram: about one a second per
   * chat). What comes meanwhile waits and, with `sendMany`, goes together; a stop's last tries do not wait for it.
   */
  paceMs?: number | undefined;
}

/** At most this many waiting events are offered to a channel's `sendMany` at once. */
export const BATCH_MAX = 50;

/** An entry's target across channels (its channel and chat), for the pace and the order per target. */
const targetOf = (entry: Pick<OutboxEntry, 'channel' | 'to'>): string => `${entry.channel}\u0000${entry.to}`;

/** Whether `event` is one of `names` (a `type` or a `rule.type`). */
const named = (names: readonly string[], event: Pick<AutopilotEvent, 'rule' | 'type'>): boolean =>
  names.includes(event.type) || names.includes(`${event.rule}.${event.type}`);

/** Whether a channel with this choice sends `event`. */
export function chosen(event: Pick<AutopilotEvent, 'rule' | 'type'>, events: readonly string[] | undefined, sales: boolean): boolean {
  if (event.type === 'notify-failed') return false;
  return named(events ?? NEEDS_A_HUMAN, event) || (sales && named(SALES, event));
}

/** The top-level `command` or `hook` as a channel: the event as JSON. */
export function actionChannel(config: NotifyConfig): NotifyChannel | undefined {
  if (config.command === undefined && config.hook === undefined) return undefined;
  return {
    name: config.command !== undefined ? 'command' : 'hook',
    targets: [''],
    send: async (event) => {
      const env: Record<string, string> = { SERVICE_AUTOPILOT_RULE: event.rule, SERVICE_AUTOPILOT_EVENT: event.type };
      if (event.order !== undefined) env['SERVICE_ORDER_ID'] = event.order;
      if (event.card !== undefined) env['SERVICE_CARD'] = String(event.card);
      await runAction(config, event, env);
    },
  };
}

export interface OutboxOptions {
  state: AutopilotState;
  /** Puts the outbox on disk (the store's `saveOutbox`, else the whole state). */
  save(): Promise<void>;
  channels: readonly NotifyChannel[];
  config: NotifyConfig;
  /** A send dropped (a permanent failure, or too many tries). */
  dropped(entry: OutboxEntry, error: unknown): void;
  random?: (() => number) | undefined;
}

/** The outbox and its one sender. */
export class Outbox {
  readonly #o: OutboxOptions;
  readonly #channels: Map<string, NotifyChannel>;
  /** How many targets an entry may have: the channels' and those a run before left entries for. */
  readonly #targets: number;
  /** Entries known to be on disk (by `seq`): only these are sent. */
  readonly #durable = new Set<number>();
  #kick: (() => void) | undefined;
  #running: Promise<void> | undefined;
  readonly #stop = new AbortController();

  constructor(options: OutboxOptions) {
    this.#o = options;
    this.#channels = new Map(options.channels.map((c) => [c.name, c]));
    // What a run before left is on disk; an entry for a channel no longer configured is dropped.
    options.state.outbox = options.state.outbox.filter((e) => this.#channels.has(e.channel));
    for (const entry of options.state.outbox) this.#durable.add(entry.seq);
    // An entry left for a chat since taken out of `chats` is still sent: its target counts too.
    const targets = new Set(options.state.outbox.map(targetOf));
    for (const channel of this.#channels.values()) for (const to of channel.targets) targets.add(targetOf({ channel: channel.name, to }));
    this.#targets = targets.size;
  }

  /** Decides the messages of an event: one entry per chosen channel and target, on disk before it is sent. */
  offer(event: AutopilotEvent): void {
    const { state, config } = this.#o;
    const added: number[] = [];
    for (const channel of this.#channels.values()) {
      if (!chosen(event, channel.events ?? config.events, channel.sales ?? config.sales)) continue;
      for (const to of channel.targets) {
        const seq = ++state.outboxSeq;
        state.outbox.push({ seq, channel: channel.name, to, event, tries: 0 });
        added.push(seq);
      }
    }
    if (added.length === 0) return;
    this.#offered.push(...added);
    // Offers within OFFER_WRITE_MS share one append (or ride on one already on its way): an append
    // per event would be a file write per sale in a burst.
    this.#offerTimer ??= setTimeout(() => this.#saveOffered(), OFFER_WRITE_MS);
  }

  /** Seqs offered and not yet given to a save. */
  #offered: number[] = [];
  #offerTimer: ReturnType<typeof setTimeout> | undefined;

  /** Puts what was offered on disk; once there, it may be sent. */
  #saveOffered(): void {
    clearTimeout(this.#offerTimer);
    this.#offerTimer = undefined;
    const added = this.#offered;
    if (added.length === 0) return;
    this.#offered = [];
    const saved = this.#o.save().then(
      () => {
        for (const seq of added) this.#durable.add(seq);
        this.#kick?.();
      },
      () => {
        // Not on disk (a failing disk): tried again a little later, and nothing is sent before it is.
        // Meanwhile the state's writes carry them (`outboxTail`); a stop's last state write too.
        this.#offered.unshift(...added);
        if (!this.#draining) this.#offerTimer ??= setTimeout(() => this.#saveOffered(), OFFER_RETRY_MS);
      },
    );
    this.#saving.add(saved);
    void saved.finally(() => this.#saving.delete(saved));
  }

  /** Saves of offered entries not yet finished (a stop waits for them: what was decided is sent if it can be). */
  readonly #saving = new Set<Promise<void>>();

  /** Whether a channel wants sales (the runner then says every paid order: `orders.paid`). */
  get sales(): boolean {
    return [...this.#channels.values()].some((c) => c.sales ?? this.#o.config.sales);
  }

  /** Starts the sender. */
  start(): void {
    this.#running ??= this.#send();
  }

  /** Stops the sender: what is due is tried for at most `graceMs` more; the rest stays in the state for the next run. */
  async stop(graceMs: number): Promise<void> {
    this.#saveOffered();
    await Promise.all(this.#saving);
    this.#draining = true;
    // A failed write's retry is left to the stop's own last state write.
    clearTimeout(this.#offerTimer);
    this.#offerTimer = undefined;
    this.#kick?.();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([this.#running, grace]);
    clearTimeout(timer);
    this.#stop.abort();
  }

  #draining = false;
  /** When each target ({@link targetOf}) was last sent a message (for a channel's `paceMs`). */
  readonly #sentAt = new Map<string, number>();

  /** The next entry to send and when: the first of each target in order; undefined when there is none. */
  #next(): { entry: OutboxEntry; waitMs: number } | undefined {
    const now = Date.now();
    const blocked = new Set<string>();
    let best: { entry: OutboxEntry; waitMs: number } | undefined;
    for (const entry of this.#o.state.outbox) {
      // Every target's first entry seen: the rest wait behind them (in a burst, the outbox is long).
      if (blocked.size === this.#targets) break;
      const target = targetOf(entry);
      if (blocked.has(target)) continue;
      blocked.add(target);
      if (!this.#durable.has(entry.seq)) continue;
      const paced = this.#draining ? 0 : (this.#sentAt.get(target) ?? -Infinity) + (this.#channels.get(entry.channel)!.paceMs ?? 0) - now;
      const waitMs = Math.max(0, paced, entry.due === undefined ? 0 : Date.parse(entry.due) - now);
      if (waitMs === 0) return { entry, waitMs };
      if (!best || waitMs < best.waitMs) best = { entry, waitMs };
    }
    return best;
  }

  async #send(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      const next = this.#next();
      if (this.#draining && (next === undefined || next.waitMs > 0)) return;
      if (next === undefined || next.waitMs > 0) {
        await this.#wait(next?.waitMs);
        continue;
      }
      await this.#try(next.entry);
    }
  }

  /** `first` and the durable entries after it for the same target, in order (up to {@link BATCH_MAX}). */
  #backlog(first: OutboxEntry): OutboxEntry[] {
    const run: OutboxEntry[] = [];
    for (const entry of this.#o.state.outbox) {
      if (run.length === 0 ? entry !== first : entry.channel !== first.channel || entry.to !== first.to) continue;
      if (!this.#durable.has(entry.seq) || run.length === BATCH_MAX) break;
      run.push(entry);
    }
    return run;
  }

  /**
   * Waits for a new entry, the stop, or `ms`. Whichever comes first ends the others: a wait woken
   * by a new entry leaves no timer or listener behind (in a burst the sender is woken every few ms
   * while it waits out a pace of a second).
   */
  #wait(ms: number | undefined): Promise<void> {
    const signal = this.#stop.signal;
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#kick = undefined;
        resolve();
      };
      this.#kick = done;
      signal.addEventListener('abort', done, { once: true });
      if (ms !== undefined) timer = setTimeout(done, ms);
    });
  }

  async #try(entry: OutboxEntry): Promise<void> {
    const channel = this.#channels.get(entry.channel)!;
    let sent = [entry];
    try {
      if (channel.sendMany) {
        const backlog = this.#backlog(entry);
        sent = backlog.slice(0, Math.max(1, await channel.sendMany(backlog.map((e) => e.event), entry.to)));
      } else {
        await channel.send(entry.event, entry.to);
      }
    } catch (error) {
      const failure = error instanceof NotifyFailure ? error.options : {};
      entry.tries++;
      if (failure.permanent || entry.tries >= MAX_TRIES) {
        this.#remove(entry);
        this.#o.dropped(entry, error);
      } else {
        const waitMs = failure.retryAfterMs ?? jitteredBackoff(entry.tries - 1, BASE_BACKOFF_MS, MAX_BACKOFF_MS, this.#o.random ?? Math.random);
        entry.due = new Date(Date.now() + waitMs).toISOString();
      }
      await this.#o.save().catch(() => {});
      return;
    }
    this.#sentAt.set(targetOf(entry), Date.now());
    this.#remove(...sent);
    // Removed on disk before the next send: a crash sends at most this message again.
    await this.#o.save().catch(() => {});
  }

  #remove(...entries: OutboxEntry[]): void {
    const { state } = this.#o;
    const gone = new Set(entries);
    state.outbox = state.outbox.filter((e) => !gone.has(e));
    for (const entry of entries) this.#durable.delete(entry.seq);
  }
}
