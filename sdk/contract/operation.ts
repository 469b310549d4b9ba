/**
 * The shape of one row of the operation table: a route (sdk/contract/route.ts, plain data) joined
 * with its schemas. Server routes, strict SDK answer checks, MCP tools and the OpenAPI document are
 * derived from these rows; the clients send calls from the routes alone.
 */
import type { z } from 'zod';
import type { HttpMethod, Route } from './route.ts';

export { BASE_PATH, fillPath, pathParamNames, route } from './route.ts';
export type { HttpMethod, InputKind, PathParamNames, Route, Surface } from './route.ts';

export interface Operation<
  Id extends string = string,
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Answer extends z.ZodType = z.ZodType,
  Kinds extends string = string,
> extends Omit<Route<Id, M, P, Kinds>, 'query'> {
  params: Params;
  query: Query;
  /** JSON body schema; for `bodyType: 'binary'` the body is raw bytes and this is undefined. */
  body: Body;
  answer: Answer;
  /** Marketplace/buyer simulation that only the reference server offers. */
  serverOnly: boolean;
}

export type AnyOperation = Operation<string, HttpMethod, string, any, any, any, any, string>;

interface Schemas<
  Params extends z.ZodType | undefined,
  Query extends z.ZodType | undefined,
  Body extends z.ZodType | undefined,
  Answer extends z.ZodType,
> {
  answer: Answer;
  params?: Params;
  query?: Query;
  body?: Body;
}

/**
 * Joins a route with its schemas. Throws when they disagree (a query schema for a route declared
 * without a query, a body for a route without one, and so on), so that a mistake stops every test
 * at load.
 */
export function op<
  const Id extends string,
  const M extends HttpMethod,
  const P extends string,
  const Kinds extends string,
  Answer extends z.ZodType,
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
>(route: Route<Id, M, P, Kinds>, schemas: Schemas<Params, Query, Body, Answer>): Operation<Id, M, P, Params, Query, Body, Answer, Kinds> {
  const disagree = (what: string) => new TypeError(`contract: ${route.id}: ${what}`);
  if ((schemas.query !== undefined) !== route.query) throw disagree(`the route says query ${route.query}, the schemas ${schemas.query !== undefined}`);
  if ((schemas.body !== undefined) !== (route.bodyType === 'json')) throw disagree(`the route's body is ${route.bodyType}, the schemas have ${schemas.body ? 'a' : 'no'} body`);
  if ((schemas.params !== undefined) !== route.path.includes('{')) throw disagree('path parameters and their schema disagree');
  const { query: _query, ...rest } = route;
  return {
    ...rest,
    params: schemas.params as Params,
    query: schemas.query as Query,
    body: schemas.body as Body,
    answer: schemas.answer,
    serverOnly: route.surface === 'sandbox',
  };
}
