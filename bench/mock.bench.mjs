/**
 * The msw mock (`service-seller-server/msw`, issue 28): `client.orders.list({limit: 50})` through
 * the mock's msw handlers (the app answering in-process, no socket) against the same call through
 * `seller-server` over a socket (`startServer` in the same process, as a test would start it), on
 * the same data (a seller with 60 orders, seeded the same way on both), in paired rounds alternating
 * which goes first; the ratio is the median of the rounds' ratios. Target: at most 1.0×.
 */
import { DIST_SDK, DIST_SERVER, fmt, log, median, NO_RATE_LIMIT, nowMs, pick, ratioRow } from './lib.mjs';

export const name = 'mock';

const RUNS = pick(20, 400);
const WARMUP = pick(5, 50);
const ORDERS = 60;
const CARD = { service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 300, slaMinutes: 60, guaranteeDays: 7, stock: 1000 };

/** One card switched on and `ORDERS` orders of it, through the seller API and the sandbox. */
async function seed(client, sandbox) {
  const { number } = await client.listings.create(CARD);
  await client.listings.setState(number, { active: true });
  for (let i = 0; i < ORDERS; i++) await sandbox.createOrder({ number });
}

export async function run() {
  const { SellerClient, SandboxClient } = await import(DIST_SDK);
  const { startServer } = await import(DIST_SERVER);
  const { createSellerMock } = await import(new URL('../server/dist/esm/msw/index.js', import.meta.url).href);
  const { setupServer } = await import('msw/node');

  const server = await startServer({ port: 0, memory: true, demo: true, rateLimit: NO_RATE_LIMIT });
  const mock = await createSellerMock({ server: { rateLimit: NO_RATE_LIMIT } });
  const msw = setupServer(...mock.handlers);
  msw.listen({ onUnhandledRequest: 'bypass' });
  try {
    const overSocket = new SellerClient({ baseUrl: server.url, apiKey: server.demo.apiKey });
    const throughMock = new SellerClient({ baseUrl: mock.baseUrl, apiKey: mock.seller.apiKey });
    await seed(overSocket, new SandboxClient({ baseUrl: server.url, adminToken: server.adminToken }));
    await seed(throughMock, mock.sandbox);
    const calls = { socket: () => overSocket.orders.list({ limit: 50 }), mock: () => throughMock.orders.list({ limit: 50 }) };
    for (const [which, call] of Object.entries(calls)) {
      const page = await call();
      if (page.items.length !== 50) throw new Error(`${which}: orders.list answered ${page.items.length} orders`);
    }
    const times = { socket: [], mock: [] };
    const ratios = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const order = i % 2 === 0 ? ['socket', 'mock'] : ['mock', 'socket'];
      const round = {};
      for (const which of order) {
        const t0 = nowMs();
        await calls[which]();
        round[which] = nowMs() - t0;
      }
      if (i < WARMUP) continue;
      times.socket.push(round.socket);
      times.mock.push(round.mock);
      ratios.push(round.mock / round.socket);
    }
    const [socket, viaMock, ratio] = [median(times.socket), median(times.mock), median(ratios)];
    log(`  mock: over a socket ${fmt.ms(socket)}, through the msw mock ${fmt.ms(viaMock)}, median ratio ${fmt.ratio(ratio)} (${RUNS} rounds)`);
    return [ratioRow('msw mock orders.list() (50 orders): per call', fmt.ms(viaMock), `seller-server socket ${fmt.ms(socket)}`, ratio, { atMost: 1.0 })];
  } finally {
    msw.close();
    await mock.close();
    await server.close();
  }
}
