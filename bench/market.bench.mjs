/**
 * Market reads at scale (server/domain/market.ts): `GET /api/v1/catalog/demand` against a store of
 * 100,000 orders and 100,000 cards, and what one key calling it does to everyone else.
 *
 * - Demand cost: the server's CPU time per `GET /catalog/demand` (sequential calls over keep-alive;
 *   CPU read from /proc/<pid>/stat, steadier than wall time on a shared machine; wall medians are
 *   logged) on a server holding 100,000 orders and 100,000 cards, against the same on a server
 *   holding 1,000 orders and 1,000 cards. Target: at most 2× (a call costs its answer, not the store).
 * - Other sellers: the p99 of `GET /me` of 20 other sellers (each ~8 a second, under its limit)
 *   while one key calls demand as fast as its rate limit lets it (the server keeps the default
 *   limits: its burst of 100 back to back, then 10 a second), against the same without it.
 *   Target: at most 2×.
 *
 * Both servers run in child processes (bench/serve.mjs); the loads come from this process.
 */
import { readFileSync } from 'node:fs';
import { fmt, log, median, nowMs, percentile, pick, ratioRow, sleep, startChild } from './lib.mjs';

export const name = 'market';

const BIG = pick(10_000, 100_000);
const SMALL = 1_000;
const OTHERS = 20;
const DEMAND = '/api/v1/catalog/demand?top=20';

/** Time of one GET in ms; throws unless `ok` accepts the status. */
async function timedGet(url, key, ok = (s) => s === 200) {
  const t0 = nowMs();
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  const ms = nowMs() - t0;
  if (!ok(res.status)) throw new Error(`GET ${url} answered ${res.status}`);
  return { ms, status: res.status };
}

/** User + system CPU of a process in ms (Linux: clock ticks at 100 Hz); NaN elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * `calls` sequential demand calls spread over `keys` (each stays under its limit): the server's CPU
 * per call (wall median where /proc is missing), and the wall median and p99.
 */
async function demandCost(server, keys, calls) {
  for (let i = 0; i < pick(10, 100); i++) await timedGet(`${server.url}${DEMAND}`, keys[i % keys.length]); // warm-up (and the first settle)
  const times = [];
  const cpu0 = cpuMs(server.pid);
  for (let i = 0; i < calls; i++) times.push((await timedGet(`${server.url}${DEMAND}`, keys[i % keys.length])).ms);
  const cpu = (cpuMs(server.pid) - cpu0) / calls;
  return { cpu: Number.isFinite(cpu) && cpu > 0 ? cpu : median(times), median: median(times), p99: percentile(times, 99) };
}

/** p99 of `GET /me` of each key in `keys`, ~8 a second each, for `seconds`. */
async function meP99(server, keys, seconds) {
  const times = [];
  const until = nowMs() + seconds * 1000;
  await Promise.all(
    keys.map(async (key, i) => {
      await sleep((i * 125) / keys.length);
      while (nowMs() < until) {
        times.push((await timedGet(`${server.url}/api/v1/me`, key)).ms);
        await sleep(125);
      }
    }),
  );
  return { p99: percentile(times, 99), median: median(times), samples: times.length };
}

/**
 * One key calling demand as fast as its rate limit lets it, until `stop()`: back to back while its
 * `RateLimit` header shows tokens left (the burst), then one call per token as they come back (a
 * client that reads the header). Counts answers by status.
 */
function hammer(server, key) {
  let running = true;
  const counts = { 200: 0, 429: 0 };
  const loop = (async () => {
    while (running) {
      const res = await fetch(`${server.url}${DEMAND}`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 200 && res.status !== 429) throw new Error(`demand answered ${res.status}`);
      counts[res.status]++;
      const left = Number(/;r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1] ?? 0);
      if (left === 0) await sleep(100); // 600 a minute: a token every 100 ms
    }
  })();
  return {
    counts,
    async stop() {
      running = false;
      await loop;
    },
  };
}

export async function run() {
  const seconds = pick(1, 8);
  const small = await startChild({ mode: 'api', orders: SMALL, cards: SMALL, sellers: 4 });
  let base;
  try {
    base = await demandCost(small, small.sellers.map((s) => s.apiKey), pick(20, 1600));
    log(`  market: demand at ${SMALL} orders: CPU ${fmt.ms(base.cpu)} a call; wall median ${fmt.ms(base.median)}, p99 ${fmt.ms(base.p99)}`);
  } finally {
    await small.stop();
  }

  log(`  market: seeding ${BIG} orders and ${BIG} cards`);
  const big = await startChild({ mode: 'api', orders: BIG, cards: BIG, sellers: OTHERS + 1, rateLimit: 'default' });
  let cost;
  let idle;
  let busy;
  let hammered;
  try {
    const others = big.sellers.slice(1).map((s) => s.apiKey);
    // Spread over the other sellers (the default limits apply here): 1,600 calls are 80 per seller.
    cost = await demandCost(big, others, pick(20, 1600));
    log(`  market: demand at ${BIG} orders: CPU ${fmt.ms(cost.cpu)} a call; wall median ${fmt.ms(cost.median)}, p99 ${fmt.ms(cost.p99)}`);
    await sleep(pick(200, 3000)); // buckets refill
    await meP99(big, others, pick(0.3, 2)); // warm-up (JIT, connections, the seeding's garbage)
    idle = await meP99(big, others, seconds);
    log(`  market: GET /me of ${OTHERS} sellers, idle: p99 ${fmt.ms(idle.p99)} (${idle.samples} calls)`);
    const h = hammer(big, big.apiKey);
    try {
      busy = await meP99(big, others, seconds);
    } finally {
      await h.stop();
    }
    hammered = h.counts;
    log(`  market: GET /me while one key hammers demand: p99 ${fmt.ms(busy.p99)}; the key got ${hammered[200]} × 200, ${hammered[429]} × 429`);
  } finally {
    await big.stop();
  }

  return [
    ratioRow(
      `GET /catalog/demand, ${fmt.int(BIG)} orders + ${fmt.int(BIG)} cards: server CPU a call`,
      `${fmt.ms(cost.cpu)} (wall median ${fmt.ms(cost.median)})`,
      `${fmt.int(SMALL)} orders + cards ${fmt.ms(base.cpu)}`,
      cost.cpu / base.cpu,
      { atMost: 2 },
    ),
    ratioRow(
      `GET /me p99 of ${OTHERS} sellers while one key hammers demand (${fmt.int(BIG)} orders)`,
      `${fmt.ms(busy.p99)} (key: ${hammered[200]} ok, ${hammered[429]} × 429)`,
      `idle ${fmt.ms(idle.p99)}`,
      busy.p99 / idle.p99,
      { atMost: 2 },
    ),
  ];
}
