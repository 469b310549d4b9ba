/**
 * A card's stock in bounded pieces (issue 19, server/store/stock-pieces.ts), over a real data
 * directory at a few hundred units (the layout behaves the same at a million: bench/stock.bench.mjs):
 *
 * - a refill writes the piece it fills and the pieces it adds; an issue writes the piece of its unit;
 *   no other stock file is rewritten;
 * - duplicates are refused across pieces and within a batch, also after a restart; counts are kept;
 * - units are issued oldest first across pieces, and the last one out records `stock.out` and
 *   switches auto-delivery off;
 * - a stock stored whole under the card's number (older data) loads, and its next write moves it
 *   into pieces;
 * - a refill or an issue whose write fails (ENOSPC) has no effect: not in the counts, not among the
 *   duplicates, not after a restart.
 */
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { issueUnit } from '../../server/domain/stock.ts';
import { allUnits, PIECE_UNITS, pieceKey } from '../../server/store/stock-pieces.ts';
import { Store } from '../../server/store/store.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { useFileStore } from '../helpers/file-store.ts';
import { TestDisk } from '../helpers/test-disk.ts';
import { ADMIN, call, newSeller, sandbox, type SellerCreated } from './helpers.ts';

const files = useFileStore('stock-pieces-');

let disk: TestDisk;
let app: FastifyInstance;
let seller: SellerCreated;

async function open(): Promise<FastifyInstance> {
  const store = await Store.open({ dataDir: files.dir, fs: disk.fs });
  const a = await buildApp({ store, adminToken: ADMIN });
  files.track(a);
  return a;
}

async function restart(): Promise<void> {
  await files.closeAll();
  app = await open();
}

const units = (from: number, count: number, tag = 'unit') => Array.from({ length: count }, (_, i) => `${tag}-${from + i}`);
const refill = (n: number, items: string[]) => call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/stock`, { items });
const counts = async (n: number) => (await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}/stock`)).body as { free: number; issued: number };

async function card(): Promise<number> {
  const res = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
  expect(res.status, res.text).toBe(201);
  return res.body.number;
}

const shardDir = () => path.join(files.dir, 'sellers', seller.sellerId);

/** The stock shard files and their modification times. */
async function stockFiles(): Promise<Map<string, bigint>> {
  const names = (await readdir(shardDir())).filter((f) => f.startsWith('stock-')).sort();
  return new Map(await Promise.all(names.map(async (f) => [f, (await stat(path.join(shardDir(), f), { bigint: true })).mtimeNs] as const)));
}

const changed = (before: Map<string, bigint>, after: Map<string, bigint>) => [...after].filter(([f, t]) => before.get(f) !== t).map(([f]) => f);

/** A paid order on card `n` (auto-delivered when the card has autoIssue and free stock). */
async function paidOrder(n: number): Promise<{ status: number; body: { id: string; status: string } }> {
  const order = await sandbox(app, 'POST', '/orders', { number: n });
  expect(order.status, order.text).toBe(201);
  return sandbox(app, 'POST', `/orders/${order.body.id}/pay`);
}

beforeEach(async () => {
  disk = new TestDisk();
  app = await open();
  seller = await newSeller(app, { admission: 'complete' });
});

describe('a write proportional to the change', () => {
  it('a refill writes the piece it fills and the ones it adds; an auto-delivery the piece of its unit', async () => {
    const n = await card();
    expect((await refill(n, units(0, 2 * PIECE_UNITS + 40))).body).toMatchObject({ added: 2 * PIECE_UNITS + 40, duplicates: 0 });
    // Pieces 0 and 1 share the first shard, piece 2 is in the second.
    const first = await stockFiles();
    expect([...first.keys()]).toEqual(['stock-0.json', 'stock-1.json']);

    await new Promise((r) => setTimeout(r, 5));
    expect((await refill(n, units(1000, 10))).body).toMatchObject({ added: 10, free: 2 * PIECE_UNITS + 50 });
    const second = await stockFiles();
    expect(changed(first, second)).toEqual(['stock-1.json']);

    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true, autoIssue: true });
    await new Promise((r) => setTimeout(r, 5));
    const paid = await paidOrder(n);
    expect(paid.body.status).toBe('delivered');
    const third = await stockFiles();
    expect(changed(second, third)).toEqual(['stock-0.json']);
    expect(await counts(n)).toMatchObject({ free: 2 * PIECE_UNITS + 49, issued: 1 });

    // A new piece past the last shard's room: a new shard, the others untouched.
    await new Promise((r) => setTimeout(r, 5));
    await refill(n, units(2000, PIECE_UNITS));
    const fourth = await stockFiles();
    expect(changed(third, fourth).sort()).toEqual(['stock-1.json', 'stock-2.json'].filter((f) => fourth.has(f)).sort());
    for (const f of fourth.keys()) {
      const doc = JSON.parse(await readFile(path.join(shardDir(), f), 'utf8')) as { records: Record<string, { units: string }> };
      for (const [key, piece] of Object.entries(doc.records)) {
        expect(key).toMatch(new RegExp(`^${n}\\.\\d+$`));
        expect(piece.units.split('|').length).toBeLessThanOrEqual(PIECE_UNITS);
        // Sealed at rest: no unit's plaintext is in the file.
        expect(piece.units).not.toContain('unit-');
      }
    }
  });
});

describe('duplicates and counts', () => {
  it('units already in any piece, and repeats within the batch, are refused; also after a restart', async () => {
    const n = await card();
    await refill(n, units(0, 3 * PIECE_UNITS));
    const again = await refill(n, ['unit-5', `unit-${PIECE_UNITS + 7}`, `unit-${3 * PIECE_UNITS - 1}`, 'fresh-1', 'fresh-1']);
    expect(again.body).toMatchObject({ added: 1, duplicates: 4, free: 3 * PIECE_UNITS + 1 });
    await restart();
    expect(await counts(n)).toMatchObject({ free: 3 * PIECE_UNITS + 1, issued: 0 });
    expect((await refill(n, ['unit-0', 'fresh-1', 'fresh-2'])).body).toMatchObject({ added: 1, duplicates: 2, free: 3 * PIECE_UNITS + 2 });
  });

  it('units go out oldest first across pieces; the last one records stock.out and switches auto-delivery off', async () => {
    const n = await card();
    const all = units(0, PIECE_UNITS + 3);
    await refill(n, all);
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true, autoIssue: true });
    const doc = await app.service.store.seller(seller.sellerId);
    const out: string[] = [];
    for (let i = 0; i < all.length - 1; i++) out.push(issueUnit(app.service, doc, n, `ord_${i}`, new Date())!.secret);
    expect(out).toEqual(all.slice(0, -1));
    expect(await counts(n)).toMatchObject({ free: 1, issued: all.length - 1 });
    // The last unit through a real payment: delivered, then stock.out, auto-delivery off.
    const paid = await paidOrder(n);
    expect(paid.body.status).toBe('delivered');
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${n}`)).body).toMatchObject({ autoIssue: false, stock: { free: 0, issued: all.length } });
    expect((await app.service.store.seller(seller.sellerId)).events.filter((e) => e.kind === 'stock.out')).toHaveLength(1);
    expect((await paidOrder(n)).body.status).toBe('awaiting_delivery');
    await restart();
    expect(await counts(n)).toMatchObject({ free: 0, issued: all.length });
    const units2 = allUnits(await app.service.store.seller(seller.sellerId), n);
    expect(units2.every((u) => u.status === 'issued' && u.order !== null)).toBe(true);
  });
});

describe('older data', () => {
  it('a stock stored whole under the card number loads; its next write moves it into pieces', async () => {
    const n = await card();
    await refill(n, units(0, PIECE_UNITS + 20));
    await files.closeAll();
    // Rewrite the stock as it was stored before pieces: one array under the card's number.
    const doc = await Store.open({ dataDir: files.dir });
    const whole = allUnits(await doc.seller(seller.sellerId), n).map((u) => ({ ...u }));
    for (const f of await readdir(shardDir())) if (f.startsWith('stock-')) await rm(path.join(shardDir(), f));
    await writeFile(path.join(shardDir(), 'stock-0.json'), JSON.stringify({ version: 1, sellerId: seller.sellerId, section: 'stock', shard: 0, records: { [String(n)]: whole } }));

    app = await open();
    expect(await counts(n)).toMatchObject({ free: PIECE_UNITS + 20, issued: 0 });
    expect((await refill(n, ['unit-3', 'new-1'])).body).toMatchObject({ added: 1, duplicates: 1, free: PIECE_UNITS + 21 });
    const stored = await Promise.all((await readdir(shardDir())).filter((f) => f.startsWith('stock-')).map(async (f) => JSON.parse(await readFile(path.join(shardDir(), f), 'utf8')).records as Record<string, unknown>));
    const keys = stored.flatMap((r) => Object.keys(r)).sort();
    expect(keys).toEqual([pieceKey(n, 0), pieceKey(n, 1)]);
    await restart();
    expect(await counts(n)).toMatchObject({ free: PIECE_UNITS + 21, issued: 0 });
    expect(allUnits(await app.service.store.seller(seller.sellerId), n).map((u) => u.status)).toHaveLength(PIECE_UNITS + 21);
  });
});

describe('a failed write has no effect on the stock', () => {
  it('ENOSPC on a refill → 500; the units are not counted, not duplicates, not there after a restart', async () => {
    const n = await card();
    await refill(n, units(0, PIECE_UNITS + 10));
    disk.fail = 'ENOSPC';
    expect((await refill(n, units(500, 200))).status).toBe(500);
    disk.fail = null;
    expect(await counts(n)).toMatchObject({ free: PIECE_UNITS + 10, issued: 0 });
    await restart();
    expect(await counts(n)).toMatchObject({ free: PIECE_UNITS + 10, issued: 0 });
    expect((await refill(n, units(500, 200))).body).toMatchObject({ added: 200, duplicates: 0, free: PIECE_UNITS + 210 });
  });

  it('ENOSPC on an auto-delivered payment → 500; the unit stays free and goes to the next order', async () => {
    const n = await card();
    await refill(n, ['only-1', 'only-2']);
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${n}/state`, { active: true, autoIssue: true });
    const order = await sandbox(app, 'POST', '/orders', { number: n });
    disk.fail = 'ENOSPC';
    expect((await sandbox(app, 'POST', `/orders/${order.body.id}/pay`)).status).toBe(500);
    disk.fail = null;
    expect(await counts(n)).toMatchObject({ free: 2, issued: 0 });
    expect((await paidOrder(n)).body.status).toBe('delivered');
    const doc = await app.service.store.seller(seller.sellerId);
    expect(allUnits(doc, n).map((u) => u.status)).toEqual(['issued', 'free']);
  });
});
