/**
 * The request sender: one HTTP call with its timeout, retries and error mapping, on ky (the
 * project's HTTP client; docs/decisions.md), so it runs wherever fetch does (Node ≥ 20, Deno, Bun,
 * edge runtimes, browsers). ky sends, times out each attempt and decides when to retry by the rule
 * below (its `shouldRetry`); the wait between attempts is this module's own (`beforeRetry`), so
 * that `Retry-After` is capped rather than refused and a test can record the waits (`sleep`).
 *
 * Retry rule: a call is retried after a network failure, a timeout, a 429 or a 5xx answer; never
 * after any other 4xx (409 refusals included). A 429 is always safe to retry (the server did not run
 * the call). A network failure or a 5xx is retried only when the call is safe to repeat: a GET, or a
 * changing call that carries an `Idempotency-Key` (the same key on every attempt, so the server
 * replays instead of acting twice). The wait is `Retry-After` when the answer has one (capped), else
 * an exponential backoff with equal jitter.
 */
import type { Options as KyOptions } from 'ky';
import { jitteredBackoff, type Sleep } from './backoff.ts';
import {
  ConnectionError,
  errorFromResponse,
  parseRetryAfter,
  ResponseValidationError,
  SellerError,
} from './errors.ts';

export type { Sleep } from './backoff.ts';

/** How the sender behaves; `SellerClient` and `SandboxClient` fill it from their options. */
export interface TransportConfig {
  /** The service root, without a trailing slash: `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** The caller's fetch; undefined: the global one, read at each call (so a mock installed later is used). */
  fetch?: typeof fetch | undefined;
  /** Headers sent on every call (authorization, accept, user agent). */
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  retryAfterMaxMs: number;
  sleep: Sleep;
  random: () => number;
  /** A value that must never appear in an error message (the API key). */
  secret?: string | undefined;
}

/** One call, ready to send. */
export interface OutgoingRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  body?: BodyInit | undefined;
  contentType?: string | undefined;
  idempotencyKey?: string | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /** Operation id, for error messages. */
  operation?: string | undefined;
}

/** A 2xx answer; the body is parsed JSON (or `undefined` when empty). */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: unknown;
  /** `x-request-id` of the answer. */
  requestId: string | undefined;
  /** Whether the server replayed a stored answer (`Idempotent-Replayed: true`). */
  replayed: boolean;
}

/** A fresh v4 UUID for an `Idempotency-Key`. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

type Ky = typeof import('ky');
let kyModule: Promise<Ky> | undefined;
/**
 * ky, loaded by the first call: its module reads fetch's classes (`Request`, `ReadableStream`) as it
 * loads, which on Node starts undici (~30 ms), a cost a CLI command that sends nothing must not pay.
 */
const loadKy = (): Promise<Ky> => (kyModule ??= import('ky'));

/** ky's longest timeout (setTimeout's limit); a longer one means none. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export class Transport {
  constructor(readonly config: TransportConfig) {}

  /** Sends the request, retrying as the module comment describes; throws a `SellerError` on failure. */
  async send(request: OutgoingRequest): Promise<RawResponse> {
    const outer = request.signal;
    if (outer?.aborted) throw outer.reason;
    const timeoutMs = request.timeoutMs ?? this.config.timeoutMs;
    const repeatable = request.method === 'GET' || request.method === 'HEAD' || request.idempotencyKey !== undefined;
    const k = await loadKy();
    let response: Response;
    const startedAt = Date.now();
    let attempts = 1;
    try {
      response = await k.default(request.url, {
        method: request.method,
        headers: this.headersOf(request),
        body: request.body ?? null,
        signal: outer,
        timeout: timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS ? timeoutMs : false,
        ...(this.config.fetch ? { fetch: this.fetchOf(this.config.fetch, request.body) } : {}),
        retry: {
          limit: request.maxRetries ?? this.config.maxRetries,
          methods: ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'],
          // The decision is all shouldRetry's; the wait is beforeRetry's, so ky's own is nil.
          shouldRetry: ({ error }) => !outer?.aborted && retryable(k, error, repeatable),
          delay: () => 0,
          jitter: false,
        },
        hooks: {
          beforeRetry: [
            ({ error, retryCount }) => {
              attempts = retryCount + 1;
              return this.config.sleep(this.delayMs(retryCount - 1, retryAfterMsOf(k, error)), outer);
            },
          ],
        },
      });
    } catch (error) {
      if (outer?.aborted) throw outer.reason;
      const failure = await this.failure(k, error, request, timeoutMs);
      // A failure after retries says how many tries over how long (the CLI words it).
      if (failure instanceof SellerError && attempts > 1) {
        failure.attempts = attempts;
        failure.elapsedMs = Date.now() - startedAt;
      }
      throw this.redact(failure);
    }
    return this.answer(response, await response.text(), request.operation);
  }

  /** The wait before retry number `attempt + 1`. */
  delayMs(attempt: number, retryAfterMs?: number): number {
    const { retryBaseMs, retryMaxDelayMs, retryAfterMaxMs, random } = this.config;
    if (retryAfterMs !== undefined) return Math.min(retryAfterMs, retryAfterMaxMs);
    return jitteredBackoff(attempt, retryBaseMs, retryMaxDelayMs, random);
  }

  private headersOf(request: OutgoingRequest): Record<string, string> {
    const headers: Record<string, string> = { ...this.config.headers };
    if (request.contentType !== undefined) headers['content-type'] = request.contentType;
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    if (request.headers) {
      for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    }
    return headers;
  }

  /**
   * A caller's fetch as ky calls it. ky hands fetch a `Request`; the SDK's `fetch` option is
   * called as `fetch(url, init)` (method, headers, the body as given, ky's signal), as a caller's
   * own fetch (the CLI's, a test's) expects. Without one, ky calls the global fetch with its
   * `Request` as it is (no second `Request` built from it: issue 32, the SDK's own cost per call).
   */
  private fetchOf(fetch: typeof globalThis.fetch, body: BodyInit | undefined): NonNullable<KyOptions['fetch']> {
    return (input) => {
      const request = input as Request;
      return fetch(request.url, { method: request.method, headers: request.headers, body: body ?? null, signal: request.signal });
    };
  }

  /** The `SellerError` for what ky threw: an answer that is not 2xx, a timeout, a network failure. */
  private async failure(k: Ky, error: unknown, request: OutgoingRequest, timeoutMs: number): Promise<Error> {
    if (error instanceof k.HTTPError) {
      const read = this.read(error.response, await error.response.text().catch(() => ''), request.operation);
      return read instanceof Error ? read : new TypeError(`unexpected answer ${read.status}`);
    }
    const timedOut = error instanceof k.TimeoutError;
    const origin = originOf(request.url);
    const text = timedOut ? `no answer within ${timeoutMs} ms` : `could not reach ${origin ?? 'the server'}${causeText(error)}`;
    return new ConnectionError({ operation: request.operation, cause: error, timedOut, text, origin, timeoutMs: timedOut ? timeoutMs : undefined, errno: errnoOf(error) });
  }

  /** A 2xx answer read, or else the error it is thrown as. */
  private answer(res: Response, text: string, operation: string | undefined): RawResponse {
    const read = this.read(res, text, operation);
    if (read instanceof Error) throw this.redact(read);
    return read;
  }

  /** An answer read: a 2xx as a `RawResponse`, else its `SellerError` (a 2xx that is not JSON too). */
  private read(res: Response, text: string, operation: string | undefined): RawResponse | SellerError {
    const requestId = res.headers.get('x-request-id') ?? undefined;
    let body: unknown = undefined;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        if (res.ok) {
          const issue = { path: [], message: 'the answer is not JSON' };
          return new ResponseValidationError({ status: res.status, requestId, operation, body: text, issues: [issue] });
        }
        body = text;
      }
    }
    if (!res.ok) return errorFromResponse(res.status, body, res.headers, operation);
    const replayed = res.headers.get('idempotent-replayed') === 'true';
    return { status: res.status, headers: res.headers, body, requestId, replayed };
  }

  private redact<E extends Error>(error: E): E {
    const secret = this.config.secret;
    if (secret && error.message.includes(secret)) error.message = error.message.split(secret).join('[redacted]');
    return error;
  }
}

/** Whether another attempt may help (see the module comment). */
function retryable(k: Ky, error: Error, repeatable: boolean): boolean {
  if (error instanceof k.HTTPError) {
    const status = error.response.status;
    // A 429: the server did not run the call, so even an unkeyed change may be sent again.
    return status === 429 || (status >= 500 && repeatable);
  }
  // A timeout or a network failure: the call may have run.
  return repeatable;
}

/** `Retry-After` of an answer ky threw for, in milliseconds. */
function retryAfterMsOf(k: Ky, error: Error): number | undefined {
  if (!(error instanceof k.HTTPError)) return undefined;
  const seconds = parseRetryAfter(error.response.headers.get('retry-after'));
  return seconds === undefined ? undefined : seconds * 1000;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** `ECONNREFUSED` and the like, from the error chain of a failed fetch. */
function errnoOf(cause: unknown): string | undefined {
  let current: unknown = cause;
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

/** ` (ECONNREFUSED)` and the like, for the English message. */
function causeText(cause: unknown): string {
  const errno = errnoOf(cause);
  if (errno !== undefined) return ` (${errno})`;
  return cause instanceof Error && cause.message ? ` (${cause.message})` : '';
}
