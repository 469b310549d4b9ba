/**
 * The one error a webhook receiver has to handle. Shared by the Node and the Web Crypto verifiers;
 * no runtime imports, so it is safe in any bundle.
 */

/** Why a delivery was rejected. */
export type WebhookVerificationReason =
  /** A required header (`x-service-signature` or `x-service-timestamp`) is absent or empty. */
  | 'missing_header'
  /** The signature header is not `sha256=` followed by hex. */
  | 'malformed_signature'
  /** The timestamp header is not unix seconds (an unsigned integer). */
  | 'malformed_timestamp'
  /** No secret produces the given signature over the given body. */
  | 'mismatch'
  /** The signature is valid but the timestamp is too far from now (either direction). */
  | 'stale_timestamp'
  /** The body given to the verifier is not raw text/bytes (usually an already-parsed JSON object). */
  | 'body_not_raw'
  /** The signature is valid but the body is not JSON, or not a known webhook event. */
  | 'malformed_body';

export const WEBHOOK_VERIFICATION_REASONS: readonly WebhookVerificationReason[] = [
  'missing_header',
  'malformed_signature',
  'malformed_timestamp',
  'mismatch',
  'stale_timestamp',
  'body_not_raw',
  'malformed_body',
];

/**
 * What most likely went wrong, as data beside the reason (words are the caller's): `secret_whitespace`,
 * a `mismatch` with a secret that has whitespace around it (a secret file's final newline);
 * `now_in_seconds`, a `stale_timestamp` judged by a clock before 1971 (seconds given where
 * milliseconds are meant: `Math.floor(Date.now() / 1000)` as `options.now`).
 */
export type WebhookVerificationHint = 'secret_whitespace' | 'now_in_seconds';

export interface WebhookVerificationErrorDetails {
  /** What most likely went wrong, when the verifier can tell. */
  hint?: WebhookVerificationHint | undefined;
  /** The header concerned (`missing_header`, `malformed_signature`, `malformed_timestamp`). */
  header?: string;
  /** `stale_timestamp`: signed time minus the receiver's time, in seconds (negative = in the past). */
  skewSeconds?: number;
  /** `malformed_body`: the JSON or schema error. */
  cause?: unknown;
}

/**
 * Thrown by `verifyWebhook` / `verifyWebhookAsync`. Answer the delivery with a 4xx (e.g. 400 or 401)
 * when you catch it; `reason` tells what failed, `message` tells what to do about it.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  // `declare`: set in the constructor, no field initialisers emitted (the Web Crypto verifier counts its bytes).
  declare readonly reason: WebhookVerificationReason;
  /** The reason as a code, as on the SDK's other errors (`SellerError.code`): branch on `err.code`. */
  declare readonly code: WebhookVerificationReason;
  declare readonly header: string | undefined;
  declare readonly skewSeconds: number | undefined;
  /** What most likely went wrong, when the verifier can tell (`secret_whitespace`, `now_in_seconds`). */
  declare readonly hint: WebhookVerificationHint | undefined;

  constructor(reason: WebhookVerificationReason, message: string, details: WebhookVerificationErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.code = reason;
    this.header = details.header;
    this.skewSeconds = details.skewSeconds;
    this.hint = details.hint;
  }
}

/** True when `err` is a `WebhookVerificationError` (optionally with the given reason). */
export function isWebhookVerificationError(
  err: unknown,
  reason?: WebhookVerificationReason,
): err is WebhookVerificationError {
  return err instanceof WebhookVerificationError && (reason === undefined || err.reason === reason);
}
