/**
 * The shape of one row of the operation table. Server routes, SDK methods, CLI commands,
 * MCP tools and the OpenAPI document are all derived from these rows.
 */
import type { z } from 'zod';
import type { AnswerIssue } from '../errors.ts';
import type { Scope } from './common.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where an operation lives: the seller API, or the reference server's sandbox. */
export type Surface = 'api' | 'sandbox';

export const BASE_PATH: Record<Surface, string> = { api: '/api/v1', sandbox: '/sandbox/v1' };

export interface Operation<
  Id extends string = string,
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Answer extends z.ZodType = z.ZodType,
  Kinds extends string = string,
> {
  /** `section.verb`, e.g. `orders.deliver`; the SDK method is `client.orders.deliver()`. */
  id: Id;
  method: M;
  /** Path relative to the surface's base, with `{param}` placeholders. */
  path: P;
  surface: Surface;
  /** Scope the key needs; `null` means any key with at least one scope (only `GET /me`). */
  scope: Scope | null;
  /** Whether the call changes data (and so needs an `Idempotency-Key` on the API surface). */
  changes: boolean;
  /** Success status. */
  status: 200 | 201 | 202;
  params: Params;
  query: Query;
  /** JSON body schema; for `bodyType: 'binary'` the body is raw bytes and this is undefined. */
  body: Body;
  bodyType: 'json' | 'binary' | 'none';
  answer: Answer;
  /** Rule-refusal kinds (409 `rejected`) this operation may answer. */
  refusals: readonly Kinds[];
  /** How the list pages: by opaque cursor, by skip, or not at all. */
  paging: 'cursor' | 'skip' | null;
  /** Marketplace/buyer simulation that only the reference server offers. */
  serverOnly: boolean;
  summary: string;
}

export type AnyOperation = Operation<string, HttpMethod, string, any, any, any, any, string>;

interface OpSpec<
  Id extends string,
  M extends HttpMethod,
  P extends string,
  Params extends z.ZodType | undefined,
  Query extends z.ZodType | undefined,
  Body extends z.ZodType | undefined,
  Answer extends z.ZodType,
  Kinds extends string,
> {
  id: Id;
  method: M;
  path: P;
  scope: Scope | null;
  summary: string;
  answer: Answer;
  params?: Params;
  query?: Query;
  body?: Body;
  binaryBody?: boolean;
  status?: 200 | 201 | 202;
  refusals?: readonly Kinds[];
  paging?: 'cursor' | 'skip';
  surface?: Surface;
}

/** Declares one operation; `changes` follows from the method. */
export function op<
  const Id extends string,
  const M extends HttpMethod,
  const P extends string,
  Answer extends z.ZodType,
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  const Kinds extends string = never,
>(spec: OpSpec<Id, M, P, Params, Query, Body, Answer, Kinds>): Operation<Id, M, P, Params, Query, Body, Answer, Kinds> {
  const surface = spec.surface ?? 'api';
  return {
    id: spec.id,
    method: spec.method,
    path: spec.path,
    surface,
    scope: spec.scope,
    changes: spec.method !== 'GET',
    status: spec.status ?? 200,
    params: spec.params as Params,
    query: spec.query as Query,
    body: spec.body as Body,
    bodyType: spec.binaryBody ? 'binary' : spec.body ? 'json' : 'none',
    answer: spec.answer,
    refusals: spec.refusals ?? [],
    paging: spec.paging ?? null,
    serverOnly: surface === 'sandbox',
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

/** What a client needs of an operation to send it: everything but its schemas. */
export interface Route {
  id: string;
  method: HttpMethod;
  path: string;
  surface: Surface;
  changes: boolean;
  paging: 'cursor' | 'skip' | null;
  bodyType: 'json' | 'binary' | 'none';
  /** Whether the operation takes a query (its input is then the query). */
  query: boolean;
}

export function routeOf(op: AnyOperation): Route {
  const { id, method, path, surface, changes, paging, bodyType } = op;
  return { id, method, path, surface, changes, paging, bodyType, query: op.query !== undefined };
}

/** The verdict on an answer: the parsed value (unknown fields dropped), or what is wrong with it. */
export type Checked = { success: true; data: unknown } | { success: false; issues: AnswerIssue[] };

/** A table as the clients use it at run time: the routes, and the check of an operation's answer. */
export interface RouteTable {
  routes: readonly Route[];
  check(id: string, answer: unknown): Checked;
}
