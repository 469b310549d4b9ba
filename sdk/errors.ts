/**
 * Typed errors of the SDK. Every failed call throws a `SellerError`; the subclass follows the
 * error code of the answer (gaps.md, "HTTP conventions"), so callers branch with `instanceof` or
 * on `err.code`, and narrow rule refusals per operation with `isRejected(err, 'orders.deliver')`.
 *
 * Messages are written for people (`rejected (state_moved): … [orders.deliver, request r_1]`) and
 * never carry the API key.
 */
import type { ApiOperationTypes, ErrorCode, Refusal, SandboxOperationTypes } from './contract/types.ts';
import { ERROR_STATUS } from './contract/constants.ts';

/** An error code the contract knows, or one the SDK assigns when no usable answer came back. */
export type KnownErrorCode = ErrorCode | 'connection' | 'invalid_response';

/**
 * The `code` of a `SellerError`: a known code, or any other code the server sent (`seller_frozen`),
 * carried as it came; the error's class then follows the HTTP status.
 */
export type SellerErrorCode = KnownErrorCode | (string & {});

/**
 * The `detail` of an error body: the contract's object (`{message, needed?, record?, id?, credential?,
 * issues?}`, sdk/contract/common.ts `ErrorDetail`), or a sentence from an older service, as it came.
 */
export type ErrorDetail = string | Record<string, unknown> | undefined;

/** Every operation the SDK knows, API and sandbox, keyed by id. */
export type KnownOperations = ApiOperationTypes & SandboxOperationTypes;
export type KnownOperationId = keyof KnownOperations & string;

/** The rule-refusal kinds an operation may answer: `RefusalKindOf<'orders.deliver'>`. */
export type RefusalKindOf<Id extends KnownOperationId> = KnownOperations[Id]['refusals'][number];

/** A rule refusal whose `kind` is typed. */
export type TypedRefusal<Kind extends string = string> = Omit<Refusal, 'kind'> & { kind: Kind };

export interface SellerErrorInit {
  code: SellerErrorCode;
  /** HTTP status of the answer; `undefined` when no answer came back. */
  status?: number | undefined;
  detail?: ErrorDetail;
  requestId?: string | undefined;
  operation?: string | undefined;
  body?: unknown;
  cause?: unknown;
  /** The human part of the message; a default per code is used when absent. */
  text?: string | undefined;
  /** How many attempts were made (the first and its retries); undefined: one. */
  attempts?: number | undefined;
  /** Milliseconds from the first attempt to the failure, when more than one was made. */
  elapsedMs?: number | undefined;
}

/** Base class of every error the SDK throws for a call. */
export class SellerError extends Error {
  override name = 'SellerError';
  /**
   * The API error code as the server sent it (one the contract does not know included), or
   * `connection` / `invalid_response` for client-side failures.
   */
  readonly code: SellerErrorCode;
  /** HTTP status; `undefined` when the server never answered (connection errors, timeouts). */
  readonly status: number | undefined;
  /** `detail` of the error body. */
  readonly detail: ErrorDetail;
  /** `x-request-id` of the answer, to quote when asking for help. */
  readonly requestId: string | undefined;
  /** The operation id (`orders.deliver`); `undefined` for raw `client.request()` calls. */
  readonly operation: string | undefined;
  /** The parsed answer body (or its text when it was not JSON). */
  readonly body: unknown;
  /** How many attempts the call made before it failed (1 when it was not retried). */
  attempts: number;
  /** Milliseconds from the first attempt to the failure; undefined when it was not retried. */
  elapsedMs: number | undefined;

  constructor(init: SellerErrorInit) {
    super(formatMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.operation = init.operation;
    this.body = init.body;
    this.attempts = init.attempts ?? 1;
    this.elapsedMs = init.elapsedMs;
  }
}

/** 400: `bad_request` (see `detail`) or `idempotency_key_required`. */
export class BadRequestError extends SellerError {
  override name = 'BadRequestError';
}

/** 401: `no_key`, `bad_key` or `revoked`. Also thrown before any request when no key is configured. */
export class AuthenticationError extends SellerError {
  override name = 'AuthenticationError';
}

/** 403: `not_seller`, `seller_blocked` or `scope`. */
export class PermissionError extends SellerError {
  override name = 'PermissionError';
  /** For `scope`: the scope the key lacks (`detail.needed`). */
  readonly neededScope: string | undefined;

  constructor(init: SellerErrorInit) {
    super(init);
    const needed = typeof init.detail === 'object' ? init.detail['needed'] : undefined;
    this.neededScope = typeof needed === 'string' ? needed : undefined;
  }
}

/** 404 `not_found`: the record is absent or belongs to another seller (the two look the same). */
export class NotFoundError extends SellerError {
  override name = 'NotFoundError';
}

/**
 * 405 `method_not_allowed`: the path exists, but not with this method (a raw call with a wrong
 * method, or a client older or newer than the server). `allowed` holds the answer's `Allow` methods.
 */
export class MethodNotAllowedError extends SellerError {
  override name = 'MethodNotAllowedError';
  /** The methods the path serves (`Allow`), upper-case; empty when the answer named none. */
  readonly allowed: readonly string[];

  constructor(init: SellerErrorInit & { allowed?: readonly string[] }) {
    super(init);
    this.allowed = init.allowed ?? [];
  }
}

/**
 * 409 `rejected`: a rule refused the call. `refusal.kind` says which; narrow it per operation with
 * `isRejected(err, 'orders.deliver')`, which types `kind` as that operation's refusal kinds.
 */
export class RejectedError<Kind extends string = string> extends SellerError {
  override name = 'RejectedError';
  readonly refusal: TypedRefusal<Kind>;

  constructor(init: SellerErrorInit & { refusal: TypedRefusal<Kind> }) {
    super(init);
    this.refusal = init.refusal;
  }
}

/** 422 `idempotency_mismatch`: the key was already used with a different request. */
export class IdempotencyMismatchError extends SellerError {
  override name = 'IdempotencyMismatchError';
}

/** 429 `rate`, thrown once the retries are used up. */
export class RateLimitError extends SellerError {
  override name = 'RateLimitError';
  /** `Retry-After` of the last answer, in seconds. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: SellerErrorInit & { retryAfterSeconds?: number | undefined }) {
    super(init);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** 5xx (`internal`, `unavailable`: a 503, the service down for a while), thrown once the retries are used up. */
export class ServerError extends SellerError {
  override name = 'ServerError';
}

/** No answer: the network failed or the attempt timed out (`timedOut`). `cause` keeps the original. */
export class ConnectionError extends SellerError {
  override name = 'ConnectionError';
  readonly timedOut: boolean;
  /** The origin the call went to (`http://127.0.0.1:8080`), when known. */
  readonly origin: string | undefined;
  /** The attempt's time limit, for a timeout. */
  readonly timeoutMs: number | undefined;
  /** The system's code of the failure (`ECONNREFUSED`), when there is one. */
  readonly errno: string | undefined;

  constructor(init: Omit<SellerErrorInit, 'code'> & { timedOut?: boolean; origin?: string | undefined; timeoutMs?: number | undefined; errno?: string | undefined }) {
    super({ ...init, code: 'connection' });
    this.timedOut = init.timedOut ?? false;
    this.origin = init.origin;
    this.timeoutMs = init.timeoutMs;
    this.errno = init.errno;
  }
}

/** One problem found in an answer: by the tolerant reader (sdk/answers.ts) or, in strict mode, by zod (sdk/strict.ts). */
export interface AnswerIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string | undefined;
}

/** A 2xx answer that does not match the operation's answer schema (or is not JSON). */
export class ResponseValidationError extends SellerError {
  override name = 'ResponseValidationError';
  readonly issues: readonly AnswerIssue[];
  /** Path of the first issue, e.g. `['items', 0, 'status']`. */
  readonly path: readonly PropertyKey[];

  constructor(init: Omit<SellerErrorInit, 'code'> & { issues: readonly AnswerIssue[] }) {
    const first = init.issues[0];
    const where = first && first.path.length > 0 ? ` at ${first.path.map(String).join('.')}` : '';
    const text =
      init.text ?? `the answer does not match the contract${where}${first ? `: ${first.message}` : ''}`;
    super({ ...init, code: 'invalid_response', text });
    this.issues = init.issues;
    this.path = first?.path ?? [];
  }
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/** Whether a value is an error thrown by this SDK. */
export function isSellerError(value: unknown): value is SellerError {
  return value instanceof SellerError;
}

/**
 * Whether `err` is a rule refusal, optionally of the given operation; narrows `err.refusal.kind`
 * to that operation's kinds.
 *
 * @example
 * try { await client.orders.deliver(id, {}) }
 * catch (err) {
 *   if (isRejected(err, 'orders.deliver') && err.refusal.kind === 'need_next_charge') { … }
 * }
 */
export function isRejected<Id extends KnownOperationId>(
  err: unknown,
  operation: Id,
): err is RejectedError<RefusalKindOf<Id>>;
export function isRejected(err: unknown): err is RejectedError;
export function isRejected(err: unknown, operation?: string): boolean {
  return err instanceof RejectedError && (operation === undefined || err.operation === operation);
}

/** Something with a `get(name)` like `Headers`. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Parses `Retry-After` (seconds or an HTTP date) into seconds; `undefined` when absent or invalid. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

interface Envelope {
  error: string;
  detail?: ErrorDetail;
  refusal?: Refusal;
}

/** A code as the API writes one: lower-case words joined by `_` (so an HTML page's text is none). */
const CODE = /^[a-z][a-z0-9_.-]{0,63}$/;

/** The error envelope `{error, detail?, refusal?}` of a body, whatever its code; undefined without one. */
function asEnvelope(body: unknown): Envelope | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { error, detail, refusal } = body as Record<string, unknown>;
  if (typeof error !== 'string' || !CODE.test(error)) return undefined;
  const envelope: Envelope = { error };
  if (typeof detail === 'string' || (typeof detail === 'object' && detail !== null && !Array.isArray(detail))) {
    envelope.detail = detail as ErrorDetail;
  }
  if (typeof refusal === 'object' && refusal !== null && typeof (refusal as Refusal).kind === 'string') {
    envelope.refusal = refusal as Refusal;
  }
  return envelope;
}

/**
 * Turns a non-2xx answer into the matching error. A code the contract knows picks its class; any
 * other code (`{"error": "seller_frozen"}` with a 403) is carried as it came, in the class its HTTP
 * status calls for (400 `BadRequestError`, 401 `AuthenticationError`, 403 `PermissionError`, 404
 * `NotFoundError`, 405 `MethodNotAllowedError`, 409 `RejectedError`, 422 `IdempotencyMismatchError`, 429 `RateLimitError`, 5xx
 * `ServerError`, else `SellerError`). A body without the error envelope (a proxy's HTML page, say)
 * gets the code its status calls for (`internal`, `unavailable` for a 503, `rate`, `not_found`…; `invalid_response` when none).
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: HeaderReader | undefined,
  operation?: string,
): SellerError {
  const envelope = asEnvelope(body);
  const code: SellerErrorCode = envelope?.error ?? codeOfStatus(status);
  const init: SellerErrorInit = {
    code,
    status,
    detail: envelope?.detail,
    requestId: headers?.get('x-request-id') ?? undefined,
    operation,
    body,
  };
  const known = Object.hasOwn(ERROR_STATUS, code) ? (code as ErrorCode) : undefined;
  switch (known ?? classOfStatus(status)) {
    case 'bad_request':
    case 'idempotency_key_required':
      return new BadRequestError(init);
    case 'no_key':
    case 'bad_key':
    case 'revoked':
      return new AuthenticationError(init);
    case 'not_seller':
    case 'seller_blocked':
    case 'scope':
      return new PermissionError(init);
    case 'not_found':
      return new NotFoundError(init);
    case 'method_not_allowed':
      return new MethodNotAllowedError({ ...init, allowed: parseAllow(headers?.get('allow')) });
    case 'rejected':
      return new RejectedError({ ...init, refusal: envelope?.refusal ?? { kind: known ? 'unknown' : code } });
    case 'idempotency_mismatch':
      return new IdempotencyMismatchError(init);
    case 'rate':
      return new RateLimitError({ ...init, retryAfterSeconds: parseRetryAfter(headers?.get('retry-after')) });
    case 'internal':
    case 'unavailable':
      return new ServerError(init);
    default:
      return new SellerError(envelope ? init : { ...init, text: `unexpected HTTP ${status} answer without an error body` });
  }
}

/** The methods of an `Allow` header (`GET, HEAD`), upper-case. */
function parseAllow(value: string | null | undefined): string[] {
  return (value ?? '').split(',').map((m) => m.trim().toUpperCase()).filter((m) => /^[A-Z]+$/.test(m));
}

/** The code of an answer without an error envelope, from its status. */
function codeOfStatus(status: number): KnownErrorCode {
  return status === 503 ? 'unavailable' : status >= 500 ? 'internal' : status === 429 ? 'rate' : status === 404 ? 'not_found' : 'invalid_response';
}

/** A known code standing for the class an unknown code with this status belongs to. */
function classOfStatus(status: number): ErrorCode | undefined {
  if (status >= 500) return 'internal';
  const byStatus: Record<number, ErrorCode> = {
    400: 'bad_request',
    401: 'bad_key',
    403: 'scope',
    404: 'not_found',
    405: 'method_not_allowed',
    409: 'rejected',
    422: 'idempotency_mismatch',
    429: 'rate',
  };
  return byStatus[status];
}

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

const DEFAULT_TEXT: Record<KnownErrorCode, string> = {
  bad_request: 'the request is malformed',
  idempotency_key_required: 'a changing call needs an Idempotency-Key header',
  no_key: 'no API key was presented',
  bad_key: 'the API key is not recognised',
  revoked: 'the API key was revoked',
  not_seller: "the key's owner is not a seller",
  seller_blocked: 'the seller is blocked',
  scope: 'the API key lacks the scope this call needs',
  not_found: 'the record does not exist or is not yours',
  method_not_allowed: 'the path does not take this method',
  rejected: 'a rule refused the call',
  idempotency_mismatch: 'the Idempotency-Key was already used with a different request',
  rate: 'rate limit exceeded',
  internal: 'the server failed',
  unavailable: 'the service is unavailable for a while',
  connection: 'the server could not be reached',
  invalid_response: 'the answer could not be understood',
};

const MAX_DETAIL = 300;

/** The English text of a detail: a string as it is, an object's `message`, else the object as JSON. */
export function detailMessage(detail: ErrorDetail): string | undefined {
  if (detail === undefined) return undefined;
  if (typeof detail === 'string') return detail;
  return typeof detail['message'] === 'string' ? detail['message'] : JSON.stringify(detail);
}

function detailText(detail: ErrorDetail): string | undefined {
  const text = detailMessage(detail);
  if (text === undefined) return undefined;
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

function refusalText(refusal: Refusal | undefined): string {
  if (!refusal) return '';
  const extras = [
    refusal.field !== undefined ? `field ${refusal.field}` : '',
    refusal.reason !== undefined ? `reason ${refusal.reason}` : '',
    refusal.allowed !== undefined ? `allowed: ${refusal.allowed.join(', ')}` : '',
  ].filter(Boolean);
  return extras.length > 0 ? ` (${extras.join('; ')})` : '';
}

function formatMessage(init: SellerErrorInit & { refusal?: Refusal; retryAfterSeconds?: number | undefined }): string {
  const kind = init.refusal ? ` (${init.refusal.kind})` : '';
  let text = init.text ?? detailText(init.detail) ?? (Object.hasOwn(DEFAULT_TEXT, init.code) ? DEFAULT_TEXT[init.code as KnownErrorCode] : 'the server refused the call');
  if (init.code === 'scope' && typeof init.detail === 'object' && typeof init.detail['needed'] === 'string') {
    text = `the API key lacks the "${init.detail['needed']}" scope`;
  }
  if (init.code === 'rate' && init.retryAfterSeconds !== undefined) text += `; retry after ${init.retryAfterSeconds} s`;
  const where = [init.operation, init.status !== undefined ? `HTTP ${init.status}` : '', init.requestId ? `request ${init.requestId}` : '']
    .filter(Boolean)
    .join(', ');
  return `${init.code}${kind}: ${text}${refusalText(init.refusal)}${where ? ` [${where}]` : ''}`;
}
