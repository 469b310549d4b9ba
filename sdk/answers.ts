/**
 * How a client reads an answer. Two kinds of truth: the reference server answers exactly the
 * contract, while the real marketplace may send what the contract does not know yet (it documents
 * endpoints in stages: enum values, fields, error codes, success statuses).
 *
 * - **Tolerant** (the default): the answer is read as the server sent it. Enum values the contract
 *   does not know pass through, unknown fields stay on the object, an absent optional field is
 *   fine. Only what the SDK's own logic needs is checked, and a failure names its path: a list answer
 *   must carry an `items` array (paging), and a page cursor must be a string or null.
 * - **Strict** (`strict: true`): every answer is parsed by its operation's zod schema
 *   (sdk/strict.ts, loaded on the first strict call), for contract tests.
 */
import type { Route } from './contract/route.ts';
import type { AnswerCheck, Checked } from './checked.ts';
import { hiddenImport } from './hidden-import.ts';
import { loadPeer } from './peer.ts';

export type { AnswerCheck, Checked };

/** How answers are read. */
export type AnswerMode = 'tolerant' | 'strict';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Names under which a page may carry its cursor when `nextCursor` is absent (`next_cursor`,
 * `nextPageToken`…): the names other APIs use, read so that paging goes on rather than stopping
 * silently after the first page. `seller doctor` reports an answer that uses one of them.
 */
export const OTHER_CURSOR_NAMES = ['next_cursor', 'nextPageToken', 'next_page_token', 'cursor', 'next'] as const;

/** The cursor of the page after `page`: `nextCursor`, else one of {@link OTHER_CURSOR_NAMES}; null at the end. */
export function nextCursorOf(page: Record<string, unknown>): string | null {
  const cursor = page['nextCursor'];
  if (typeof cursor === 'string') return cursor === '' ? null : cursor;
  if (cursor === null) return null;
  for (const name of OTHER_CURSOR_NAMES) {
    const other = page[name];
    if (typeof other === 'string' && other !== '') return other;
  }
  return null;
}

/** Tolerant reading of an answer to `route` (see the module comment): the body itself, or the issues. */
export function readTolerant(route: Pick<Route, 'paging'>, body: unknown): Checked {
  if (route.paging === null) return { success: true, data: body };
  if (!isObject(body)) return fail([], 'a list answer must be an object with an items array');
  if (!Array.isArray(body['items'])) return fail(['items'], 'a list answer must carry an items array');
  const cursor = body['nextCursor'];
  if (route.paging === 'cursor' && cursor !== undefined && cursor !== null && typeof cursor !== 'string') {
    return fail(['nextCursor'], 'the next-page cursor must be a string or null');
  }
  return { success: true, data: body };
}

function fail(path: PropertyKey[], message: string): Checked {
  return { success: false, issues: [{ path, message, code: 'tolerant' }] };
}

let strict: Promise<AnswerCheck> | undefined;

/**
 * Set by the SDK's build (scripts/build.mjs): the published SDK loads strict mode by its own
 * package name (`service-seller/strict`), out of bundlers' sight, so that an application bundles
 * the SDK without zod installed; from the sources, and in the CLI's bundle, it is `./strict.ts`.
 */
declare const SELLER_STRICT_MODULE: string | undefined;

const importStrict = (): Promise<typeof import('./strict.ts')> =>
  typeof SELLER_STRICT_MODULE === 'string' ? hiddenImport(SELLER_STRICT_MODULE) : import('./strict.ts');

/**
 * Strict mode's check, loaded once (with zod and the contract's schemas) on first use; zod is an
 * optional peer, so without it this fails naming the package to install (and a later call tries again).
 */
export function loadStrictCheck(): Promise<AnswerCheck> {
  strict ??= loadPeer(importStrict, 'zod', 'strict mode').then(
    (m) => m.checkStrict,
    (error: unknown) => {
      strict = undefined;
      throw error;
    },
  );
  return strict;
}
