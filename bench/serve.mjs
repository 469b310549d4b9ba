/**
 * A server for a benchmark, run as a child process by bench/lib.mjs `startChild(config)`;
 * the config comes as JSON in env BENCH_SERVE. Prints one JSON line when it listens, then serves
 * until SIGTERM.
 *
 * - `{mode: 'api', orders?, sellers?, dataDir?, allowLocalHooks?}`: the reference server
 *   (dist/server) on a free port, rate limit lifted, with `sellers` sellers (default 1) each holding
 *   one active card, and `orders` orders on the first seller's card; `cards` more cards (switched
 *   on, cloned) on the first seller; `rateLimit: 'default'` keeps the default rate limit.
 *   Prints `{url, adminToken, pid, sellerId, apiKey, number, sellers: [{sellerId, apiKey, number}]}`
 *   (the top-level seller is the first).
 * - `{mode: 'open', dataDir}`: the reference server started over an existing data directory, seeding
 *   nothing (fsync on). Prints `{url, startMs, rss, heapUsed}`: the time `startServer` took (the
 *   store opened and indexed, the server listening; module loading excluded) and the memory after a
 *   full garbage collection.
 * - `{mode: 'bare', path, bodyFile, contentType}`: a plain fastify route answering GET `path`
 *   with the bytes of `bodyFile`. Prints `{url}`.
 */
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { ADMIN_TOKEN, DIST_SERVER, NO_RATE_LIMIT } from './lib.mjs';
import { cloneCards, newCard, newSeller, seedOrders, writeAll } from './seed.mjs';

const config = JSON.parse(process.env.BENCH_SERVE ?? '{}');

async function bare() {
  const { default: Fastify } = await import('fastify');
  const body = readFileSync(config.bodyFile);
  const app = Fastify({ logger: false });
  app.get(config.path, (_req, reply) => {
    reply.header('content-type', config.contentType).send(body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { info: { url: `http://127.0.0.1:${app.server.address().port}` }, close: () => app.close() };
}

async function reference() {
  const { startServer } = await import(DIST_SERVER);
  const server = await startServer({
    port: 0,
    memory: !config.dataDir,
    dataDir: config.dataDir,
    adminToken: ADMIN_TOKEN,
    rateLimit: config.rateLimit === 'default' ? undefined : NO_RATE_LIMIT,
    allowLocalHooks: config.allowLocalHooks ?? false,
  });
  // Seeded through inject; the parent sends nothing before the ready line below.
  const { app } = server;
  const sellers = [];
  for (let i = 0; i < (config.sellers ?? 1); i++) {
    const seller = await newSeller(app);
    const { number } = await newCard(app, seller.apiKey);
    sellers.push({ sellerId: seller.sellerId, apiKey: seller.apiKey, number });
  }
  const [first] = sellers;
  if (config.orders > 0) await seedOrders(app, first.sellerId, first.number, config.orders);
  if (config.cards > 0) {
    const model = (await app.service.store.seller(first.sellerId)).cards[String(first.number)];
    await cloneCards(app, first.sellerId, model, config.cards);
  }
  await writeAll(app, sellers.map((s) => s.sellerId));
  return {
    info: { url: server.url, adminToken: ADMIN_TOKEN, pid: process.pid, ...first, sellers },
    close: () => server.close(),
  };
}

async function opened() {
  const { startServer } = await import(DIST_SERVER);
  const t0 = performance.now();
  const server = await startServer({ port: 0, memory: false, dataDir: config.dataDir, adminToken: ADMIN_TOKEN, rateLimit: NO_RATE_LIMIT });
  const startMs = performance.now() - t0;
  v8.setFlagsFromString('--expose-gc');
  vm.runInNewContext('gc')();
  const { rss, heapUsed } = process.memoryUsage();
  return { info: { url: server.url, pid: process.pid, startMs, rss, heapUsed }, close: () => server.close() };
}

const running = config.mode === 'bare' ? await bare() : config.mode === 'open' ? await opened() : await reference();
process.stdout.write(`${JSON.stringify(running.info)}\n`);
process.once('SIGTERM', () => {
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
