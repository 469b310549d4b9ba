/**
 * `SandboxClient`: the reference server's marketplace and buyer simulation (`/sandbox/v1`,
 * gaps.md "The sandbox"). It exists only on `seller-server`, never on the real marketplace, and is
 * meant for tests and local development.
 *
 * Its methods are derived from the sandbox routes (sdk/contract/routes/sandbox.ts) the same way `SellerClient`'s are, with the
 * `sandbox.` section dropped: `sb.createSeller({...})`, `sb.pay(orderId)`, `sb.advanceClock({seconds})`.
 * Calls carry `Authorization: Bearer <admin token>` and no `Idempotency-Key`; so changing sandbox
 * calls are not retried after a network failure or a 5xx (only reads are, and 429s).
 */
import type { SandboxOperationTypes } from './contract/types.ts';
import { LazyTransport, readEnv, type CommonClientOptions } from './client.ts';
import { deriveMethods, type SectionMethods } from './methods.ts';
import { sandboxRoutes } from './contract/routes/index.ts';
import { readChanges, type ChangeEventRead, type ChangesOptions } from './sandbox-changes.ts';

export interface SandboxClientOptions extends CommonClientOptions {
  /**
   * The server's admin token (`seller-server --admin-token`, or the one it printed at start).
   * @default process.env.SERVICE_ADMIN_TOKEN
   * @example { adminToken: 'dev-admin' }
   */
  adminToken?: string | undefined;
}

type SandboxMethods = SectionMethods<SandboxOperationTypes>['sandbox'];

/**
 * Drives the reference server's sandbox.
 *
 * @example
 * const sb = new SandboxClient({ adminToken: 'dev-admin' });
 * const { apiKey } = await sb.createSeller({ admission: 'complete' });
 * const order = await sb.createOrder({ number: 1001 });
 * await sb.pay(order.id);
 * await sb.advanceClock({ seconds: 3600 });
 */
export class SandboxClient {
  constructor(options: SandboxClientOptions = {}) {
    const own = { ...options };
    const hint = 'no admin token: pass { adminToken } to new SandboxClient() or set SERVICE_ADMIN_TOKEN';
    const sender = new LazyTransport(own, () => own.adminToken ?? readEnv('SERVICE_ADMIN_TOKEN'), hint);
    Object.assign(this, deriveMethods<SandboxOperationTypes>(sandboxRoutes, sender.invoke()).sandbox);
    // The live stream is not an operation of the table (it answers events, not one JSON value).
    Object.defineProperty(this, 'changes', { value: (options?: ChangesOptions) => readChanges(() => sender.get(), options) });
  }
}

// The derived methods: `sb.<verb>()` for every operation of `sandboxOperations`.
export interface SandboxClient extends SandboxMethods {
  /**
   * The live change stream (`GET /sandbox/v1/changes`): orders created and moved (the clock's moves
   * included), cards, deliveries and their attempts, the subscription, probe hits, sellers, clock
   * advances, as they are written. The first event is `ready`. Ends when `signal` aborts or the
   * server closes; a 401 without the admin token throws `AuthenticationError`.
   *
   * @example
   * const stop = new AbortController();
   * for await (const change of sb.changes({ signal: stop.signal })) {
   *   if (change.type === 'order') console.log(change.order.id, change.from, '→', change.order.status);
   * }
   */
  changes(options?: ChangesOptions): AsyncGenerator<ChangeEventRead, void, undefined>;
}
