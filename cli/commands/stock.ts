/**
 * `seller stock show|refill`: the auto-delivery stock of a card (scope `stock`). The items are
 * secrets: the service never shows them back, only counts.
 *
 * `refill` reads one item per line (a file or stdin), skips blank lines, strips a trailing `\r`,
 * checks every item's length before sending anything, and sends batches of `STOCK_BATCH_MAX`.
 * Each batch's Idempotency-Key is derived from the card, the batch's place and its items, so
 * running the same command again after a failure replays the batches that went through (nothing
 * is added twice) and sends the rest; items already in stock are skipped by the server anyway.
 */
import { createHash } from 'node:crypto';
import { STOCK_BATCH_MAX, STOCK_ITEM_MAX } from '../../sdk/contract/index.ts';
import { positiveInt, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import type { IO } from '../lib/io.ts';
import { note, printFields, printJson, say } from '../lib/output.ts';
import { readTextInput } from './cards-create.ts';

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

export async function runStockRefill(opts: StockRefillOptions, deps: Deps): Promise<void> {
  if (opts.file === undefined) {
    throw new UsageError('--file is required', 'give a file with one item per line, or --file - to read stdin');
  }
  const source = opts.file === '-' ? 'stdin' : opts.file;
  const { items, lines } = parseStockItems(await readTextInput(deps, opts.file));
  if (items.length === 0) throw new UsageError(`${source} has no items (blank lines are skipped)`);
  checkLengths(items, lines, source);

  const client = deps.client();
  const batches = stockBatches(opts.number, items);
  const bar = progress(deps.io, items.length, batches.length);
  let added = 0;
  let duplicates = 0;
  let free = 0;
  let sent = 0;
  try {
    for (const batch of batches) {
      const answer = await client.stock.refill(opts.number, { items: batch.items }, { idempotencyKey: batch.key });
      added += answer.added;
      duplicates += answer.duplicates;
      free = answer.free;
      sent += batch.items.length;
      bar.step(sent);
    }
  } catch (error) {
    bar.end();
    if (sent > 0) {
      note(deps.io, `${sent} of ${items.length} items went through before the failure (${added} added).`);
    }
    note(deps.io, 'Run the same command again to send the rest: finished batches are not added twice.');
    throw error;
  }
  bar.end();

  if (wantsJson(deps)) {
    printJson(deps.io, { number: opts.number, added, duplicates, free });
    return;
  }
  const dup = duplicates === 0 ? '' : ` (${duplicates} ${duplicates === 1 ? 'duplicate' : 'duplicates'} skipped)`;
  say(deps.io, `Added ${added} ${added === 1 ? 'item' : 'items'} to card ${opts.number}${dup}; free stock: ${free}.`);
}
