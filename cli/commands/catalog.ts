/**
 * `seller catalog list|show|price|demand|request|requests`: the service catalogue (read-only for
 * sellers; scope `catalog`), its usual prices and demand, and requests for missing positions.
 */
import { editDistance } from '../lib/edit-distance.ts';
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

export interface CatalogListOptions extends ListOptions {
  search?: string | undefined;
  category?: string | undefined;
}

export const register: Register = (noun, app) => {
  listOptions(
    noun
      .command('list')
      .alias('ls')
      .description('List catalogue positions')
      .option('--search <text>', 'only positions whose slug, title or category contains the text')
      .option('--category <category>', 'only this category'),
    'positions',
  ).action(
    app.run(
      (o: Omit<CatalogListOptions, 'all'> & { all?: boolean }): CatalogListOptions => ({ ...o, all: o.all === true }),
      runCatalogList,
    ),
  );
  noun
    .command('show')
    .description('Show a position: product types, delivery methods, SLA and guarantee choices')
    .argument('<slug>', 'position slug, as in `seller catalog list`')
    .action(app.run((slug: string) => ({ slug }), runCatalogShow));
  noun
    .command('price')
    .description('Show the usual price (median of live cards) of a position and product type')
    .option('--service <slug>', 'position slug')
    .addOption(openOption('--type <productType>', 'product type', PRODUCT_TYPES))
    .action(app.run((o: { service?: string; type?: ProductType }): CatalogPriceOptions => ({ service: o.service, type: o.type }), runCatalogPrice));
  noun
    .command('demand')
    .description('Show the most ordered positions of the last 30 days')
    .option('--service <slug>', 'only this position')
    .addOption(openOption('--type <productType>', 'only this product type', PRODUCT_TYPES))
    .option('--top <n>', 'how many rows (1-100)', positiveInt)
    .action(app.run((o: CatalogDemandOptions) => o, runCatalogDemand));
  noun
    .command('request')
    .description('Ask the marketplace to add a missing position (a person reviews it)')
    .option('--title <title>', 'what to add, e.g. "Figma Professional"')
    .option('--category <category>', 'category, e.g. software')
    .option('--url <url>', "the service's web address")
    .option('--comment <text>', 'anything the reviewer should know')
    .action(app.run((o: CatalogRequestOptions) => o, runCatalogRequest));
  listOptions(noun.command('requests').description('List your requests for new positions and their status'), 'requests').action(
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
    what: 'positions',
    empty: 'No positions match.',
    columns: [
      { header: 'SLUG', value: (p) => p.slug },
      { header: 'TITLE', value: (p) => p.title },
      { header: 'CATEGORY', value: (p) => p.category },
      { header: 'PRODUCT TYPES', value: (p) => p.productTypes },
    ],
  });
}

export { editDistance };

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
export async function positionOf(client: SellerClient, slug: string, what = 'position'): Promise<Position> {
  try {
    return await client.catalog.get(slug);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const slugs: string[] = [];
    try {
      for await (const position of client.catalog.list({ limit: 100 })) slugs.push(position.slug);
    } catch {
      // No suggestion then; the error below still says what is wrong.
    }
    const near = nearestSlugs(slug, slugs);
    throw new CliError(
      `no ${what} "${slug}" in the catalogue`,
      EXIT.error,
      near.length > 0
        ? `did you mean ${near.map((s) => `"${s}"`).join(' or ')}? (\`seller catalog list --search TEXT\` finds a slug)`
        : 'find the slug with `seller catalog list --search TEXT`',
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
    ['Category', p.category],
    ['Tariffs', p.tariffs.map((t) => `${t.slug} (${t.title})`)],
    // In minutes, the unit of `--sla`.
    ['SLA choices', p.slaChoices.map((m) => `${m} min`)],
    ['Guarantee', p.guaranteeChoices.map((d) => (d === 0 ? 'none' : `${d} d`))],
    ...(p.creditsTypes ? [['Credits types', p.creditsTypes] as const] : []),
  ]);
  say(deps.io, '\nProduct types and their delivery methods:');
  const width = Math.max(...p.productTypes.map((type) => type.length));
  for (const type of p.productTypes) {
    const methods = (p.deliveryMethods as Record<string, unknown>)[type];
    say(deps.io, `  ${type.padEnd(width)}  ${Array.isArray(methods) ? methods.join(', ') : ''}`);
  }
}

/** 15 → "15 min", 90 → "1 h 30 min", 1440 → "1 d". */
export function minutes(total: number): string {
  const d = Math.floor(total / 1440);
  const h = Math.floor((total % 1440) / 60);
  const m = total % 60;
  const parts = [d ? `${d} d` : '', h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : '0 min';
}

export async function runCatalogPrice(opts: CatalogPriceOptions, deps: Deps): Promise<void> {
  const missing = [opts.service === undefined ? '--service' : '', opts.type === undefined ? '--type' : ''].filter(Boolean);
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(' and ')}`, 'example: seller catalog price --service spotify --type code');
  const price = await deps.client().catalog.usualPrice({ service: opts.service!, productType: opts.type! });
  if (wantsJson(deps)) {
    printJson(deps.io, price);
    return;
  }
  const value = price.usualPriceRub === null ? 'unknown (fewer than 3 live cards)' : `${price.usualPriceRub} RUB (median of ${price.liveCards} live cards)`;
  say(deps.io, `Usual price of ${price.service} (${price.productType}): ${value}`);
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
      { header: 'SERVICE', value: (d) => d.service },
      { header: 'TYPE', value: (d) => d.productType },
      { header: 'ORDERS 30D', value: (d) => d.orders30d },
      { header: 'LIVE CARDS', value: (d) => d.liveCards },
      { header: 'USUAL PRICE', value: (d) => (d.usualPriceRub === null ? 'unknown' : d.usualPriceRub) },
    ],
    'No demand data.',
  );
}

export async function runCatalogRequest(opts: CatalogRequestOptions, deps: Deps): Promise<void> {
  const title = await flagOrAsk(deps, opts.title, '--title', (p) => p.text('What should the catalogue offer? (title)'));
  const request = await deps.client().catalogRequests.create({ title, category: opts.category, url: opts.url, comment: opts.comment });
  if (wantsJson(deps)) {
    printJson(deps.io, request);
    return;
  }
  say(deps.io, `Request ${request.id}: ${request.status}`);
  note(deps.io, 'A person reviews it; follow it with `seller catalog requests`.');
}

export async function runCatalogRequests(opts: CatalogRequestsOptions, deps: Deps): Promise<void> {
  await printList(deps, deps.client().catalogRequests.list({ limit: opts.limit, cursor: opts.cursor }), {
    all: opts.all,
    what: 'requests',
    empty: 'No requests.',
    columns: [
      { header: 'ID', value: (r) => r.id },
      { header: 'STATUS', value: (r) => r.status },
      { header: 'TITLE', value: (r) => r.title },
      { header: 'CATEGORY', value: (r) => r.category },
      { header: 'CREATED', value: (r) => r.createdAt },
      { header: 'DECIDED', value: (r) => r.decidedAt },
    ],
  });
}
