/**
 * SDK overhead: `client.orders.list({limit: 50})` (defaults: answers read tolerantly, sdk/answers.ts)
 * against a bare `fetch` of the same URL with the same headers and `res.json()`, on the same
 * reference server (a child process; a seller with 60 orders), interleaved, alternating which goes
 * first, median. Targets (issue 32, replacing the 1.15× row): at most 1.3× the bare fetch + json(),
 * and at most 1.1× ky alone (no retries, no timeout: the least a call through ky, the SDK's
 * transport, costs), which is the SDK's own cost. An info line shows the client in strict mode
 * (every answer parsed by zod, compiled once hot), and one ky alone against the bare fetch.
 */
import ky from 'ky';
import { DIST_SDK, fmt, interleaved, log, median, pick, ratioRow, startChild } from './lib.mjs';

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
      ky: async () => (await ky(url, { headers, retry: 0, timeout: false })).json(),
    };
    const page = await calls.sdk();
    if (page.items.length !== 50) throw new Error(`orders.list answered ${page.items.length} orders`);

    const times = await interleaved(calls, WARMUP, RUNS);
    const [bare, sdk, checked, kyAlone] = [median(times.fetch), median(times.sdk), median(times.strict), median(times.ky)];
    log(`  sdk: fetch+json ${fmt.ms(bare)}, orders.list ${fmt.ms(sdk)}, strict ${fmt.ms(checked)}, ky alone ${fmt.ms(kyAlone)} (median of ${RUNS})`);
    return [
      ratioRow('SDK orders.list() (50 orders): per call', fmt.ms(sdk), `fetch+json ${fmt.ms(bare)}`, sdk / bare, { atMost: 1.3 }),
      ratioRow('SDK orders.list(): its own cost over ky', fmt.ms(sdk), `ky alone ${fmt.ms(kyAlone)}`, sdk / kyAlone, { atMost: 1.1 }),
      ratioRow('SDK orders.list(), strict: true', fmt.ms(checked), `fetch+json ${fmt.ms(bare)}`, checked / bare, {}),
      ratioRow('ky alone (no retries, no timeout) + json', fmt.ms(kyAlone), `fetch+json ${fmt.ms(bare)}`, kyAlone / bare, {}),
    ];
  } finally {
    await server.stop();
  }
}
