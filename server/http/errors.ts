/**
 * Errors a handler throws, and the one function that turns any error, and any domain refusal
 * (server/domain/refusal.ts), into the API's envelope. No stack trace or internal message ever
 * reaches an answer.
 */
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../../sdk/contract/index.ts';
import { Refusal } from '../domain/refusal.ts';

/** An error with one of the contract's codes. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly detail: ErrorBody['detail'];
  readonly headers: Record<string, string>;
  constructor(code: ErrorCode, detail?: ErrorBody['detail'], headers: Record<string, string> = {}) {
    super(typeof detail === 'string' ? `${code}: ${detail}` : code);
    this.code = code;
    this.detail = detail;
    this.headers = headers;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
  toBody(): ErrorBody {
    return this.detail === undefined ? { error: this.code } : { error: this.code, detail: this.detail };
  }
}

export const badRequest = (detail: string) => new ApiError('bad_request', detail);

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
  return { status: 500, body: { error: 'internal', detail: 'internal error; the request id identifies it in the server log' }, headers: {}, unexpected: true };
}
