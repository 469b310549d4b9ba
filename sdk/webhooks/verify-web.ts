/**
 * Webhook verification on Web Crypto (`globalThis.crypto.subtle`), for edge runtimes, workers,
 * Deno, Bun and browsers. No `node:` imports here: this module (and the shared verification steps
 * it exports for `verify.ts`) must stay bundleable for any runtime.
 */
import { WEBHOOK_HEADERS, WEBHOOK_TOLERANCE_SECONDS } from '../contract/constants.ts';
import type { WebhookEvent } from '../contract/types.ts';
import { WEBHOOK_EVENT_SCHEMA } from './event-schema.derived.ts';
import { checkJson } from './json-check.ts';
import { WebhookVerificationError } from './errors.ts';

/** The request body exactly as received: text, or bytes (a Node `Buffer` is a `Uint8Array`). */
export type RawBody = string | Uint8Array | ArrayBuffer;

/** Header values as Node's `IncomingHttpHeaders` has them. */
export type HeaderValue = string | readonly string[] | undefined;

/**
 * Request headers: a Fetch `Headers` (or anything with `get(name)`), or a plain object whose keys
 * may be in any case (Node's `req.headers`, a Lambda event's `headers`, ...).
 */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, HeaderValue>>;

/** One signing secret, or several while rotating (the delivery passes when any of them matches). */
export type WebhookSecret = string | readonly string[];

/** A clock: milliseconds since the epoch (as `Date.now()`), a `Date`, or a function giving one. */
export type WebhookClock = number | Date | (() => number | Date);

export interface VerifyWebhookOptions {
  /**
   * Reject when |now − timestamp| is this many seconds or more (default 300, the spec's value).
   * Applies both to old deliveries and to ones dated in the future.
   */
  toleranceSeconds?: number;
  /** The receiver's clock; a number is milliseconds since the epoch. Default `Date.now`. */
  now?: WebhookClock;
}

const textEncoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// Shared steps (used by verify.ts as well). Not part of the public `service-seller/webhooks` API.
// ---------------------------------------------------------------------------------------------

/** @internal Everything checked before any HMAC is computed. */
export interface PreparedVerification {
  /** `<timestamp>.<raw body>` as bytes: the signed message. */
  message: Uint8Array<ArrayBuffer>;
  /** The raw body bytes. */
  body: Uint8Array<ArrayBuffer>;
  /** The timestamp header as unix seconds. */
  timestamp: number;
  /** The signature from the header, decoded from hex (any length; a wrong length never matches). */
  signature: Uint8Array<ArrayBuffer>;
  /** The secrets to try. */
  secrets: string[];
}

/** @internal Reads one header from a Fetch `Headers` or a plain object, case-insensitively. */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  const getter = (headers as { get?: unknown }).get;
  if (typeof getter === 'function') {
    const value = (getter as (n: string) => string | null).call(headers, name);
    return value === null || value === undefined ? undefined : String(value);
  }
  const wanted = name.toLowerCase();
  const record = headers as Readonly<Record<string, HeaderValue>>;
  let value: HeaderValue = record[wanted];
  if (value === undefined) {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === wanted) {
        value = record[key];
        break;
      }
    }
  }
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' ? value : undefined;
}

/** @internal The raw body as bytes, or a `body_not_raw` error. */
export function rawBodyBytes(rawBody: unknown): Uint8Array<ArrayBuffer> {
  if (typeof rawBody === 'string') return textEncoder.encode(rawBody);
  // A copy (a typed array given to Uint8Array's constructor is copied, a Node Buffer too), never a view the caller may change.
  if (rawBody instanceof Uint8Array) return new Uint8Array(rawBody);
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody.slice(0));
  if (ArrayBuffer.isView(rawBody)) return new Uint8Array(new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength));
  const what = rawBody === null ? 'null' : rawBody === undefined ? 'undefined' : `a ${typeof rawBody}`;
  throw new WebhookVerificationError(
    'body_not_raw',
    `Webhook body must be the raw request body (string or bytes), got ${what}: verify before any JSON body parser.`,
  );
}

/** @internal `<timestamp>.<body>` as bytes. */
export function signedMessage(timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = textEncoder.encode(`${timestamp}.`);
  const out = new Uint8Array(prefix.byteLength + body.byteLength);
  out.set(prefix, 0);
  out.set(body, prefix.byteLength);
  return out;
}

/** @internal Validates a timestamp given to a signer; returns its text form. */
export function timestampText(timestamp: string | number): string {
  const text = typeof timestamp === 'number' ? String(timestamp) : timestamp;
  if (!/^\d{1,15}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new TypeError(`webhook timestamp must be unix time in whole seconds, got ${JSON.stringify(String(timestamp))}`);
  }
  return text;
}

/** @internal Validates the secret argument. */
export function secretList(secret: WebhookSecret): string[] {
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : [];
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('webhook secret must be a non-empty string, or an array of them');
  }
  return list;
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** @internal Lowercase hex of bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/**
 * @internal Constant-time comparison written out by hand (no `node:crypto` here). The loop always
 * runs over the whole of `expected`, so neither where the first difference is nor the length of
 * `given` changes its duration; differing lengths simply never compare equal.
 */
export function constantTimeEqual(expected: Uint8Array, given: Uint8Array): boolean {
  let diff = expected.length ^ given.length;
  for (let i = 0; i < expected.length; i++) diff |= (expected[i] ?? 0) ^ (given[i] ?? 0);
  return diff === 0;
}

/** @internal The checks done before any HMAC: body, headers, their formats, secrets. */
export function prepareVerification(
  rawBody: unknown,
  headers: WebhookHeaders,
  secret: WebhookSecret,
): PreparedVerification {
  const secrets = secretList(secret);
  const body = rawBodyBytes(rawBody);
  if (headers === null || typeof headers !== 'object') {
    throw new TypeError('webhook headers must be a Headers or a plain object');
  }

  // Each header present (the signature's first), trimmed.
  const header = (name: string): string => {
    const value = readHeader(headers, name)?.trim();
    if (!value) {
      throw new WebhookVerificationError('missing_header', `Webhook header ${name} is missing: pass the request's headers unchanged.`, { header: name });
    }
    return value;
  };
  const sig = header(WEBHOOK_HEADERS.signature);
  const ts = header(WEBHOOK_HEADERS.timestamp);

  if (!/^\d{1,15}$/.test(ts)) {
    throw new WebhookVerificationError(
      'malformed_timestamp',
      `Webhook header ${WEBHOOK_HEADERS.timestamp} must be unix time in whole seconds.`,
      { header: WEBHOOK_HEADERS.timestamp },
    );
  }
  const match = /^sha256=([0-9a-fA-F]+)$/.exec(sig);
  if (!match || match[1]!.length % 2 !== 0) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `Webhook header ${WEBHOOK_HEADERS.signature} must be "sha256=<hex HMAC-SHA256>", as received.`,
      { header: WEBHOOK_HEADERS.signature },
    );
  }

  return {
    message: signedMessage(ts, body),
    body,
    timestamp: Number(ts),
    signature: hexToBytes(match[1]!),
    secrets,
  };
}

/** @internal Reads a clock as milliseconds since the epoch. */
export function nowMilliseconds(now: WebhookClock | undefined): number {
  const value = typeof now === 'function' ? now() : now === undefined ? Date.now() : now;
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new TypeError('options.now must give epoch milliseconds or a valid Date');
  }
  return ms;
}

/** @internal The checks after the HMAC: the match itself, the time window, the body. */
export function finishVerification(
  prepared: PreparedVerification,
  matched: boolean,
  options: VerifyWebhookOptions,
): WebhookEvent {
  if (!matched) {
    throw new WebhookVerificationError(
      'mismatch',
      'Webhook signature does not match: pass the raw request body as received (not re-serialised JSON); check the secret.',
    );
  }

  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance <= 0) {
    throw new TypeError('options.toleranceSeconds must be a positive number of seconds');
  }
  const nowMs = nowMilliseconds(options.now);
  const skew = prepared.timestamp - nowMs / 1000;
  if (Math.abs(skew) >= tolerance) {
    // A clock before 1971 (31_536_000_000 ms) is seconds given where milliseconds are meant.
    const seconds = nowMs < 31_536_000_000;
    throw new WebhookVerificationError(
      'stale_timestamp',
      `Webhook timestamp is ${Math.round(Math.abs(skew))} s in the ${skew < 0 ? 'past' : 'future'}, outside the ${tolerance} s tolerance (${seconds ? `options.now ${nowMs} looks like seconds` : 'a replay, or a wrong clock'}).`,
      { skewSeconds: skew, hint: seconds ? 'now_in_seconds' : undefined },
    );
  }

  let text: string;
  let json: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(prepared.body);
    json = JSON.parse(text);
  } catch (cause) {
    throw new WebhookVerificationError(
      'malformed_body',
      'Webhook signature is valid but the body is not UTF-8 JSON.',
      { cause },
    );
  }
  // The contract's JSON Schema of an event (derived at build time: no schema library here).
  const issue = checkJson(WEBHOOK_EVENT_SCHEMA, json);
  if (issue) {
    throw new WebhookVerificationError(
      'malformed_body',
      `Webhook signature is valid but the body is not a known webhook event (${issue.path.join('.') || 'body'}: ${issue.message}).`,
      { cause: issue },
    );
  }
  return json as WebhookEvent;
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

function subtleCrypto(): SubtleCrypto {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) {
    throw new Error('no Web Crypto (crypto.subtle) here; in Node use verifyWebhook');
  }
  return subtle;
}

async function hmacSha256(secret: string, message: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const subtle = subtleCrypto();
  const key = await subtle.importKey('raw', textEncoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await subtle.sign('HMAC', key, message));
}

/**
 * The `x-service-signature` value (`sha256=<lowercase hex>`) for a timestamp and raw body, on Web
 * Crypto. Same result as `computeSignature`.
 */
export async function computeSignatureAsync(
  timestamp: string | number,
  rawBody: string | Uint8Array,
  secret: string,
): Promise<string> {
  const [key] = secretList(secret);
  const mac = await hmacSha256(key!, signedMessage(timestampText(timestamp), rawBodyBytes(rawBody)));
  return `sha256=${bytesToHex(mac)}`;
}

/**
 * Checks a webhook delivery and returns its typed event, on Web Crypto (edge runtimes, browsers).
 * Same rules, errors and result as `verifyWebhook`.
 *
 * @throws WebhookVerificationError with a `reason` saying what failed.
 */
export async function verifyWebhookAsync(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const prepared = prepareVerification(rawBody, headers, secret);
  let matched = false;
  for (const key of prepared.secrets) {
    const mac = await hmacSha256(key, prepared.message);
    // Every secret is tried (no early exit), so timing does not tell which one matched.
    if (constantTimeEqual(mac, prepared.signature)) matched = true;
  }
  return finishVerification(prepared, matched, options);
}
