/**
 * The request sender: one HTTP call with its timeout, retries and error mapping. Modelled on
 * stripe-node's RequestSender, written on the global `fetch` so it runs wherever fetch does
 * (Node ≥ 20, Deno, Bun, edge runtimes, browsers).
 *
 * Retry rule: a call is retried after a network failure, a timeout, a 429 or a 5xx answer; never
 * after any other 4xx (409 refusals included). A 429 is always safe to retry (the server did not run
 * the call). A network failure or a 5xx is retried only when the call is safe to repeat: a GET, or a
 * changing call that carries an `Idempotency-Key` (the same key on every attempt, so the server
 * replays instead of acting twice). The wait is `Retry-After` when the answer has one (capped), else
 * an exponential backoff with equal jitter.
 */
import { jitteredBackoff, type Sleep } from './backoff.ts';
import {
  ConnectionError,
  errorFromResponse,
  parseRetryAfter,
  ResponseValidationError,
  type SellerError,
} from './errors.ts';

export type { Sleep } from './backoff.ts';

/** How the sender behaves; `SellerClient` and `SandboxClient` fill it from their options. */
export interface TransportConfig {
  /** The service root, without a trailing slash: `http://127.0.0.1:8787`. */
  baseUrl: string;
  fetch: typeof fetch;
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

/** The result of one attempt: an answer, or an error with whether another attempt may help. */
type Attempt =
  | { ok: true; response: RawResponse }
  | { ok: false; error: SellerError; retryable: boolean; retryAfterMs?: number | undefined };

const TIMEOUT = Symbol('timeout');

export class Transport {
  constructor(readonly config: TransportConfig) {}

  /** Sends the request, retrying as the module comment describes; throws a `SellerError` on failure. */
  async send(request: OutgoingRequest): Promise<RawResponse> {
    const headers = this.headersOf(request);
    const maxRetries = request.maxRetries ?? this.config.maxRetries;
    const repeatable = request.method === 'GET' || request.method === 'HEAD' || request.idempotencyKey !== undefined;
    for (let attempt = 0; ; attempt++) {
      const result = await this.attempt(request, headers);
      if (result.ok) return result.response;
      const notRun = result.error.status === 429; // the server refused before running the call
      if (attempt >= maxRetries || !result.retryable || (!repeatable && !notRun)) {
        throw this.redact(result.error);
      }
      await this.config.sleep(this.delayMs(attempt, result.retryAfterMs), request.signal);
    }
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

  private async attempt(request: OutgoingRequest, headers: Record<string, string>): Promise<Attempt> {
    const outer = request.signal;
    if (outer?.aborted) throw outer.reason;
    const timeoutMs = request.timeoutMs ?? this.config.timeoutMs;
    const controller = new AbortController();
    const timer = timeoutMs > 0 && timeoutMs < Infinity ? setTimeout(() => controller.abort(TIMEOUT), timeoutMs) : undefined;
    const onAbort = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await this.config.fetch(request.url, {
        method: request.method,
        headers,
        body: request.body ?? null,
        signal: controller.signal,
      });
      const text = await res.text();
      return this.answer(res, text, request.operation);
    } catch (cause) {
      if (outer?.aborted) throw outer.reason;
      const timedOut = controller.signal.aborted && controller.signal.reason === TIMEOUT;
      const text = timedOut ? `no answer within ${timeoutMs} ms` : `could not reach ${originOf(request.url)}${causeText(cause)}`;
      return {
        ok: false,
        retryable: true,
        error: new ConnectionError({ operation: request.operation, cause, timedOut, text }),
      };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
  }

  private answer(res: Response, text: string, operation: string | undefined): Attempt {
    const requestId = res.headers.get('x-request-id') ?? undefined;
    let body: unknown = undefined;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        if (res.ok) {
          const issue = { path: [], message: 'the answer is not JSON' };
          return {
            ok: false,
            retryable: false,
            error: new ResponseValidationError({ status: res.status, requestId, operation, body: text, issues: [issue] }),
          };
        }
        body = text;
      }
    }
    if (res.ok) {
      const replayed = res.headers.get('idempotent-replayed') === 'true';
      return { ok: true, response: { status: res.status, headers: res.headers, body, requestId, replayed } };
    }
    const error = errorFromResponse(res.status, body, res.headers, operation);
    const retryable = res.status === 429 || res.status >= 500;
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    return { ok: false, error, retryable, retryAfterMs: retryAfter === undefined ? undefined : retryAfter * 1000 };
  }

  private redact<E extends Error>(error: E): E {
    const secret = this.config.secret;
    if (secret && error.message.includes(secret)) error.message = error.message.split(secret).join('[redacted]');
    return error;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the server';
  }
}

/** `: ECONNREFUSED` and the like, from the error chain of a failed fetch. */
function causeText(cause: unknown): string {
  let current: unknown = cause;
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return ` (${code})`;
    current = current.cause;
  }
  return cause instanceof Error && cause.message ? ` (${cause.message})` : '';
}
