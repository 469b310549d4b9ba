/**
 * The seller's money and numbers:
 *   `seller payouts [list]` (scope `payouts`): payouts to you, newest first;
 *   `seller stats [--period today|week|month|all] [--sort revenue]` (scope `stats`): a summary with
 *     the revenue of every card;
 *   `seller clients [list] [--limit N --skip N]` (scope `stats`): your buyers under pseudonyms;
 *   `seller rating` (scope `stats`).
 * People get tables and summaries; `--json` prints the API's answer as it is.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import { STATS_PERIODS, type Rating, type Stats } from '../../sdk/contract/account.ts';
import type { Tolerant } from '../../sdk/open.ts';
import { labelOf } from '../lib/records.ts';
import { positiveInt, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { alsoAsList, listOptions, pageFlags, printList, type ListOptions } from '../lib/list.ts';
import { allItems } from '../lib/paging.ts';
import { note, printFields, printJson, printTable, say } from '../lib/output.ts';

type StatsView = Tolerant<z.output<typeof Stats>>;
type RatingView = Tolerant<z.output<typeof Rating>>;
type StatsPeriod = (typeof STATS_PERIODS)[number];

export type PayoutsOptions = ListOptions;

export interface StatsOptions {
  period?: StatsPeriod | undefined;
  sort?: 'revenue' | undefined;
}

export interface ClientsOptions {
  limit?: number | undefined;
  skip?: number | undefined;
  all: boolean;
}

/** 1234567 → "1 234 567 RUB" (money is whole roubles). */
export function rub(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  return `${sign}${String(Math.abs(amount)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} RUB`;
}

/** commander argParser for a count that may be 0 (`--skip`). */
export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('Must be a whole number, 0 or more.');
  return Number(value);
}

// ---------------------------------------------------------------------------------------------
// payouts

export const registerPayouts: Register = (command, app) => {
  listOptions(command, 'payouts')
    .addHelpText('after', '\nOne payout per week of completed orders, less the marketplace fee; only the last four digits of the account are shown.')
    .action(app.run(pageFlags, runPayouts));
  alsoAsList(command, app, pageFlags, runPayouts);
};

export async function runPayouts(opts: PayoutsOptions, deps: Deps): Promise<void> {
  await printList(deps, deps.client().payouts.list({ limit: opts.limit, cursor: opts.cursor }), {
    all: opts.all,
    what: 'payouts',
    empty: 'No payouts yet.',
    columns: [
      { header: 'ID', value: (p) => p.id },
      { header: 'AMOUNT', value: (p) => rub(p.amountRub) },
      { header: 'STATUS', value: (p) => p.status },
      { header: 'TO', value: (p) => (p.method === 'sbp' ? 'SBP' : p.accountTail ? `account …${p.accountTail}` : 'account') },
      { header: 'CREATED', value: (p) => p.createdAt },
      { header: 'PAID', value: (p) => p.paidAt },
    ],
    footer: (items) => {
      if (items.some((p) => p.status === 'failed')) note(deps.io, 'A failed payout waits for payout details: see `seller papers show`.');
    },
  });
}

// ---------------------------------------------------------------------------------------------
// stats

const PERIOD_LABEL: Record<StatsPeriod, string> = {
  today: 'today (since 00:00 UTC)',
  week: 'this week (since Monday 00:00 UTC)',
  month: 'this month (since the 1st, 00:00 UTC)',
  all: 'all time',
};

export const registerStats: Register = (command, app) => {
  command
    .addOption(new Option('--period <period>', 'which orders count, by payment time').choices(STATS_PERIODS).default('all'))
    .addOption(new Option('--sort <key>', 'order the cards by revenue, highest first (default: by number)').choices(['revenue']))
    .addHelpText('after', '\nWith a live key, real orders count; with a test key, test orders.\n\nExamples:\n  $ seller stats --period week --sort revenue\n  $ seller --json stats --period month')
    .action(app.run((o: StatsOptions): StatsOptions => ({ period: o.period, sort: o.sort }), runStats));
};

/** The readable summary of `seller stats`. */
export function renderStats(deps: Pick<Deps, 'io'>, stats: StatsView): void {
  say(deps.io, `Stats for ${labelOf(PERIOD_LABEL, stats.period)}`);
  printFields(deps.io, [
    ['Revenue', rub(stats.revenueRub)],
    ['Orders', `${stats.orders} paid, ${stats.completed} completed, ${stats.refunded} refunded`],
    ['Average order', rub(stats.averageRub)],
  ]);
  say(deps.io, '');
  if (stats.listings.length === 0) {
    say(deps.io, 'No card sold in this period.');
    return;
  }
  say(deps.io, 'Revenue per card:');
  const share = (revenue: number) => (stats.revenueRub > 0 ? `${Math.round((revenue * 100) / stats.revenueRub)}%` : '-');
  printTable(deps.io, stats.listings, [
    { header: 'CARD', value: (l) => `#${l.number}` },
    { header: 'REVENUE', value: (l) => rub(l.revenueRub) },
    { header: 'ORDERS', value: (l) => l.orders },
    { header: 'SHARE', value: (l) => share(l.revenueRub) },
  ]);
}

export async function runStats(opts: StatsOptions, deps: Deps): Promise<void> {
  const stats = await deps.client().stats.get({ period: opts.period, sort: opts.sort });
  if (wantsJson(deps)) printJson(deps.io, stats);
  else renderStats(deps, stats);
}

// ---------------------------------------------------------------------------------------------
// clients

export const registerClients: Register = (command, app) => {
  command
    .option('--limit <n>', 'clients per page (1-200)', positiveInt)
    .option('--skip <n>', 'skip this many first', nonNegativeInt)
    .option('--all', 'fetch every page')
    .addHelpText('after', '\nBuyers are shown under stable pseudonyms, biggest spenders first; no buyer identity is ever given out.')
    .action(app.run(clientsFlags, runClients));
  alsoAsList(command, app, clientsFlags, runClients);
};

const clientsFlags = (o: { limit?: number; skip?: number; all?: boolean }): ClientsOptions => ({ limit: o.limit, skip: o.skip, all: o.all === true });

export async function runClients(opts: ClientsOptions, deps: Deps): Promise<void> {
  const call = deps.client().clients.list({ limit: opts.limit, skip: opts.skip });
  let page: { items: Awaited<typeof call>['items']; total: number };
  if (opts.all) {
    const items = await allItems(call);
    page = { items, total: (opts.skip ?? 0) + items.length };
  } else {
    page = await call;
  }
  if (wantsJson(deps)) {
    printJson(deps.io, page);
    return;
  }
  printTable(
    deps.io,
    page.items,
    [
      { header: 'CLIENT', value: (c) => c.client },
      { header: 'ORDERS', value: (c) => c.orders },
      { header: 'SPENT', value: (c) => rub(c.spentRub) },
      { header: 'LAST ORDER', value: (c) => c.lastOrderAt },
    ],
    page.total === 0 ? 'No clients yet.' : `No clients here (there are ${page.total}).`,
  );
  const skip = opts.skip ?? 0;
  const shown = page.items.length;
  if (shown > 0 && !opts.all) {
    const end = skip + shown;
    note(deps.io, `Clients ${skip + 1}-${end} of ${page.total}.${end < page.total ? ` Next: --skip ${end}` : ''}`);
  }
}

// ---------------------------------------------------------------------------------------------
// rating

export const registerRating: Register = (command, app) => {
  command
    .addHelpText('after', '\nScore: the mean of the review stars; positive is 4-5 stars, negative 1-2. Dispute rate: orders ever disputed / paid orders.')
    .action(app.run(() => ({}), runRating));
};

export function describeRating(rating: RatingView): ReadonlyArray<readonly [string, string]> {
  return [
    ['Score', rating.score === null ? 'no reviews yet' : `${rating.score.toFixed(2)} / 5`],
    ['Reviews', `${rating.reviews} (${rating.positive} positive, ${rating.negative} negative)`],
    ['Completed orders', String(rating.completedOrders)],
    ['Dispute rate', `${(rating.disputeRate * 100).toFixed(1)}%`],
  ];
}

export async function runRating(_opts: object, deps: Deps): Promise<void> {
  const rating = await deps.client().rating.get();
  if (wantsJson(deps)) printJson(deps.io, rating);
  else printFields(deps.io, describeRating(rating));
}
