/**
 * `createSellerMock()`: the reference server inside a test. The real app (`buildApp`, an in-memory
 * store) answers in this process: msw handlers hand it every request for `mock.baseUrl`, and
 * `mock.sandbox` (the SDK's `SandboxClient`) and the seeding reach it through a `fetch` of its own,
 * so they work before msw listens. No port, no socket; every rule, refusal, idempotency replay and
 * rate limit is the server's own, and the answers are the bytes `seller-server` sends.
 */
import type { FastifyInstance } from 'fastify';
import { http, type HttpHandler } from 'msw';
import { SandboxClient } from '../../sdk/index.ts';
import { parseDuration } from '../../sdk/duration.ts';
import { buildApp, type AppOptions } from '../app.ts';
import { base62 } from '../ids.ts';
import { secretAad } from '../webhooks/outbox.ts';
import { InProcess } from './in-process.ts';
import { seedSellers, type CardSeed, type MockSeller, type SellerSeed } from './seed.ts';
import { runSeedScenario, scenarioSellers, type ScenarioMade } from './scenario.ts';
import { keepDeliveries, type MockWebhook } from './webhooks.ts';

export interface SellerMockOptions {
  /**
   * The address the handlers answer for (nothing else is touched). @default `http://seller-mock.local`,
   * `http://seller-mock-2.local` for a second mock in the same process, and so on
   */
  baseUrl?: string;
  /** The sandbox's admin token. @default a generated one (`mock.adminToken`) */
  adminToken?: string;
  /** The sellers to create; the first is `mock.seller`. @default one seller like the demo seller */
  sellers?: SellerSeed[];
  /** Cards (with their stock `items`) of the first seller, after those of `sellers[0].cards`. */
  cards?: CardSeed[];
  /**
   * A scenario (its YAML or JSON text, or the object) of `service-seller/scenario`, run against the
   * mock before it is handed over, instead of `sellers` and `cards`: its sellers are the mock's
   * (`mock.seller` is its first), and what it made is `mock.scenario`. `reset()` runs it again
   * (its sellers are then new ones: new ids and keys, in `mock.seller` and `mock.sellers`).
   */
  scenario?: string | object;
  /** Options of the app itself (rate limits, the answer check, the logger). */
  server?: Pick<AppOptions, 'rateLimit' | 'checkAnswers' | 'hookSecrets' | 'allowLocalHooks' | 'logger'>;
}

export interface SellerMock {
  /** msw request handlers: every method, every path under `baseUrl`; other hosts pass by. */
  handlers: HttpHandler[];
  /** The root address to give clients (`new SellerClient({ baseUrl: mock.baseUrl, … })`). */
  baseUrl: string;
  adminToken: string;
  /** The first seller (live, admission complete, a key of every scope unless seeded otherwise). */
  seller: MockSeller;
  /** Every seeded seller, the first being `seller`. */
  sellers: MockSeller[];
  /** What the `scenario` made (its sellers, cards, orders… by name), or null without one. */
  scenario: ScenarioMade | null;
  /** The SDK's sandbox client, reaching the app in-process (it works without msw listening). */
  sandbox: SandboxClient;
  /** A `fetch` that reaches the app in-process: for clients used without msw. */
  fetch: typeof fetch;
  /** The server's clock. */
  clock: {
    /** Moves the server clock on (`'2h'`, `'1d'`, `'90s'`, or seconds) and runs what came due: deadlines, webhook retries. */
    advance(duration: string | number): Promise<Date>;
    /** The server clock's time. */
    now(): Date;
  };
  /** What would have been delivered to the subscribers, oldest first (nothing is sent). */
  webhooks: MockWebhook[];
  /** Back to the seeded state: the same sellers, keys and card numbers; orders, subscriptions, deliveries and time gone. */
  reset(): Promise<void>;
  /** Ends the app. */
  close(): Promise<void>;
}

let mocks = 0;

/** The default address of the n-th mock of this process. */
const defaultBaseUrl = (n: number) => (n === 1 ? 'http://seller-mock.local' : `http://seller-mock-${n}.local`);

export async function createSellerMock(options: SellerMockOptions = {}): Promise<SellerMock> {
  const baseUrl = new URL(options.baseUrl ?? defaultBaseUrl(++mocks)).origin;
  const adminToken = options.adminToken ?? `adm_${base62(32)}`;
  if (options.scenario !== undefined && (options.sellers || options.cards)) throw new TypeError('createSellerMock: give a scenario or sellers and cards, not both');
  const seeds: SellerSeed[] = options.sellers?.length ? options.sellers.map((s) => ({ ...s })) : [{}];
  if (options.cards?.length) seeds[0] = { ...seeds[0], cards: [...(seeds[0]!.cards ?? []), ...options.cards] };
  const webhooks: MockWebhook[] = [];
  let current!: InProcess;
  const fetch: typeof globalThis.fetch = (input, init) => current.answer(new Request(input, init));

  let scenario: ScenarioMade | null = null;
  const start = async (same?: readonly MockSeller[]): Promise<MockSeller[]> => {
    const app: FastifyInstance = await buildApp({ ...options.server, memory: true, adminToken });
    app.service.options.publicUrl = baseUrl;
    app.service.options.hookSend = keepDeliveries(webhooks);
    current = new InProcess(app);
    if (options.scenario === undefined) return seedSellers(app.service, seeds, { baseUrl, fetch }, same);
    scenario = await runSeedScenario(options.scenario, { baseUrl, adminToken, fetch });
    return scenarioSellers(scenario);
  };

  const sellers = await start();
  if (sellers.length === 0) throw new TypeError('createSellerMock: the scenario makes no seller');
  /** After a call under /hooks: each seller's signing secret as the server holds it now. */
  const readSecrets = async () => {
    const svc = current.app.service;
    for (const seller of sellers) {
      const hook = (await svc.store.seller(seller.sellerId)).hooks;
      seller.webhookSecret = hook && hook.status !== 'off' ? svc.sealer.open(hook.sealedSecret, secretAad(seller.sellerId)) : undefined;
    }
  };
  const answer = async (request: Request): Promise<Response> => {
    const response = await current.answer(request);
    if (new URL(request.url).pathname.startsWith('/api/v1/hooks') && request.method !== 'GET') await readSecrets();
    return response;
  };
  const all = (input: RequestInfo | URL, init?: RequestInit) => answer(new Request(input, init));

  const sandbox = new SandboxClient({ baseUrl, adminToken, fetch: all, maxRetries: 0 });
  return {
    handlers: [http.all(`${baseUrl}/*`, ({ request }) => answer(request))],
    baseUrl,
    adminToken,
    seller: sellers[0]!,
    sellers,
    get scenario() {
      return scenario;
    },
    sandbox,
    fetch: all,
    clock: {
      advance: async (duration) => {
        const seconds = typeof duration === 'number' ? duration : parseDuration(duration);
        if (seconds === undefined || !Number.isInteger(seconds) || seconds < 0) throw new TypeError(`clock.advance: not a duration: ${JSON.stringify(duration)}`);
        return new Date((await sandbox.advanceClock({ seconds })).now);
      },
      now: () => current.app.service.clock.now(),
    },
    webhooks,
    reset: async () => {
      await current.app.close();
      webhooks.length = 0;
      const again = await start(sellers);
      // The same objects, so that what a test holds of them stays current.
      for (const [i, seller] of sellers.entries()) Object.assign(seller, again[i], { webhookSecret: undefined });
    },
    close: () => current.app.close(),
  };
}
