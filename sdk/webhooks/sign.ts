/**
 * Signing a webhook delivery: used by the reference server's sender, and by tests that need a
 * correctly signed request.
 */
import { createHmac } from 'node:crypto';
import { WEBHOOK_HEADERS } from '../contract/constants.ts';
import {
  nowMilliseconds,
  rawBodyBytes,
  secretList,
  signedMessage,
  timestampText,
  type WebhookClock,
} from './verify-web.ts';

export interface SignWebhookOptions {
  /** Unix seconds to sign with; default: the clock's current second. */
  timestamp?: number;
  /** The clock when `timestamp` is not given; a number is milliseconds since the epoch. Default `Date.now`. */
  now?: WebhookClock;
  /** `x-service-attempt`; default: the body's `attempt`, else 1. */
  attempt?: number;
  /** `x-service-delivery`; default: the body's `delivery`. */
  delivery?: string;
  /** `x-service-event`; default: the body's `event`. */
  event?: string;
}

export interface SignedWebhook {
  /** The exact text to send as the request body. */
  body: string;
  /** The `x-service-*` headers, lowercase names. */
  headers: Record<string, string>;
}

/**
 * The `x-service-signature` value for a timestamp and a raw body: `sha256=` followed by the
 * lowercase hex HMAC-SHA256, keyed with `secret`, of `<timestamp>.<raw body as UTF-8>`.
 */
export function computeSignature(timestamp: string | number, rawBody: string | Uint8Array, secret: string): string {
  const [key] = secretList(secret);
  const mac = createHmac('sha256', key!)
    .update(signedMessage(timestampText(timestamp), rawBodyBytes(rawBody)))
    .digest('hex');
  return `sha256=${mac}`;
}

/**
 * Signs a delivery. `body` is the event object (serialised with `JSON.stringify`) or the exact
 * text to send. The event, delivery and attempt headers come from the options, else from the body
 * when it is (or parses as) an event object; the event and delivery headers are left out when
 * neither gives them (only useful for tests of malformed deliveries). The attempt defaults to 1.
 */
export function signWebhook(body: string | object, secret: string, options: SignWebhookOptions = {}): SignedWebhook {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (typeof text !== 'string') throw new TypeError('webhook body must be a string or a JSON-serialisable object');

  let fields: Record<string, unknown> = {};
  if (typeof body === 'object' && body !== null) {
    fields = body as Record<string, unknown>;
  } else {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object') fields = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: no headers can be taken from it.
    }
  }

  const timestamp = timestampText(options.timestamp ?? Math.floor(nowMilliseconds(options.now) / 1000));
  const event = options.event ?? (typeof fields.event === 'string' ? fields.event : undefined);
  const delivery = options.delivery ?? (typeof fields.delivery === 'string' ? fields.delivery : undefined);
  const attempt = options.attempt ?? (Number.isInteger(fields.attempt) ? (fields.attempt as number) : 1);
  if (!Number.isInteger(attempt) || attempt < 1) throw new TypeError('webhook attempt must be an integer from 1');

  const headers: Record<string, string> = {};
  if (event !== undefined) headers[WEBHOOK_HEADERS.event] = event;
  if (delivery !== undefined) headers[WEBHOOK_HEADERS.delivery] = delivery;
  headers[WEBHOOK_HEADERS.timestamp] = timestamp;
  headers[WEBHOOK_HEADERS.attempt] = String(attempt);
  headers[WEBHOOK_HEADERS.signature] = computeSignature(timestamp, text, secret);
  return { body: text, headers };
}
