/**
 * `service-seller-server/msw`: the reference server inside a test, answering through msw (^2) with
 * no port and no socket. Needs `msw` and `service-seller` (optional peers of this package).
 *
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createSellerMock } from 'service-seller-server/msw';
 * const mock = await createSellerMock();
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * ```
 */
export { createSellerMock, type SellerMock, type SellerMockOptions } from './mock.ts';
export type { MockCall } from './calls.ts';
export type { ScenarioMade } from './scenario.ts';
export type { CardSeed, MockSeller, SellerSeed } from './seed.ts';
export type { MockWebhook } from './webhooks.ts';
