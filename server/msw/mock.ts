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
import { Clock } from '../clock.ts';
import { base62, idStream, withIdSeed } from '../ids.ts';
import type { ServerContext } from '../context.ts';
import { secretAad } from '../webhooks/outbox.ts';
import { callOf, type MockCall } from './calls.ts';
import { fetchOf, InProcess } from './in-process.ts';
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
   * (`mock.seller` is its first, `mock.sellersByName[name]` each by the name it gave, with the signing
   * secret its `hooks` step subscribed with), and what it made is `mock.scenario`. `reset()` runs it
   * again (its sellers are then new ones: new ids, keys and secrets, in the same objects).
   */
  scenario?: string | object;
  /**
   * Makes ids reproducible: the same seed and the same calls in the same order give the same ids,
   * keys, secrets and request ids (sellers, orders, deliveries, `x-request-id`…), after a `reset()` too.
   * @default random ids, as the server makes them
   */
  idSeed?: string | number;
  /**
   * Freezes the service clock at this time: every answer, deadline and rate-limit bucket reads it,
   * and only `mock.clock.advance()` moves it (webhook signatures keep the real time: receivers judge
   * them by their own clock). @default the real time, running
   */
  now?: Date | string | number;
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
  /** The sellers a `scenario` made, by the name it gave them (`as:`): the same objects as in `sellers`. Empty without a scenario. */
  sellersByName: Record<string, MockSeller>;
  /**
   * Every request the handlers and `mock.fetch` answered, oldest first (the mock's own seeding,
   * `mock.sandbox` and `mock.clock` are not in it): e.g. `mock.calls.filter((c) => c.operation === 'orders.deliver')`.
   */
  calls: MockCall[];
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
  /** What would have been delivered to the subscribers, oldest first (nothing is sent), each verified into `parsed`. */
  webhooks: MockWebhook[];
  /** Back to the seeded state: the same sellers, keys and card numbers; orders, subscriptions, deliveries, calls and time gone. */
  reset(): Promise<void>;
  /** Ends the app. */
  close(): Promise<void>;
}

let mocks = 0;

/** The default address of the n-th mock of this process. */
const defaultBaseUrl = (n: number) => (n === 1 ? 'http://seller-mock.local' : `http://seller-mock-${n}.local`);

export async function createSellerMock(options: SellerMockOptions = {}): Promise<SellerMock> {
  const baseUrl = new URL(options.baseUrl ?? defaultBaseUrl(++mocks)).origin;
  if (options.scenario !== undefined && (options.sellers || options.cards)) throw new TypeError('createSellerMock: give a scenario or sellers and cards, not both');
  const seed = options.idSeed;
  /** The seeded streams of ids, new at each start: the seeding's, then the calls' (so after a reset the same calls make the same ids). */
  const stream = (part: string) => (seed === undefined ? undefined : idStream(`${seed}${part}`));
  const adminToken = options.adminToken ?? withIdSeed(stream(':admin'), () => `adm_${base62(32)}`);
  const frozenMs = options.now === undefined ? undefined : frozenTime(options.now);
  const seeds: SellerSeed[] = options.sellers?.length ? options.sellers.map((s) => ({ ...s })) : [{}];
  if (options.cards?.length) seeds[0] = { ...seeds[0], cards: [...(seeds[0]!.cards ?? []), ...options.cards] };
  const webhooks: MockWebhook[] = [];
  const calls: MockCall[] = [];
  let current!: InProcess;
  const fetch = fetchOf((request) => current.answer(request));

  let scenario: ScenarioMade | null = null;
  const start = (same?: readonly MockSeller[]): Promise<MockSeller[]> => {
    const ids = stream(':seed');
    return withIdSeed(ids, async () => {
      const app: FastifyInstance = await buildApp({
        ...options.server,
        memory: true,
        adminToken,
        ...(frozenMs === undefined ? {} : { clock: new Clock(0, () => frozenMs) }),
      });
      app.service.options.publicUrl = baseUrl;
      app.service.options.hookSend = keepDeliveries(webhooks, () => signingSecrets(app.service));
      current = new InProcess(app, ids);
      let made: MockSeller[];
      if (options.scenario === undefined) made = await seedSellers(app.service, seeds, { baseUrl, fetch }, same);
      else {
        scenario = await runSeedScenario(options.scenario, { baseUrl, adminToken, fetch });
        made = scenarioSellers(scenario);
      }
      current.ids = stream('');
      return made;
    });
  };

  const sellers = await start();
  if (sellers.length === 0) throw new TypeError('createSellerMock: the scenario makes no seller');
  const sellersByName: Record<string, MockSeller> = {};
  for (const seller of sellers) if (seller.name !== undefined) sellersByName[seller.name] = seller;
  /** Each seller's signing secret as the server holds it now (after a call under /hooks, a seeding, a reset). */
  const readSecrets = async () => {
    const svc = current.app.service;
    for (const seller of sellers) seller.webhookSecret = await secretOf(svc, seller.sellerId);
  };
  await readSecrets();
  const answer = async (request: Request): Promise<Response> => {
    const response = await current.answer(request);
    if (new URL(request.url).pathname.startsWith('/api/v1/hooks') && request.method !== 'GET') await readSecrets();
    return response;
  };
  /** What the code under test reaches: recorded in `calls`. */
  const recorded = async (request: Request): Promise<Response> => {
    const response = await answer(request);
    calls.push(callOf(request, response));
    return response;
  };

  const sandbox = new SandboxClient({ baseUrl, adminToken, fetch: fetchOf(answer), maxRetries: 0 });
  return {
    handlers: [http.all(`${baseUrl}/*`, ({ request }) => recorded(request))],
    baseUrl,
    adminToken,
    seller: sellers[0]!,
    sellers,
    sellersByName,
    calls,
    get scenario() {
      return scenario;
    },
    sandbox,
    fetch: fetchOf(recorded),
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
      calls.length = 0;
      const again = await start(sellers);
      // The same objects, so that what a test holds of them (and `sellersByName`) stays current.
      for (const [i, seller] of sellers.entries()) Object.assign(seller, again[i]);
      await readSecrets();
    },
    close: () => current.app.close(),
  };
}

/** The time a frozen clock shows, in milliseconds. */
function frozenTime(now: Date | string | number): number {
  const ms = now instanceof Date ? now.getTime() : typeof now === 'number' ? now : Date.parse(now);
  if (!Number.isFinite(ms)) throw new TypeError(`createSellerMock: now is not a time: ${JSON.stringify(now)}`);
  return ms;
}

/** A seller's signing secret, while its subscription is not off. */
async function secretOf(svc: ServerContext, sellerId: string): Promise<string | undefined> {
  const hook = (await svc.store.seller(sellerId)).hooks;
  return hook && hook.status !== 'off' ? svc.sealer.open(hook.sealedSecret, secretAad(sellerId)) : undefined;
}

/** Every subscription's signing secret now (a delivery is signed with its seller's). */
async function signingSecrets(svc: ServerContext): Promise<string[]> {
  const secrets: string[] = [];
  for (const id of await svc.store.sellerIds()) {
    const secret = await secretOf(svc, id);
    if (secret !== undefined) secrets.push(secret);
  }
  return secrets;
}
