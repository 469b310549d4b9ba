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
import { t } from '../i18n/index.ts';
import { createHash } from 'node:crypto';
import { STOCK_BATCH_MAX, STOCK_ITEM_MAX } from '../../sdk/contract/index.ts';
import { positiveInt, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, EXIT, mayPassAgain, UsageError } from '../lib/errors.ts';
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
    .description(t('stock.showTheFreeAnd'))
    .argument('<number>', t('stock.cardNumber'), positiveInt)
    .action(app.run((number: number): StockShowOptions => ({ number }), runStockShow));
  noun
    .command('refill')
    .description(t('stock.addItemsOnePer'))
    .argument('<number>', t('stock.cardNumber'), positiveInt)
    .option('-f, --file <path>', t('stock.fileWithOneItem'))
    .addHelpText(
      'after',
      t('stock.blankLinesAreSkipped') +
        t('stock.itemsGoInBatches', { STOCK_BATCH_MAX }) +
        t('stock.examplesSellerStockRefill'),
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
    [t('stock.card'), stock.number],
    [t('stock.free'), stock.free],
    [t('stock.issued'), stock.issued],
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
  const more = long.length > 10 ? t('stock.andMore', { count: long.length - 10 }) : '';
  throw new UsageError(
    t('stock.tooLong', { source, count: long.length, shown, more, max: STOCK_ITEM_MAX }),
    t('stock.aStockItemIs', { STOCK_ITEM_MAX }),
  );
}

/** Progress of the batches on stderr: a bar on a terminal, a line per batch otherwise. */
function progress(io: IO, total: number, batches: number): { step(done: number): void; end(): void } {
  if (batches < 2) return { step: () => {}, end: () => {} };
  if (!io.stderrIsTTY) return { step: (done) => note(io, t('stock.sentItems', { done, total })), end: () => {} };
  const width = 30;
  let drawn = false;
  return {
    step: (done) => {
      const filled = Math.round((done / total) * width);
      io.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${t('stock.progress', { done, total })}`);
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


/** Exit code of a run stopped by Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = EXIT.interrupted;

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
    throw new UsageError(t('stock.fileIsRequired'), t('stock.giveAFileWith'));
  }
  const source = opts.file === '-' ? 'stdin' : opts.file;
  const { items, lines } = parseStockItems(await readTextInput(deps, opts.file, '--file'));
  if (items.length === 0) throw new UsageError(t('stock.hasNoItemsBlank', { source }));
  checkLengths(items, lines, source);

  const client = deps.client();
  const batches = stockBatches(opts.number, items);
  const bar = progress(deps.io, items.length, batches.length);
  let added = 0;
  let duplicates = 0;
  let alreadySent = 0;
  let sent = 0;
  const rerun = t('stock.runTheSameCommand');
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
          t('stock.interruptedTheServerConfirmed', { sent, count: items.length, added, duplicates, alreadySent }) +
            t('stock.theBatchOfIn', { length: batch.items.length }),
        );
        note(deps.io, rerun);
        throw new CliError(t('stock.interrupted'), EXIT_INTERRUPTED);
      }
      if (sent > 0) note(deps.io, t('stock.ofItemsWentThrough', { sent, length: items.length, added }));
      // Running again helps only where the call may pass the next time (no answer, a 5xx, a rate limit).
      if (mayPassAgain(error)) note(deps.io, rerun);
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
  if (duplicates > 0) notes.push(t('stock.duplicatesSkipped', { count: duplicates }));
  if (alreadySent > 0) {
    notes.push(t('stock.alreadySent', { count: alreadySent }));
  }
  const detail = notes.length === 0 ? '' : ` (${notes.join('; ')})`;
  say(
    deps.io,
    t('stock.addedToCardStock', { count: added, number: opts.number, detail, free: stock.free, issued: stock.issued }),
  );
}
