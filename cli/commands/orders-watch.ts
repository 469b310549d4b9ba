/**
 * `seller orders watch`: streams new and changed orders, polling `GET /orders?updatedSince`
 * through the SDK's `client.orders.watch()` (rule 6: polling is the reliable source).
 *
 * - Output on a terminal: a live table of the orders seen during this watch (the latest version of
 *   each), redrawn in place on every change and every second (relative times stay fresh): open
 *   orders first (needing action first, then by delivery deadline), then recently closed ones, cut
 *   to the terminal's size; a header with the last poll and a footer with the last change.
 * - Piped: a tab-separated line per change (time, id, card, status, needs action, price). With
 *   `--json`: one JSON object per line (NDJSON) and nothing else on stdout.
 * - A line per change also on a terminal that cannot redraw (TERM=dumb, or no TERM outside
 *   Windows) and with `--exec`, whose commands share the terminal (their output would tear the table).
 * - `--since`: where to start (default `now`, this computer's clock: new changes only; `all`
 *   replays every order once). `--state-file PATH` keeps the watermark between runs: a stored
 *   watermark wins over `--since`, so a restarted watch misses nothing and repeats nothing.
 * - `--exec CMD`: runs CMD through the shell for each change, one at a time, with the order JSON
 *   on stdin and `SERVICE_ORDER_ID`, `SERVICE_ORDER_STATUS` in the environment. A change counts as
 *   taken once its command has finished; a failing command is reported on stderr and the watch
 *   goes on (the change is not retried). The command's stdout goes to stdout, or to stderr with
 *   `--json` so that stdout stays NDJSON.
 * - Failed polls are retried with backoff (a warning on stderr; in the live table, its header);
 *   an authentication or permission failure ends the watch (exit 4).
 * - Ctrl-C (SIGINT) or SIGTERM stops it cleanly with exit 0: stopping is the normal end of a
 *   watch (as with `gh run watch`). A second Ctrl-C kills it at once.
 */
import type { Command } from 'commander';
import type { Order, OrderStatus } from '../lib/records.ts';
import type { Sleep } from '../../sdk/transport.ts';
import { abortableSleep, fileWatermarkStore, type WatchRetry } from '../../sdk/watch.ts';
import type { App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { describeError, UsageError } from '../lib/errors.ts';
import { type IO, useColor } from '../lib/io.ts';
import { alignColumns, canRedraw, LiveBlock, paint, type Cell, type TerminalSink } from '../lib/live-table.ts';
import { note, warn } from '../lib/output.ts';
import { orderRow, parseSince, positiveSeconds, sinceHelp } from './orders-common.ts';

export interface WatchCliOptions {
  /** API timestamp to start from when no watermark is stored. */
  since: string;
  /** Whether `--since` was given (a stored watermark overrides it: say so). */
  sinceGiven: boolean;
  intervalSeconds: number;
  stateFile?: string | undefined;
  exec?: string | undefined;
}

export function registerWatch(noun: Command, app: App): void {
  noun
    .command('watch')
    .description('Stream new and changed orders until Ctrl-C')
    .option('--since <time>', `start from this time: ${sinceHelp()}`, 'now')
    .option('--interval <seconds>', 'seconds between polls', positiveSeconds, 5)
    .option('--state-file <path>', 'keep the position here and resume from it on the next run')
    .option('--exec <command>', 'run a shell command per change: order JSON on stdin, SERVICE_ORDER_ID and SERVICE_ORDER_STATUS in its environment')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ seller orders watch',
        '  $ seller orders watch --json --since all | jq -c "select(.needsAction)"',
        '  $ seller orders watch --state-file ~/.orders.pos --exec ./on-order.sh',
        '',
        'On a terminal the watch shows a live table of the orders it has seen, redrawn in place.',
        'Piped, it prints a tab-separated line per change; with --json, one JSON object per line.',
        'With --exec (the commands share the terminal) or TERM=dumb it prints a line per change.',
        'Ctrl-C stops the watch with exit code 0.',
      ].join('\n'),
    )
    .action(
      app.run(
        (o: { since: string; interval: number; stateFile?: string; exec?: string }): WatchCliOptions => ({
          since: parseSince(o.since),
          sinceGiven: o.since !== 'now',
          intervalSeconds: o.interval,
          stateFile: o.stateFile,
          exec: o.exec,
        }),
        runOrdersWatch,
      ),
    );
}

/** Runs the watch until SIGINT or SIGTERM. */
export async function runOrdersWatch(opts: WatchCliOptions, deps: Deps): Promise<void> {
  if (opts.exec !== undefined) await checkExec(opts.exec, deps.io.env);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await watchOrders(opts, deps, controller.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** The watch itself, stopped by `signal`. */
export async function watchOrders(opts: WatchCliOptions, deps: Deps, signal: AbortSignal): Promise<void> {
  const { io } = deps;
  const client = deps.client();
  const json = wantsJson(deps);
  const store = opts.stateFile === undefined ? undefined : fileWatermarkStore(opts.stateFile);
  const stored = store ? await store.get() : null;
  if (stored) {
    const ignored = opts.sinceGiven ? ' (--since is ignored while the state file has a position)' : '';
    note(io, `Resuming from ${opts.stateFile}: changes since ${stored.since}${ignored}; Ctrl-C to stop.`);
  } else {
    note(io, `Watching orders changed since ${opts.since}; Ctrl-C to stop.`);
  }
  // The live table owns the terminal: nothing else may write there while it is drawn.
  const live = !json && opts.exec === undefined && canRedraw(io) ? new LiveWatch(io, stored?.since ?? opts.since) : undefined;
  const onError = (error: unknown, retry: WatchRetry) => {
    if (live) live.pollFailed(error, retry);
    else warn(io, `polling failed (${pollFailure(error)}); retrying in ${Math.ceil(retry.delayMs / 1000)} s`);
  };
  const statuses = new Map<string, OrderStatus>();
  const changes = client.orders.watch({
    since: opts.since,
    intervalMs: opts.intervalSeconds * 1000,
    signal,
    store,
    onError,
    ...(live ? { sleep: live.sleep } : {}),
  });
  live?.start(signal);
  try {
    for await (const order of changes) {
      if (live) live.add(order);
      else if (json) io.stdout.write(`${JSON.stringify(order)}\n`);
      else printChange(deps, order, statuses.get(order.id));
      statuses.set(order.id, order.status);
      if (opts.exec !== undefined) await runExec(opts.exec, order, deps, json);
    }
  } finally {
    live?.close();
  }
}

/** A failed poll in a few words. */
const pollFailure = (error: unknown) => describeError(error).lines[0]?.replace(/^error: /, '') ?? String(error);

/** One line per change; padded on a terminal (with the previous status when known), tab-separated when piped. */
function printChange(deps: Deps, order: Order, before: OrderStatus | undefined): void {
  const row = orderRow(order);
  if (!deps.io.stdoutIsTTY) {
    const cells = [row.updated, row.id, order.number, row.status, order.needsAction ? 'yes' : 'no', order.priceRub];
    deps.io.stdout.write(`${cells.join('\t')}\n`);
    return;
  }
  const status = before !== undefined && before !== order.status ? `${before} → ${order.status}` : order.status;
  const line = [row.updated, row.id.padEnd(16), row.card.padEnd(6), status.padEnd(24), row.action.padEnd(12), row.price];
  deps.io.stdout.write(`${line.join('  ').trimEnd()}\n`);
}

/** Characters after which the first word of a command is the shell's to read, not ours. */
const SHELL_SYNTAX = /["'`$\\|&;<>(){}[\]*?~=!#]/;

/**
 * Fails before the watch starts when `--exec` names a program that is not there, so that a typo does
 * not surface as a warning per change hours later: a first word with a `/` must be an executable
 * file, another must be something the shell finds (`command -v`: a program on PATH, a builtin, a
 * function). A first word with shell syntax in it (quotes, `$`, an assignment …) is left to the shell.
 * Not on Windows, whose shell is another.
 */
export async function checkExec(command: string, env: Record<string, string | undefined>): Promise<void> {
  const word = command.trim().split(/\s+/)[0] ?? '';
  if (word === '' || process.platform === 'win32' || SHELL_SYNTAX.test(word)) {
    if (word === '') throw new UsageError('--exec needs a command', 'e.g. --exec ./on-order.sh');
    return;
  }
  if (word.includes('/')) {
    const { access, stat } = await import('node:fs/promises');
    const { constants } = await import('node:fs');
    let ok: boolean;
    try {
      ok = (await stat(word)).isFile();
      if (ok) await access(word, constants.X_OK);
    } catch {
      ok = false;
    }
    if (!ok) throw new UsageError(`--exec: ${word} is not an executable file`, `check the path, or run it through its interpreter: --exec "sh ${word}"`);
    return;
  }
  const { spawnSync } = await import('node:child_process');
  const found = spawnSync('/bin/sh', ['-c', `command -v -- ${word}`], { env: env as NodeJS.ProcessEnv, stdio: 'ignore' });
  if (found.status !== 0) throw new UsageError(`--exec: ${word} is not a command the shell finds`, 'check its name, or give its path');
}

/** Runs `command` for one change; a failure is a warning, never the end of the watch. */
export async function runExec(command: string, order: Order, deps: Deps, json: boolean): Promise<void> {
  const { io } = deps;
  const { spawn } = await import('node:child_process');
  const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>((resolve) => {
    const child = spawn(command, {
      shell: true,
      env: { ...io.env, SERVICE_ORDER_ID: order.id, SERVICE_ORDER_STATUS: order.status },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.once('error', (error) => resolve({ error }));
    child.stdout.setEncoding('utf8').on('data', (text: string) => (json ? io.stderr : io.stdout).write(text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => io.stderr.write(text));
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.stdin.on('error', () => {}); // the command need not read its input
    child.stdin.end(`${JSON.stringify(order)}\n`);
  });
  if ('error' in outcome) warn(io, `--exec could not run for ${order.id}: ${outcome.error.message}`);
  else if (outcome.signal) warn(io, `--exec was killed by ${outcome.signal} for ${order.id}`);
  else if (outcome.code !== 0) warn(io, `--exec failed for ${order.id} (${order.status}): exit code ${outcome.code}`);
}

// ---------------------------------------------------------------------------------------------
// The live table

/** Statuses after which nothing more is expected of an order (a completed one may still be disputed). */
const DONE: readonly OrderStatus[] = ['completed', 'cancelled', 'declined', 'refunded'];
/** Statuses in which the delivery deadline runs. */
const DUE: readonly OrderStatus[] = ['awaiting_confirmation', 'awaiting_delivery'];
/** Closed orders kept in the table's memory (the oldest are forgotten). */
const KEEP_CLOSED = 200;
/** How often the table is redrawn when nothing changes (relative times, the retry countdown). */
const REFRESH_MS = 1000;

/** What the live table shows. */
export interface WatchView {
  /** The latest version of each order seen during this watch, by id. */
  orders: Map<string, Order>;
  /** Where the watch started. */
  since: string;
  /** When a poll last succeeded (ms). */
  lastPollAt?: number | undefined;
  /** The last failed poll, until one succeeds. */
  failure?: { what: string; at: number; retryAt: number } | undefined;
  /** The last change, as a line for people. */
  lastEvent?: { at: number; text: string } | undefined;
  /** The watch has ended (the last frame). */
  stopped?: boolean | undefined;
}

/** The time of day, `HH:MM:SS` in this computer's time zone. */
const clock = (ms: number) => new Date(ms).toTimeString().slice(0, 8);

/** A duration for people: `45 s`, `12 min`, `2 h 5 min`, `3 d 4 h`. */
export function span(ms: number): string {
  const seconds = Math.floor(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** A deadline relative to now: `in 12 min`, `overdue 3 min`. */
export const dueIn = (at: number, now: number) => (at >= now ? `in ${span(at - now)}` : `overdue ${span(now - at)}`);

/** A past moment relative to now: `just now`, `12 s ago`, `3 min ago`. */
export const ago = (at: number, now: number) => (now - at < 5000 ? 'just now' : `${span(now - at)} ago`);

const isOpen = (order: Order) => !DONE.includes(order.status);
/** The delivery deadline that matters now (ms), or `undefined`. */
const deadline = (order: Order) => (order.deliverBy !== null && DUE.includes(order.status) ? Date.parse(order.deliverBy) : undefined);

/**
 * The table's order: open orders first (needing action first, then the soonest delivery deadline,
 * then the latest change), then closed ones, the latest change first.
 */
export function tableOrder(orders: Iterable<Order>): Order[] {
  const byUpdate = (a: Order, b: Order) => (a.updatedAt === b.updatedAt ? a.id.localeCompare(b.id) : a.updatedAt < b.updatedAt ? 1 : -1);
  const all = [...orders];
  const open = all.filter(isOpen).sort((a, b) => {
    if (a.needsAction !== b.needsAction) return a.needsAction ? -1 : 1;
    const da = deadline(a) ?? Infinity;
    const db = deadline(b) ?? Infinity;
    return da !== db ? da - db : byUpdate(a, b);
  });
  const closed = all.filter((o) => !isOpen(o)).sort(byUpdate);
  return [...open, ...closed];
}

/** A change as a line for people: `ord_… paid → awaiting_delivery`, `ord_… delivered`. */
export function describeChange(before: Order | undefined, after: Order): string {
  const action = after.needsAction ? ', needs action' : '';
  if (before === undefined) return after.status === 'awaiting_payment' ? `${after.id} new order (awaiting_payment)` : `${after.id} is ${after.status}${action}`;
  if (before.status === after.status) return `${after.id} updated (${after.status}${action})`;
  const verbs: Partial<Record<OrderStatus, string>> = {
    awaiting_confirmation: 'paid',
    awaiting_delivery: before.status === 'awaiting_confirmation' ? 'confirmed' : 'paid',
    delivered: 'delivered',
    completed: before.status === 'disputed' ? 'resolved' : 'completed',
    disputed: 'disputed',
    cancelled: 'cancelled',
    declined: 'declined',
    refunded: 'refunded',
  };
  const verb = verbs[after.status] ?? 'moved';
  return verb === after.status ? `${after.id} ${verb}` : `${after.id} ${verb} → ${after.status}`;
}

const HEADERS = ['ID', 'CARD', 'STATUS', 'ACTION', 'PRICE', 'DELIVER BY', 'UPDATED'];

/** One order as table cells. */
function orderCells(order: Order, now: number): Cell[] {
  const open = isOpen(order);
  const quiet = open ? undefined : 'dim';
  const due = deadline(order);
  return [
    { text: order.id, style: quiet },
    { text: `#${order.number}`, style: quiet },
    { text: order.status, style: quiet },
    order.needsAction ? { text: '● act', style: 'yellow' } : { text: '', style: quiet },
    { text: `${order.priceRub} RUB`, style: quiet },
    due === undefined ? { text: '-', style: quiet } : { text: dueIn(due, now), style: due < now ? 'red' : undefined },
    { text: ago(Date.parse(order.updatedAt), now), style: quiet },
  ];
}

/**
 * The frame of the live table: a header (counts, last poll), the column titles, the orders that fit
 * in `height` (the renderer's line budget) with `+N more` when some do not, and a footer (the last
 * change, how to stop).
 */
export function watchFrame(view: WatchView, screen: { now: number; height: number; color: boolean }): string[] {
  const { now, height, color } = screen;
  const orders = tableOrder(view.orders.values());
  const acting = orders.filter((o) => o.needsAction).length;

  const counts = `${orders.length} order${orders.length === 1 ? '' : 's'}${acting ? `, ${acting} need${acting === 1 ? 's' : ''} action` : ''}`;
  let poll: string;
  if (view.failure) {
    const retry = Math.max(0, Math.ceil((view.failure.retryAt - now) / 1000));
    const when = retry > 0 ? `retrying in ${retry} s` : 'retrying now';
    poll = paint(color, 'red', `poll failed at ${clock(view.failure.at)}, ${when}: ${view.failure.what}`);
  } else {
    poll = view.lastPollAt === undefined ? 'waiting for the first poll' : `last poll ${clock(view.lastPollAt)}`;
  }
  // The poll's state goes last: a long failure is what the width cuts.
  const header = `${paint(color, 'bold', 'Orders')}  ·  ${counts}  ·  ${poll}`;

  // Header, column titles and footer take three lines; `+N more` takes one when the list is cut.
  const room = Math.max(0, height - 3);
  const shown = orders.length > room ? orders.slice(0, Math.max(0, room - 1)) : orders;
  const rows: Array<Array<Cell | string>> = [HEADERS.map((text) => ({ text, style: 'bold' as const }))];
  for (const order of shown) rows.push(orderCells(order, now));
  const lines = [header, ...alignColumns(rows, color)];
  if (orders.length === 0) lines.push(paint(color, 'dim', `No order has changed since ${view.since} yet.`));
  const hidden = orders.slice(shown.length);
  if (hidden.length > 0) {
    const hiddenActing = hidden.filter((o) => o.needsAction).length;
    lines.push(paint(color, 'dim', `+${hidden.length} more${hiddenActing ? ` (${hiddenActing} need${hiddenActing === 1 ? 's' : ''} action)` : ''}`));
  }
  const last = view.lastEvent ? `${clock(view.lastEvent.at)} ${view.lastEvent.text}` : 'no changes yet';
  lines.push(`${paint(color, 'dim', last)}  ·  ${view.stopped ? 'stopped' : 'Ctrl-C to stop'}`);
  return lines;
}

/** The live table of one watch: keeps the view, redraws it on changes, on a timer and on resize. */
class LiveWatch {
  readonly view: WatchView;
  readonly #block: LiveBlock;
  readonly #color: boolean;
  #timer: ReturnType<typeof setInterval> | undefined;
  #pending: ReturnType<typeof setImmediate> | undefined;
  #undoResize: (() => void) | undefined;
  /** The next pause of the watch is a backoff after a failure, not the pause after a poll. */
  #backingOff = false;
  /** Ids of the closed orders in the view, the least recently changed first. */
  readonly #closed = new Set<string>();

  constructor(io: IO, since: string) {
    this.view = { orders: new Map(), since };
    this.#block = new LiveBlock(io.stdout as TerminalSink);
    this.#color = useColor(io);
  }

  start(signal: AbortSignal): void {
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), REFRESH_MS);
    this.#timer.unref?.();
    signal.addEventListener('abort', () => this.#stopTimers(), { once: true });
    this.#undoResize = this.#block.onResize(() => this.#draw(true));
  }

  /** A change arrived: it is the order's latest version; it also proves a poll worked. */
  add(order: Order): void {
    const { view } = this;
    const now = Date.now();
    view.lastEvent = { at: now, text: describeChange(view.orders.get(order.id), order) };
    view.orders.set(order.id, order);
    view.lastPollAt = now;
    view.failure = undefined;
    this.#closed.delete(order.id);
    if (!isOpen(order)) this.#closed.add(order.id);
    for (const id of this.#closed) {
      if (this.#closed.size <= KEEP_CLOSED) break;
      this.#closed.delete(id);
      view.orders.delete(id);
    }
    this.#schedule();
  }

  pollFailed(error: unknown, retry: WatchRetry): void {
    const now = Date.now();
    this.view.failure = { what: pollFailure(error), at: now, retryAt: now + retry.delayMs };
    this.#backingOff = true;
    this.#schedule();
  }

  /** The watch's pause: the one after a good poll marks the poll's time. */
  readonly sleep: Sleep = (ms, signal) => {
    if (this.#backingOff) {
      this.#backingOff = false;
    } else {
      this.view.lastPollAt = Date.now();
      this.view.failure = undefined;
      this.#schedule();
    }
    return abortableSleep(ms, signal);
  };

  /** Draws the last frame (it stays on screen) and gives the cursor back. */
  close(): void {
    this.#stopTimers();
    this.view.stopped = true;
    this.#block.close(this.#frame());
  }

  #frame(): string[] {
    return watchFrame(this.view, { now: Date.now(), height: this.#block.maxLines, color: this.#color });
  }

  #draw(force = false): void {
    if (this.#pending !== undefined) clearImmediate(this.#pending);
    this.#pending = undefined;
    this.#block.render(this.#frame(), force);
  }

  /** Changes of one poll arrive together: draw once after them. */
  #schedule(): void {
    this.#pending ??= setImmediate(() => this.#draw());
  }

  #stopTimers(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    if (this.#pending !== undefined) clearImmediate(this.#pending);
    this.#timer = this.#pending = undefined;
    this.#undoResize?.();
    this.#undoResize = undefined;
  }
}
