/**
 * From a failure to what the person reads and the exit code (gh's convention):
 * 0 ok, 1 error, 2 usage or cancelled, 4 authentication/authorisation.
 *
 * Every message is `error: <code>: <detail>` on stderr, followed by hint lines saying what to do.
 */
import { AUTH_CODES, ERROR_STATUS } from '../../sdk/contract/constants.ts';
import { AuthenticationError, ConnectionError, detailMessage, MethodNotAllowedError, PermissionError, RateLimitError, RejectedError, ResponseValidationError, SellerError, ServerError } from '../../sdk/errors.ts';
import { detailData, detailWords, kindWords, reasonWords } from '../i18n/error-words.ts';
import { has, language, t } from '../i18n/index.ts';
import type { IO } from './io.ts';
import { DEFAULT_BASE_URL } from '../../sdk/defaults.ts';

export const EXIT = { ok: 0, error: 1, usage: 2, auth: 4, interrupted: 130 } as const;

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
    super(t('errors.cancelled'), EXIT.usage);
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
    return { lines: [t('errors.prefix', { message: error.message }), ...(error.hint ? [error.hint] : [])], exitCode: error.exitCode };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { lines: [t('errors.prefix', { message })], exitCode: EXIT.error };
}

/** The first line of an error's report without its `error: ` prefix: a failure named inside another sentence. */
export const errorLine = (error: unknown): string => withoutErrorPrefix(describeError(error).lines[0] ?? String(error));

/** A report's line without its `error: ` prefix (in the active language). */
export function withoutErrorPrefix(line: string): string {
  const prefix = t('errors.prefix', { message: '' });
  return line.startsWith(prefix) ? line.slice(prefix.length) : line;
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
  const first = error instanceof RejectedError ? refusalLine(error) : t('errors.withCode', { code: error.code, detail: detailOf(error) });
  const [head = first, ...rest] = notTheApi(error) ?? [first, ...hintsOf(error, context)];
  const lines = [head, ...triesOf(error), ...rest];
  if (error.requestId) lines.push(t('errors.requestId', { id: error.requestId }));
  // A code the contract does not know (`seller_frozen`) on a 401 or 403 is about the key or the account too.
  const auth = (AUTH_CODES as readonly string[]).includes(error.code) || error instanceof AuthenticationError || error instanceof PermissionError;
  const exitCode = auth ? EXIT.auth : EXIT.error;
  return { lines, exitCode };
}

/** A failure after retries: how many tries over how long (`3 tries over 1.4 s`). */
function triesOf(error: SellerError): string[] {
  if (error.attempts <= 1 || error.elapsedMs === undefined) return [];
  const seconds = new Intl.NumberFormat(language(), { maximumFractionDigits: 1 }).format(error.elapsedMs / 1000);
  return [t('errors.tries', { count: error.attempts, seconds })];
}

const addressHint = () => t('errors.addressHint', { defaultUrl: DEFAULT_BASE_URL });

/**
 * An answer that is not the API's (a web page, another program on that port, a proxy's error page)
 * means the address is probably not the Seller API, or a gateway in front of it failed: say so
 * rather than "no such record". A JSON answer without the envelope on a 2xx is contract drift, not this.
 */
function notTheApi(error: SellerError): string[] | undefined {
  const { status, body } = error;
  if (status === undefined || status === 429) return undefined;
  if (typeof body === 'object' && body !== null && (status < 400 || typeof (body as { error?: unknown }).error === 'string')) return undefined;
  const params = { code: error.code, status };
  if (status >= 500) return [t('errors.notTheApiGateway', params), t('errors.tryLater', { hint: addressHint() })];
  return [t('errors.notTheApi', params), addressHint()];
}

/**
 * The detail of a service failure in the run's language, from its data (cli/i18n/error-words.ts):
 * what was not found, the admin token, the request's issues, else the catalogue's words for the
 * code. The service's English is shown only for a code this CLI does not know (a newer service's).
 */
function detailOf(error: SellerError): string {
  if (error instanceof PermissionError && error.neededScope) return t('errors.detail.lacksScope', { scope: error.neededScope });
  if (error instanceof ConnectionError) return connectionWords(error);
  if (error instanceof ResponseValidationError) return invalidAnswerWords(error);
  const said = detailWords(error.code, error.detail);
  if (said !== undefined) return said;
  if (has(`errors.detail.${error.code}`)) return t(`errors.detail.${error.code}`);
  return detailMessage(error.detail) ?? stripCode(error.message);
}

/** No answer: where the call went and the system's code, or the time limit (data of the SDK's error, not its English; the autopilot's failures carry the same). */
export function connectionWords(error: Pick<ConnectionError, 'timedOut' | 'timeoutMs' | 'origin' | 'errno'>): string {
  if (error.timedOut) return error.timeoutMs === undefined ? t('errors.detail.timedOut') : t('errors.detail.timedOutIn', { seconds: error.timeoutMs / 1000 });
  if (error.origin === undefined) return t('errors.detail.connection');
  return error.errno === undefined ? t('errors.detail.connectionTo', { origin: error.origin }) : t('errors.detail.connectionToWhy', { origin: error.origin, errno: error.errno });
}

/** An answer that does not match the contract: where, if known (a path is data, not English). */
function invalidAnswerWords(error: ResponseValidationError): string {
  return error.path.length > 0 ? t('errors.detail.invalidResponseAt', { path: error.path.map(String).join('.') }) : t('errors.detail.invalid_response');
}

/** The SDK's message is `code: text [operation, …]`; the CLI prints the code itself. */
function stripCode(message: string): string {
  return message.replace(/^[a-z_]+(?: \([^)]*\))?: /, '').replace(/ \[[^\]]*\]$/, '');
}

/**
 * A refusal in words first, its code after them (`error: the stock of this card is empty
 * (rejected: stock_empty)`): the catalogue's words for its reason, else for its kind; the service's
 * English detail only for a kind this CLI does not know.
 */
function refusalLine(error: RejectedError): string {
  const { kind } = error.refusal;
  const english = detailMessage(error.detail)?.replace(`${kind}: `, '') || undefined;
  const words = reasonWords(error.refusal) ?? kindWords(kind) ?? english ?? t('errors.detail.ruleRefusedWords');
  return t('errors.refusalLine', { words, code: error.code, kind });
}

function hintsOf(error: SellerError, context: ErrorContext = {}): string[] {
  // The sandbox authenticates with the server's admin token, not an API key.
  if (error.operation?.startsWith('sandbox.') && (error.code === 'no_key' || error.code === 'bad_key')) {
    return [t('errors.hint.sandboxToken')];
  }
  // A key from SERVICE_API_KEY wins over the profile: `seller login` cannot help, the variable can.
  if (context.keyFromEnv && (error.code === 'bad_key' || error.code === 'revoked')) return [t(`errors.hint.${error.code}Env`)];
  switch (error.code) {
    case 'no_key':
    case 'bad_key':
    case 'revoked':
    case 'not_seller':
    case 'seller_blocked':
    case 'idempotency_mismatch':
    case 'idempotency_key_required':
    case 'connection':
    case 'internal':
    case 'unavailable':
      return [t(`errors.hint.${error.code}`)];
    case 'scope':
      return [scopeHint(error)];
    case 'rate':
      return [rateHint(error)];
    case 'rejected':
      return refusalHints(error as RejectedError);
    case 'method_not_allowed': {
      // The path exists with other methods (`seller api DELETE /me`): name them.
      const allowed = error instanceof MethodNotAllowedError ? error.allowed.filter((m) => m !== 'HEAD') : [];
      return [allowed.length > 0 ? t('errors.hint.method_not_allowed', { allowed: allowed.join(', ') }) : t('errors.hint.method_not_allowedAny')];
    }
    case 'not_found':
      // The server's answer for a path it has no route for: a wrong address or a wrong `seller api` path.
      if (isNoRoute(error.detail)) {
        return [t('errors.hint.noRoute', { hint: addressHint() })];
      }
      return [notFoundHint(error.detail)];
    default:
      return KNOWN_CODES.has(error.code) || error.status === undefined
        ? []
        : [t('errors.hint.unknownCode', { status: error.status })];
  }
}

/** Codes of the contract, and those the SDK gives itself. */
const KNOWN_CODES: ReadonlySet<string> = new Set([...Object.keys(ERROR_STATUS), 'connection', 'invalid_response']);

function scopeHint(error: SellerError): string {
  const scope = error instanceof PermissionError ? error.neededScope : undefined;
  return scope ? t('errors.hint.scope', { scope }) : t('errors.hint.scopeAny');
}

function rateHint(error: SellerError): string {
  const seconds = error instanceof RateLimitError ? error.retryAfterSeconds : undefined;
  return seconds === undefined ? t('errors.hint.rateLater') : t('errors.hint.rateIn', { seconds: Math.ceil(seconds) });
}

/** A `not_found` for a path the service has no route for (`record: 'route'`: data, never its English). */
function isNoRoute(detail: unknown): boolean {
  return detailData(detail)?.['record'] === 'route';
}

/** What to check for a `not_found`: the record's own way to find it (a card has a number, never a slug), else the id. */
function notFoundHint(detail: unknown): string {
  const record = detailData(detail)?.['record'];
  return typeof record === 'string' && has(`errors.hint.notFoundOf.${record}`) ? t(`errors.hint.notFoundOf.${record}`) : t('errors.hint.not_found');
}

/**
 * Whether the same call again may succeed: no answer, a 5xx or a rate limit. A refusal, a missing
 * record, a bad key or request answers the same the next time.
 */
export function mayPassAgain(error: unknown): boolean {
  return error instanceof ConnectionError || error instanceof ServerError || error instanceof RateLimitError;
}

/** Values a reason's words already say, not repeated as lines of their own. */
const SAID_BY_WORDS: ReadonlySet<string> = new Set(['length', 'expected', 'max', 'tail', 'record', 'id', 'holder', 'until']);

function refusalHints(error: RejectedError): string[] {
  return [t('errors.refusal.refused', { kind: error.refusal.kind }), ...refusalValueLines(error.refusal)];
}

/** A refusal's values, a line each (`field: slaMinutes`, `allowed values: 30, 120, 1440`), less those its reason's words already say. */
export function refusalValueLines(refusal: { kind: string; reason?: unknown } & Record<string, unknown>): string[] {
  const { kind: _kind, field, allowed, reason, status, ...rest } = refusal;
  const lines: string[] = [];
  const byReason = reasonWords(refusal) !== undefined;
  if (field !== undefined) lines.push(t('errors.refusal.field', { field }));
  if (Array.isArray(allowed)) lines.push(t('errors.refusal.allowed', { allowed: allowed.join(', ') }));
  if (reason !== undefined && !byReason) lines.push(t('errors.refusal.reason', { reason }));
  if (typeof status === 'string') lines.push(t('errors.refusal.status', { status: has(`enums.orderStatus.${status}`) ? t(`enums.orderStatus.${status}`) : status }));
  for (const [name, value] of Object.entries(rest)) {
    if (byReason && SAID_BY_WORDS.has(name)) continue;
    lines.push(t('errors.refusal.other', { name, value: typeof value === 'string' ? value : JSON.stringify(value) }));
  }
  return lines;
}
