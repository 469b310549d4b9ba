/**
 * The list verbs (`seller cards list`, `seller payouts`, …): `--limit/--cursor/--all`, the first
 * page or every page, and the page printed for scripts (`--json`: the page as the API answers it,
 * `{items, nextCursor}`) or for people (a table, and on stderr how to get the next page).
 */
import { t } from '../i18n/index.ts';
import { Option, type Command } from 'commander';
import { describedWhenShown, positiveInt, type App } from './command.ts';
import { wantsJson, type Deps } from './deps.ts';
import { note, printJson, printTable, type Column } from './output.ts';
import { allItems } from './paging.ts';

/** The paging flags of a list verb. */
export interface ListOptions {
  limit?: number | undefined;
  cursor?: string | undefined;
  all: boolean;
}

/** Adds `--limit`, `--cursor` and `--all` to a list verb; `what` names the items (`'cards'`). */
export function listOptions(command: Command, what: string): Command {
  return command
    .addOption(describedWhenShown(new Option('--limit <n>'), () => t('list.perPage', { what })).argParser(positiveInt))
    .option('--cursor <cursor>', t('list.continueFromAPrevious'))
    .option('--all', t('list.fetchEveryPage'));
}

/** The paging flags as commander gives them. */
export interface RawListOptions {
  limit?: number | undefined;
  cursor?: string | undefined;
  all?: boolean | undefined;
}

/** The paging flags of commander's options (no `--all` is `all: false`). */
export function pageFlags(o: RawListOptions): ListOptions {
  return { limit: o.limit, cursor: o.cursor, all: o.all === true };
}

/** A cursor page of the API. */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** What the SDK's list methods return (a `PagedCall`): await it for the first page, iterate it for all items. */
export type ListCall<T> = PromiseLike<CursorPage<T>> & AsyncIterable<T>;

export interface ListView<Row, Item = Row> {
  /** Fetch every page (the JSON then has `nextCursor: null`). */
  all: boolean;
  /** The items, for the hint: "More cards: add --all, or --cursor …". */
  what: string;
  /** Said on stderr when there is no item. */
  empty: string;
  columns: readonly Column<Row>[];
  /** Another hint for the next page than the `--all`/`--cursor` one. */
  more?: ((cursor: string) => string) | undefined;
  /** More for people after the table (not with --json). */
  footer?: ((items: Item[]) => void) | undefined;
}

/**
 * Fetches the first page (or every page with `all`) and prints it: the page as JSON with `--json`,
 * else a table of the items (of `row(item)` when given; without it the rows are the items) and,
 * when there is more, a hint on stderr.
 */
export async function printList<T, R = T>(
  deps: Deps,
  call: ListCall<T>,
  view: ListView<R, T> & { row?: ((item: T) => R) | undefined },
): Promise<void> {
  const page: CursorPage<T> = view.all ? { items: await allItems(call), nextCursor: null } : await call;
  if (wantsJson(deps)) {
    printJson(deps.io, page);
    return;
  }
  const rows = view.row ? page.items.map(view.row) : (page.items as unknown as R[]);
  printTable(deps.io, rows, view.columns, view.empty);
  if (page.nextCursor) {
    note(deps.io, view.more?.(page.nextCursor) ?? t('list.more', { what: view.what, cursor: page.nextCursor }));
  }
  view.footer?.(page.items);
}

/**
 * `seller NOUN list` (and `ls`) for a noun that lists by itself (`seller payouts`): every list noun
 * takes `list`. The options stay the noun's (commander gives them to it wherever they stand), so
 * `seller payouts list --limit 5` and `seller payouts --limit 5` are one command.
 */
export function alsoAsList<O>(noun: Command, app: App, parse: (o: any) => O, run: (opts: O, deps: Deps) => Promise<void>): void {
  noun
    .command('list')
    .alias('ls')
    .description(t('list.sameAsNoun', { noun: noun.name() }))
    .action(app.run(() => parse(noun.opts()), run));
}
