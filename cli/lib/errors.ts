/**
 * From a failure to what the person reads and the exit code (gh's convention):
 * 0 ok, 1 error, 2 usage or cancelled, 4 authentication/authorisation.
 *
 * Every message is `error: <code>: <detail>` on stderr, followed by hint lines saying what to do.
 */
import { AUTH_CODES, ERROR_STATUS } from '../../sdk/contract/constants.ts';
import { AuthenticationError, PermissionError, RateLimitError, RejectedError, SellerError } from '../../sdk/errors.ts';
import type { IO } from './io.ts';

export const EXIT = { ok: 0, error: 1, usage: 2, auth: 4 } as const;

/** A failure the CLI itself detects, with its exit code and an optional hint. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.error,
    readonly hint?: string,
    /** The service's failure this explains (its code still reaches `--json`). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** Wrong or missing arguments: exit 2. */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint);
  }
}

/** The person said no, or pressed Ctrl-C in a prompt: exit 2. */
export class CancelledError extends CliError {
  override name = 'CancelledError';
  constructor() {
    super('cancelled', EXIT.usage);
  }
}

export interface Report {
  lines: string[];
  exitCode: number;
}

/** What the failing command's setting adds to the report. */
export interface ErrorContext {
  /** The API key came from SERVICE_API_KEY (which wins over the profile): a key hint names it. */
  keyFromEnv?: boolean | undefined;
}

/** Describes any thrown value; never includes a key (the SDK redacts it from messages). */
export function describeError(error: unknown, context: ErrorContext = {}): Report {
  if (error instanceof SellerError) return describeSellerError(error, context);
  if (error instanceof CliError) {
    return { lines: [`error: ${error.message}`, ...(error.hint ? [error.hint] : [])], exitCode: error.exitCode };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { lines: [`error: ${message}`], exitCode: EXIT.error };
}

/**
 * Writes the report on stderr and answers the exit code. With `--json`, a failure from the service
 * is also one JSON line on stderr (`{"error": code, "detail"?, "refusal"?, "requestId"?}`), so a
 * script reads the code without parsing words.
 */
export function reportError(io: IO, error: unknown, options: { json?: boolean } = {}): number {
  const keyFromEnv = io.env.SERVICE_API_KEY !== undefined && io.env.SERVICE_API_KEY !== '';
  const { lines, exitCode } = describeError(error, { keyFromEnv });
  for (const line of lines) io.stderr.write(`${line}\n`);
  const service = error instanceof SellerError ? error : error instanceof CliError && error.cause instanceof SellerError ? error.cause : undefined;
  if (options.json && service) io.stderr.write(`${JSON.stringify(errorJson(service))}\n`);
  return exitCode;
}

/** The machine-readable form of a service failure. */
function errorJson(error: SellerError): Record<string, unknown> {
  return {
    error: error.code,
    ...(error.detail !== undefined ? { detail: error.detail } : {}),
    ...(error instanceof RejectedError ? { refusal: error.refusal } : {}),
    ...(error.requestId ? { requestId: error.requestId } : {}),
  };
}

function describeSellerError(error: SellerError, context: ErrorContext): Report {
  const first = error instanceof RejectedError ? refusalLine(error) : `error: ${error.code}: ${detailOf(error)}`;
  const lines = notTheApi(error) ?? [first, ...hintsOf(error, context)];
  if (error.requestId) lines.push(`request id: ${error.requestId}`);
  // A code the contract does not know (`seller_frozen`) on a 401 or 403 is about the key or the account too.
  const auth = (AUTH_CODES as readonly string[]).includes(error.code) || error instanceof AuthenticationError || error instanceof PermissionError;
  const exitCode = auth ? EXIT.auth : EXIT.error;
  return { lines, exitCode };
}

const ADDRESS_HINT = 'check the service address (--base-url or SERVICE_BASE_URL): the root of the service, such as http://127.0.0.1:8787, without /api/v1';

/**
 * An answer that is not the API's (a web page, another program on that port, a proxy's error page)
 * means the address is probably not the Seller API, or a gateway in front of it failed: say so
 * rather than "no such record". A JSON answer without the envelope on a 2xx is contract drift, not this.
 */
function notTheApi(error: SellerError): string[] | undefined {
  const { status, body } = error;
  if (status === undefined || status === 429) return undefined;
  if (typeof body === 'object' && body !== null && (status < 400 || typeof (body as { error?: unknown }).error === 'string')) return undefined;
  const first = `error: ${error.code}: HTTP ${status} answer that is not from the Seller API`;
  if (status >= 500) return [`${first} (a proxy or gateway failing?)`, `try again later; if it persists, ${ADDRESS_HINT}`];
  return [first, ADDRESS_HINT];
}

const DEFAULT_DETAIL: Record<string, string> = {
  no_key: 'no API key',
  bad_key: 'the API key is not recognised',
  revoked: 'the API key was revoked',
  not_seller: 'the owner of this key is not a seller',
  seller_blocked: 'the seller is blocked',
  not_found: 'no such record (or it is not yours)',
  rate: 'too many requests',
  internal: 'the server failed',
};

function detailOf(error: SellerError): string {
  if (error instanceof PermissionError && error.neededScope) return `this key lacks the "${error.neededScope}" scope`;
  const { detail } = error;
  if (typeof detail === 'string' && detail) return detail;
  if (error instanceof RejectedError) return `a rule refused the call (${error.refusal.kind})`;
  if (detail && typeof detail === 'object') return JSON.stringify(detail);
  if (error.status === undefined || error.code === 'invalid_response') return stripCode(error.message);
  return DEFAULT_DETAIL[error.code] ?? stripCode(error.message);
}

/** The SDK's message is `code: text [operation, …]`; the CLI prints the code itself. */
function stripCode(message: string): string {
  return message.replace(/^[a-z_]+(?: \([^)]*\))?: /, '').replace(/ \[[^\]]*\]$/, '');
}

/** A refusal in words first, its code after them: `error: the card was refused … (rejected: complaint)`. */
function refusalLine(error: RejectedError): string {
  const kind = error.refusal.kind;
  const detail = typeof error.detail === 'string' && error.detail ? error.detail.replace(new RegExp(`^${kind}: `), '') : undefined;
  return `error: ${detail ?? REFUSAL_WORDS[kind] ?? 'a marketplace rule refused the call'} (rejected: ${kind})`;
}

/** Words for refusals the service may send without a detail. */
const REFUSAL_WORDS: Record<string, string> = {
  complaint: 'the marketplace does not accept this card as it is',
  contacts: 'the text holds contact details, which the marketplace forbids',
  stock_empty: 'there is no free stock for auto-delivery',
  state_moved: 'the order is no longer in a state that allows this',
  need_next_charge: 'this order needs the date of the next charge at the vendor',
  already_opened: "the buyer's vault was already read",
  not_disputed: 'the order is not disputed',
  url: 'the service does not accept this webhook address',
  no_events: 'no event kind the service knows was given',
  capacity: 'your capacity of orders in progress is full',
  do_not_disturb: 'you take no new orders now (do-not-disturb or quiet hours)',
  inactive: 'the card is switched off',
  nickname_taken: 'that nickname is taken',
  inn_bad: 'the INN is not valid',
  vault_off: 'the vault is off on this service',
  scope_escalation: 'a key cannot grant scopes it does not have',
  test_to_real_needs_papers: 'real sales need the admission papers first',
};

function hintsOf(error: SellerError, context: ErrorContext = {}): string[] {
  // The sandbox authenticates with the server's admin token, not an API key.
  if (error.operation?.startsWith('sandbox.') && (error.code === 'no_key' || error.code === 'bad_key')) {
    return ['the sandbox needs the admin token that seller-server printed at start: --admin-token or SERVICE_ADMIN_TOKEN'];
  }
  switch (error.code) {
    case 'no_key':
      return ['run `seller login`, or set SERVICE_API_KEY'];
    case 'bad_key':
      if (context.keyFromEnv) return ['the key comes from SERVICE_API_KEY (it wins over the saved profile): correct SERVICE_API_KEY, or unset it to use the profile'];
      return ['the key is wrong or mistyped: run `seller login` with a valid key'];
    case 'revoked':
      if (context.keyFromEnv) return ['the key in SERVICE_API_KEY was revoked: put a current key in SERVICE_API_KEY (`seller keys issue` makes one), or unset it to use the profile'];
      return ['this key was revoked: issue a new one (`seller keys issue`) and run `seller login` with it'];
    case 'not_seller':
      return ['this key does not belong to a seller account; log in with a seller key: `seller login`'];
    case 'seller_blocked':
      return ['the seller account is blocked; contact marketplace support'];
    case 'scope':
      return [scopeHint(error)];
    case 'rate':
      return [rateHint(error)];
    case 'rejected':
      return refusalHints(error as RejectedError);
    case 'not_found':
      // The server's answer for a path it has no route for: a wrong address or a wrong `seller api` path.
      if (typeof error.detail === 'string' && error.detail.startsWith('no route ')) {
        return [`no such API path; ${ADDRESS_HINT}`];
      }
      return ['check the id or slug; records of other sellers look absent too'];
    case 'idempotency_mismatch':
      return ['this idempotency key was used for a different request; use a new key'];
    case 'idempotency_key_required':
      return ['changing calls need an idempotency key: pass --idempotency-key'];
    case 'connection':
      return ['is the server running? set the address with --base-url or SERVICE_BASE_URL'];
    case 'internal':
      return ['the server failed; try again later'];
    default:
      return KNOWN_CODES.has(error.code) || error.status === undefined
        ? []
        : [`the service answered with a code this version of seller does not know (HTTP ${error.status}); the detail above is the service's own`];
  }
}

/** Codes of the contract, and those the SDK gives itself. */
const KNOWN_CODES: ReadonlySet<string> = new Set([...Object.keys(ERROR_STATUS), 'connection', 'invalid_response']);

function scopeHint(error: SellerError): string {
  const scope = error instanceof PermissionError ? error.neededScope : undefined;
  if (!scope) return 'this key lacks a scope; issue a key with it: `seller keys issue --scope SCOPE`';
  return `this key lacks scope ${scope}; issue a key with it: \`seller keys issue --scope ${scope}\``;
}

function rateHint(error: SellerError): string {
  const seconds = error instanceof RateLimitError ? error.retryAfterSeconds : undefined;
  return seconds === undefined ? 'retry in a little while' : `retry in ${Math.ceil(seconds)} s`;
}

function refusalHints(error: RejectedError): string[] {
  const { kind, field, allowed, reason, ...rest } = error.refusal;
  const lines = [`refused: ${kind}`];
  if (field !== undefined) lines.push(`field: ${field}`);
  if (Array.isArray(allowed)) lines.push(`allowed values: ${allowed.join(', ')}`);
  if (reason !== undefined) lines.push(`reason: ${reason}`);
  for (const [name, value] of Object.entries(rest)) lines.push(`${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return lines;
}
