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
import { t } from '../i18n/index.ts';
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
    .argument('<method>', t('api.orToPrintThe', { METHODS: METHODS.join(', '), SPEC_WORD }))
    .argument('[path]', t('api.pathSuchAsApi'))
    .option('-d, --data <json>', t('api.jsonBodyReadsIt'))
    .option('-q, --query <key=value>', t('api.queryParameterRepeatable'), collect)
    .option('--idempotency-key <key>', t('api.idempotencyKeyOfA'))
    .addHelpText(
      'after',
      t('api.examplesSellerApiGet'),
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
    throw new UsageError(t('api.unknownMethod', { method: opts.method }), t('api.useOneOfOr', { METHODS: METHODS.join(', '), SPEC_WORD }));
  }
  if (opts.path === undefined) throw new UsageError(t('api.missingPath'), t('api.forExampleSellerApi'));
  const path = apiPath(opts.path);
  const query = parseQuery(opts.query);
  const body = await readBody(opts.data, deps);
  if (body !== undefined && method === 'GET') throw new UsageError(t('api.dataCannotBeSent'));
  const client = deps.client();
  const answer = await client.request({ method, path, query, body, idempotencyKey: opts.idempotencyKey });
  if (answer.replayed) note(deps.io, t('api.noteThisAnswerWas'));
  if (answer.body !== undefined) printJson(deps.io, answer.body);
}

/** `seller api spec`: the OpenAPI document on stdout; no key, no call. */
export async function runSpec(opts: ApiOptions, deps: Deps): Promise<void> {
  if (opts.path !== undefined) throw new UsageError(t('api.takesNoPath', { SPEC_WORD }), t('api.runSellerApiSpec'));
  if (opts.data !== undefined || opts.query.length > 0 || opts.idempotencyKey !== undefined) {
    throw new UsageError(t('api.takesNoDataQuery', { SPEC_WORD }));
  }
  const [{ buildOpenApi }, { apiOperations }] = await Promise.all([import('../../sdk/openapi.ts'), import('../../sdk/contract/index.ts')]);
  printJson(deps.io, buildOpenApi(Object.values(apiOperations), { serverUrl: deps.settings().baseUrl }));
}

/** `/me` → `/api/v1/me`; `/api/v1/me`, `/sandbox/v1/clock` are kept. */
export function apiPath(raw: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new UsageError(t('api.giveAPathRelative', { raw }), t('api.setTheAddressWith'));
  }
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  return /^\/(api|sandbox)(\/|$|\?)/.test(path) ? path : `/api/v1${path}`;
}

/** `["a=1", "b=x", "b=y"]` → `{a: "1", b: ["x", "y"]}`. */
export function parseQuery(pairs: readonly string[]): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(t('api.queryNeedsKeyValue', { pair }));
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
    throw new UsageError(t('api.dataIsNotValid', { why }));
  }
}
