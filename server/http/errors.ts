/**
 * Errors a handler throws, and the one function that turns any error, and any domain refusal
 * (server/domain/refusal.ts), into the API's envelope. No stack trace or internal message ever
 * reaches an answer.
 */
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail, type NotFoundRecord, type RequestIssue } from '../../sdk/contract/index.ts';
import { Refusal } from '../domain/refusal.ts';

/** The data of an error answer beside its English `message` (sdk/contract/common.ts `ErrorDetail`). */
export type ErrorData = Omit<ErrorDetail, 'message'>;

/**
 * An error with one of the contract's codes. Its answer's `detail` is an object: the English
 * `message` for developers and the data a client says in its own words (`record`, `issues`, …).
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly detail: ErrorDetail;
  readonly headers: Record<string, string>;
  constructor(code: ErrorCode, message: string, data: ErrorData = {}, headers: Record<string, string> = {}) {
    super(`${code}: ${message}`);
    this.code = code;
    this.detail = { message, ...data };
    this.headers = headers;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
  toBody(): ErrorBody {
    return { error: this.code, detail: this.detail };
  }
}

/** A `bad_request` of one issue the server finds before (or instead of) a schema. */
export const badRequest = (path: (string | number)[], code: RequestIssue['code'], message: string): ApiError =>
  new ApiError('bad_request', `${path.join('.')}: ${message}`, { issues: [{ path, code, message }] });

/** The body of an answer the server gives outside a handler (fastify's own refusals, no route). */
export const errorBody = (code: ErrorCode, message: string, data: ErrorData = {}): ErrorBody => ({ error: code, detail: { message, ...data } });

export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/**
 * Any thrown value, or a refusal a handler answered → the envelope. A refusal is a 409
 * `{error:'rejected', refusal:{kind, ...details}, detail?}`. Unknown errors become 500 `internal`,
 * logged by the caller.
 */
export function toErrorAnswer(err: unknown): ErrorAnswer & { unexpected: boolean } {
  if (err instanceof Refusal) {
    const body: ErrorBody = { error: 'rejected', refusal: err.details() as ErrorBody['refusal'] & object };
    if (err.detail !== undefined) body.detail = err.detail;
    return { status: ERROR_STATUS.rejected, body, headers: {}, unexpected: false };
  }
  if (err instanceof ApiError) return { status: err.status, body: err.toBody(), headers: err.headers, unexpected: false };
  return { status: 500, body: errorBody('internal', INTERNAL_MESSAGE), headers: {}, unexpected: true };
}

/** The message of every 500: nothing of the failure itself reaches an answer. */
export const INTERNAL_MESSAGE = 'internal error; the request id identifies it in the server log';

/** How a record is named in a `not_found` message for developers (`no card 1002`). */
const RECORD_WORDS: Record<NotFoundRecord, string> = {
  card: 'card',
  order: 'order',
  seller: 'seller',
  position: 'catalogue position',
  catalog_request: 'catalogue request',
  hook: 'event subscription',
  question: 'question',
  review: 'review',
  key: 'key',
  vault: 'vault',
  image: 'image',
  probe: 'probe receiver',
  fault: 'fault',
  delivery: 'delivery',
  telegram_bot: 'Telegram bot',
  telegram_message: 'Telegram message',
  route: 'route',
};

/** The English message of a `not_found`: `no card 1002`, `no such key`. */
export const notFoundMessage = (record: NotFoundRecord, id?: string | number): string =>
  id === undefined ? `no such ${RECORD_WORDS[record]}` : `no ${RECORD_WORDS[record]} ${id}`;

/** The body of a `bad_request` of one issue, for answers sent outside a handler. */
export const requestError = (path: (string | number)[], code: RequestIssue['code'], message: string): ErrorBody => badRequest(path, code, message).toBody();
