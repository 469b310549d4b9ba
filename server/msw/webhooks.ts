/**
 * The mock's webhook deliveries: every attempt the server would send, kept instead of sent. The
 * server signs each as it signs a real one (the subscription's secret, the whole delivery), and the
 * attempt counts as answered 204, so the delivery log, the ladder and the pause rule see a success.
 * Each is verified as a receiver would (`verifyWebhook`, the subscriptions' secrets) into `parsed`.
 */
import { WEBHOOK_HEADERS, type EventKind, type WebhookEvent } from '../../sdk/contract/index.ts';
import { verifyWebhook } from '../../sdk/webhooks/verify.ts';
import type { AttemptResult, SignedDelivery } from '../webhooks/sender.ts';

/** One delivery attempt the server made: what a receiver at `url` would have got. */
export interface MockWebhook {
  /** The event kind (`order.paid`, …). */
  event: EventKind;
  /** The raw body, exactly as signed: give it to `verifyWebhook` as it is. */
  body: string;
  /** The event, verified with the subscription's secret and typed (`parsed.data.order`, `parsed.attempt`). */
  parsed: WebhookEvent;
  /** Every request header (lowercase names), the signed `x-service-*` ones included. */
  headers: Record<string, string>;
  /** The subscription's address it was meant for. */
  url: string;
}

/**
 * A `hookSend` (server/context.ts) that verifies the delivery with one of `secrets()` (the signing
 * secrets of the subscriptions now), appends it to `kept` and answers 204.
 */
export function keepDeliveries(kept: MockWebhook[], secrets: () => Promise<string[]>): (url: string, delivery: SignedDelivery) => Promise<AttemptResult> {
  return async (url, delivery) => {
    const parsed = verifyWebhook(delivery.body, delivery.headers, await secrets());
    kept.push({ event: delivery.headers[WEBHOOK_HEADERS.event] as EventKind, body: delivery.body, parsed, headers: { ...delivery.headers }, url });
    return { ok: true, status: 204, error: null };
  };
}
