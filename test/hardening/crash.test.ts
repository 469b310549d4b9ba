/**
 * Crash safety (issue 8): the real `seller-server` over a data directory, killed with SIGKILL in the
 * middle of a write load, then started again over the same directory.
 *
 * - Every write that got a 2xx answer before the kill is there after the restart: each acknowledged
 *   card is readable, each acknowledged key works, each acknowledged stock unit is known (a refill
 *   of the same units adds nothing).
 * - A card creation retried under its idempotency key after the restart makes its card exactly once:
 *   one left unanswered by the kill (before, during or after its write) and one acknowledged alike.
 * - Every data file parses as JSON, right after the kill and after the restart.
 * - Webhook deliveries pending at the kill (their receiver answered 500, `nextAttemptAt` set) resume:
 *   after the restart, with the receiver answering 200 and the clock moved past the next attempt,
 *   the receiver gets each of them and the log shows `deliveredAt`.
 *
 * Uses server/dist/ (built once if missing; never rebuilt here, other tests use it at the same time).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../sdk/contract/index.ts';
import { CODE_CARD } from './helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ADMIN = 'adm_crash_test_token_0123456789';
const WORKERS = 8;
const WRITES = 300;
/** Acknowledged writes after which the server is killed. */
const KILL_AFTER = 140;

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

function startServer(dataDir: string): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['bin/seller-server.js', '--port', '0', '--data', dataDir, '--admin-token', ADMIN, '--no-demo', '--allow-local-hooks'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SERVICE_STORE_KEY: '', SERVICE_ADMIN_TOKEN: '' } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`seller-server did not start in time:\n${out}\n${err}`)), 20_000);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, exited });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`seller-server exited with ${code}:\n${out}\n${err}`));
    });
  });
}

/** A webhook receiver on loopback whose answer status can be switched. */
function startReceiver(): Promise<{ url: string; hits: { delivery: string; status: number }[]; answer: { status: number }; close(): Promise<void> }> {
  const hits: { delivery: string; status: number }[] = [];
  const answer = { status: 500 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      let delivery = '?';
      try {
        delivery = (JSON.parse(body) as { delivery: string }).delivery;
      } catch {
        // not a delivery
      }
      hits.push({ delivery, status: answer.status });
      res.writeHead(answer.status).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/hook`, hits, answer, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

interface Answer {
  status: number;
  body: any;
}

async function request(base: string, method: string, url: string, opts: { key?: string; admin?: boolean; body?: unknown; idem?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.admin) headers.authorization = `Bearer ${ADMIN}`;
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.key && method !== 'GET') headers['idempotency-key'] = opts.idem ?? crypto.randomUUID();
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + url, { method, headers, ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function must(p: Promise<Answer>, status: number): Promise<any> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every `*.json` under `dir`, parsed; the names of those that do not parse. */
async function unparseable(dir: string): Promise<{ checked: number; bad: string[] }> {
  const bad: string[] = [];
  let checked = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const file = path.join(entry.parentPath, entry.name);
    checked++;
    try {
      const data = JSON.parse(await readFile(file, 'utf8')) as unknown;
      if (data === null || typeof data !== 'object') bad.push(`${file}: not a document`);
    } catch (err) {
      bad.push(`${file}: ${(err as Error).message}`);
    }
  }
  return { checked, bad };
}

describe('SIGKILL in the middle of a write load', () => {
  let dataDir: string;
  let server: Running | null = null;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(() => {
    if (!existsSync(path.join(ROOT, 'server/dist/esm/main.js'))) {
      const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
      if (built.status !== 0) throw new Error('npm run build failed');
    }
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await receiver?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write, every file readable, and resumes pending deliveries', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'seller-crash-'));
    receiver = await startReceiver();
    server = await startServer(dataDir);
    let base = server.url;

    // --- a seller, a subscription whose receiver fails, deliveries pending ---------------------
    const seller = await must(request(base, 'POST', '/sandbox/v1/sellers', { admin: true, body: { admission: 'complete' } }), 201);
    const key: string = seller.apiKey;
    await must(request(base, 'PUT', '/api/v1/hooks', { key, body: { url: receiver.url, events: [...EVENT_KINDS] } }), 200);
    const pending: string[] = [];
    for (const event of ['order.paid', 'order.new', 'stock.out', 'review.new', 'question.new']) {
      pending.push((await must(request(base, 'POST', '/api/v1/hooks/test', { key, body: { event } }), 202)).delivery);
    }
    await until('first attempts (answered 500)', async () => (pending.every((d) => receiver.hits.some((h) => h.delivery === d)) ? true : undefined));
    const log = await until('the failures in the delivery log', async () => {
      const items = (await must(request(base, 'GET', '/api/v1/hooks/deliveries', { key }), 200)).items as { id: string; attempts: number; nextAttemptAt: string | null; deliveredAt: string | null }[];
      const ours = items.filter((d) => pending.includes(d.id));
      return ours.length === pending.length && ours.every((d) => d.attempts >= 1) ? ours : undefined;
    });
    for (const d of log) {
      expect(d.deliveredAt).toBeNull();
      expect(d.nextAttemptAt).not.toBeNull();
    }

    // --- the load: cards, refills, keys from 8 clients, each with its own key (own rate bucket) ---
    const keys: string[] = [];
    const cards: number[] = [];
    for (let w = 0; w < WORKERS; w++) {
      keys.push((await must(request(base, 'POST', '/api/v1/keys', { key, body: { name: `worker-${w}`, scopes: ['listings', 'stock', 'keys'] } }), 201)).key);
      cards.push((await must(request(base, 'POST', '/api/v1/listings', { key, body: CODE_CARD }), 201)).number);
    }
    const acked = { cards: [] as number[], keys: [] as { id: string; key: string }[], refills: [] as { number: number; items: string[] }[] };
    const count = () => acked.cards.length + acked.keys.length + acked.refills.length;
    /** Card creations sent and not answered when the server died (their fate is unknown to the client). */
    const unanswered = new Set<{ i: number; key: string }>();
    const ackedCreations: { i: number; key: string; number: number }[] = [];
    let next = 0;
    let killed = false;
    const kill = () => {
      if (killed || !server) return;
      killed = true;
      server.child.kill('SIGKILL');
    };
    const worker = async (w: number): Promise<void> => {
      const wkey = keys[w]!;
      for (;;) {
        const i = next++;
        if (i >= WRITES) return;
        try {
          if (i % 3 === 0) {
            const creation = { i, key: wkey };
            unanswered.add(creation);
            const r = await request(base, 'POST', '/api/v1/listings', { key: wkey, body: { ...CODE_CARD, priceRub: 100 + i }, idem: `card-${i}` });
            unanswered.delete(creation);
            if (r.status === 201) {
              acked.cards.push(r.body.number);
              ackedCreations.push({ ...creation, number: r.body.number });
            }
          } else if (i % 3 === 1) {
            const number = cards[w]!;
            const items = Array.from({ length: 5 }, (_, j) => `w${w}-i${i}-u${j}`);
            const r = await request(base, 'POST', `/api/v1/listings/${number}/stock`, { key: wkey, body: { items } });
            if (r.status === 201) acked.refills.push({ number, items });
          } else {
            const r = await request(base, 'POST', '/api/v1/keys', { key: wkey, body: { name: `load-${i}`, scopes: ['listings'] } });
            if (r.status === 201) acked.keys.push({ id: r.body.id, key: r.body.key });
          }
        } catch {
          return; // the server is gone
        }
        if (count() >= KILL_AFTER) kill();
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    kill();
    await server.exited;
    expect(killed).toBe(true);
    expect(count()).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(count()).toBeLessThan(WRITES);

    // --- right after the kill: every data file parses ------------------------------------------
    const atKill = await unparseable(dataDir);
    if (process.env.CRASH_STATS) {
      console.log({ cards: acked.cards.length, keys: acked.keys.length, refills: acked.refills.length, unanswered: unanswered.size, sent: next, files: await readdir(dataDir, { recursive: true }) });
    }
    expect(atKill.checked).toBeGreaterThanOrEqual(2);
    expect(atKill.bad).toEqual([]);

    // --- restart over the same directory --------------------------------------------------------
    server = await startServer(dataDir);
    base = server.url;

    for (const number of acked.cards) {
      const r = await request(base, 'GET', `/api/v1/listings/${number}`, { key });
      expect(r.status, `acknowledged card ${number}`).toBe(200);
    }
    for (const k of acked.keys) {
      const r = await request(base, 'GET', '/api/v1/me', { key: k.key });
      expect(r.status, `acknowledged key ${k.id}`).toBe(200);
      expect(r.body.key.id).toBe(k.id);
    }
    for (const { number, items } of acked.refills) {
      const r = await request(base, 'POST', `/api/v1/listings/${number}/stock`, { key, body: { items } });
      expect(r.status).toBe(201);
      expect(r.body, `acknowledged refill of card ${number}`).toMatchObject({ added: 0, duplicates: items.length });
    }
    // a creation retried under its idempotency key makes its card exactly once, whether the kill
    // came before its write, in the middle of it (the journal) or after it
    for (const { i, key: wkey } of unanswered) {
      const retried = await request(base, 'POST', '/api/v1/listings', { key: wkey, body: { ...CODE_CARD, priceRub: 100 + i }, idem: `card-${i}` });
      expect(retried.status, `retried creation ${i}`).toBe(201);
    }
    const prices: number[] = [];
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const page = await must(request(base, 'GET', `/api/v1/listings?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key }), 200);
      prices.push(...(page.items as { priceRub: number }[]).map((c) => c.priceRub));
      cursor = page.nextCursor;
    }
    for (const { i } of unanswered) expect(prices.filter((p) => p === 100 + i), `cards of creation ${i}`).toHaveLength(1);
    // an acknowledged creation retried after the restart is a replay (the same card), not a second card
    for (const { i, key: wkey, number } of ackedCreations) {
      const again = await must(request(base, 'POST', '/api/v1/listings', { key: wkey, body: { ...CODE_CARD, priceRub: 100 + i }, idem: `card-${i}` }), 201);
      expect(again.number, `replayed creation ${i}`).toBe(number);
      expect(prices.filter((p) => p === 100 + i), `cards of creation ${i}`).toHaveLength(1);
    }

    // the card numbers stay unique after the restart (the sequence survived)
    const fresh = await must(request(base, 'POST', '/api/v1/listings', { key, body: CODE_CARD }), 201);
    expect([...cards, ...acked.cards]).not.toContain(fresh.number);

    // --- pending deliveries resume ---------------------------------------------------------------
    receiver.answer.status = 200;
    await must(request(base, 'POST', '/sandbox/v1/clock/advance', { admin: true, body: { seconds: 2 * 3600 } }), 200);
    await until('the pending deliveries at the receiver', async () =>
      pending.every((d) => receiver.hits.some((h) => h.delivery === d && h.status === 200)) ? true : undefined,
    );
    const after = await until('deliveredAt in the log', async () => {
      const items = (await must(request(base, 'GET', '/api/v1/hooks/deliveries', { key }), 200)).items as { id: string; deliveredAt: string | null; nextAttemptAt: string | null }[];
      const ours = items.filter((d) => pending.includes(d.id));
      return ours.length === pending.length && ours.every((d) => d.deliveredAt !== null) ? ours : undefined;
    });
    for (const d of after) expect(d.nextAttemptAt).toBeNull();

    // --- and after the restart's own writes, still every file parses ---------------------------
    server.child.kill('SIGTERM');
    await server.exited;
    const atEnd = await unparseable(dataDir);
    expect(atEnd.bad).toEqual([]);
  }, 90_000);
});

/**
 * A card's stock in pieces (issue 19) killed in the middle of 1,000-unit refills: a seeded stock of
 * several thousand units (the layout is the same at 1,000,000: bench/stock.bench.mjs), four clients
 * refilling it in batches of 1,000 at once, SIGKILL after a few are acknowledged. After the restart
 * every acknowledged batch is there whole (a refill of it again adds nothing), every batch left
 * unanswered is there whole or not at all (never half: again it adds 0 or 1,000), and the free count
 * is a whole number of batches.
 */
describe('SIGKILL in the middle of 1,000-unit refills of one card', () => {
  const BATCH = 1_000;
  const SEEDED = 8;
  const REFILLERS = 4;
  const KILL_AFTER_REFILLS = 6;
  let dataDir: string;
  let server: Running | null = null;

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged batch whole and stores no half batch', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'seller-crash-stock-'));
    server = await startServer(dataDir);
    let base = server.url;
    const seller = await must(request(base, 'POST', '/sandbox/v1/sellers', { admin: true, body: { admission: 'complete' } }), 201);
    const key: string = seller.apiKey;
    const number: number = (await must(request(base, 'POST', '/api/v1/listings', { key, body: CODE_CARD }), 201)).number;
    const batch = (b: number) => Array.from({ length: BATCH }, (_, j) => `b${b}-u${j}`);
    for (let b = 0; b < SEEDED; b++) await must(request(base, 'POST', `/api/v1/listings/${number}/stock`, { key, body: { items: batch(b) } }), 201);

    const acked: number[] = [];
    const unanswered = new Set<number>();
    let next = SEEDED;
    let killing = false;
    let killed = false;
    const refiller = async (): Promise<void> => {
      while (!killed) {
        const b = next++;
        unanswered.add(b);
        try {
          const r = await request(base, 'POST', `/api/v1/listings/${number}/stock`, { key, body: { items: batch(b) } });
          unanswered.delete(b);
          if (r.status === 201) acked.push(b);
        } catch {
          return; // the server is gone
        }
        // Killed a random moment later, so that the kill lands inside some batch's write.
        if (acked.length >= KILL_AFTER_REFILLS && !killing) {
          killing = true;
          setTimeout(() => {
            killed = true;
            server!.child.kill('SIGKILL');
          }, Math.random() * 40);
        }
      }
    };
    await Promise.all(Array.from({ length: REFILLERS }, refiller));
    await server.exited;
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER_REFILLS);
    expect((await unparseable(dataDir)).bad).toEqual([]);

    server = await startServer(dataDir);
    base = server.url;
    const { free } = await must(request(base, 'GET', `/api/v1/listings/${number}/stock`, { key }), 200);
    expect(free % BATCH, 'a whole number of batches').toBe(0);
    expect(free).toBeGreaterThanOrEqual((SEEDED + acked.length) * BATCH);
    expect(free).toBeLessThanOrEqual((SEEDED + acked.length + unanswered.size) * BATCH);
    for (const b of [...Array(SEEDED).keys(), ...acked]) {
      const again = await must(request(base, 'POST', `/api/v1/listings/${number}/stock`, { key, body: { items: batch(b) } }), 201);
      expect(again, `acknowledged batch ${b}`).toMatchObject({ added: 0, duplicates: BATCH });
    }
    let stored = 0;
    if (process.env.CRASH_STATS) console.log({ free, acked: acked.length, unanswered: [...unanswered] });
    for (const b of unanswered) {
      const again = await must(request(base, 'POST', `/api/v1/listings/${number}/stock`, { key, body: { items: batch(b) } }), 201);
      expect([0, BATCH], `unanswered batch ${b} added ${again.added}`).toContain(again.added);
      if (again.added === 0) stored++;
    }
    expect(free).toBe((SEEDED + acked.length + stored) * BATCH);
    server.child.kill('SIGTERM');
    await server.exited;
    expect((await unparseable(dataDir)).bad).toEqual([]);
  }, 90_000);
});
