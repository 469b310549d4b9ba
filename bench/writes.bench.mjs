/**
 * Durable writes: card updates (`PATCH /api/v1/listings/{n}` through `inject`, one after another)
 * on a store with a real data directory, at 1,000, 10,000 and 100,000 stored cards, in two layouts:
 *
 * - one seller holding every card (the worst case: before the seller's cards, stock and orders
 *   were kept in shards, lowdb rewrote the whole seller document on every write);
 * - the cards spread over sellers of 100 cards each (10, 100, 1,000 sellers), writes on random
 *   cards of random sellers.
 *
 * A write is answered only after its document reached the file, so the cost of an update is its
 * latency. Target: an update costs at most twice as much at 100,000 records as at 1,000.
 *
 * Card creations (`POST /listings`) are measured alongside: besides the seller's documents they
 * write the tiny card-sequence file (`seq.json`); the shared document is not on their path.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, DIST_SERVER, fmt, log, median, NO_RATE_LIMIT, nowMs, pick, ratioRow, row, tempDir } from './lib.mjs';
import { cloneCards, newCard, newSellers, writeAll } from './seed.mjs';

export const name = 'writes';

const SIZES = pick([200, 1_000, 2_000], [1_000, 10_000, 100_000]);
const PER_SELLER = 100;
/** Writes per point: as many as fit in the time budget, within these bounds. */
const BUDGET_MS = pick(300, 3_000);
const MIN_WRITES = pick(3, 8);
const MAX_WRITES = pick(20, 400);
/** Warm-up updates before measuring: this many, or fewer when they take longer than WARMUP_MS. */
const WARMUP = pick(5, 20);
const WARMUP_MS = pick(200, 1_000);

/** Builds a store with `total` cards over `sellers` sellers on disk; answers the app and its targets. */
async function buildStore(dir, total, sellers) {
  const { buildApp } = await import(DIST_SERVER);
  const app = await buildApp({ dataDir: dir, adminToken: ADMIN_TOKEN, rateLimit: NO_RATE_LIMIT });
  const owners = await newSellers(app, sellers);
  const { number, body, update } = await newCard(app, owners[0].apiKey);
  const model = (await app.service.store.seller(owners[0].sellerId)).cards[String(number)];
  const per = Math.floor(total / sellers);
  const targets = [];
  for (const [i, owner] of owners.entries()) {
    const numbers = await cloneCards(app, owner.sellerId, model, i === 0 ? per - 1 : per);
    targets.push({ key: owner.apiKey, numbers: i === 0 ? [number, ...numbers] : numbers });
  }
  await writeAll(app, owners.map((o) => o.sellerId));
  const docBytes = statSync(path.join(dir, 'sellers', `${owners[0].sellerId}.json`)).size;
  const sharedBytes = statSync(path.join(dir, 'shared.json')).size;
  return { app, targets, body, update, docBytes, sharedBytes, shards: shardsOf(dir, owners[0].sellerId) };
}

/** The shard files of a seller (server/store/seller-files.ts): how many, all together and the largest, in bytes. */
function shardsOf(dir, sellerId) {
  const base = path.join(dir, 'sellers', sellerId);
  const sizes = existsSync(base) ? readdirSync(base).filter((f) => f.endsWith('.json')).map((f) => statSync(path.join(base, f)).size) : [];
  return { count: sizes.length, total: sizes.reduce((a, b) => a + b, 0), largest: Math.max(0, ...sizes) };
}

/**
 * Sequential calls made by `call(i)` (answers a request for inject), warm-up first; answers the
 * median cost in ms and the rate.
 */
async function timed(app, call, maxWrites = MAX_WRITES) {
  const one = async (i) => {
    const req = call(i);
    const res = await app.inject(req);
    if (res.statusCode >= 300) throw new Error(`${req.method} ${req.url} → ${res.statusCode} ${res.body}`);
  };
  const warm = nowMs();
  for (let i = 0; i < WARMUP && (i < 2 || nowMs() - warm < WARMUP_MS); i++) await one(i);
  const costs = [];
  const started = nowMs();
  while (costs.length < maxWrites && (costs.length < MIN_WRITES || nowMs() - started < BUDGET_MS)) {
    const t0 = nowMs();
    await one(costs.length);
    costs.push(nowMs() - t0);
  }
  const elapsed = nowMs() - started;
  return { cost: median(costs), rate: (costs.length * 1000) / elapsed, writes: costs.length };
}

const kb = (bytes) => `${fmt.int(Math.round(bytes / 1e3))} kB`;

const randomOf = (list) => list[Math.floor(Math.random() * list.length)];

/** A card update on a random card of a random seller. */
const updateCall = (targets, update) => (i) => {
  const target = randomOf(targets);
  return {
    method: 'PATCH',
    url: `/api/v1/listings/${randomOf(target.numbers)}`,
    headers: { authorization: `Bearer ${target.key}`, 'idempotency-key': randomUUID() },
    payload: { ...update, priceRub: 100 + (i % 900) },
  };
};

/** A card creation by a random seller. */
const createCall = (targets, body) => (i) => ({
  method: 'POST',
  url: '/api/v1/listings',
  headers: { authorization: `Bearer ${randomOf(targets).key}`, 'idempotency-key': randomUUID() },
  payload: { ...body, priceRub: 100 + (i % 900) },
});

async function point(layout, total) {
  const sellers = layout === 'one' ? 1 : Math.max(1, total / PER_SELLER);
  const tmp = tempDir('writes');
  const t0 = nowMs();
  const { app, targets, body, update, docBytes, sharedBytes, shards } = await buildStore(tmp.dir, total, sellers);
  const seeded = nowMs() - t0;
  try {
    const result = await timed(app, updateCall(targets, update));
    const created = await timed(app, createCall(targets, body));
    log(
      `  writes: ${layout} ${fmt.int(total)} cards / ${sellers} seller(s), seller core document ${kb(docBytes)}, ` +
        `${shards.count} shards (${fmt.mb(shards.total)}, largest ${kb(shards.largest)}), shared ${kb(sharedBytes)}: ` +
        `${fmt.ms(result.cost)} per update (${result.writes}), ${fmt.ms(created.cost)} per creation (${created.writes}); seeded in ${fmt.ms(seeded)}`,
    );
    return { ...result, created, docBytes, sellers };
  } finally {
    await app.close();
    tmp.remove();
  }
}

const HISTORY = pick([100, 1_000], [100, 20_000]);
const HISTORY_CREATIONS = pick(10, 60);

/**
 * A seller's history: card creations after `HISTORY[0]` and after `HISTORY[1]` writes of the same
 * seller (card updates, each with its own Idempotency-Key, so each leaves a record kept 24 hours).
 * Both run with fsync off: the store's own cost (what it serialises and writes), which is what could
 * grow with the history; with fsync on, the disk's latency (shared with whatever else runs here)
 * dominates and varies more than the target. At the first point the fsync cost per write is measured
 * apart: the same updates, fsync on and off.
 */
export async function history() {
  const { buildApp } = await import(DIST_SERVER);
  const tmp = tempDir('history');
  const open = (fsync) => buildApp({ dataDir: tmp.dir, adminToken: ADMIN_TOKEN, rateLimit: NO_RATE_LIMIT, fsync });
  let app = await open(false);
  try {
    const [owner] = await newSellers(app, 1);
    const { number, body, update } = await newCard(app, owner.apiKey);
    const targets = [{ key: owner.apiKey, numbers: [number] }];
    const filler = updateCall(targets, update);
    let writes = 2;
    const points = [];
    let fsync = null;
    for (const upTo of HISTORY) {
      for (; writes < upTo; writes++) {
        const res = await app.inject(filler(writes));
        if (res.statusCode !== 200) throw new Error(`filler write → ${res.statusCode} ${res.body}`);
      }
      // Few creations, so that the newest card shard holds about as many cards at both points.
      const created = await timed(app, createCall(targets, body), HISTORY_CREATIONS);
      writes += created.writes + WARMUP;
      log(`  writes: card creation after ${fmt.int(upTo)} writes of one seller: ${fmt.ms(created.cost)} (${created.writes})`);
      points.push({ upTo, created });
      if (fsync === null) {
        const off = await timed(app, updateCall(targets, update));
        await app.close();
        app = await open(true);
        const on = await timed(app, updateCall(targets, update));
        writes += off.writes + on.writes + 2 * WARMUP;
        fsync = { on, off };
        await app.close();
        app = await open(false);
      }
    }
    return { points, fsync };
  } finally {
    await app.close();
    tmp.remove();
  }
}

export async function run() {
  const rows = [];
  const h = await history();
  const [a, b] = h.points;
  const value = (m) => `${fmt.rate(m.rate, 'w/s')} (${fmt.ms(m.cost)})`;
  rows.push(
    ratioRow(`card creation after ${fmt.int(b.upTo)} writes of one seller`, value(b.created), `after ${fmt.int(a.upTo)}: ${fmt.ms(a.created.cost)}`, b.created.cost / a.created.cost, { atMost: 1.2 }),
    row('fsync per write (card update, fsync on − off)', fmt.ms(h.fsync.on.cost - h.fsync.off.cost), `off: ${fmt.ms(h.fsync.off.cost)}, on: ${fmt.ms(h.fsync.on.cost)}`, h.fsync.on.cost / h.fsync.off.cost, '—', 'info'),
  );
  for (const layout of ['one', 'spread']) {
    const points = [];
    for (const total of SIZES) points.push({ total, ...(await point(layout, total)) });
    const label = (p) => (layout === 'one' ? `1 seller, ${fmt.int(p.total)} cards` : `${fmt.int(p.total)} cards / ${fmt.int(p.sellers)} sellers`);
    for (const [what, of] of [
      ['card update', (p) => p],
      ['card creation', (p) => p.created],
    ]) {
      const first = of(points[0]);
      const value = (m) => `${fmt.rate(m.rate, 'w/s')} (${fmt.ms(m.cost)})`;
      rows.push(row(`${what}, ${label(points[0])}`, value(first), '(baseline)', 1, '—', 'info'));
      for (const p of points.slice(1)) {
        const m = of(p);
        const last = p === points.at(-1);
        rows.push(ratioRow(`${what}, ${label(p)}`, value(m), `${fmt.int(points[0].total)}: ${fmt.ms(first.cost)}`, m.cost / first.cost, last ? { atMost: 2 } : {}));
      }
    }
  }
  return rows;
}
