/**
 * The autopilot's runner: follows the orders with `client.orders.watch()` (polling `updatedSince`,
 * the reliable source, spec rule 6) from the watermark kept in its state, hands each change to the
 * rules, and runs the timed rules (deadline guard, backlog, stock care, repricing, questions) every
 * `pollSeconds`.
 *
 * Each order is handled once, across crashes:
 * - an order taken for delivery is journalled (on disk) before the watch may move its watermark
 *   past it; a restart first finishes the journalled deliveries that a crash interrupted (rules/deliver.ts);
 * - the watch's watermark is saved after an order was handed over, so a crash re-reads at most the
 *   orders in hand, which the journal recognises;
 * - changing calls carry idempotency keys derived from the order and the step, so a call repeated
 *   after a crash replays the stored answer instead of acting twice (the service keeps them 24 h).
 *
 * A stop (`signal`) is graceful: no new order is taken, deliveries in progress finish, the state is
 * saved, then `runAutopilot()` resolves.
 */
import type { SellerClient } from '../client.ts';
import type { Order } from '../records.ts';
import type { OrderStatus } from '../records.ts';
import { abortableSleep, type Watermark, type WatermarkStore } from '../watch.ts';
import type { Sleep } from '../transport.ts';
import { parseAutopilotConfig, type AutopilotConfig, type AutopilotConfigInput } from './config.ts';
import { ServiceClock } from './clock.ts';
import type { EmittedEvent, RuleContext } from './context.ts';
import { failureOf, part, says } from './words.ts';
import type { EventSink } from './events.ts';
import { fileAutopilotStore, memoryAutopilotStore, pruneState, type AutopilotStore } from './state.ts';
import { runBacklog } from './rules/backlog.ts';
import { runDeadlineGuard } from './rules/deadline.ts';
import { deliverOrder, finished, pickDeliverRule, resumeDelivery } from './rules/deliver.ts';
import { runOrderReplies, runQuestionReplies } from './rules/replies.ts';
import { runReprice } from './rules/reprice.ts';
import { runStockCare } from './rules/stock.ts';
import { reportMoved, reportPaid } from './rules/moved.ts';
import { startEventReceiver, type EventReceiver } from './listener.ts';
import { actionChannel, Outbox, type NotifyChannel } from './outbox.ts';
import { AuthenticationError, PermissionError } from '../errors.ts';
import type { AutopilotEvent } from './events.ts';

export interface AutopilotOptions {
  /** Where the state is kept. @default `fileAutopilotStore(statePath)` when `statePath` is given, else memory (no resume) */
  store?: AutopilotStore | undefined;
  /** A state file (see `store`). */
  statePath?: string | undefined;
  /** Change nothing: report what would be done; the state is read but never written. */
  dryRun?: boolean | undefined;
  /**
   * The webhook signing secret for the `webhooks` receiver.
   * @default the config's `webhooks.secretFile`, else process.env.SERVICE_WEBHOOK_SECRET
   */
  webhookSecret?: string | undefined;
  /** Stops the autopilot gracefully. */
  signal?: AbortSignal | undefined;
  /** Gets every event. */
  onEvent?: EventSink | undefined;
  /** This computer's clock (tests). @default Date.now */
  now?: (() => number) | undefined;
  /**
   * Where the config's `notify` sends besides its `command` or `hook`: the `telegram` channel
   * (`seller autopilot` makes one with grammY that words each event from its catalogue). A config
   * with `notify.telegram` needs one.
   */
  channels?: readonly NotifyChannel[] | undefined;
}

/** How long a stop waits for the outbox to send what is due (the rest is sent by the next run). */
const OUTBOX_GRACE_MS = 5_000;

/** Counts of what a run did, by `rule.type`. */
export type AutopilotSummary = Record<string, number>;

/** Order statuses that count as open (the backlog, the deadline guard). */
const OPEN: readonly OrderStatus[] = ['awaiting_confirmation', 'awaiting_delivery', 'disputed'];

/** A running autopilot; `runAutopilot()` is the short way. */
export class Autopilot {
  readonly config: AutopilotConfig;
  readonly #client: SellerClient;
  readonly #options: AutopilotOptions;
  readonly #clock: ServiceClock;
  readonly #open = new Map<string, Order>();
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #summary: AutopilotSummary = {};
  #wake: (() => void) | undefined;
  /** A wake that came while no poll was waiting: the next wait ends at once. */
  #woken = false;
  /** The watch has read the orders up to now once (its first wait began): what it yields after that is news. */
  #caughtUp = false;
  #outbox: Outbox | undefined;
  #ctx: RuleContext | undefined;
  /** Whether the seller paused (known before the state is read: false). */
  get paused(): boolean {
    return this.#ctx?.state.paused ?? false;
  }

  constructor(client: SellerClient, config: AutopilotConfig | AutopilotConfigInput, options: AutopilotOptions = {}) {
    this.#client = client;
    this.config = parseAutopilotConfig(config, 'autopilot config');
    this.#options = options;
    this.#clock = new ServiceClock(options.now ?? Date.now);
  }

  /** Polls at once instead of waiting for the next poll (e.g. from a webhook handler: events are a convenience, polling stays the source). */
  wake(): void {
    if (this.#wake) this.#wake();
    else this.#woken = true;
  }

  /** Runs until the signal stops it; resolves with the counts of what was done. */
  async run(): Promise<AutopilotSummary> {
    const { signal } = this.#options;
    const dryRun = this.#options.dryRun === true;
    const fileStore = this.#options.store ?? (this.#options.statePath !== undefined ? fileAutopilotStore(this.#options.statePath) : memoryAutopilotStore());
    const state = await fileStore.load();
    // A dry run starts from the saved state and keeps what it learns in memory only.
    const store: AutopilotStore = dryRun ? memoryAutopilotStore(state) : fileStore;
    pruneState(state, Date.now());
    // The outbox's own changes put only the outbox on disk when the store can (a file store appends to `<state>.outbox`).
    this.#outbox = this.#notifier(state, () => (dryRun ? Promise.resolve() : store.saveOutbox ? store.saveOutbox(state) : store.save(state)), dryRun);
    const ctx: RuleContext = {
      client: this.#client,
      config: this.config,
      state,
      save: () => (dryRun ? Promise.resolve() : store.save(state)),
      emit: (event) => this.#emit(event),
      dryRun,
      now: this.#clock.now,
      // Work in progress is never cut short: a stop waits for it.
      signal: new AbortController().signal,
    };
    this.#ctx = ctx;
    this.#outbox?.start();
    const rules = (['deliver', 'deadline', 'backlog', 'stock', 'reprice', 'replies'] as const).filter((r) => this.config[r] !== undefined);
    const from = state.watermark ? part('resumingFrom', { since: state.watermark.since }) : part('firstRun');
    this.#emit({ rule: 'autopilot', type: 'started', dryRun: dryRun || undefined, ...says('started', { dry: dryRun ? part('dryRun') : null, rules, from }) });
    if (signal?.aborted) return this.#stop(ctx);

    await this.#loadOpenOrders(ctx);
    for (const [id, entry] of Object.entries(state.journal)) {
      if (entry.phase === 'held' && state.paused) continue;
      if (!finished(entry) && !signal?.aborted) await resumeDelivery(ctx, id, entry, { restart: true });
    }
    const receiver = await this.#receive();
    // The timed rules end with the watch: at the stop, or when the watch fails for good (a key refused).
    const watchEnded = new AbortController();
    const ticker = this.#tickLoop(ctx, signal ? AbortSignal.any([signal, watchEnded.signal]) : watchEnded.signal);
    let failure: unknown;
    try {
      await this.#watch(ctx);
    } catch (error) {
      failure = error;
    }
    watchEnded.abort();
    await ticker;
    await receiver?.close();
    await this.#stop(ctx);
    if (failure !== undefined) throw failure;
    return this.#summary;
  }

  /** The webhook receiver of the config's `webhooks`, started (a genuine delivery wakes the watch). */
  async #receive(): Promise<EventReceiver | undefined> {
    const cfg = this.config.webhooks;
    if (!cfg) return undefined;
    const secret = await this.#webhookSecret(cfg.secretFile);
    const receiver = await startEventReceiver(cfg.listen, secret, {
      genuine: (event, delivery) => {
        this.#emit({ rule: 'webhooks', type: 'event', ...says('webhookEvent', { event, delivery }), detail: { event, delivery } });
        this.wake();
      },
      refused: (why) => this.#emit({ rule: 'webhooks', type: 'refused', ...says('webhookRefused', { check: why }), detail: { reason: why } }),
    });
    this.#emit({ rule: 'webhooks', type: 'listening', ...says('listening', { url: receiver.url }), detail: { url: receiver.url } });
    return receiver;
  }

  async #webhookSecret(file: string | undefined): Promise<string> {
    const given = this.#options.webhookSecret ?? (file === undefined ? globalThis.process?.env?.['SERVICE_WEBHOOK_SECRET'] : undefined);
    if (given) return given;
    if (file === undefined) throw new TypeError('webhooks: no signing secret; give webhooks.secretFile or set SERVICE_WEBHOOK_SECRET');
    const { readFile } = await import('node:fs/promises');
    const text = (await readFile(file, 'utf8')).trim();
    if (text === '') throw new TypeError(`webhooks.secretFile: ${file} is empty`);
    return text;
  }

  #emit(event: EmittedEvent): void {
    const key = `${event.rule}.${event.type}`;
    this.#summary[key] = (this.#summary[key] ?? 0) + 1;
    const full: AutopilotEvent = { at: new Date().toISOString(), ...event };
    this.#options.onEvent?.(full);
    this.#outbox?.offer(full);
  }

  /** The outbox of the config's `notify` (none in a dry run: it changes nothing, and tells no one). */
  #notifier(state: RuleContext['state'], save: () => Promise<void>, dryRun: boolean): Outbox | undefined {
    const config = this.config.notify;
    if (!config || dryRun) return undefined;
    const given = this.#options.channels ?? [];
    if (config.telegram && !given.some((c) => c.name === 'telegram')) {
      throw new TypeError('notify.telegram: give the autopilot a telegram channel (options.channels), as seller autopilot does');
    }
    const action = actionChannel(config);
    const channels = [...(action ? [action] : []), ...given];
    return new Outbox({
      state,
      save,
      channels,
      config,
      dropped: (entry, error) =>
        this.#emit({ rule: 'autopilot', type: 'notify-failed', ...says('messageDropped', { channel: entry.channel, event: `${entry.event.rule}.${entry.event.type}`, reason: failureOf(error) }) }),
    });
  }

  /**
   * Pauses delivering, repricing and auto-replies (kept in the state, across restarts); watching,
   * deadline warnings, stock alerts and messages go on. An order a rule would deliver meanwhile is
   * journalled `held` and delivered on {@link resume}.
   */
  async pause(): Promise<void> {
    const ctx = this.#ctx;
    if (!ctx || ctx.state.paused) return;
    ctx.state.paused = true;
    await ctx.save();
    this.#emit({ rule: 'autopilot', type: 'paused', ...says('paused') });
  }

  /** Resumes after {@link pause}: the held orders are delivered now. */
  async resume(): Promise<void> {
    const ctx = this.#ctx;
    if (!ctx || !ctx.state.paused) return;
    ctx.state.paused = false;
    await ctx.save();
    const held = Object.entries(ctx.state.journal).filter(([, entry]) => entry.phase === 'held');
    this.#emit({ rule: 'autopilot', type: 'resumed', ...says('unpaused', { count: held.length }) });
    for (const [id, entry] of held) {
      if (this.#inFlight.has(id)) continue;
      while (this.#inFlight.size >= this.config.concurrency) await Promise.race(this.#inFlight.values());
      this.#start(id, resumeDelivery(ctx, id, entry, { restart: false }));
    }
  }

  /** Orders journalled `held` (taken while paused). */
  get held(): number {
    return Object.values(this.#ctx?.state.journal ?? {}).filter((entry) => entry.phase === 'held').length;
  }

  #start(id: string, work: Promise<void>): void {
    const task = work
      .catch((error: unknown) => this.#ctx?.emit({ rule: 'deliver', type: 'error', order: id, ...says('orderError', { id, reason: failureOf(error) }) }))
      .finally(() => this.#inFlight.delete(id));
    this.#inFlight.set(id, task);
  }

  async #stop(ctx: RuleContext): Promise<AutopilotSummary> {
    await Promise.all(this.#inFlight.values());
    await ctx.save();
    this.#emit({ rule: 'autopilot', type: 'stopped', ...says('stopped') });
    await this.#outbox?.stop(OUTBOX_GRACE_MS);
    await ctx.save();
    return this.#summary;
  }

  /** The open orders at start (the watch yields only changes after the watermark). */
  async #loadOpenOrders(ctx: RuleContext): Promise<void> {
    if (!this.config.deadline && !this.config.backlog) return;
    for (const status of OPEN) {
      try {
        for await (const order of this.#client.orders.list({ status, limit: 200 })) this.#track(order);
      } catch (error) {
        ctx.emit({ rule: 'autopilot', type: 'error', ...says('cannotList', { status, reason: failureOf(error) }) });
      }
    }
  }

  #track(order: Order): void {
    this.#clock.observe(order.updatedAt);
    if (OPEN.includes(order.status)) this.#open.set(order.id, order);
    else this.#open.delete(order.id);
  }

  /** The order watch: hands every change to the rules. */
  async #watch(ctx: RuleContext): Promise<void> {
    const { signal } = this.#options;
    const { state } = ctx;
    const watermarks: WatermarkStore = {
      get: () => state.watermark,
      set: async (mark: Watermark) => {
        state.watermark = mark;
        await ctx.save();
      },
    };
    // A resumed run's changes are all news; a first run's catch-up is history.
    this.#caughtUp = state.watermark !== null;
    const sleep: Sleep = (ms, s) => {
      this.#caughtUp = true;
      if (this.#woken) {
        this.#woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        this.#wake = () => resolve();
        abortableSleep(ms, s).then(resolve, reject);
      }).finally(() => (this.#wake = undefined));
    };
    const changes = this.#client.orders.watch({
      store: watermarks,
      intervalMs: this.config.pollSeconds * 1000,
      signal,
      sleep,
      limit: 200,
      onError: (error, retry) => ctx.emit({ rule: 'autopilot', type: 'poll-failed', ...says('pollFailed', { reason: failureOf(error), seconds: Math.ceil(retry.delayMs / 1000) }) }),
    });
    const sales = this.#outbox?.sales ?? false;
    try {
      for await (const order of changes) {
        this.#track(order);
        if (this.#caughtUp) await reportMoved(ctx, order);
        const picked = pickDeliverRule(order, this.config.deliver);
        reportPaid(ctx, order, picked, { news: this.#caughtUp, sales, begun: state.journal[order.id] !== undefined || this.#inFlight.has(order.id) });
        if (picked && !finished(state.journal[order.id]) && state.journal[order.id]?.phase !== 'held' && !this.#inFlight.has(order.id)) {
          while (this.#inFlight.size >= this.config.concurrency) await Promise.race(this.#inFlight.values());
          if (state.paused) {
            await this.#hold(ctx, order, picked.name);
            continue;
          }
          if (!ctx.dryRun) {
            // On disk before the watermark may pass this order.
            state.journal[order.id] ??= { phase: 'running', rule: picked.name, at: new Date().toISOString(), attempts: 0 };
            await ctx.save();
          }
          this.#start(order.id, deliverOrder(ctx, order, picked.rule, picked.name));
        }
        if (this.config.replies && order.needsAction && !state.paused) await runOrderReplies(ctx, order);
      }
    } catch (error) {
      if (error instanceof AuthenticationError || error instanceof PermissionError) {
        ctx.emit({ rule: 'autopilot', type: 'key-failed', ...says('keyFailed', { reason: failureOf(error) }), detail: { code: error.code } });
      }
      throw error;
    }
  }

  /** An order a rule would deliver while paused: journalled `held` (on disk before the watermark passes it), delivered on resume. */
  async #hold(ctx: RuleContext, order: Order, name: string): Promise<void> {
    if (ctx.dryRun) return;
    ctx.state.journal[order.id] = { phase: 'held', rule: name, at: new Date().toISOString(), attempts: 0 };
    await ctx.save();
    ctx.emit({ rule: 'deliver', type: 'held', order: order.id, card: order.number, ...says('held', { id: order.id, number: order.number, productType: order.productType, name }) });
  }

  /** The timed rules, every `pollSeconds`, until the stop. */
  async #tickLoop(ctx: RuleContext, signal: AbortSignal): Promise<void> {
    let lastStock = -Infinity;
    while (!signal.aborted) {
      try {
        await runDeadlineGuard(ctx, this.#open.values());
        await runBacklog(ctx, this.#open.size);
        if (this.config.stock && Date.now() - lastStock >= this.config.stock.everySeconds * 1000) {
          lastStock = Date.now();
          await runStockCare(ctx);
        }
        if (!ctx.state.paused) {
          await runReprice(ctx);
          await runQuestionReplies(ctx);
        }
        // Deliveries left `ready` by a send the service did not take (no answer, a 5xx, a 429).
        for (const [id, entry] of Object.entries(ctx.state.journal)) {
          if (entry.phase === 'ready' && !this.#inFlight.has(id) && !signal?.aborted) await resumeDelivery(ctx, id, entry, { restart: false });
        }
      } catch (error) {
        ctx.emit({ rule: 'autopilot', type: 'error', ...says('timedRuleFailed', { reason: failureOf(error) }) });
      }
      try {
        await abortableSleep(this.config.pollSeconds * 1000, signal);
      } catch {
        return;
      }
    }
  }
}

/**
 * Runs the autopilot until `options.signal` stops it.
 *
 * @example
 * const stop = new AbortController();
 * process.once('SIGINT', () => stop.abort());
 * await runAutopilot(client, defineAutopilot({ deliver: [...] }), { statePath: '.autopilot-state.json', signal: stop.signal, onEvent: console.log });
 */
export function runAutopilot(client: SellerClient, config: AutopilotConfig | AutopilotConfigInput, options: AutopilotOptions = {}): Promise<AutopilotSummary> {
  return new Autopilot(client, config, options).run();
}
