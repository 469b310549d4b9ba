/**
 * The route of an operation: everything a client needs to send it (method, path, scope, status,
 * refusal kinds, paging, what input it takes), and nothing of its schemas. Plain data, no zod:
 * the SDK and the CLI send every call from the route tables (sdk/contract/routes/), so a command
 * starts without loading a schema library; the schemas join their route in the section files
 * (`op(route, schemas)` in operation.ts) for the server, strict clients, MCP and OpenAPI.
 */
import type { SCOPES } from './constants.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where an operation lives: the seller API, or the reference server's sandbox. */
export type Surface = 'api' | 'sandbox';

export const BASE_PATH: Record<Surface, string> = { api: '/api/v1', sandbox: '/sandbox/v1' };

/** What an operation takes besides path parameters: a query, a JSON body, raw bytes, or nothing. */
export type InputKind = 'query' | 'json' | 'binary';

/** The route of one operation, as declared in a route table. */
export interface Route<Id extends string = string, M extends HttpMethod = HttpMethod, P extends string = string, Kinds extends string = string> {
  /** `section.verb`, e.g. `orders.deliver`; the SDK method is `client.orders.deliver()`. */
  id: Id;
  method: M;
  /** Path relative to the surface's base, with `{param}` placeholders. */
  path: P;
  surface: Surface;
  /** Scope the key needs; `null` means any key with at least one scope (only `GET /me`). */
  scope: (typeof SCOPES)[number] | null;
  /** Whether the call changes data (and so needs an `Idempotency-Key` on the API surface). */
  changes: boolean;
  /** Success status. */
  status: 200 | 201 | 202;
  /** Rule-refusal kinds (409 `rejected`) this operation may answer. */
  refusals: readonly Kinds[];
  /** How the list pages: by opaque cursor, by skip, or not at all. */
  paging: 'cursor' | 'skip' | null;
  /**
   * Whether the operation may answer 404 `not_found` (a record it names is absent, or not the
   * caller's): every path naming a record, and the routes declared with `notFound`. Where
   * `refusals` lists `not_found`, the answer is the 409 refusal instead.
   */
  notFound: boolean;
  /** How the body is sent: JSON, raw bytes (the image upload), or there is none. */
  bodyType: 'json' | 'binary' | 'none';
  /** Whether the operation takes a query (its input is then the query). */
  query: boolean;
  summary: string;
}

interface RouteSpec<Id extends string, M extends HttpMethod, P extends string, Kinds extends string> {
  id: Id;
  method: M;
  path: P;
  scope: (typeof SCOPES)[number] | null;
  summary: string;
  status?: 200 | 201 | 202;
  refusals?: readonly Kinds[];
  paging?: 'cursor' | 'skip';
  /** The operation may answer 404 although its path names no record (a record named in its body, or the seller's one subscription). */
  notFound?: true;
  surface?: Surface;
  input?: InputKind;
}

/**
 * Declares a route; `changes` follows from the method, the body type and query from `input`.
 * Free of side effects (the annotation tells bundlers): a table no code reads is left out of a bundle.
 */
/* @__NO_SIDE_EFFECTS__ */
export function route<const Id extends string, const M extends HttpMethod, const P extends string, const Kinds extends string = never>(
  spec: RouteSpec<Id, M, P, Kinds>,
): Route<Id, M, P, Kinds> {
  return {
    id: spec.id,
    method: spec.method,
    path: spec.path,
    surface: spec.surface ?? 'api',
    scope: spec.scope,
    changes: spec.method !== 'GET',
    status: spec.status ?? 200,
    refusals: spec.refusals ?? [],
    paging: spec.paging ?? null,
    notFound: spec.notFound ?? pathParamNames(spec.path).length > 0,
    bodyType: spec.input === 'json' ? 'json' : spec.input === 'binary' ? 'binary' : 'none',
    query: spec.input === 'query',
    summary: spec.summary,
  };
}

/** Names of the `{placeholders}` of a path, in order. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? [Name, ...PathParamNames<Rest>]
  : [];

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** Fills a path template; values are URI-encoded. */
export function fillPath(path: string, params: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') {
      throw new TypeError(`missing path parameter "${name}"`);
    }
    return encodeURIComponent(String(value));
  });
}
