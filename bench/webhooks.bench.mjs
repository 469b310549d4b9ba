/**
 * Webhooks: from an order's payment (`POST /sandbox/v1/orders/{id}/pay`) to a 2xx at a loopback
 * receiver, through the reference server (a child process with a real data directory and
 * `allowLocalHooks`); SELLERS sellers, each subscribed to `order.paid` at the receiver.
 *
 * 1. Latency: payments of the first seller one at a time (each waits for its delivery); median and
 *    p99 of the time from sending the payment to the receiver answering. Baseline: the payment's
 *    own round trip.
 * 2. Sustained rate: payments fired open-loop at increasing rates (steps of a few seconds), spread
 *    round-robin over the sellers; each step's orders are made before the step. The backlog is
 *    payments sent minus deliveries received. A step's backlog is bounded when at the end of the
 *    step it is at most half a second of work (rate × 0.5 s, at least 10) and it drains within
 *    2 s after the step. The answer is the highest delivery rate of a bounded step. The ladder
 *    stops at the first unbounded step, or when the server no longer takes the payments at 90 % of
 *    the asked rate (then the payments, not the deliveries, are the limit, and the line says so).
 *
 * Orders are spread over several sellers because every payment and every delivery attempt rewrites
 * the seller's whole document: one seller collecting thousands of orders would measure that
 * document's growth (see the writes bench), not the webhook sender.
 * The issue sets no numeric target here: the lines are reported (info).
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { fmt, log, median, nowMs, percentile, pick, row, sleep, startChild, tempDir } from './lib.mjs';

export const name = 'webhooks';

const LATENCY_PAYMENTS = pick(20, 200);
const RATES = pick([20, 50], [25, 50, 100, 200, 400, 800]);
const STEP_S = pick(0.5, 2);
const SELLERS = pick(2, 10);
const DRAIN_MS = 2_000;

/** A loopback receiver answering 204; calls `onPaid(orderId, atMs)` for each order.paid. */
async function receiver(onPaid) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = nowMs();
      res.writeHead(204).end();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (event.event === 'order.paid') onPaid(event.data.order, at);
      } catch {
        // not an event: ignored
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks/service`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

export async function run() {
  const data = tempDir('webhooks');
  const sent = new Map(); // order id → ms when its payment was sent
  const latencies = [];
  let received = 0;
  let waiter = null;
  const hook = await receiver((id, at) => {
    const t = sent.get(id);
    if (t === undefined) return;
    sent.delete(id);
    received++;
    latencies.push(at - t);
    if (waiter && waiter.id === id) waiter.resolve();
  });
  const server = await startChild({ mode: 'api', orders: 0, sellers: SELLERS, dataDir: data.dir, allowLocalHooks: true });
  try {
    const call = async (method, url, headers, body) => {
      const res = await fetch(url, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text.slice(0, 200)}`);
      return text ? JSON.parse(text) : undefined;
    };
    const sandbox = (method, path, body) => call(method, `${server.url}/sandbox/v1${path}`, { authorization: `Bearer ${server.adminToken}` }, body);
    for (const seller of server.sellers) {
      await call('PUT', `${server.url}/api/v1/hooks`, { authorization: `Bearer ${seller.apiKey}`, 'idempotency-key': randomUUID() }, {
        url: hook.url,
        events: ['order.paid'],
      });
    }

    /** `count` orders awaiting payment, round-robin over `sellers`, made 20 at a time. */
    const makeOrders = async (count, sellers) => {
      const out = [];
      while (out.length < count) {
        const batch = Math.min(20, count - out.length);
        const made = await Promise.all(
          Array.from({ length: batch }, (_, i) => sandbox('POST', '/orders', { number: sellers[(out.length + i) % sellers.length].number })),
        );
        out.push(...made.map((o) => o.id));
      }
      return out.reverse(); // popped from the end: round-robin order kept
    };
    const pay = (id) => {
      sent.set(id, nowMs());
      return sandbox('POST', `/orders/${id}/pay`);
    };

    // 1. Latency, one payment at a time.
    const orders = await makeOrders(LATENCY_PAYMENTS, server.sellers.slice(0, 1));
    const payRtt = [];
    for (let i = 0; i < LATENCY_PAYMENTS; i++) {
      const id = orders.pop();
      const delivered = new Promise((resolve) => (waiter = { id, resolve }));
      const t0 = nowMs();
      await pay(id);
      payRtt.push(nowMs() - t0);
      await Promise.race([delivered, sleep(5_000).then(() => Promise.reject(new Error(`no delivery for ${id} within 5 s`)))]);
    }
    waiter = null;
    const lat = { p50: median(latencies), p99: percentile(latencies, 99), pay: median(payRtt) };
    log(`  webhooks: pay → 2xx median ${fmt.ms(lat.p50)}, p99 ${fmt.ms(lat.p99)}; pay round trip ${fmt.ms(lat.pay)} (${LATENCY_PAYMENTS} payments)`);

    // 2. The rate ladder.
    let best = null;
    let limit = `every step up to ${RATES.at(-1)}/s bounded`;
    for (const rate of RATES) {
      const step = await fireStep(rate, await makeOrders(Math.ceil(rate * STEP_S), server.sellers), pay, () => received);
      const drained = step.drainMs === null ? `not drained in ${DRAIN_MS} ms` : `drained in ${fmt.ms(step.drainMs)}`;
      log(
        `  webhooks: ${rate}/s asked: ${fmt.rate(step.paidRate, 'pay/s')}, ${fmt.rate(step.deliveredRate, 'dlv/s')}, ` +
          `backlog at end ${step.backlogEnd}, ${drained} → ${step.bounded ? 'bounded' : 'growing'}`,
      );
      if (!step.bounded) {
        limit = `backlog grows at ${rate}/s`;
        break;
      }
      if (!best || step.deliveredRate > best.deliveredRate) best = { rate, ...step };
      if (step.paidRate < rate * 0.9) {
        limit = `${rate}/s asked: the server took ${fmt.rate(step.paidRate, 'pay/s')}`;
        break;
      }
    }
    return [
      row('webhook pay → 2xx at receiver: median', fmt.ms(lat.p50), `pay round trip ${fmt.ms(lat.pay)}`, lat.p50 / lat.pay, 'report', 'info'),
      row('webhook pay → 2xx at receiver: p99', fmt.ms(lat.p99), `pay round trip ${fmt.ms(lat.pay)}`, lat.p99 / lat.pay, 'report', 'info'),
      row(
        `webhook deliveries sustained, ${SELLERS} sellers (${limit})`,
        best ? fmt.rate(best.deliveredRate, 'dlv/s') : `< ${RATES[0]}/s`,
        best ? `payments ${fmt.rate(best.paidRate, 'pay/s')}` : '—',
        best ? best.deliveredRate / best.paidRate : null,
        'bounded backlog',
        'info',
      ),
    ];
  } finally {
    await server.stop();
    await hook.close();
    data.remove();
  }
}

/** Pays `rate` orders a second for STEP_S seconds (open loop), then waits for the backlog to drain. */
async function fireStep(rate, orders, pay, receivedCount) {
  const total = Math.ceil(rate * STEP_S);
  const startReceived = receivedCount();
  const inflight = [];
  let fired = 0;
  const t0 = nowMs();
  while (fired < total) {
    const due = Math.min(total, Math.floor(((nowMs() - t0) / 1000) * rate) + 1);
    while (fired < due) {
      inflight.push(pay(orders.pop()));
      fired++;
    }
    await sleep(5);
  }
  const paid = await Promise.all(inflight).then(() => nowMs());
  const firedMs = paid - t0;
  const backlogEnd = fired - (receivedCount() - startReceived);
  const deliveredByEnd = receivedCount() - startReceived;
  let drainMs = null;
  const drainStart = nowMs();
  while (nowMs() - drainStart < DRAIN_MS) {
    if (receivedCount() - startReceived >= fired) {
      drainMs = nowMs() - drainStart;
      break;
    }
    await sleep(5);
  }
  const paidRate = (fired * 1000) / firedMs;
  const bounded = backlogEnd <= Math.max(10, rate * 0.5) && drainMs !== null;
  return { paidRate, deliveredRate: (deliveredByEnd * 1000) / firedMs, backlogEnd, drainMs, bounded };
}
