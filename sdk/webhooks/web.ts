/**
 * `service-seller/webhooks/web`: webhook verification on Web Crypto only, for edge runtimes
 * (no Node built-ins anywhere in this entry's import graph).
 *
 * ```ts
 * import { verifyWebhookAsync } from 'service-seller/webhooks/web';
 * const event = await verifyWebhookAsync(await request.text(), request.headers, env.SERVICE_WEBHOOK_SECRET);
 * ```
 */
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
  type WebhookVerificationHint,
  type WebhookVerificationReason,
} from './errors.ts';
// The event types; their zod schemas (`WebhookEvent`, `EventData`) are in `service-seller/contract`.
export type { EventDataOf, EventKind, WebhookEvent } from '../contract/types.ts';
export { EVENT_KINDS, WEBHOOK_HEADERS, WEBHOOK_TOLERANCE_SECONDS } from '../contract/constants.ts';
