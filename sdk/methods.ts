/**
 * From the operation table to methods, at runtime and in the types. Nothing here names an
 * endpoint: `orders.deliver` in the table becomes `client.orders.deliver(id, body, options?)`
 * because of its row alone (the octokit way). The types come from the contract's type table
 * (sdk/contract/types.ts: the schemas' input and output types, written out at build time).
 *
 * Signature of a derived method:
 *   1. the path parameters, positionally in path order (`{number}`, `{bot}`, `{chat}` numbers, the others strings);
 *   2. the input: the body's input type for JSON-body operations, the query's for
 *      operations with a query, `{data, contentType}` for the image upload; optional when no field
 *      is required, absent when the operation takes none. Enum fields accept any string besides
 *      the known values (`Widened`, sdk/open.ts): the real catalogue, not our enums, decides;
 *   3. `RequestOptions`, optional.
 * It returns `Promise<Tolerant<answer>>` (unknown enum values and fields included), or a
 * `PagedCall` for paged lists.
 */
import type { OperationTypes as AnyOperation } from './contract/types.ts';
import { BASE_PATH, fillPath, pathParamNames, type PathParamNames, type Route } from './contract/route.ts';
import type { IMAGE_TYPES } from './contract/constants.ts';
import { loadStrictCheck, readTolerant, type AnswerMode, type Checked } from './answers.ts';
import { ResponseValidationError } from './errors.ts';
import type { Tolerant, Widened } from './open.ts';
import { nextByCursor, nextBySkip, PagedCall, type NextQuery } from './pagination.ts';
import { newIdempotencyKey, type OutgoingRequest, type Transport } from './transport.ts';

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  /**
   * `Idempotency-Key` of a changing call. The same key is sent on every retry of the call.
   * @default a fresh `crypto.randomUUID()` per call
   * @example { idempotencyKey: `deliver-${orderId}` }
   */
  idempotencyKey?: string | undefined;
  /**
   * Cancels the call (and its retries and backoff waits); the call rejects with the signal's reason.
   * @example { signal: AbortSignal.timeout(5_000) }
   */
  signal?: AbortSignal | undefined;
  /**
   * Time limit of each attempt, in milliseconds.
   * @default the client's `timeoutMs`
   */
  timeoutMs?: number | undefined;
  /**
   * Retries after a network failure, a timeout, a 429 or a 5xx.
   * @default the client's `maxRetries`
   */
  maxRetries?: number | undefined;
  /**
   * Extra request headers; they win over the SDK's own.
   * @example { headers: { 'x-trace-id': traceId } }
   */
  headers?: Readonly<Record<string, string>> | undefined;
}

/** Operations whose body is raw bytes rather than JSON (the table's `bodyType: 'binary'`). */
export type BinaryOperationId = 'listings.setImage';

export type ImageType = (typeof IMAGE_TYPES)[number];

/** The input of the image upload: raw bytes and their type. */
export interface ImageUpload {
  data: Uint8Array | ArrayBuffer | Blob;
  contentType: ImageType;
}

/** Path parameters that are numbers: a card's `number`, a Telegram `bot` and `chat` of the sandbox. */
type NumericParam = 'number' | 'bot' | 'chat';

type ParamTypes<Names extends string[]> = { [K in keyof Names]: Names[K] extends NumericParam ? number : string };

/** The path arguments of an operation: `[id: string]`, `[number: number]`, `[]`. */
export type PathArgs<Op extends AnyOperation> = ParamTypes<PathParamNames<Op['path']>>;

type InputArg<T> = {} extends T ? [input?: T] : [input: T];

/** The input argument of an operation, if it takes one. */
export type InputArgs<Op extends AnyOperation> = Op['id'] extends BinaryOperationId
  ? [upload: ImageUpload]
  : [Op['body']] extends [undefined]
    ? [Op['query']] extends [undefined]
      ? []
      : InputArg<Widened<Op['query']>>
    : InputArg<Widened<Op['body']>>;

/** What the operation answers, as a tolerant client reads it (sdk/open.ts). */
export type AnswerOf<Op extends AnyOperation> = Tolerant<Op['answer']>;

/** The input of an operation (body or query), or `undefined` when it takes none. */
export type InputOf<Op extends AnyOperation> = InputArgs<Op> extends [] ? undefined : NonNullable<InputArgs<Op>[0]>;

/** The result of a method: a `PagedCall` for paged lists, else a promise of the answer. */
export type ResultOf<Op extends AnyOperation> =
  AnswerOf<Op> extends { items: (infer Item)[]; nextCursor: string | null }
    ? PagedCall<Item, AnswerOf<Op>>
    : AnswerOf<Op> extends { items: (infer Item)[]; total: number }
      ? PagedCall<Item, AnswerOf<Op>>
      : Promise<AnswerOf<Op>>;

/** The method derived from one operation. */
export type MethodOf<Op extends AnyOperation> = (
  ...args: [...PathArgs<Op>, ...InputArgs<Op>, options?: RequestOptions]
) => ResultOf<Op>;

type SectionOf<Id> = Id extends `${infer Section}.${string}` ? Section : never;

/** `{ [section]: { [verb]: method } }` for a table keyed `section.verb`. */
export type SectionMethods<Ops extends Record<string, AnyOperation>> = {
  [S in SectionOf<keyof Ops>]: {
    [Id in keyof Ops as Id extends `${S}.${infer Verb}` ? Verb : never]: MethodOf<Ops[Id]>;
  };
};

// ---------------------------------------------------------------------------
// Runtime
// ---------------------------------------------------------------------------

type AnyPage = { items: unknown[] };

/** Runs one operation with its arguments sorted out; `OperationCaller.invoke` is the usual one. */
export type Invoke = (
  route: Route,
  params: Record<string, unknown>,
  input: unknown,
  options: RequestOptions | undefined,
) => unknown;

/**
 * Builds `{section: {verb: method}}` from a table's routes (sdk/contract/routes/); each method sorts its
 * arguments and calls `invoke`. `Ops` is the table the routes come from, for the types.
 */
export function deriveMethods<Ops extends Record<string, AnyOperation>>(routes: readonly Route[], invoke: Invoke): SectionMethods<Ops> {
  const sections: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const dot = route.id.indexOf('.');
    const section = route.id.slice(0, dot);
    const verb = route.id.slice(dot + 1);
    (sections[section] ??= {})[verb] = methodOf(route, invoke);
  }
  return sections as SectionMethods<Ops>;
}

function methodOf(route: Route, invoke: Invoke): (...args: unknown[]) => unknown {
  const names = pathParamNames(route.path);
  const arity = names.length;
  const takesInput = route.bodyType !== 'none' || route.query;
  const method = (...args: unknown[]) => {
    const params: Record<string, unknown> = {};
    for (let i = 0; i < arity; i++) params[names[i]!] = args[i];
    const input = takesInput ? args[arity] : undefined;
    const options = args[takesInput ? arity + 1 : arity] as RequestOptions | undefined;
    return invoke(route, params, input, options);
  };
  Object.defineProperty(method, 'name', { value: route.id });
  return method;
}

/**
 * Turns an operation call into an HTTP request and its answer into data: URL and query, body,
 * idempotency key (changing calls of the API surface), answer reading (sdk/answers.ts), and paging.
 */
export class OperationCaller {
  /**
   * @param transport gives the sender; called on every call, so it may throw (no API key, say).
   * @param mode `tolerant` reads answers as they come (checking only what paging needs);
   *   `strict` parses each through its operation's schema.
   */
  constructor(
    private readonly transport: () => Transport,
    private readonly mode: AnswerMode,
  ) {}

  readonly invoke: Invoke = (route, params, input, options) => {
    if (route.paging !== null) {
      const next = (route.paging === 'cursor' ? nextByCursor : nextBySkip) as NextQuery<Record<string, unknown>, AnyPage>;
      const fetchPage = (query: Record<string, unknown>): Promise<AnyPage> => this.call(route, params, query, options);
      return new PagedCall(fetchPage, (input ?? {}) as Record<string, unknown>, next);
    }
    return this.call(route, params, input, options);
  };

  /** Sends one operation and reads its answer. */
  async call(route: Route, params: Record<string, unknown>, input: unknown, options: RequestOptions | undefined): Promise<any> {
    const transport = this.transport();
    const request = requestOf(transport.config.baseUrl, route, params, input, options);
    const response = await transport.send(request);
    const checked = this.mode === 'strict' ? strictStatus(route, response.status) ?? (await loadStrictCheck())(route.id, response.body) : readTolerant(route, response.body);
    if (checked.success) return checked.data;
    throw new ResponseValidationError({
      status: response.status,
      requestId: response.requestId,
      operation: route.id,
      body: response.body,
      issues: checked.issues,
    });
  }
}

/** Strict mode holds the success status to the contract's too (a 200 where 201 is declared is drift). */
function strictStatus(route: Route, status: number): Checked | undefined {
  if (status === route.status) return undefined;
  return { success: false, issues: [{ path: [], message: `HTTP ${status} where the contract says ${route.status}`, code: 'status' }] };
}

/** The HTTP request of an operation call. */
export function requestOf(
  baseUrl: string,
  route: Route,
  params: Record<string, unknown>,
  input: unknown,
  options: RequestOptions | undefined,
): OutgoingRequest {
  const path = route.path.includes('{') ? fillPath(route.path, params) : route.path;
  const query = route.query ? queryString(input as Record<string, unknown> | undefined) : '';
  const request: OutgoingRequest = {
    method: route.method,
    url: baseUrl + BASE_PATH[route.surface] + path + query,
    operation: route.id,
    signal: options?.signal,
    timeoutMs: options?.timeoutMs,
    maxRetries: options?.maxRetries,
    headers: options?.headers,
  };
  if (route.bodyType === 'json') {
    request.body = JSON.stringify(input ?? {});
    request.contentType = 'application/json';
  } else if (route.bodyType === 'binary') {
    const upload = input as ImageUpload;
    request.body = upload.data as BodyInit;
    request.contentType = upload.contentType ?? (upload.data instanceof Blob ? upload.data.type : undefined);
  }
  if (route.surface === 'api' && route.changes) request.idempotencyKey = options?.idempotencyKey ?? newIdempotencyKey();
  return request;
}

/** `?a=1&b=true`: `undefined` and `null` dropped, booleans as `true`/`false`, arrays repeated. */
export function queryString(query: Readonly<Record<string, unknown>> | undefined): string {
  if (!query) return '';
  let out = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = item instanceof Date ? item.toISOString() : String(item);
      out += `${out ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(text)}`;
    }
  }
  return out;
}
