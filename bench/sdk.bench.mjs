/**
 * SDK overhead: `client.orders.list({limit: 50})` (defaults: answers read tolerantly, sdk/answers.ts)
 * against a bare `fetch` of the same URL with the same headers and `res.json()`, on the same
 * reference server (a child process; a seller with 60 orders), interleaved, alternating which goes
 * first, median. Target: at most 1.15×. An info line shows the client in strict mode (every answer
 * parsed by zod, compiled once hot).
 */
import { DIST_SDK, fmt, log, median, nowMs, pick, ratioRow, startChild } from './lib.mjs';

export const name = 'sdk';

const RUNS = pick(30, 600);
const WARMUP = pick(10, 100);

export async function run() {
  const { SellerClient, SDK_VERSION } = await import(DIST_SDK);
  const server = await startChild({ mode: 'api', orders: 60 });
  try {
    const client = new SellerClient({ baseUrl: server.url, apiKey: server.apiKey });
    const strict = new SellerClient({ baseUrl: server.url, apiKey: server.apiKey, strict: true });
    const url = `${server.url}/api/v1/orders?limit=50`;
    const headers = { authorization: `Bearer ${server.apiKey}`, accept: 'application/json', 'user-agent': `service-seller/${SDK_VERSION}` };
    const calls = {
      fetch: async () => {
        const res = await fetch(url, { headers });
        if (!res.ok) throw new Error(`GET ${url} → ${res.status}`);
        return res.json();
      },
      sdk: () => client.orders.list({ limit: 50 }),
      strict: () => strict.orders.list({ limit: 50 }),
    };
    const page = await calls.sdk();
    if (page.items.length !== 50) throw new Error(`orders.list answered ${page.items.length} orders`);

    const times = { fetch: [], sdk: [], strict: [] };
    const names = Object.keys(calls);
    for (let i = 0; i < WARMUP + RUNS; i++) {
      for (let j = 0; j < names.length; j++) {
        const which = names[(i + j) % names.length];
        const t0 = nowMs();
        await calls[which]();
        if (i >= WARMUP) times[which].push(nowMs() - t0);
      }
    }
    const [bare, sdk, checked] = [median(times.fetch), median(times.sdk), median(times.strict)];
    log(`  sdk: fetch+json ${fmt.ms(bare)}, orders.list ${fmt.ms(sdk)}, strict ${fmt.ms(checked)} (median of ${RUNS})`);
    return [
      ratioRow('SDK orders.list() (50 orders): per call', fmt.ms(sdk), `fetch+json ${fmt.ms(bare)}`, sdk / bare, { atMost: 1.15 }),
      ratioRow('SDK orders.list(), strict: true', fmt.ms(checked), `fetch+json ${fmt.ms(bare)}`, checked / bare, {}),
    ];
  } finally {
    await server.stop();
  }
}
