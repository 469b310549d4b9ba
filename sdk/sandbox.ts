/**
 * `SandboxClient`: the reference server's marketplace and buyer simulation (`/sandbox/v1`,
 * gaps.md "The sandbox"). It exists only on `seller-server`, never on the real marketplace, and is
 * meant for tests and local development.
 *
 * Its methods are derived from `sandboxOperations` the same way `SellerClient`'s are, with the
 * `sandbox.` section dropped: `sb.createSeller({...})`, `sb.pay(orderId)`, `sb.advanceClock({seconds})`.
 * Calls carry `Authorization: Bearer <admin token>` and no `Idempotency-Key`; so changing sandbox
 * calls are not retried after a network failure or a 5xx (only reads are, and 429s).
 */
import { sandboxOperations, type SandboxOperations } from './contract/index.ts';
import { createTransport, readEnv, type CommonClientOptions } from './client.ts';
import { deriveMethods, OperationCaller, type SectionMethods } from './methods.ts';
import type { Transport } from './transport.ts';

export interface SandboxClientOptions extends CommonClientOptions {
  /**
   * The server's admin token (`seller-server --admin-token`, or the one it printed at start).
   * @default process.env.SERVICE_ADMIN_TOKEN
   * @example { adminToken: 'dev-admin' }
   */
  adminToken?: string | undefined;
}

type SandboxMethods = SectionMethods<SandboxOperations>['sandbox'];

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
  readonly #options: SandboxClientOptions;
  #transport: Transport | undefined;

  constructor(options: SandboxClientOptions = {}) {
    this.#options = { ...options };
    const caller = new OperationCaller(() => this.#sender(), options.validateAnswers ?? true);
    Object.assign(this, deriveMethods(sandboxOperations, caller.invoke).sandbox);
  }

  #sender(): Transport {
    if (this.#transport) return this.#transport;
    const token = this.#options.adminToken ?? readEnv('SERVICE_ADMIN_TOKEN');
    const hint = 'no admin token: pass { adminToken } to new SandboxClient() or set SERVICE_ADMIN_TOKEN';
    this.#transport = createTransport(token, this.#options, hint);
    return this.#transport;
  }
}

// The derived methods: `sb.<verb>()` for every operation of `sandboxOperations`.
export interface SandboxClient extends SandboxMethods {}
