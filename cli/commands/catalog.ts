/**
 * `seller catalog list|show|price|demand|request|requests`: the service catalogue (read-only for
 * sellers; scope `catalog`), its usual prices and demand, and requests for missing positions.
 */
import { editDistance } from '../lib/edit-distance.ts';
import { both, dateTime, days, duration, either, money, named, rubles, word } from '../i18n/format.ts';
import { t } from '../i18n/index.ts';
import { Option } from 'commander';
import { PRODUCT_TYPES } from '../../sdk/contract/constants.ts';
import type { Position, ProductType } from '../lib/records.ts';
import type { SellerClient } from '../../sdk/client.ts';
import { NotFoundError } from '../../sdk/errors.ts';
import { openOption, positiveInt, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, EXIT, UsageError } from '../lib/errors.ts';
import { listOptions, pageFlags, printList, type ListOptions } from '../lib/list.ts';
import { note, printFields, printJson, printTable, say } from '../lib/output.ts';
import { flagOrAsk } from '../lib/prompts.ts';
import { allItems } from '../lib/paging.ts';

export interface CatalogListOptions extends ListOptions {
  search?: string | undefined;
  category?: string | undefined;
}

export const register: Register = (noun, app) => {
  listOptions(
    noun
      .command('list')
      .alias('ls')
      .description(t('catalog.listCataloguePositions'))
      .option('--search <text>', t('catalog.onlyPositionsWhoseSlug'))
      .option('--category <category>', t('catalog.onlyThisCategory')),
    t('things.positions'),
  ).action(
    app.run(
      (o: Omit<CatalogListOptions, 'all'> & { all?: boolean }): CatalogListOptions => ({ ...o, all: o.all === true }),
      runCatalogList,
    ),
  );
  noun
    .command('show')
    .description(t('catalog.showAPositionProduct'))
    .argument('<slug>', t('catalog.positionSlugAsIn'))
    .action(app.run((slug: string) => ({ slug }), runCatalogShow));
  noun
    .command('price')
    .description(t('catalog.showTheUsualPrice'))
    .option('--service <slug>', t('catalog.positionSlug'))
    .addOption(openOption('--type <productType>', t('catalog.productType'), PRODUCT_TYPES))
    .action(app.run((o: { service?: string; type?: ProductType }): CatalogPriceOptions => ({ service: o.service, type: o.type }), runCatalogPrice));
  noun
    .command('demand')
    .description(t('catalog.showTheMostOrdered'))
    .option('--service <slug>', t('catalog.onlyThisPosition'))
    .addOption(openOption('--type <productType>', t('catalog.onlyThisProductType'), PRODUCT_TYPES))
    .option('--top <n>', t('catalog.howManyRows'), positiveInt)
    .action(app.run((o: CatalogDemandOptions) => o, runCatalogDemand));
  noun
    .command('request')
    .description(t('catalog.askTheMarketplaceTo'))
    .option('--title <title>', t('catalog.whatToAddE'))
    .option('--category <category>', t('catalog.categoryEGSoftware'))
    .option('--url <url>', t('catalog.theServiceSWeb'))
    .option('--comment <text>', t('catalog.anythingTheReviewerShould'))
    .action(app.run((o: CatalogRequestOptions) => o, runCatalogRequest));
  listOptions(noun.command('requests').description(t('catalog.listYourRequestsFor')), t('things.requests')).action(
    app.run(pageFlags, runCatalogRequests),
  );
};

export interface CatalogPriceOptions {
  service?: string | undefined;
  type?: ProductType | undefined;
}

export interface CatalogDemandOptions {
  service?: string | undefined;
  type?: ProductType | undefined;
  top?: number | undefined;
}

export interface CatalogRequestOptions {
  title?: string | undefined;
  category?: string | undefined;
  url?: string | undefined;
  comment?: string | undefined;
}

export type CatalogRequestsOptions = ListOptions;

export async function runCatalogList(opts: CatalogListOptions, deps: Deps): Promise<void> {
  const query = { q: opts.search, category: opts.category, limit: opts.limit, cursor: opts.cursor };
  await printList(deps, deps.client().catalog.list(query), {
    all: opts.all,
    what: t('things.positions'),
    empty: t('catalog.noPositionsMatch'),
    columns: [
      { header: t('catalog.slug'), value: (p) => p.slug },
      { header: t('catalog.title'), value: (p) => p.title },
      { header: t('catalog.category'), value: (p) => word('category', p.category) },
      { header: t('catalog.productTypes'), value: (p) => p.productTypes.map((type) => word('productType', type)) },
    ],
  });
}


/**
 * The slugs nearest to a mistyped one: within a third of its length in edits (at least 1, at most 3),
 * or containing it / contained in it, nearest first, at most three.
 */
export function nearestSlugs(slug: string, slugs: readonly string[]): string[] {
  const typed = slug.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  return slugs
    .map((candidate) => {
      const distance = editDistance(typed, candidate);
      const near = distance <= limit || (typed.length >= 3 && (candidate.includes(typed) || typed.includes(candidate)));
      return { candidate, distance, near };
    })
    .filter((c) => c.near)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map((c) => c.candidate);
}

/**
 * The catalogue position of `slug`; an unknown slug is an error that names the nearest slugs
 * (the catalogue is the same for every seller, so "not yours" is never the reason).
 */
export async function positionOf(client: SellerClient, slug: string, what = t('catalog.position')): Promise<Position> {
  try {
    return await client.catalog.get(slug);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    // Without the list, no suggestion; the error below still says what is wrong.
    const slugs = (await allItems(client.catalog.list({ limit: 100 })).catch(() => [])).map((position) => position.slug);
    const near = nearestSlugs(slug, slugs);
    throw new CliError(
      t('catalog.noInTheCatalogue', { what, slug }),
      EXIT.error,
      near.length > 0
        ? t('catalog.didYouMeanSeller', { near: either(near.map((s) => `"${s}"`)) })
        : t('catalog.findTheSlugWith'),
    );
  }
}

export async function runCatalogShow(opts: { slug: string }, deps: Deps): Promise<void> {
  const position = await positionOf(deps.client(), opts.slug);
  if (wantsJson(deps)) printJson(deps.io, position);
  else printPosition(deps, position);
}

function printPosition(deps: Deps, p: Position): void {
  say(deps.io, `${p.title} (${p.slug})`);
  printFields(deps.io, [
    [t('catalog.category2'), word('category', p.category)],
    [t('catalog.tariffs'), p.tariffs.map((t) => `${t.slug} (${t.title})`)],
    // In minutes, the unit of `--sla`.
    [t('catalog.slaChoices'), p.slaChoices.map((m) => t('units.minutes', { n: m }))],
    [t('catalog.guarantee'), p.guaranteeChoices.map(days)],
    ...(p.creditsTypes ? [[t('catalog.creditsTypes'), p.creditsTypes] as const] : []),
  ]);
  say(deps.io, t('catalog.productTypesAndTheir'));
  // In words with the value to type (`подписка (subscription)`): `--type` and `--delivery` take the values.
  const types = p.productTypes.map((type) => named('productType', type));
  const width = Math.max(...types.map((type) => type.length));
  p.productTypes.forEach((type, i) => {
    const methods = (p.deliveryMethods as Record<string, unknown>)[type];
    say(deps.io, `  ${types[i]!.padEnd(width)}  ${Array.isArray(methods) ? methods.map((m: string) => named('deliveryMethod', m)).join(', ') : ''}`);
  });
}

/** 15 → "15 min", 90 → "1 h 30 min", 1440 → "1 d". */
export function minutes(total: number): string {
  return duration(total);
}

export async function runCatalogPrice(opts: CatalogPriceOptions, deps: Deps): Promise<void> {
  const missing = [opts.service === undefined ? '--service' : '', opts.type === undefined ? '--type' : ''].filter(Boolean);
  if (missing.length > 0) throw new UsageError(t('catalog.missing', { missing: both(missing) }), t('catalog.exampleSellerCatalogPrice'));
  const price = await deps.client().catalog.usualPrice({ service: opts.service!, productType: opts.type! });
  if (wantsJson(deps)) {
    printJson(deps.io, price);
    return;
  }
  const value = price.usualPriceRub === null ? t('catalog.unknownFewerThanLive') : t('catalog.rubMedianOfLive', { price: money(price.usualPriceRub), count: price.liveCards });
  say(deps.io, t('catalog.usualPriceOf', { service: price.service, productType: word('productType', price.productType), value }));
}

export async function runCatalogDemand(opts: CatalogDemandOptions, deps: Deps): Promise<void> {
  const demand = await deps.client().catalog.demand({ service: opts.service, productType: opts.type, top: opts.top });
  if (wantsJson(deps)) {
    printJson(deps.io, demand);
    return;
  }
  printTable(
    deps.io,
    demand.items,
    [
      { header: t('catalog.service'), value: (d) => d.service },
      { header: t('catalog.type'), value: (d) => word('productType', d.productType) },
      { header: t('catalog.ordersD'), value: (d) => d.orders30d },
      { header: t('catalog.liveCards'), value: (d) => d.liveCards },
      { header: t('catalog.usualPrice'), value: (d) => (d.usualPriceRub === null ? t('words.unknown') : rubles(d.usualPriceRub)) },
    ],
    t('catalog.noDemandData'),
  );
}

export async function runCatalogRequest(opts: CatalogRequestOptions, deps: Deps): Promise<void> {
  const title = await flagOrAsk(deps, opts.title, '--title', (p) => p.text(t('catalog.whatShouldTheCatalogue')));
  const request = await deps.client().catalogRequests.create({ title, category: opts.category, url: opts.url, comment: opts.comment });
  if (wantsJson(deps)) {
    printJson(deps.io, request);
    return;
  }
  say(deps.io, t('catalog.request', { id: request.id, status: word('requestStatus', request.status) }));
  note(deps.io, t('catalog.aPersonReviewsIt'));
}

export async function runCatalogRequests(opts: CatalogRequestsOptions, deps: Deps): Promise<void> {
  await printList(deps, deps.client().catalogRequests.list({ limit: opts.limit, cursor: opts.cursor }), {
    all: opts.all,
    what: t('things.requests'),
    empty: t('catalog.noRequests'),
    columns: [
      { header: t('catalog.id'), value: (r) => r.id },
      { header: t('catalog.status'), value: (r) => word('requestStatus', r.status) },
      { header: t('catalog.title'), value: (r) => r.title },
      { header: t('catalog.category'), value: (r) => r.category },
      { header: t('catalog.created'), value: (r) => dateTime(r.createdAt) },
      { header: t('catalog.decided'), value: (r) => dateTime(r.decidedAt) },
    ],
  });
}
