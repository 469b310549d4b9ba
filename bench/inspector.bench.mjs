/**
 * The inspector's change stream (issue 29: "new orders and every status change appear without a
 * reload within a second"): from a payment sent (`POST /sandbox/v1/orders/{id}/pay`) to its `order`
 * event read from `GET /sandbox/v1/changes` by the built SDK's `SandboxClient.changes()`, through the
 * reference server in a child process with a real data directory. Payments one at a time; median and
 * p99. Baseline: the payment's own round trip (the event comes after the payment's write, so the
 * ratio says what the stream adds). Target: p99 within 1 s.
 */
import { DIST_SDK, fmt, log, median, nowMs, percentile, pick, row, sleep, startChild, tempDir } from './lib.mjs';

export const name = 'inspector';

const PAYMENTS = pick(10, 200);
const TARGET_MS = 1000;

export async function run() {
  const data = tempDir('inspector');
  const server = await startChild({ mode: 'api', orders: 0, sellers: 1, dataDir: data.dir });
  const stop = new AbortController();
  try {
    const { SandboxClient } = await import(DIST_SDK);
    const sb = new SandboxClient({ adminToken: server.adminToken, baseUrl: server.url, maxRetries: 0 });
    const waiting = new Map(); // order id → resolve of its payment's event
    let ready;
    const live = new Promise((resolve) => (ready = resolve));
    const reading = (async () => {
      for await (const event of sb.changes({ sellerId: server.sellerId, signal: stop.signal })) {
        if (event.type === 'ready') ready();
        if (event.type === 'order' && event.change === 'status' && event.action === 'pay') waiting.get(event.order.id)?.(nowMs());
      }
    })();
    await live;

    const latencies = [];
    const payRtt = [];
    for (let i = 0; i < PAYMENTS; i++) {
      const order = await sb.createOrder({ number: server.number });
      const seen = new Promise((resolve) => waiting.set(order.id, resolve));
      const t0 = nowMs();
      await sb.pay(order.id);
      payRtt.push(nowMs() - t0);
      const at = await Promise.race([seen, sleep(5_000).then(() => Promise.reject(new Error(`no stream event for ${order.id} within 5 s`)))]);
      latencies.push(at - t0);
      waiting.delete(order.id);
    }
    stop.abort();
    await reading;
    const p50 = median(latencies);
    const p99 = percentile(latencies, 99);
    const pay = median(payRtt);
    log(`  inspector: pay → stream event median ${fmt.ms(p50)}, p99 ${fmt.ms(p99)}; pay round trip ${fmt.ms(pay)} (${PAYMENTS} payments)`);
    return [
      row('change stream: pay → its order event, median', fmt.ms(p50), `pay round trip ${fmt.ms(pay)}`, p50 / pay, 'report', 'info'),
      row('change stream: pay → its order event, p99', fmt.ms(p99), `pay round trip ${fmt.ms(pay)}`, p99 / pay, `<= ${TARGET_MS} ms`, p99 <= TARGET_MS ? 'PASS' : 'MISS'),
    ];
  } finally {
    stop.abort();
    await server.stop();
    data.remove();
  }
}
