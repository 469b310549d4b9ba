/**
 * One JSON-RPC exchange on behalf of an authenticated key: runs operations through the very
 * pipeline HTTP routes use (`execute`: rules, scopes, idempotency, rate limit), and makes every
 * message cost exactly one token of the key's bucket (and of its seller's), the ones HTTP calls draw from.
 */
import type { FastifyBaseLogger } from 'fastify';
import { BASE_PATH, fillPath, type AnyOperation, type ErrorBody, type ErrorCode } from '../../sdk/contract/index.ts';
import type { Caller } from '../auth.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { execute } from '../http/execute.ts';
import { RpcCode, RpcFault } from './jsonrpc.ts';

type AnyHandler = Parameters<typeof execute>[1];

/** Codes that concern the key or its bucket, not one tool: answered at the HTTP level (401/403/429). */
const TRANSPORT_CODES = new Set<ErrorCode>(['no_key', 'bad_key', 'revoked', 'not_seller', 'seller_blocked', 'rate']);

/** Headers of a pipeline answer worth passing on to the HTTP answer of the exchange. */
const PASSED_HEADERS = ['ratelimit', 'ratelimit-policy', 'retry-after', 'www-authenticate'];

/** A refusal of the whole POST: the HTTP status and the API error body. */
export class TransportRefusal extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;
  constructor(status: number, body: ErrorBody, headers: Record<string, string>) {
    super(body.error);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }

  static from(err: ApiError): TransportRefusal {
    return new TransportRefusal(err.status, err.toBody(), err.headers);
  }
}

export interface OpInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  raw?: Buffer;
  contentType?: string;
  idempotencyKey?: string;
}

export interface OpAnswer {
  status: number;
  body: unknown;
  /** The answer was replayed for a repeated idempotency key. */
  replayed: boolean;
}

export class Exchange {
  readonly svc: ServerContext;
  readonly caller: Caller;
  /** Headers for the HTTP answer (rate-limit state). */
  readonly headers: Record<string, string> = {};
  readonly #handlers: Record<string, unknown>;
  readonly #authorization: string | undefined;
  readonly #log: FastifyBaseLogger;
  #charged = false;

  constructor(svc: ServerContext, handlers: Record<string, unknown>, caller: Caller, authorization: string | undefined, log: FastifyBaseLogger) {
    this.svc = svc;
    this.caller = caller;
    this.#handlers = handlers;
    this.#authorization = authorization;
    this.#log = log;
  }

  /** Whether this server implements an operation. */
  serves(opId: string): boolean {
    return typeof this.#handlers[opId] === 'function';
  }

  /** Takes this message's token, unless the pipeline already decided about it. */
  charge(): void {
    if (this.#charged) return;
    this.#charged = true;
    try {
      Object.assign(this.headers, this.svc.limiter.take(this.caller.key.id, this.svc.clock.nowMs(), this.caller.seller.id));
    } catch (err) {
      if (err instanceof ApiError) throw TransportRefusal.from(err);
      throw err;
    }
  }

  /**
   * Runs one operation through `execute`. Auth and rate failures become a `TransportRefusal`; a
   * 5xx becomes an internal JSON-RPC error; every other answer (2xx, 4xx) is returned as it is.
   */
  async run(op: AnyOperation, input: OpInput): Promise<OpAnswer> {
    const handler = this.#handlers[op.id] as AnyHandler | undefined;
    if (!handler) throw new RpcFault(RpcCode.methodNotFound, `this server does not implement ${op.id}`);
    this.#charged = true; // the pipeline takes the token (or refuses before it, as for HTTP)
    const result = await execute(this.svc, handler, {
      op,
      path: concretePath(op, input.params ?? {}),
      authorization: this.#authorization,
      idempotencyKey: input.idempotencyKey,
      params: input.params ?? {},
      query: input.query ?? {},
      body: input.body,
      raw: input.raw,
      contentType: input.contentType,
    });
    for (const name of PASSED_HEADERS) if (result.headers[name] !== undefined) this.headers[name] = result.headers[name];
    const body = result.body as ErrorBody;
    if (result.status >= 500) {
      this.#log.error({ err: result.error, op: op.id }, 'unexpected error in a tool call');
      throw new RpcFault(RpcCode.internalError, 'internal error; the request id identifies it in the server log');
    }
    if (result.status >= 400 && TRANSPORT_CODES.has(body.error)) {
      throw new TransportRefusal(result.status, body, result.headers);
    }
    return { status: result.status, body: result.body, replayed: result.headers['idempotent-replayed'] === 'true' };
  }
}

/** The path as HTTP would have it (the idempotency fingerprint includes it); a missing parameter is left for validation to name. */
function concretePath(op: AnyOperation, params: Record<string, unknown>): string {
  try {
    return BASE_PATH.api + fillPath(op.path, params);
  } catch {
    return BASE_PATH.api + op.path;
  }
}
