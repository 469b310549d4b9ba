/**
 * The doctor's sweep: a read-only pass over the seller's own account that compares every answer
 * with the contract (sdk/doctor/compare.ts) and reports each difference once.
 *
 * - Only GET operations of the API table are called (never the sandbox, never a changing call),
 *   through `client.request()`, so the answers are seen exactly as sent (status and body) and the
 *   SDK's own reading of them plays no part.
 * - `GET /me` first: its `key.scopes` say which operations the key may call; the others are
 *   skipped with the missing scope as the reason.
 * - Lists are read a little (`limit` records, `pages` pages); operations with path parameters get
 *   them from the records the lists gave (a card number from `listings.list`, an order id from
 *   `orders.list`, a slug from `catalog.list`); with no such record they are skipped.
 * - Differences are grouped by operation, kind and normalised path, with a count and one example
 *   (only enum-like values are ever shown; see compare.ts).
 *
 * An authentication failure (401) ends the sweep with the SDK's error; any other error answer is
 * recorded on its operation, and an error code the contract does not know is a difference too.
 */
import type { SellerClient } from '../client.ts';
import { SDK_VERSION } from '../client.ts';
import { apiOperations } from '../contract/index.ts';
import { ERROR_STATUS } from '../contract/constants.ts';
import { BASE_PATH, fillPath, pathParamNames, type AnyOperation } from '../contract/operation.ts';
import { ResponseValidationError, SellerError } from '../errors.ts';
import { compareAnswer, safeExample, type Finding } from './compare.ts';

export interface DoctorOptions {
  /** Records asked for per list page. @default 5 */
  limit?: number | undefined;
  /** Pages read of each list (following its cursor). @default 2 */
  pages?: number | undefined;
  /** Cancels the sweep. */
  signal?: AbortSignal | undefined;
  /** Told about each operation before it is called (for a progress line). */
  onOperation?: ((id: string) => void) | undefined;
}

/**
 * Why an operation was skipped, as data (the `reason` beside it is its English): `scope_refused` (the
 * service answered `scope`), `missing_scope` (`scope`: the key's scopes lack it), `empty_list` (`list`
 * had no record to read one by), `no_record` (`list` was not read), `no_source` (`params`: path
 * parameters no list gives).
 */
export type SkipReason =
  | { code: 'scope_refused' }
  | { code: 'missing_scope'; scope: string }
  | { code: 'empty_list'; list: string }
  | { code: 'no_record'; list: string }
  | { code: 'no_source'; params: string[] };

/** The English of a skip reason, for the report a person attaches. */
function skipText(why: SkipReason): string {
  switch (why.code) {
    case 'scope_refused':
      return 'missing scope (refused by the service)';
    case 'missing_scope':
      return `missing scope ${why.scope}`;
    case 'empty_list':
      return `no record to read: ${why.list} is empty`;
    case 'no_record':
      return `no record to read from ${why.list}`;
    case 'no_source':
      return `no source for ${why.params.join(', ')}`;
  }
}

/** Marks an operation skipped, with its reason as data and in English. */
function skip(outcome: OperationOutcome, why: SkipReason): void {
  outcome.outcome = 'skipped';
  outcome.skip = why;
  outcome.reason = skipText(why);
}

/** What happened to one operation. */
export interface OperationOutcome {
  id: string;
  method: string;
  path: string;
  outcome: 'checked' | 'skipped' | 'failed';
  /** Why it was skipped (`missing scope orders`, `no record to read: orders.list is empty`) or how it failed (`404 not_found`). */
  reason?: string | undefined;
  /** Why it was skipped, as data (a program words it from this, never from `reason`). */
  skip?: SkipReason | undefined;
  /** Answers compared. */
  answers: number;
}

/** One difference, listed once: where it was seen how often, and one example. */
export interface Difference extends Finding {
  operation: string;
  /** Places it was seen (records × answers). */
  count: number;
  /** Distinct shown values (for `unknown_value`), at most five. */
  values?: string[] | undefined;
}

/** The doctor's report: a file a user can attach to a bug report (no secret, no buyer data). */
export interface DoctorReport {
  tool: 'service-seller doctor';
  packageVersion: string;
  /** The origin of the base URL (no path, no credentials). */
  baseUrl: string;
  date: string;
  /** The key's scopes as `GET /me` gave them (empty when it did not say). */
  scopes: string[];
  operations: OperationOutcome[];
  differences: Difference[];
}

/** Records the lists gave, for the operations that need a path parameter or a query. */
interface Found {
  number?: number;
  orderId?: string;
  slug?: string;
  productType?: string;
}

/** How an operation that needs more than a page query gets its parameters. */
interface Needs {
  from: string;
  fill(found: Found): { params?: Record<string, unknown>; query?: Record<string, unknown> } | undefined;
}

const NEEDS: Record<string, Needs> = {
  'listings.get': { from: 'listings.list', fill: (f) => (f.number === undefined ? undefined : { params: { number: f.number } }) },
  'stock.get': { from: 'listings.list', fill: (f) => (f.number === undefined ? undefined : { params: { number: f.number } }) },
  'orders.get': { from: 'orders.list', fill: (f) => (f.orderId === undefined ? undefined : { params: { id: f.orderId } }) },
  'orders.vaults': { from: 'orders.list', fill: (f) => (f.orderId === undefined ? undefined : { params: { id: f.orderId } }) },
  'catalog.get': { from: 'catalog.list', fill: (f) => (f.slug === undefined ? undefined : { params: { slug: f.slug } }) },
  'catalog.usualPrice': {
    from: 'catalog.list',
    fill: (f) => (f.slug === undefined || f.productType === undefined ? undefined : { query: { service: f.slug, productType: f.productType } }),
  },
};

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** Takes what later operations need from a list's first record. */
function remember(found: Found, id: string, body: unknown): void {
  const items = asRecord(body)?.items;
  const first = Array.isArray(items) ? asRecord(items[0]) : undefined;
  if (!first) return;
  if (id === 'listings.list' && typeof first.number === 'number') found.number ??= first.number;
  if (id === 'orders.list' && typeof first.id === 'string') found.orderId ??= first.id;
  if (id === 'catalog.list' && typeof first.slug === 'string') {
    found.slug ??= first.slug;
    const types = first.productTypes;
    if (Array.isArray(types) && typeof types[0] === 'string') found.productType ??= types[0];
  }
}

/**
 * Whether an error answer ends the sweep: a 401, or a 403 that says the key or seller may not call
 * at all (`not_seller`, `seller_blocked`). A missing scope, or a 403 code the contract does not
 * know, is recorded on its operation instead.
 */
function isAuthFailure(error: SellerError): boolean {
  if (error.status === 401) return true;
  const raw = asRecord(error.body)?.error;
  return error.status === 403 && (raw === 'not_seller' || raw === 'seller_blocked');
}

/**
 * Sweeps the account of `client`'s key and reports where the answers differ from the contract.
 *
 * @example
 * const report = await runDoctor(new SellerClient());
 * for (const d of report.differences) console.log(d.operation, d.kind, d.path, d.count);
 */
export async function runDoctor(client: SellerClient, options: DoctorOptions = {}): Promise<DoctorReport> {
  const limit = options.limit ?? 5;
  const pages = Math.max(1, options.pages ?? 2);
  const outcomes: OperationOutcome[] = [];
  const groups = new Map<string, Difference>();
  const found: Found = {};
  const emptyLists = new Set<string>();

  const note = (operation: string, findings: readonly Finding[]) => {
    for (const finding of findings) {
      const key = `${operation}\u0000${finding.kind}\u0000${finding.path}`;
      const group = groups.get(key);
      if (group === undefined) {
        groups.set(key, { operation, ...finding, count: 1, ...(finding.kind === 'unknown_value' && finding.example !== undefined ? { values: [finding.example] } : {}) });
      } else {
        group.count += 1;
        if (group.values && finding.example !== undefined && !group.values.includes(finding.example) && group.values.length < 5) {
          group.values.push(finding.example);
        }
      }
    }
  };

  /** One GET, compared; answers the body, or undefined when the call failed (recorded). */
  const call = async (op: AnyOperation, outcome: OperationOutcome, params: Record<string, unknown>, query: Record<string, unknown> | undefined) => {
    try {
      const path = `${BASE_PATH[op.surface]}${fillPath(op.path, params)}`;
      const answer = await client.request({ method: 'GET', path, query, signal: options.signal });
      outcome.answers += 1;
      note(op.id, compareAnswer(op, answer.status, answer.body));
      return { body: answer.body };
    } catch (error) {
      if (!(error instanceof SellerError) || isAuthFailure(error)) throw error;
      if (error instanceof ResponseValidationError) {
        // A 2xx answer that is not JSON.
        outcome.answers += 1;
        note(op.id, [{ kind: 'wrong_type', path: '', examplePath: '', example: 'text', expected: 'JSON' }]);
        return undefined;
      }
      const raw = asRecord(error.body)?.error;
      const code = typeof raw === 'string' ? raw : undefined;
      if (error.status === 403 && code === 'scope') {
        skip(outcome, { code: 'scope_refused' });
        return undefined;
      }
      if (code !== undefined && !Object.hasOwn(ERROR_STATUS, code)) {
        note(op.id, [{ kind: 'unknown_error_code', path: 'error', examplePath: 'error', example: safeExample(code), expected: 'a known error code' }]);
      }
      outcome.outcome = 'failed';
      outcome.reason = error.status === undefined ? error.code : `${error.status} ${safeExample(code) ?? error.code}`;
      return undefined;
    }
  };

  // GET /me first: the scopes decide the rest.
  const meOp = apiOperations['me.get'] as AnyOperation;
  const me: OperationOutcome = { id: meOp.id, method: 'GET', path: meOp.path, outcome: 'checked', answers: 0 };
  outcomes.push(me);
  options.onOperation?.(meOp.id);
  const meBody = (await call(meOp, me, {}, undefined))?.body;
  const rawScopes = asRecord(asRecord(meBody)?.key)?.scopes;
  const scopes = Array.isArray(rawScopes) ? rawScopes.filter((s): s is string => typeof s === 'string') : undefined;

  const gets = (Object.values(apiOperations) as AnyOperation[]).filter((op) => op.method === 'GET' && op.surface === 'api' && op.id !== meOp.id);
  // Operations that need records from a list run after all the others.
  const ordered = [...gets.filter((op) => !NEEDS[op.id] && pathParamNames(op.path).length === 0), ...gets.filter((op) => NEEDS[op.id] || pathParamNames(op.path).length > 0)];

  for (const op of ordered) {
    const outcome: OperationOutcome = { id: op.id, method: op.method, path: op.path, outcome: 'checked', answers: 0 };
    outcomes.push(outcome);
    if (op.scope !== null && scopes !== undefined && !scopes.includes(op.scope)) {
      skip(outcome, { code: 'missing_scope', scope: op.scope });
      continue;
    }
    const needs = NEEDS[op.id];
    let params: Record<string, unknown> = {};
    let query: Record<string, unknown> | undefined;
    if (needs) {
      const filled = needs.fill(found);
      if (filled === undefined) {
        skip(outcome, emptyLists.has(needs.from) ? { code: 'empty_list', list: needs.from } : { code: 'no_record', list: needs.from });
        continue;
      }
      params = filled.params ?? {};
      query = filled.query;
    } else if (pathParamNames(op.path).length > 0) {
      skip(outcome, { code: 'no_source', params: pathParamNames(op.path) });
      continue;
    }
    options.onOperation?.(op.id);
    if (op.paging === 'cursor' || op.paging === 'skip') {
      let page: Record<string, unknown> = op.paging === 'cursor' ? { limit } : { limit, skip: 0 };
      for (let n = 0; n < pages; n++) {
        const body = (await call(op, outcome, params, { ...query, ...page }))?.body;
        if (body === undefined) break;
        if (n === 0) {
          remember(found, op.id, body);
          const items = asRecord(body)?.items;
          if (Array.isArray(items) && items.length === 0) emptyLists.add(op.id);
        }
        const record = asRecord(body);
        if (op.paging === 'cursor') {
          const cursor = record?.nextCursor;
          if (typeof cursor !== 'string' || cursor === '') break;
          page = { limit, cursor };
        } else {
          const items = record?.items;
          const total = record?.total;
          if (!Array.isArray(items) || typeof total !== 'number' || (n + 1) * limit >= total) break;
          page = { limit, skip: (n + 1) * limit };
        }
      }
    } else {
      const body = (await call(op, outcome, params, op.id === 'hooks.probe' ? { limit } : query))?.body;
      if (body !== undefined) remember(found, op.id, body);
    }
  }

  const order = new Map(outcomes.map((o, i) => [o.id, i]));
  const differences = [...groups.values()].sort(
    (a, b) => (order.get(a.operation) ?? 0) - (order.get(b.operation) ?? 0) || a.path.localeCompare(b.path) || a.kind.localeCompare(b.kind),
  );
  return {
    tool: 'service-seller doctor',
    packageVersion: SDK_VERSION,
    baseUrl: new URL(client.baseUrl).origin,
    date: new Date().toISOString(),
    scopes: scopes ?? [],
    operations: outcomes,
    differences,
  };
}
