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
// Everything of the edge entry (verification on Web Crypto, errors, event types), plus the Node-only signer and verifier.
export * from './web.ts';
export { computeSignature, signWebhook, type SignWebhookOptions, type SignedWebhook } from './sign.ts';
export { verifyWebhook } from './verify.ts';
