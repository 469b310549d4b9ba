/**
 * The mock's webhook deliveries: every attempt the server would send, kept instead of sent. The
 * server signs each as it signs a real one (the subscription's secret, the whole delivery), and the
 * attempt counts as answered 204, so the delivery log, the ladder and the pause rule see a success.
 */
import { WEBHOOK_HEADERS, type EventKind } from '../../sdk/contract/index.ts';
import type { AttemptResult, SignedDelivery } from '../webhooks/sender.ts';

/** One delivery attempt the server made: what a receiver at `url` would have got. */
export interface MockWebhook {
  /** The event kind (`order.paid`, …). */
  event: EventKind;
  /** The raw body, exactly as signed: give it to `verifyWebhook` as it is. */
  body: string;
  /** Every request header (lowercase names), the signed `x-service-*` ones included. */
  headers: Record<string, string>;
  /** The subscription's address it was meant for. */
  url: string;
}

/** A `hookSend` (server/context.ts) that appends to `kept` and answers 204. */
export function keepDeliveries(kept: MockWebhook[]): (url: string, delivery: SignedDelivery) => Promise<AttemptResult> {
  return async (url, delivery) => {
    kept.push({ event: delivery.headers[WEBHOOK_HEADERS.event] as EventKind, body: delivery.body, headers: { ...delivery.headers }, url });
    return { ok: true, status: 204, error: null };
  };
}
