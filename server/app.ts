/**
 * `buildApp(options)`: the composition root. It builds the server context (every part that lives
 * once per server, {@link buildContext}), one fastify instance serving the seller API and the
 * sandbox with every route registered from the operation table, and wires who hears what (events,
 * clock). Used by `seller-server` and by `inject` tests.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { apiOperations, sandboxOperations } from '../sdk/contract/index.ts';
import type { ErrorBody } from '../sdk/contract/index.ts';
import { errorBody, INTERNAL_MESSAGE, requestError } from './http/errors.ts';
import { Clock } from './clock.ts';
import type { ServerContext } from './context.ts';
import { UnitOfWork } from './context.ts';
import { registerDocs } from './docs.ts';
import { registerSandboxPage } from './sandbox-page-route.ts';
import { ChangeBus } from './domain/change-bus.ts';
import { EventBus } from './domain/event-bus.ts';
import { FaultTable } from './faults/table.ts';
import { registerTelegram } from './telegram/route.ts';
import { TelegramEmulator } from './telegram/state.ts';
import { buildMarket } from './domain/market.ts';
import { sweepOrders } from './domain/order-clock.ts';
import { OrderDeadlines } from './domain/order-deadlines.ts';
import { ClockLeases } from './sandbox/clock-lease.ts';
import { checkAnswersDefault } from './http/answer-json.ts';
import { InFlight } from './http/idempotency.ts';
import { registerImageRoute } from './http/image-route.ts';
import { KeptPages } from './http/kept-pages.ts';
import { DEFAULT_RATE_LIMIT, RateLimiter, type RateLimitOptions } from './http/rate-limit.ts';
import { JSON_BODY_LIMIT, registerOperations } from './http/routes.ts';
import { base62, requestId } from './ids.ts';
import { registerMcp } from './mcp/endpoint.ts';
import { apiHandlerTable } from './routes/index.ts';
import { registerChangeStream } from './sandbox/change-stream.ts';
import { sandboxHandlerTable } from './sandbox/index.ts';
import { SEED_CATALOG } from './seed/catalog.ts';
import { loadMasterKey, Sealer } from './store/crypto.ts';
import { ImageStore } from './store/images.ts';
import { Store } from './store/store.ts';
import type { ResolveLookup } from './webhooks/address.ts';
import { enqueueEvent, resumeAll, runDue, webhooksIdle } from './webhooks/outbox.ts';
import { WebhookOutbox } from './webhooks/outbox-state.ts';
import { registerProbeRoute } from './webhooks/probe.ts';
import { ATTEMPT_TIMEOUT_MS } from './webhooks/sender.ts';
import { RouteMethods } from './http/method-not-allowed.ts';
import { logSerializers } from './http/log-redact.ts';
import { clientErrorHandler } from './http/client-errors.ts';

export interface AppOptions {
  /** Directory of the data files. Omit (or pass `memory: true`) for an in-memory store. */
  dataDir?: string;
  memory?: boolean;
  /** A store opened by the caller (tests that restart a server over the same store). */
  store?: Store;
  /**
   * Flush every data file and its directory before a changing call is answered (SQLite's default
   * durability). `false` (`seller-server --no-fsync`) is for throwaway servers: a killed process
   * loses nothing, a power cut may. @default true
   */
  fsync?: boolean;
  /** Sandbox admin token. @default SERVICE_ADMIN_TOKEN, else generated */
  adminToken?: string;
  /** Allow `http://` webhook addresses on loopback. @default false */
  allowLocalHooks?: boolean;
  /** Whether webhook signing secrets can be stored. @default true, unless SERVICE_HOOK_VAULT=off */
  hookSecrets?: boolean;
  /** Time one webhook delivery attempt may take, in milliseconds. @default 10000 */
  hookTimeoutMs?: number;
  /** The DNS lookup of the webhook sender (tests). @default the system resolver */
  hookLookup?: ResolveLookup;
  clock?: Clock;
  /**
   * Check every answer against the contract with zod besides serializing it (a mismatch is a 500
   * naming the field): for development and tests, not for production (it costs a parse per answer).
   * @default true when SELLER_SERVER_CHECK_ANSWERS=1
   */
  checkAnswers?: boolean;
  rateLimit?: Partial<RateLimitOptions>;
  /**
   * Fastify's logger (pino, one JSON object a line): `true` logs every request at `info` to stdout;
   * `{level, stream}` picks the level and where the lines go. An unexpected error (a 500) is logged
   * at `error` with the request id its answer carries. @default false
   */
  logger?: boolean | { level: 'error' | 'warn' | 'info' | 'debug'; stream?: { write(line: string): unknown } };
}

declare module 'fastify' {
  interface FastifyInstance {
    service: ServerContext;
    /** How many operations of the table this server serves (API, sandbox). */
    served: { api: number; sandbox: number };
  }
}

export async function buildApp(opts: AppOptions = {}): Promise<FastifyInstance> {
  const svc = await buildContext(opts);
  await seedCatalog(svc);
  let routes: RouteMethods | undefined;
  const app = Fastify({
    // Every request line goes through the redacting serializer (a bot token is part of a path).
    logger: opts.logger ? { level: 'info', ...(opts.logger === true ? {} : opts.logger), serializers: logSerializers } : false,
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: requestId,
    requestIdHeader: false,
    // Closing the server (tests, SIGINT) must not wait for a client's keep-alive connection.
    forceCloseConnections: true,
    // A malformed URL (bad percent-encoding) is refused by the router before any hook: answer it in
    // the API's envelope, not fastify's own `{error, code, message, statusCode}`.
    frameworkErrors: (err, req, res) => {
      const reply = res as FastifyReply;
      reply.header('x-request-id', req.id);
      return reply.code(400).send(err.code === 'FST_ERR_BAD_URL' ? requestError(['path'], 'bad_url', 'not a valid URL') : requestError([], 'custom', 'malformed request'));
    },
    // What Node's HTTP parser refuses (a method it does not know: `FOO`) never reaches the router.
    clientErrorHandler: clientErrorHandler(() => routes!),
  });
  app.decorate('service', svc);
  routes = new RouteMethods(app); // before any route: it collects them as they are registered
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  // fastify parses text/plain into a string by default; JSON routes must see it as a non-JSON body.
  app.removeContentTypeParser('text/plain');
  // A callback hook, not an async one: no promise per request on the hot path.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    // `Date` is the server's clock, which the sandbox moves: a client that checks a date against
    // "today" (the next charge day) reads the service's today, not its own computer's.
    reply.header('date', svc.clock.httpDate());
    done();
  });
  app.setNotFoundHandler((req, reply) => {
    if (routes.refuse(req.method, req.url, reply)) return;
    const route = `${req.method} ${req.url.split('?')[0]}`;
    reply.code(404).send(errorBody('not_found', `no route ${route}`, { record: 'route', id: route }));
  });
  app.setErrorHandler((err: { statusCode?: number; code?: string; message?: string }, req, reply) => {
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err }, 'unexpected error');
      return reply.code(500).send(errorBody('internal', INTERNAL_MESSAGE));
    }
    // A request no route serves failed before the not-found handler (fastify reads a body of `QUERY`,
    // a method without a route here, and refuses it without Content-Type): 405 on a known path, else 404.
    if (req.is404) {
      if (routes.refuse(req.method, req.url, reply)) return;
      const route = `${req.method} ${req.url.split('?')[0]}`;
      return reply.code(404).send(errorBody('not_found', `no route ${route}`, { record: 'route', id: route }));
    }
    return reply.code(400).send(clientError(err));
  });

  app.decorate('served', {
    api: registerOperations(app, svc, apiHandlerTable, Object.values(apiOperations)),
    sandbox: registerOperations(app, svc, sandboxHandlerTable, Object.values(sandboxOperations)),
  });
  registerDocs(app, svc);
  registerSandboxPage(app);
  registerMcp(app, svc, apiHandlerTable);
  registerImageRoute(app, svc);
  registerProbeRoute(app, svc);
  registerChangeStream(app, svc);
  registerTelegram(app, svc);

  // Who hears what: a recorded event becomes a pending delivery; each clock tick (real time, or a
  // sandbox advance) sweeps order deadlines, then runs the webhook deliveries that came due.
  svc.events.on((sellerId, event, doc) => enqueueEvent(svc, sellerId, event, doc));
  svc.clock.onAdvance(async (now) => void (await sweepOrders(svc, now)));
  svc.clock.onAdvance((now) => runDue(svc, now.getTime()));
  svc.telegram.listen((bot, chat) => svc.changes.publish([{ type: 'telegram', bot, chat, at: svc.clock.now().toISOString() }]));
  // A fault that hits or ends is told to the inspector (once per turn of the event loop, however
  // many hit); each tick ends the `for` faults whose time has passed, so the page sees it within a second.
  svc.faults.onChange(once(() => svc.changes.publish([{ type: 'faults', at: svc.clock.now().toISOString() }])));
  svc.clock.onAdvance((now) => svc.faults.endDue(now.getTime()));
  svc.outbox.app = app; // deliveries to the server's own probe receiver go through `app.inject`
  app.addHook('onClose', async () => {
    svc.market.detach();
    svc.outbox.closed = true;
    svc.faults.close(); // latencies and webhook delays end at once
    svc.telegram.close(); // so do the Telegram emulator's long polls
    await webhooksIdle(svc);
  });
  // Nothing is lost across restarts: every pending delivery found in the store is queued again.
  await resumeAll(svc);
  return app;
}

/**
 * The composition root: every part that lives once per server, built here and nowhere else
 * (server/context.ts says what each part is for).
 */
async function buildContext(opts: AppOptions): Promise<ServerContext> {
  const store = opts.store ?? (await Store.open({ dataDir: opts.memory ? undefined : opts.dataDir, fsync: opts.fsync }));
  await Promise.all((await store.sellerIds()).map((id) => store.sellerDb(id)));
  return {
    store,
    sealer: new Sealer(await loadMasterKey(store.dataDir)),
    images: new ImageStore(store.dataDir),
    clock: opts.clock ?? new Clock(store.shared.clock.offsetMs),
    deadlines: new OrderDeadlines(),
    clockLeases: new ClockLeases(),
    limiter: new RateLimiter({ ...DEFAULT_RATE_LIMIT, ...opts.rateLimit }),
    inflight: new InFlight(),
    lastPrune: new Map(),
    keptPages: new KeptPages(),
    adminToken: opts.adminToken ?? process.env.SERVICE_ADMIN_TOKEN ?? `adm_${base62(32)}`,
    faults: new FaultTable(),
    telegram: new TelegramEmulator(),
    options: {
      allowLocalHooks: opts.allowLocalHooks ?? false,
      publicUrl: null,
      hookSecrets: opts.hookSecrets ?? process.env.SERVICE_HOOK_VAULT !== 'off',
      hookTimeoutMs: opts.hookTimeoutMs ?? ATTEMPT_TIMEOUT_MS,
      hookLookup: opts.hookLookup ?? null,
      checkAnswers: opts.checkAnswers ?? checkAnswersDefault(),
    },
    events: new EventBus(),
    changes: new ChangeBus(),
    outbox: new WebhookOutbox(),
    // Market aggregates for usual price and demand, derived at start and kept in step.
    market: await buildMarket(store),
  };
}

/** `run` at the end of this turn of the event loop, once however often it was asked meanwhile. */
function once(run: () => void): () => void {
  let asked = false;
  return () => {
    if (asked) return;
    asked = true;
    setImmediate(() => {
      asked = false;
      run();
    });
  };
}

/** A client error raised by fastify itself (body parsing, size): a safe, specific issue. */
function clientError(err: { code?: string; message?: string }): ErrorBody {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return requestError(['body'], 'not_json', 'not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return requestError(['body'], 'not_json', 'empty JSON body with Content-Type application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return requestError(['body'], 'too_large', 'too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return requestError(['body'], 'content_type', 'unsupported Content-Type');
    default:
      return requestError([], 'custom', 'malformed request');
  }
}

/** The marketplace catalogue is seeded on a new store (it is the marketplace's, not a demo's). */
async function seedCatalog(svc: ServerContext): Promise<void> {
  if (svc.store.shared.catalog.length > 0) return;
  const tx = new UnitOfWork(svc);
  tx.shared().catalog = structuredClone(SEED_CATALOG);
  await tx.commit();
}
