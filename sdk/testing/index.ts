/**
 * `service-seller/testing`: helpers for testing code that uses the SDK, with no dependency beyond
 * the SDK's own (no zod, no Node built-ins: it runs in browsers and edge runtimes too).
 *
 * - `signTestWebhook(event, secret)`: a whole delivery, signed as the server signs one.
 * - `fakeOrder()`, `fakeCard()`, `fakeEvent(kind)`: records valid per the contract.
 *
 * For the server's real rules in a test, see `service-seller-server/msw` (no port) and
 * `startServer` (a port).
 */
export { signTestWebhook, type SignTestWebhookOptions, type TestWebhook, type TestWebhookEvent } from './sign.ts';
export { fakeCard, fakeEvent, fakeOrder, FAKE_CARD_NUMBER } from './fakes.ts';
