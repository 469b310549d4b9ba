/**
 * A card's stock at a million units (issue 19): one card of one seller refilled to 1,000,000 units
 * (in 1,000-unit refills through the API, fsync off while seeding), then the reference server started
 * over that data directory in a child process (fsync on) and measured over HTTP, against baselines in
 * the same run on the same server:
 *
 * - a 1,000-unit refill of the million-unit card vs of a card of the same seller holding 1,000 units
 *   (target ≤ 1.5×);
 * - a paid order delivered automatically from the million vs from a card of 50 units (≤ 2×);
 * - another seller's `GET /me` p99 while the large card sells and is refilled vs idle (≤ 2×);
 * - start-up over the million units vs over an empty data directory, and the memory per unit;
 * - SIGKILL in the middle of a 1,000-unit refill of the million-unit card: after a restart every
 *   acknowledged batch is there whole and the batch in flight is there whole or not at all.
 *
 * Costs are medians of alternating calls (small, large, small, …; the first pair is a warm-up), so
 * that load from elsewhere on the machine touches both sides alike.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_TOKEN, DIST_SERVER, fmt, log, median, NO_RATE_LIMIT, nowMs, percentile, pick, ratioRow, row, sleep, startChild, tempDir } from './lib.mjs';
import { api, newCard, newSeller } from './seed.mjs';

export const name = 'stock';

const UNITS = pick(20_000, 1_000_000);
const BATCH = 1_000;
const SMALL_STOCK = 50;
const SAMPLES = pick(4, 15);
/** Refills are timed more often: their cost is mostly the disk's, which other work on the machine shakes. */
const REFILL_SAMPLES = pick(4, 30);
const PROBES = pick(60, 400);


const batch = (tag, b, size = BATCH) => Array.from({ length: size }, (_, j) => `${tag}-${b}-${j}-${randomUUID().slice(0, 8)}`);

/** An HTTP call to the child server; answers the parsed body; throws unless 2xx. */
async function http(base, method, url, { key, admin, body } = {}) {
  const headers = { authorization: `Bearer ${admin ? ADMIN_TOKEN : key}` };
  if (!admin && method !== 'GET') headers['idempotency-key'] = randomUUID();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const timedCall = async (fn) => {
  const t0 = nowMs();
  await fn();
  return nowMs() - t0;
};

/** Seeds the data directory in-process: sellers, the large card refilled to UNITS units. */
async function seed(dir) {
  const { buildApp } = await import(DIST_SERVER);
  const app = await buildApp({ dataDir: dir, adminToken: ADMIN_TOKEN, rateLimit: NO_RATE_LIMIT, fsync: false });
  try {
    const [large, small, other] = [await newSeller(app), await newSeller(app), await newSeller(app)];
    // A code card switched on (bench/seed.mjs); its body makes the other cards of the run.
    const { number, body } = await newCard(app, large.apiKey);
    const t0 = nowMs();
    for (let b = 0; b * BATCH < UNITS; b++) {
      await api(app, large.apiKey, 'POST', `/listings/${number}/stock`, { items: batch('seed', b) });
      if (b % 100 === 99) log(`  stock: seeded ${fmt.int((b + 1) * BATCH)} units (${fmt.ms(nowMs() - t0)})`);
    }
    return { large: { ...large, number }, small, other, card: body, seededMs: nowMs() - t0 };
  } finally {
    await app.close();
  }
}

/** p99 of sequential `GET /me` of another seller. */
async function meP99(base, key) {
  const costs = [];
  for (let i = 0; i < PROBES; i++) costs.push(await timedCall(() => http(base, 'GET', '/api/v1/me', { key })));
  return { p99: percentile(costs, 99), p50: median(costs), max: Math.max(...costs) };
}

/** An order on `number`, bought through the sandbox (not timed); answers a function paying it. */
async function orderToPay(base, number) {
  const order = await http(base, 'POST', '/sandbox/v1/orders', { admin: true, body: { number } });
  return async () => {
    const paid = await http(base, 'POST', `/sandbox/v1/orders/${order.id}/pay`, { admin: true });
    if (paid.status !== 'delivered') throw new Error(`order ${order.id} not delivered automatically: ${paid.status}`);
  };
}

/** Kills the server in the middle of a 1,000-unit refill, restarts it, and checks the batches. */
async function killMidRefill(server, dir, large) {
  const sent = [];
  const acked = [];
  let stop = false;
  const refiller = async () => {
    while (!stop) {
      const items = batch('kill', sent.length);
      const entry = { items };
      sent.push(entry);
      try {
        await http(server.url, 'POST', `/api/v1/listings/${large.number}/stock`, { key: large.apiKey, body: { items } });
        acked.push(entry);
      } catch {
        return;
      }
    }
  };
  const load = refiller();
  while (acked.length < 2) await sleep(5);
  await sleep(Math.random() * 30);
  process.kill(server.pid, 'SIGKILL');
  stop = true;
  await load;
  await server.stop();
  const again = await startChild({ mode: 'open', dataDir: dir });
  let whole = true;
  let unanswered = 0;
  for (const entry of sent) {
    const r = await http(again.url, 'POST', `/api/v1/listings/${large.number}/stock`, { key: large.apiKey, body: { items: entry.items } });
    const isAcked = acked.includes(entry);
    if (!isAcked) unanswered++;
    if (isAcked ? r.added !== 0 : r.added !== 0 && r.added !== BATCH) whole = false;
  }
  return { server: again, whole, acked: acked.length, unanswered };
}

export async function run() {
  const rows = [];
  const tmp = tempDir('stock');
  const empty = tempDir('stock-empty');
  let server = null;
  try {
    const { large, small, other, card: CARD, seededMs } = await seed(tmp.dir);
    log(`  stock: ${fmt.int(UNITS)} units seeded in ${fmt.ms(seededMs)} (fsync off)`);

    const bare = await startChild({ mode: 'open', dataDir: empty.dir });
    await bare.stop();
    server = await startChild({ mode: 'open', dataDir: tmp.dir });
    const base = server.url;
    log(`  stock: start-up ${fmt.ms(server.startMs)} (empty: ${fmt.ms(bare.startMs)}); rss ${fmt.mb(server.rss)} (empty: ${fmt.mb(bare.rss)})`);

    // --- 1,000-unit refills: the large card vs a fresh card of 1,000 units of the same seller ----------
    // (as the issue measured: one seller's card as its stock grows; only the card's stock differs)
    let fresh = 0;
    const largeRefill = [];
    const smallRefill = [];
    for (let i = 0; i < REFILL_SAMPLES + 1; i++) {
      const { number } = await http(base, 'POST', '/api/v1/listings', { key: large.apiKey, body: CARD });
      await http(base, 'POST', `/api/v1/listings/${number}/stock`, { key: large.apiKey, body: { items: batch('base', fresh++) } });
      smallRefill.push(await timedCall(() => http(base, 'POST', `/api/v1/listings/${number}/stock`, { key: large.apiKey, body: { items: batch('small', fresh++) } })));
      largeRefill.push(await timedCall(() => http(base, 'POST', `/api/v1/listings/${large.number}/stock`, { key: large.apiKey, body: { items: batch('large', fresh++) } })));
    }
    const refills = { large: median(largeRefill.slice(1)) };
    const refillSmall = median(smallRefill.slice(1));
    log(`  stock: 1,000-unit refill ${fmt.ms(refills.large)} at ${fmt.int(UNITS)} units, ${fmt.ms(refillSmall)} at 1,000`);
    rows.push(ratioRow(`1,000-unit refill at ${fmt.int(UNITS)} units`, fmt.ms(refills.large), `at 1,000 units: ${fmt.ms(refillSmall)}`, refills.large / refillSmall, { atMost: 1.5 }));

    // --- a paid order delivered automatically: from the large card vs from a card of 50 ---------------
    const { number: fifty } = await http(base, 'POST', '/api/v1/listings', { key: small.apiKey, body: CARD });
    await http(base, 'POST', `/api/v1/listings/${fifty}/stock`, { key: small.apiKey, body: { items: batch('fifty', 0, SMALL_STOCK) } });
    for (const [key, number] of [
      [small.apiKey, fifty],
      [large.apiKey, large.number],
    ]) {
      await http(base, 'POST', `/api/v1/listings/${number}/state`, { key, body: { active: true, autoIssue: true } });
    }
    const payLarge = [];
    const paySmall = [];
    for (let i = 0; i < SAMPLES + 1; i++) {
      const l = await orderToPay(base, large.number);
      const s = await orderToPay(base, fifty);
      const tl = await timedCall(l);
      const ts = await timedCall(s);
      if (i > 0) {
        payLarge.push(tl);
        paySmall.push(ts);
      }
    }
    const deliverLarge = median(payLarge);
    const deliverSmall = median(paySmall);
    log(`  stock: paid order delivered ${fmt.ms(deliverLarge)} from ${fmt.int(UNITS)} units, ${fmt.ms(deliverSmall)} from ${SMALL_STOCK}`);
    rows.push(ratioRow(`paid order delivered from ${fmt.int(UNITS)} units`, fmt.ms(deliverLarge), `from ${SMALL_STOCK} units: ${fmt.ms(deliverSmall)}`, deliverLarge / deliverSmall, { atMost: 2 }));

    // --- another seller's GET /me while the large card sells and is refilled -----------------------
    const idle = await meP99(base, other.apiKey);
    let busy = true;
    let sold = 0;
    // The batches are made before the probes start, so that the load generator's own work in this
    // process does not delay the probes it times.
    const loadBatches = Array.from({ length: 200 }, (_, i) => batch('load', i));
    const load = (async () => {
      for (let i = 0; busy; i++) {
        if (i % 4 === 3) await http(base, 'POST', `/api/v1/listings/${large.number}/stock`, { key: large.apiKey, body: { items: loadBatches[i % loadBatches.length] } });
        else {
          await (await orderToPay(base, large.number))();
          sold++;
        }
      }
    })();
    const loaded = await meP99(base, other.apiKey);
    busy = false;
    await load;
    log(`  stock: other seller's GET /me p99 ${fmt.ms(loaded.p99)} (max ${fmt.ms(loaded.max)}) while ${sold} orders sold; idle ${fmt.ms(idle.p99)} (max ${fmt.ms(idle.max)})`);
    rows.push(
      ratioRow(`other seller's GET /me p99 while one sells from ${fmt.int(UNITS)} units`, fmt.ms(loaded.p99), `idle: ${fmt.ms(idle.p99)}`, loaded.p99 / idle.p99, { atMost: 2 }),
      ratioRow(`start-up over ${fmt.int(UNITS)} units`, fmt.ms(server.startMs), `empty: ${fmt.ms(bare.startMs)}`, server.startMs / bare.startMs),
      row('memory per unit (RSS after a full GC, over the empty server)', `${fmt.int((server.rss - bare.rss) / UNITS)} B`, `rss ${fmt.mb(server.rss)}, empty ${fmt.mb(bare.rss)}; heap ${fmt.mb(server.heapUsed)}`, null, '—', 'info'),
    );

    // --- SIGKILL in the middle of a 1,000-unit refill --------------------------------------------------
    const killed = await killMidRefill(server, tmp.dir, large);
    server = killed.server;
    log(`  stock: SIGKILL among refills: ${killed.acked} acknowledged, ${killed.unanswered} unanswered; whole: ${killed.whole}; restarted in ${fmt.ms(server.startMs)}`);
    rows.push(
      row(
        `SIGKILL in a 1,000-unit refill at ${fmt.int(UNITS)} units`,
        killed.whole ? 'acknowledged kept, no half batch' : 'A HALF OR LOST BATCH',
        `${killed.acked} acknowledged, ${killed.unanswered} in flight; restart ${fmt.ms(server.startMs)}`,
        null,
        'whole',
        killed.whole ? 'PASS' : 'MISS',
      ),
    );
    return rows;
  } finally {
    await server?.stop();
    tmp.remove();
    empty.remove();
  }
}
