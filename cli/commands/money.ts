/**
 * The seller's money and numbers:
 *   `seller payouts` (scope `payouts`): payouts to you, newest first;
 *   `seller stats [--period today|week|month|all] [--sort revenue]` (scope `stats`): a summary with
 *     the revenue of every card;
 *   `seller clients [--limit N --skip N]` (scope `stats`): your buyers under pseudonyms;
 *   `seller rating` (scope `stats`).
 * People get tables and summaries; `--json` prints the API's answer as it is.
 */
import { cardNo, dateTime, money, percent, word } from '../i18n/format.ts';
import { language, t } from '../i18n/index.ts';
import { InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import { STATS_PERIODS, type Rating, type Stats } from '../../sdk/contract/account.ts';
import type { Tolerant } from '../../sdk/open.ts';
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

/** 1234567 → "1 234 567 RUB" (en), "1 234 567 ₽" (ru); money is whole roubles. */
export function rub(amount: number): string {
  if (language() === 'ru') return money(amount);
  const sign = amount < 0 ? '-' : '';
  // i18next-instrument-ignore-next-line: the English form the CLI always printed (Russian goes through Intl above)
  return `${sign}${String(Math.abs(amount)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} RUB`;
}

/** commander argParser for a count that may be 0 (`--skip`). */
export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(t('money.mustBeAWhole'));
  return Number(value);
}

// ---------------------------------------------------------------------------------------------
// payouts

export const registerPayouts: Register = (command, app) => {
  listOptions(command, t('money.payouts'))
    .addHelpText('after', t('money.onePayoutPerWeek'))
    .action(app.run(pageFlags, runPayouts));
  alsoAsList(command, app, pageFlags, runPayouts);
};

export async function runPayouts(opts: PayoutsOptions, deps: Deps): Promise<void> {
  await printList(deps, deps.client().payouts.list({ limit: opts.limit, cursor: opts.cursor }), {
    all: opts.all,
    what: t('money.payouts'),
    empty: t('money.noPayoutsYet'),
    columns: [
      { header: t('money.id'), value: (p) => p.id },
      { header: t('money.amount'), value: (p) => rub(p.amountRub) },
      { header: t('money.status'), value: (p) => word('payoutStatus', p.status) },
      { header: t('money.to'), value: (p) => (p.method === 'sbp' ? 'SBP' : p.accountTail ? t('money.account', { accountTail: p.accountTail }) : t('money.accountPlain')) },
      { header: t('money.created'), value: (p) => dateTime(p.createdAt) },
      { header: t('money.paid'), value: (p) => dateTime(p.paidAt) },
    ],
    footer: (items) => {
      if (items.some((p) => p.status === 'failed')) note(deps.io, t('money.aFailedPayoutWaits'));
    },
  });
}

// ---------------------------------------------------------------------------------------------
// stats

/** The words of a period (`today (since 00:00 UTC)`); one the service adds is shown as it came. */
const periodLabel = (period: string): string => ((STATS_PERIODS as readonly string[]).includes(period) ? t(`money.period.${period}`) : period);

export const registerStats: Register = (command, app) => {
  command
    .addOption(new Option('--period <period>', t('money.whichOrdersCountBy')).choices(STATS_PERIODS).default('all'))
    .addOption(new Option('--sort <key>', t('money.orderTheCardsBy')).choices(['revenue']))
    .addHelpText('after', t('money.withALiveKey'))
    .action(app.run((o: StatsOptions): StatsOptions => ({ period: o.period, sort: o.sort }), runStats));
};

/** The readable summary of `seller stats`. */
export function renderStats(deps: Pick<Deps, 'io'>, stats: StatsView): void {
  say(deps.io, t('money.statsFor', { period: periodLabel(stats.period) }));
  printFields(deps.io, [
    [t('money.revenue'), rub(stats.revenueRub)],
    [t('money.orders'), t('money.paidCompletedRefunded', { orders: stats.orders, completed: stats.completed, refunded: stats.refunded })],
    [t('money.averageOrder'), rub(stats.averageRub)],
  ]);
  say(deps.io, '');
  if (stats.listings.length === 0) {
    say(deps.io, t('money.noCardSoldIn'));
    return;
  }
  say(deps.io, t('money.revenuePerCard'));
  const share = (revenue: number) => (stats.revenueRub > 0 ? percent(Math.round((revenue * 100) / stats.revenueRub)) : '-');
  printTable(deps.io, stats.listings, [
    { header: t('money.card'), value: (l) => cardNo(l.number) },
    { header: t('money.revenue2'), value: (l) => rub(l.revenueRub) },
    { header: t('money.orders2'), value: (l) => l.orders },
    { header: t('money.share'), value: (l) => share(l.revenueRub) },
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
    .option('--limit <n>', t('money.clientsPerPage'), positiveInt)
    .option('--skip <n>', t('money.skipThisManyFirst'), nonNegativeInt)
    .option('--all', t('money.fetchEveryPage'))
    .addHelpText('after', t('money.buyersAreShownUnder'))
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
      { header: t('money.client'), value: (c) => c.client },
      { header: t('money.orders2'), value: (c) => c.orders },
      { header: t('money.spent'), value: (c) => rub(c.spentRub) },
      { header: t('money.lastOrder'), value: (c) => dateTime(c.lastOrderAt) },
    ],
    page.total === 0 ? t('money.noClientsYet') : t('money.noClientsHere', { total: page.total }),
  );
  const skip = opts.skip ?? 0;
  const shown = page.items.length;
  if (shown > 0 && !opts.all) {
    const end = skip + shown;
    note(deps.io, t(end < page.total ? 'money.clientsOfNext' : 'money.clientsOf', { first: skip + 1, end, total: page.total }));
  }
}

// ---------------------------------------------------------------------------------------------
// rating

export const registerRating: Register = (command, app) => {
  command
    .addHelpText('after', t('money.scoreTheMeanOf'))
    .action(app.run(() => ({}), runRating));
};

export function describeRating(rating: RatingView): ReadonlyArray<readonly [string, string]> {
  return [
    [t('money.score'), rating.score === null ? t('money.noReviewsYet') : `${rating.score.toFixed(2)} / 5`],
    [t('money.reviews'), t('money.positiveNegative', { reviews: rating.reviews, positive: rating.positive, negative: rating.negative })],
    [t('money.completedOrders'), String(rating.completedOrders)],
    [t('money.disputeRate'), percent(rating.disputeRate * 100, 1)],
  ];
}

export async function runRating(_opts: object, deps: Deps): Promise<void> {
  const rating = await deps.client().rating.get();
  if (wantsJson(deps)) printJson(deps.io, rating);
  else printFields(deps.io, describeRating(rating));
}
