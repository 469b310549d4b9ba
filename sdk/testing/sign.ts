/**
 * `signTestWebhook`: a whole webhook delivery, as the server signs one (the body, the delivery id,
 * the attempt, the unix timestamp in seconds, the signature), for tests of a receiver. On Web Crypto
 * only: it runs in Node, browsers and edge runtimes alike.
 */
import { WEBHOOK_HEADERS } from '../contract/constants.ts';
import type { EventKind, WebhookEvent } from '../contract/types.ts';
import { computeSignatureAsync, nowMilliseconds, timestampText, type WebhookClock } from '../webhooks/verify-web.ts';
import { fakeId } from './ids.ts';

export interface SignTestWebhookOptions {
  /** Unix seconds to sign with. @default the current second (of `now`) */
  timestamp?: number;
  /** The clock when `timestamp` is not given; a number is milliseconds since the epoch. @default Date.now */
  now?: WebhookClock;
}

/** A delivery as a receiver gets it: the raw body and the request headers (lowercase names). */
export interface TestWebhook {
  body: string;
  headers: Record<string, string>;
}

/** An event to sign: its kind and data, the envelope (`at`, `delivery`, `attempt`) filled in when left out. */
export type TestWebhookEvent = {
  [K in EventKind]: Omit<Extract<WebhookEvent, { event: K }>, 'at' | 'delivery' | 'attempt'> & Partial<Pick<WebhookEvent, 'at' | 'delivery' | 'attempt'>>;
}[EventKind];

/**
 * Signs `event` with `secret` as the server signs a delivery: `verifyWebhook` and
 * `verifyWebhookAsync` accept the result (within their time tolerance of `timestamp`).
 *
 * @example
 * const { body, headers } = await signTestWebhook(fakeEvent('order.paid'), secret);
 * const res = await app.request('/hooks', { method: 'POST', body, headers });
 */
export async function signTestWebhook(event: TestWebhookEvent, secret: string, options: SignTestWebhookOptions = {}): Promise<TestWebhook> {
  const timestamp = timestampText(options.timestamp ?? Math.floor(nowMilliseconds(options.now) / 1000));
  const whole = {
    ...event,
    at: event.at ?? new Date(Number(timestamp) * 1000).toISOString(),
    delivery: event.delivery ?? fakeId('dlv'),
    attempt: event.attempt ?? 1,
  };
  const body = JSON.stringify(whole);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      [WEBHOOK_HEADERS.event]: whole.event,
      [WEBHOOK_HEADERS.delivery]: whole.delivery,
      [WEBHOOK_HEADERS.timestamp]: timestamp,
      [WEBHOOK_HEADERS.attempt]: String(whole.attempt),
      [WEBHOOK_HEADERS.signature]: await computeSignatureAsync(timestamp, body, secret),
    },
  };
}
