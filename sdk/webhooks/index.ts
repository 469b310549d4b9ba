/**
 * `service-seller/webhooks`: sign and verify webhook deliveries.
 *
 * ```ts
 * import { verifyWebhook, WebhookVerificationError } from 'service-seller/webhooks';
 * // rawBody: the request body exactly as received (string or Buffer), never a parsed object
 * const event = verifyWebhook(rawBody, req.headers, process.env.SERVICE_WEBHOOK_SECRET!);
 * if (event.event === 'order.paid') event.data.slaMinutes;
 * ```
 * On edge runtimes use `verifyWebhookAsync` (Web Crypto, no Node built-ins).
 */
export { computeSignature, signWebhook, type SignWebhookOptions, type SignedWebhook } from './sign.ts';
export { verifyWebhook } from './verify.ts';
export {
  computeSignatureAsync,
  verifyWebhookAsync,
  type HeaderValue,
  type RawBody,
  type VerifyWebhookOptions,
  type WebhookClock,
  type WebhookHeaders,
  type WebhookSecret,
} from './verify-web.ts';
export {
  WEBHOOK_VERIFICATION_REASONS,
  WebhookVerificationError,
  isWebhookVerificationError,
  type WebhookVerificationErrorDetails,
  type WebhookVerificationReason,
} from './errors.ts';

// The event types and constants of the contract.
export {
  EventData,
  WEBHOOK_HEADERS,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookEvent,
  type EventDataOf,
} from '../contract/events.ts';
export { EVENT_KINDS, EventKind } from '../contract/enums.ts';
