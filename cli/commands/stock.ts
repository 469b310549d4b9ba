/**
 * `seller stock show|refill`: the auto-delivery stock of a card (scope `stock`). The items are
 * secrets: the service never shows them back, only counts.
 *
 * `refill` reads one item per line (a file or stdin), skips blank lines, strips a trailing `\r`,
 * checks every item's length before sending anything, and sends batches of `STOCK_BATCH_MAX`.
 * Each batch's Idempotency-Key is derived from the card, the batch's place and its items, so
 * running the same command again after a failure replays the batches that went through (nothing
 * is added twice) and sends the rest; items already in stock are skipped by the server anyway.
 * A replayed batch (the server answers `Idempotent-Replayed: true` with the stored answer of an
 * earlier run) is counted as "already sent", never as added now; the counts printed at the end are
 * read from the stock after the run, not taken from (possibly replayed) answers.
 *
 * Ctrl-C (SIGINT) stops after aborting the batch in flight and says how many items the server
 * confirmed, that the interrupted batch may or may not have reached it, and that running the same
 * command again finishes the job (exit 130).
 */
import { createHash } from 'node:crypto';
import { STOCK_BATCH_MAX, STOCK_ITEM_MAX } from '../../sdk/contract/index.ts';
import { positiveInt, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, UsageError } from '../lib/errors.ts';
import type { IO } from '../lib/io.ts';
import { note, printFields, printJson, say } from '../lib/output.ts';
import { readTextInput } from '../lib/input.ts';

export interface StockShowOptions {
  number: number;
}

export interface StockRefillOptions {
  number: number;
  file?: string | undefined;
}

export const register: Register = (noun, app) => {
  noun
    .command('show')
    .description("Show the free and issued counts of a card's auto-delivery stock")
    .argument('<number>', 'card number', positiveInt)
    .action(app.run((number: number): StockShowOptions => ({ number }), runStockShow));
  noun
    .command('refill')
    .description("Add items (one per line) to a card's auto-delivery stock; safe to run again")
    .argument('<number>', 'card number', positiveInt)
    .option('-f, --file <path>', 'file with one item per line; - reads stdin')
    .addHelpText(
      'after',
      `\nBlank lines are skipped; items already in stock are counted as duplicates, not added.\n` +
        `Items go in batches of ${STOCK_BATCH_MAX}; after a failure, run the same command again.\n\n` +
        'Examples:\n  $ seller stock refill 1001 --file codes.txt\n  $ generate-codes | seller stock refill 1001 --file -',
    )
    .action(app.run((number: number, o: { file?: string }): StockRefillOptions => ({ number, file: o.file }), runStockRefill));
};

export async function runStockShow(opts: StockShowOptions, deps: Deps): Promise<void> {
  const stock = await deps.client().stock.get(opts.number);
  if (wantsJson(deps)) {
    printJson(deps.io, stock);
    return;
  }
  printFields(deps.io, [
    ['Card', stock.number],
    ['Free', stock.free],
    ['Issued', stock.issued],
  ]);
}

/** The items of a refill text: one per line, blank lines skipped, a trailing `\r` stripped. */
export function parseStockItems(text: string): { items: string[]; lines: number[] } {
  const items: string[] = [];
  const lines: number[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((raw, index) => {
      const item = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (item.trim() === '') return;
      items.push(item);
      lines.push(index + 1);
    });
  return { items, lines };
}

/** `stock-<number>-<batch index>-<first 32 hex of sha256 of the items joined by \n>`. */
export function batchKey(number: number, index: number, items: readonly string[]): string {
  const digest = createHash('sha256').update(items.join('\n')).digest('hex').slice(0, 32);
  return `stock-${number}-${index}-${digest}`;
}

/** The batches of a refill, each with its deterministic Idempotency-Key. */
export function stockBatches(number: number, items: readonly string[], size = STOCK_BATCH_MAX): Array<{ items: string[]; key: string }> {
  const batches: Array<{ items: string[]; key: string }> = [];
  for (let start = 0; start < items.length; start += size) {
    const slice = items.slice(start, start + size);
    batches.push({ items: slice, key: batchKey(number, batches.length, slice) });
  }
  return batches;
}

/** Refuses items over the length limit, naming their line numbers (nothing is sent). */
function checkLengths(items: readonly string[], lines: readonly number[], source: string): void {
  const long = items.flatMap((item, i) => (item.length > STOCK_ITEM_MAX ? [lines[i]!] : []));
  if (long.length === 0) return;
  const shown = long.slice(0, 10).join(', ');
  const more = long.length > 10 ? ` and ${long.length - 10} more` : '';
  throw new UsageError(
    `${source}: ${long.length === 1 ? 'line' : 'lines'} ${shown}${more} ${long.length === 1 ? 'is' : 'are'} longer than ${STOCK_ITEM_MAX} characters (nothing was sent)`,
    `a stock item is at most ${STOCK_ITEM_MAX} characters`,
  );
}

/** Progress of the batches on stderr: a bar on a terminal, a line per batch otherwise. */
function progress(io: IO, total: number, batches: number): { step(done: number): void; end(): void } {
  if (batches < 2) return { step: () => {}, end: () => {} };
  if (!io.stderrIsTTY) return { step: (done) => note(io, `sent ${done}/${total} items`), end: () => {} };
  const width = 30;
  let drawn = false;
  return {
    step: (done) => {
      const filled = Math.round((done / total) * width);
      io.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} items`);
      drawn = true;
    },
    end: () => {
      if (drawn) io.stderr.write('\n');
    },
  };
}

/** What one batch did, from the refill answer and whether it was replayed. */
interface BatchOutcome {
  added: number;
  duplicates: number;
  replayed: boolean;
}

/** Sends one batch with its key; a replayed answer is an earlier run's, not this one's. */
async function sendBatch(deps: Deps, number: number, batch: { items: string[]; key: string }, signal: AbortSignal): Promise<BatchOutcome> {
  const client = deps.client();
  const answer = await client.request({
    method: 'POST',
    path: `/api/v1/listings/${number}/stock`,
    body: { items: batch.items },
    idempotencyKey: batch.key,
    signal,
  });
  const body = (answer.body ?? {}) as { added?: unknown; duplicates?: unknown };
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return { added: count(body.added), duplicates: count(body.duplicates), replayed: answer.replayed };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Exit code of a run stopped by Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

export async function runStockRefill(opts: StockRefillOptions, deps: Deps): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  try {
    await refillStock(opts, deps, controller.signal);
  } finally {
    process.off('SIGINT', stop);
  }
}

/** The refill itself, stopped by `signal` (Ctrl-C in {@link runStockRefill}). */
export async function refillStock(opts: StockRefillOptions, deps: Deps, signal: AbortSignal): Promise<void> {
  if (opts.file === undefined) {
    throw new UsageError('--file is required', 'give a file with one item per line, or --file - to read stdin');
  }
  const source = opts.file === '-' ? 'stdin' : opts.file;
  const { items, lines } = parseStockItems(await readTextInput(deps, opts.file, '--file'));
  if (items.length === 0) throw new UsageError(`${source} has no items (blank lines are skipped)`);
  checkLengths(items, lines, source);

  const client = deps.client();
  const batches = stockBatches(opts.number, items);
  const bar = progress(deps.io, items.length, batches.length);
  let added = 0;
  let duplicates = 0;
  let alreadySent = 0;
  let sent = 0;
  const rerun = 'Run the same command again to finish the job: batches that went through are not added twice.';
  for (const batch of batches) {
    let outcome: BatchOutcome;
    try {
      if (signal.aborted) throw signal.reason;
      outcome = await sendBatch(deps, opts.number, batch, signal);
    } catch (error) {
      bar.end();
      if (signal.aborted) {
        note(
          deps.io,
          `Interrupted: the server confirmed ${sent} of ${plural(items.length, 'item', 'items')} (${added} added now, ${duplicates} duplicates, ${alreadySent} already sent before); ` +
            `the batch of ${batch.items.length} in flight may or may not have reached it.`,
        );
        note(deps.io, rerun);
        throw new CliError('interrupted', EXIT_INTERRUPTED);
      }
      if (sent > 0) note(deps.io, `${sent} of ${items.length} items went through before the failure (${added} added).`);
      note(deps.io, rerun);
      throw error;
    }
    if (outcome.replayed) alreadySent += batch.items.length;
    else {
      added += outcome.added;
      duplicates += outcome.duplicates;
    }
    sent += batch.items.length;
    bar.step(sent);
  }
  bar.end();

  // The counts now, read back: replayed answers carry the stock of the run that stored them.
  const stock = await client.stock.get(opts.number);
  if (wantsJson(deps)) {
    printJson(deps.io, { number: opts.number, added, duplicates, alreadySent, free: stock.free, issued: stock.issued });
    return;
  }
  const notes: string[] = [];
  if (duplicates > 0) notes.push(`${plural(duplicates, 'duplicate', 'duplicates')} skipped`);
  if (alreadySent > 0) {
    notes.push(`${plural(alreadySent, 'item was', 'items were')} already sent by an earlier run of this command`);
  }
  const detail = notes.length === 0 ? '' : ` (${notes.join('; ')})`;
  say(
    deps.io,
    `Added ${plural(added, 'item', 'items')} to card ${opts.number}${detail}; stock now: ${stock.free} free, ${stock.issued} issued.`,
  );
}
