/** Webhook verification on Node's `crypto` (synchronous). For edge runtimes see `verify-web.ts`. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '../contract/types.ts';
import { WebhookVerificationError } from './errors.ts';
import {
  finishVerification,
  prepareVerification,
  type RawBody,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  type WebhookSecret,
} from './verify-web.ts';

/** `crypto.timingSafeEqual` needs equal lengths; a length difference is a plain mismatch. */
function safeEqual(expected: Buffer, given: Uint8Array): boolean {
  if (given.length !== expected.length) {
    // Still spend one comparison's worth of work, against itself, so this path looks like the other.
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, given);
}

/**
 * Checks a webhook delivery and returns its typed event.
 *
 * - `rawBody`: the request body exactly as received (string, `Buffer` or `Uint8Array`), never a
 *   parsed object.
 * - `headers`: Node's `req.headers`, a plain object in any header-name case, or a Fetch `Headers`.
 * - `secret`: the signing secret, or an array of secrets while rotating.
 * - `options.toleranceSeconds` (default 300): deliveries whose timestamp is that far or farther
 *   from now, either way, are refused. `options.now`: the clock (milliseconds, `Date`, or a function).
 *
 * The signature is compared in constant time before the timestamp is judged, so `stale_timestamp`
 * is only ever reported for authentic deliveries.
 *
 * @throws WebhookVerificationError with a `reason` saying what failed.
 */
export function verifyWebhook(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const prepared = prepareVerification(rawBody, headers, secret);
  let matched = false;
  for (const key of prepared.secrets) {
    const mac = createHmac('sha256', key).update(prepared.message).digest();
    // Every secret is tried (no early exit), so timing does not tell which one matched.
    if (safeEqual(mac, prepared.signature)) matched = true;
  }
  // A secret read from a file keeps the file's final newline unless trimmed: the likeliest mismatch
  // then. (Node only: an edge runtime's secrets come from its bindings, and its verifier has a size budget.)
  if (!matched && prepared.secrets.some((k) => k.trim() !== k)) {
    throw new WebhookVerificationError(
      'mismatch',
      "Webhook signature does not match: the secret has whitespace around it (a secret file's final newline?); trim it.",
      { hint: 'secret_whitespace' },
    );
  }
  return finishVerification(prepared, matched, options);
}
