/** `seller catalog list|show`: the service catalogue (read-only for sellers; scope `catalog`). */
import type { Position } from '../../sdk/contract/catalog.ts';
import { positiveInt, type Register } from '../lib/command.ts';
import { allItems } from '../lib/paging.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { note, printFields, printJson, printTable, say } from '../lib/output.ts';

export interface CatalogListOptions {
  q?: string | undefined;
  category?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  all: boolean;
}

export const register: Register = (noun, app) => {
  noun
    .command('list')
    .alias('ls')
    .description('List catalogue positions')
    .option('--q <text>', 'search text')
    .option('--category <category>', 'only this category')
    .option('--limit <n>', 'positions per page (1-200)', positiveInt)
    .option('--cursor <cursor>', 'continue from a previous page')
    .option('--all', 'fetch every page')
    .action(
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
};

export async function runCatalogList(opts: CatalogListOptions, deps: Deps): Promise<void> {
  const query = { q: opts.q, category: opts.category, limit: opts.limit, cursor: opts.cursor };
  const call = deps.client().catalog.list(query);
  const page = opts.all ? { items: await allItems(call), nextCursor: null } : await call;
  if (wantsJson(deps)) {
    printJson(deps.io, page);
    return;
  }
  printTable(
    deps.io,
    page.items,
    [
      { header: 'SLUG', value: (p) => p.slug },
      { header: 'TITLE', value: (p) => p.title },
      { header: 'CATEGORY', value: (p) => p.category },
      { header: 'PRODUCT TYPES', value: (p) => p.productTypes },
    ],
    'No positions match.',
  );
  if (page.nextCursor) note(deps.io, `More positions: add --all, or --cursor ${page.nextCursor}`);
}

export async function runCatalogShow(opts: { slug: string }, deps: Deps): Promise<void> {
  const position = await deps.client().catalog.get(opts.slug);
  if (wantsJson(deps)) printJson(deps.io, position);
  else printPosition(deps, position);
}

function printPosition(deps: Deps, p: Position): void {
  say(deps.io, `${p.title} (${p.slug})`);
  printFields(deps.io, [
    ['Category', p.category],
    ['Tariffs', p.tariffs.map((t) => `${t.slug} (${t.title})`)],
    ['SLA choices', p.slaChoices.map(minutes)],
    ['Guarantee', p.guaranteeChoices.map((d) => (d === 0 ? 'none' : `${d} d`))],
    ...(p.creditsTypes ? [['Credits types', p.creditsTypes] as const] : []),
  ]);
  say(deps.io, '\nProduct types and their delivery methods:');
  const width = Math.max(...p.productTypes.map((type) => type.length));
  for (const type of p.productTypes) {
    say(deps.io, `  ${type.padEnd(width)}  ${(p.deliveryMethods[type] ?? []).join(', ')}`);
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
