/**
 * `seller api METHOD PATH`: any call with the saved credentials, for what no command covers yet.
 * PATH is relative to the base URL; without the `/api/v1` prefix it is added. The JSON answer is
 * printed as it came; a non-2xx answer is reported like any other error (stderr, exit code).
 *
 * `seller api spec`: prints the OpenAPI 3.1 document of the API (JSON), generated from the
 * operation table the CLI carries, so it needs neither a key nor a server; its `servers` entry is
 * the configured base URL. A sub-command beside `METHOD PATH` would make commander read every
 * call as `api <sub>`, so `spec` is the one lower-case word taken in place of METHOD (methods are
 * matched case-insensitively otherwise, and no HTTP method is called SPEC).
 */
import { collect, type Register } from '../lib/command.ts';
import type { Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { readAll } from '../lib/io.ts';
import { note, printJson } from '../lib/output.ts';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The METHOD word that prints the OpenAPI document instead of calling. */
export const SPEC_WORD = 'spec';

export interface ApiOptions {
  method: string;
  /** Absent only for `spec`. */
  path?: string | undefined;
  data?: string | undefined;
  query: string[];
  idempotencyKey?: string | undefined;
}

export const register: Register = (command, app) => {
  command
    .argument('<method>', `${METHODS.join(', ')}; or ${SPEC_WORD} to print the OpenAPI document`)
    .argument('[path]', 'path such as /api/v1/me, or /me (the /api/v1 prefix is added)')
    .option('-d, --data <json>', 'JSON body; - reads it from stdin')
    .option('-q, --query <key=value>', 'query parameter, repeatable', collect)
    .option('--idempotency-key <key>', 'Idempotency-Key of a changing call (default: a fresh one)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ seller api GET /me\n  $ seller api spec > openapi.json\n  $ seller api GET /orders -q needsAction=true -q limit=5\n  $ echo \'{"active":false}\' | seller api POST /listings/1001/state --data -',
    )
    .action(
      app.run(
        (method: string, path: string | undefined, o: { data?: string; query?: string[]; idempotencyKey?: string }): ApiOptions => ({
          method,
          path,
          data: o.data,
          query: o.query ?? [],
          idempotencyKey: o.idempotencyKey,
        }),
        runApi,
      ),
    );
};

export async function runApi(opts: ApiOptions, deps: Deps): Promise<void> {
  if (opts.method === SPEC_WORD) return runSpec(opts, deps);
  const method = opts.method.toUpperCase();
  if (!(METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`unknown method "${opts.method}"`, `use one of ${METHODS.join(', ')}, or ${SPEC_WORD}`);
  }
  if (opts.path === undefined) throw new UsageError('missing PATH', 'for example: seller api GET /me');
  const path = apiPath(opts.path);
  const query = parseQuery(opts.query);
  const body = await readBody(opts.data, deps);
  if (body !== undefined && method === 'GET') throw new UsageError('--data cannot be sent with GET');
  const client = deps.client();
  const answer = await client.request({ method, path, query, body, idempotencyKey: opts.idempotencyKey });
  if (answer.replayed) note(deps.io, 'note: this answer was replayed for a repeated idempotency key');
  if (answer.body !== undefined) printJson(deps.io, answer.body);
}

/** `seller api spec`: the OpenAPI document on stdout; no key, no call. */
export async function runSpec(opts: ApiOptions, deps: Deps): Promise<void> {
  if (opts.path !== undefined) throw new UsageError(`${SPEC_WORD} takes no PATH`, 'run: seller api spec');
  if (opts.data !== undefined || opts.query.length > 0 || opts.idempotencyKey !== undefined) {
    throw new UsageError(`${SPEC_WORD} takes no --data, --query or --idempotency-key`);
  }
  const [{ buildOpenApi }, { apiOperations }] = await Promise.all([import('../../sdk/openapi.ts'), import('../../sdk/contract/index.ts')]);
  printJson(deps.io, buildOpenApi(Object.values(apiOperations), { serverUrl: deps.settings().baseUrl }));
}

/** `/me` → `/api/v1/me`; `/api/v1/me`, `/sandbox/v1/clock` are kept. */
export function apiPath(raw: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new UsageError(`give a path relative to the base URL, not "${raw}"`, 'set the address with --base-url');
  }
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  return /^\/(api|sandbox)(\/|$|\?)/.test(path) ? path : `/api/v1${path}`;
}

/** `["a=1", "b=x", "b=y"]` → `{a: "1", b: ["x", "y"]}`. */
export function parseQuery(pairs: readonly string[]): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--query needs key=value, got "${pair}"`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const prior = query[key];
    query[key] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  }
  return query;
}

async function readBody(data: string | undefined, deps: Deps): Promise<unknown> {
  if (data === undefined) return undefined;
  const text = data === '-' ? await readAll(deps.io.stdin) : data;
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new UsageError(`--data is not valid JSON: ${why}`);
  }
}
