/** Cursor pagination over sorted records: opaque cursors that stay stable when records are added. */
import { PAGE_LIMIT_DEFAULT, type Page } from '../../sdk/contract/index.ts';
import { badRequest } from './errors.ts';

const encode = (key: string) => Buffer.from(key, 'utf8').toString('base64url');
function decode(cursor: string): string {
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!key || encode(key) !== cursor) throw badRequest(['query', 'cursor'], 'cursor', 'not a cursor of this list');
  return key;
}

export interface PageOptions<T> {
  /** A string that orders the records (ties must not happen: include the id). */
  key: (item: T) => string;
  /** Newest first. @default false */
  desc?: boolean;
}

/** One page of `items` (in any order) after the cursor, sorted by `key`. */
export function pageOf<T>(items: Iterable<T>, query: { limit?: number; cursor?: string }, opts: PageOptions<T>): Page<T> {
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
  const after = query.cursor === undefined ? null : decode(query.cursor);
  const dir = opts.desc ? -1 : 1;
  const keyed = [...items].map((item) => ({ item, k: opts.key(item) }));
  const rest = after === null ? keyed : keyed.filter(({ k }) => (dir === 1 ? k > after : k < after));
  rest.sort((a, b) => (a.k < b.k ? -dir : a.k > b.k ? dir : 0));
  const slice = rest.slice(0, limit);
  const last = slice.at(-1);
  return { items: slice.map(({ item }) => item), nextCursor: rest.length > limit && last ? encode(last.k) : null };
}

/** The cursor that continues a list after the record whose sort key is `key`. */
export const cursorOf = (key: string): string => encode(key);

/** The sort key a cursor carries; `bad_request` when it is not a cursor. */
export const cursorKey = (cursor: string): string => decode(cursor);
