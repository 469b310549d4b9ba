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
 *
 * This file is the command; `--exec` is ./orders-watch-exec.ts, the live table's frame
 * ./orders-watch-view.ts, and the table on the terminal ./orders-watch-live.ts.
 */
import { dateTime, rubles, word, yesNo } from '../i18n/format.ts';
import { mayCarryMessage, newBuyerMessage } from './orders-watch-messages.ts';
import { t } from '../i18n/index.ts';
import type { Command } from 'commander';
import type { Order, OrderStatus } from '../lib/records.ts';
import { fileWatermarkStore, type WatchRetry } from '../../sdk/watch.ts';
import type { App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { canRedraw } from '../lib/live-table.ts';
import { note, warn } from '../lib/output.ts';
import { orderRow, parseSince, positiveSeconds, sinceByServiceClock, sinceFromNow, sinceHelp } from './orders-common.ts';
import { checkExec, runExec } from './orders-watch-exec.ts';
import { LiveWatch } from './orders-watch-live.ts';
import { errorLine } from '../lib/errors.ts';

export interface WatchCliOptions {
  /** API timestamp to start from when no watermark is stored. */
  since: string;
  /** Whether `--since` was given (a stored watermark overrides it: say so). */
  sinceGiven: boolean;
  /** `--since` as given when it counts back from now (`now`, `2h`): read again by the service's clock. */
  sinceFromNow?: string | undefined;
  intervalSeconds: number;
  stateFile?: string | undefined;
  exec?: string | undefined;
}

export function registerWatch(noun: Command, app: App): void {
  noun
    .command('watch')
    .description(t('ordersWatch.streamNewAndChanged'))
    .option('--since <time>', t('ordersWatch.startFromThisTime', { help: sinceHelp() }), 'now')
    .option('--interval <seconds>', t('ordersWatch.secondsBetweenPolls'), positiveSeconds, 5)
    .option('--state-file <path>', t('ordersWatch.keepThePositionHere'))
    .option('--exec <command>', t('ordersWatch.runAShellCommand'))
    .addHelpText('after', t('ordersWatch.after'))
    .action(
      app.run(
        (o: { since: string; interval: number; stateFile?: string; exec?: string }): WatchCliOptions => ({
          since: parseSince(o.since),
          sinceGiven: o.since !== 'now',
          sinceFromNow: sinceFromNow(o.since) ? o.since : undefined,
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
  // `now` is the service's now, not this computer's: after `sandbox clock advance` they differ by hours.
  const since = !stored && opts.sinceFromNow !== undefined ? await sinceByServiceClock(client, opts.sinceFromNow, opts.sinceFromNow.trim() === 'now') : opts.since;
  if (stored) {
    const ignored = opts.sinceGiven ? t('ordersWatch.sinceIsIgnoredWhile') : '';
    note(io, t('ordersWatch.resumingFromChangesSince', { stateFile: opts.stateFile, since: dateTime(stored.since), ignored }));
  } else {
    note(io, t('ordersWatch.watchingOrdersChangedSince', { since: dateTime(since) }));
  }
  // The live table owns the terminal: nothing else may write there while it is drawn.
  const live = !json && opts.exec === undefined && canRedraw(io) ? new LiveWatch(io, stored?.since ?? since) : undefined;
  const onError = (error: unknown, retry: WatchRetry) => {
    if (live) live.pollFailed(error, retry);
    else warn(io, t('ordersWatch.pollingFailedRetryingIn', { why: errorLine(error), span: t('units.seconds', { n: Math.ceil(retry.delayMs / 1000) }) }));
  };
  const seen = new Map<string, Order>();
  // Piped lines get their column titles once, before the first (as `orders list` piped does).
  let titled = false;
  const changes = client.orders.watch({
    since,
    intervalMs: opts.intervalSeconds * 1000,
    signal,
    store,
    onError,
    ...(live ? { sleep: live.sleep } : {}),
  });
  live?.start(signal);
  try {
    for await (const order of changes) {
      const before = seen.get(order.id);
      const people = live !== undefined || (!json && io.stdoutIsTTY);
      const message = people && mayCarryMessage(before, order) ? await newBuyerMessage(client, order, before!.updatedAt) : undefined;
      if (live) live.add(order, message);
      else if (json) io.stdout.write(`${JSON.stringify(order)}\n`);
      else {
        if (!titled && !io.stdoutIsTTY) io.stdout.write(`${PIPED_COLUMNS.map((key) => t(`watch.header.${key}`)).join('\t')}\n`);
        titled = true;
        printChange(deps, order, before?.status, message);
      }
      seen.set(order.id, order);
      if (opts.exec !== undefined) await runExec(opts.exec, order, deps, json);
    }
  } finally {
    live?.close();
  }
}

/** The columns of a piped line, titled from `watch.header.*`. */
const PIPED_COLUMNS = ['updated', 'id', 'card', 'status', 'needsAction', 'priceRub'] as const;

/** One line per change; padded on a terminal (with the previous status when known), tab-separated when piped. */
function printChange(deps: Deps, order: Order, before: OrderStatus | undefined, message?: string): void {
  const row = orderRow(order);
  if (!deps.io.stdoutIsTTY) {
    const cells = [row.updated, row.id, order.number, row.status, yesNo(order.needsAction), rubles(order.priceRub)];
    deps.io.stdout.write(`${cells.join('\t')}\n`);
    return;
  }
  const status = before !== undefined && before !== order.status ? `${word('orderStatus', before)} → ${row.status}` : row.status;
  const line = [row.updated, row.id.padEnd(16), row.card.padEnd(6), status.padEnd(24), row.action.padEnd(12), row.price];
  deps.io.stdout.write(`${line.join('  ').trimEnd()}\n`);
  // The buyer's own words: never translated.
  if (message !== undefined) deps.io.stdout.write(`  ${t('ordersWatch.buyerWrote', { text: message })}\n`);
}
