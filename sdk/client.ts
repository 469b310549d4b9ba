/**
 * `SellerClient`: one method per operation of the contract (`client.orders.deliver(id, body)`),
 * plus `client.request()` for raw calls. Auth, idempotency keys, retries and error mapping live in
 * the transport; the methods are derived from the operation table (see methods.ts).
 *
 * Configuration is read lazily, at the first call: a client can be built before its key is known,
 * and a missing key is an `AuthenticationError` (code `no_key`) from that first call, before any
 * request is sent.
 */
import type { ApiOperationTypes } from './contract/types.ts';
import { apiRoutes } from './contract/routes/index.ts';
import { AuthenticationError } from './errors.ts';
import { deriveMethods, OperationCaller, queryString, type SectionMethods } from './methods.ts';
import { abortableSleep, type Sleep } from './backoff.ts';
import { DEFAULT_BASE_URL } from './defaults.ts';
import { newIdempotencyKey, Transport, type RawResponse } from './transport.ts';
import { orderPolling, type OrderPolling } from './watch.ts';

export const SDK_VERSION = '0.1.0';
export { DEFAULT_BASE_URL };

/** Options shared by `SellerClient` and `SandboxClient`. */
export interface CommonClientOptions {
  /**
   * Root of the service, without `/api/v1`.
   * @default process.env.SERVICE_BASE_URL, else 'http://127.0.0.1:8787'
   * @example { baseUrl: 'https://seller.example.com' }
   */
  baseUrl?: string | undefined;
  /**
   * Time limit of each attempt in milliseconds (the whole answer must arrive within it);
   * `0` or `Infinity` means none. A timed-out attempt is a `ConnectionError` and is retried.
   * @default 30000
   * @example { timeoutMs: 5_000 }
   */
  timeoutMs?: number | undefined;
  /**
   * Retries after a network failure, a timeout, a 429 or a 5xx (so `maxRetries + 1` attempts).
   * Other 4xx answers are never retried.
   * @default 2
   * @example { maxRetries: 0 }
   */
  maxRetries?: number | undefined;
  /**
   * The fetch to use: a mock in tests, an instrumented one in production.
   * @default globalThis.fetch
   * @example { fetch: (input, init) => { console.log(init?.method, input); return fetch(input, init) } }
   */
  fetch?: typeof fetch | undefined;
  /**
   * Appended to the SDK's `User-Agent` (`service-seller/0.1.0`).
   * @default undefined
   * @example { userAgent: 'my-shop-sync/2.3' }
   */
  userAgent?: string | undefined;
  /**
   * Check every answer against the contract: parse it through the operation's answer schema and
   * throw `ResponseValidationError` (with the path of each issue) on any difference, dropping
   * fields the contract does not know. For contract tests. By default (`false`) answers are read
   * tolerantly, as the server sent them: enum values and fields the contract does not know pass
   * through, and only what the SDK's own logic needs is checked (sdk/answers.ts). Strict mode loads
   * zod and the contract's schemas on its first call.
   * @default false
   * @example { strict: process.env.CONTRACT_TESTS === '1' }
   */
  strict?: boolean | undefined;
  /**
   * First backoff step in milliseconds; retry n waits between half and all of
   * `min(retryMaxDelayMs, retryBaseMs * 2^n)`. Mostly for tests.
   * @default 500
   * @example { retryBaseMs: 1 }
   */
  retryBaseMs?: number | undefined;
  /**
   * Longest backoff wait in milliseconds (without `Retry-After`).
   * @default 8000
   * @example { retryMaxDelayMs: 2_000 }
   */
  retryMaxDelayMs?: number | undefined;
  /**
   * Longest wait honoured from a `Retry-After` header, in milliseconds.
   * @default 60000
   * @example { retryAfterMaxMs: 10_000 }
   */
  retryAfterMaxMs?: number | undefined;
  /**
   * Waits between retries; replace it to record or skip the waits in tests.
   * @default a setTimeout that the call's signal cancels
   * @example { sleep: async (ms) => { waits.push(ms) } }
   */
  sleep?: Sleep | undefined;
}

export interface SellerClientOptions extends CommonClientOptions {
  /**
   * The API key (`service_live_…` or `service_test_…`), sent as `Authorization: Bearer`.
   * @default process.env.SERVICE_API_KEY
   * @example { apiKey: process.env.MY_SELLER_KEY }
   */
  apiKey?: string | undefined;
}

/** A raw call for `seller api METHOD PATH`. */
export interface RawRequest {
  /** @example 'GET' */
  method: string;
  /**
   * Path relative to the base URL, with the API prefix; may carry a query string.
   * @example '/api/v1/orders?needsAction=true'
   */
  path: string;
  /** Added to the query string; `undefined` values are dropped, booleans sent as `true`/`false`. */
  query?: Readonly<Record<string, unknown>> | undefined;
  /** JSON-serialised; a `Uint8Array`, `ArrayBuffer` or `Blob` is sent as raw bytes instead. */
  body?: unknown;
  /** @default 'application/json' for a JSON body; the Blob's type for raw bytes */
  contentType?: string | undefined;
  /** @default a fresh `crypto.randomUUID()` for every method but GET and HEAD */
  idempotencyKey?: string | undefined;
  /** Extra headers; they win over the SDK's own. @example { 'x-trace-id': 't1' } */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Cancels the call, its retries and waits. @example AbortSignal.timeout(5_000) */
  signal?: AbortSignal | undefined;
  /** Time limit of each attempt. @default the client's `timeoutMs` */
  timeoutMs?: number | undefined;
  /** @default the client's `maxRetries` */
  maxRetries?: number | undefined;
}

/** `globalThis.process?.env[name]`, so the SDK also runs where there is no `process`. */
export function readEnv(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Builds the sender for a bearer token; throws `AuthenticationError` (`no_key`) without one. */
export function createTransport(token: string | undefined, options: CommonClientOptions, missingTokenHint: string): Transport {
  if (!token) throw new AuthenticationError({ code: 'no_key', text: missingTokenHint });
  const baseUrl = resolveBaseUrl(options.baseUrl);
  const userAgent = `service-seller/${SDK_VERSION}${options.userAgent ? ` ${options.userAgent}` : ''}`;
  return new Transport({
    baseUrl,
    fetch: options.fetch, // none: ky calls the global fetch (read at each call) with its Request
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': userAgent },
    timeoutMs: options.timeoutMs ?? 30_000,
    maxRetries: Math.max(0, options.maxRetries ?? 2),
    retryBaseMs: options.retryBaseMs ?? 500,
    retryMaxDelayMs: options.retryMaxDelayMs ?? 8_000,
    retryAfterMaxMs: options.retryAfterMaxMs ?? 60_000,
    sleep: options.sleep ?? abortableSleep,
    random: Math.random,
    secret: token,
  });
}

/**
 * A client's sender, built at its first call from the token `tokenOf()` gives then: a client can be
 * made before its token is known, and a missing token fails that call (`no_key`), not the constructor.
 */
export class LazyTransport {
  #transport: Transport | undefined;

  constructor(
    readonly options: CommonClientOptions,
    private readonly tokenOf: () => string | undefined,
    private readonly missingTokenHint: string,
  ) {}

  /** The sender, built now if no call built it yet. */
  get(): Transport {
    return (this.#transport ??= createTransport(this.tokenOf(), this.options, this.missingTokenHint));
  }

  /** The sender if a call built it already. */
  get built(): Transport | undefined {
    return this.#transport;
  }

  /** What the derived methods call (`deriveMethods(routes, lazy.invoke())`). */
  invoke(): OperationCaller['invoke'] {
    return new OperationCaller(() => this.get(), this.options.strict ? 'strict' : 'tolerant').invoke;
  }
}

/** The base URL from the option, `SERVICE_BASE_URL` or the default, checked and without trailing `/`. */
export function resolveBaseUrl(option: string | undefined): string {
  const raw = option ?? readEnv('SERVICE_BASE_URL') ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`invalid base URL "${raw}": expected something like ${DEFAULT_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`invalid base URL "${raw}": only http and https are supported`);
  }
  return raw.replace(/\/+$/, '');
}

type ApiMethods = SectionMethods<ApiOperationTypes>;
/** The derived sections, with the polling helpers added to `orders` (sdk/watch.ts). */
type ClientSections = Omit<ApiMethods, 'orders'> & { orders: ApiMethods['orders'] & OrderPolling };

/**
 * The Seller API client.
 *
 * @example
 * const client = new SellerClient({ apiKey: process.env.SERVICE_API_KEY });
 * for await (const order of client.orders.list({ needsAction: true })) {
 *   await client.orders.deliver(order.id, { nextChargeDay: '2026-12-21' });
 * }
 */
export class SellerClient {
  readonly #sender: LazyTransport;

  constructor(options: SellerClientOptions = {}) {
    const own = { ...options };
    const hint = 'no API key: pass { apiKey } to new SellerClient() or set SERVICE_API_KEY';
    this.#sender = new LazyTransport(own, () => own.apiKey ?? readEnv('SERVICE_API_KEY'), hint);
    const sections = deriveMethods<ApiOperationTypes>(apiRoutes, this.#sender.invoke());
    // The polling helpers are not operations: non-enumerable, so `sections` still lists exactly the table.
    for (const [name, helper] of Object.entries(orderPolling(sections.orders))) {
      Object.defineProperty(sections.orders, name, { value: helper, enumerable: false });
    }
    Object.assign(this, sections);
  }

  /** The base URL calls go to (the option, `SERVICE_BASE_URL`, or the default). */
  get baseUrl(): string {
    return this.#sender.built?.config.baseUrl ?? resolveBaseUrl(this.#sender.options.baseUrl);
  }

  /**
   * A raw call: any method and path under the base URL, with the same auth, idempotency keys,
   * retries and error mapping as the methods; the answer body is not checked against the contract.
   *
   * @example
   * const { status, body, replayed } = await client.request({ method: 'POST', path: '/api/v1/hooks/resume' });
   */
  async request(request: RawRequest): Promise<RawResponse> {
    const transport = this.#sender.get();
    const method = request.method.toUpperCase();
    const path = request.path.startsWith('/') ? request.path : `/${request.path}`;
    let query = queryString(request.query);
    if (query && path.includes('?')) query = `&${query.slice(1)}`;
    let body: BodyInit | undefined;
    let contentType = request.contentType;
    const raw = request.body;
    if (raw instanceof Uint8Array || raw instanceof ArrayBuffer || raw instanceof Blob) {
      body = raw as BodyInit;
      contentType ??= raw instanceof Blob && raw.type ? raw.type : 'application/octet-stream';
    } else if (raw !== undefined) {
      body = JSON.stringify(raw);
      contentType ??= 'application/json';
    }
    const safe = method === 'GET' || method === 'HEAD';
    return transport.send({
      method,
      url: transport.config.baseUrl + path + query,
      body,
      contentType,
      idempotencyKey: safe ? undefined : (request.idempotencyKey ?? newIdempotencyKey()),
      headers: request.headers,
      signal: request.signal,
      timeoutMs: request.timeoutMs,
      maxRetries: request.maxRetries,
    });
  }
}

// The derived methods: `client.<section>.<verb>()` for every operation of `apiOperations`,
// plus `client.orders.watch()` and `client.orders.waitFor()`.
export interface SellerClient extends ClientSections {}
