/**
 * The store's promise under a failing or slow disk, through an injected file system
 * (server/store/durable-file.ts `FileSystem`):
 *
 * - a write that fails (ENOSPC, EIO) answers 500 and has no effect: nothing of it is visible to
 *   reads, nothing is there after a restart, and a retry with the same Idempotency-Key runs anew;
 * - a twin retry arriving while the first call's commit is stalled waits: it is not answered before
 *   the commit, and then replays the one stored answer;
 * - every file written and its directory are flushed before the answer; `fsync: false` flushes nothing.
 */
import { promises as fs } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { sweepOrders } from '../../server/domain/order-clock.ts';
import { Store } from '../../server/store/store.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { useFileStore } from '../helpers/file-store.ts';
import { TestDisk } from '../helpers/test-disk.ts';
import { ADMIN, call, newSeller, sandbox, type SellerCreated } from './helpers.ts';

const files = useFileStore('failing-disk-');

let disk: TestDisk;
let app: FastifyInstance;
let seller: SellerCreated;

async function open(fsync = true): Promise<FastifyInstance> {
  const store = await Store.open({ dataDir: files.dir, fs: disk.fs, fsync });
  const a = await buildApp({ store, adminToken: ADMIN });
  files.track(a);
  return a;
}

const cardNumbers = async (a: FastifyInstance, key: string): Promise<number[]> =>
  (await call<{ items: { number: number }[] }>(a, key, 'GET', '/api/v1/listings')).body.items.map((c) => c.number).sort();

beforeEach(async () => {
  disk = new TestDisk();
  app = await open();
  seller = await newSeller(app, { admission: 'complete' });
});

describe('a failed write has no effect', () => {
  for (const code of ['ENOSPC', 'EIO']) {
    it(`${code} on a card creation → 500; not visible, not there after a restart; the same key runs anew`, async () => {
      const before = await cardNumbers(app, seller.apiKey);
      const key = { 'idempotency-key': `create-${code}` };
      disk.fail = code;
      const failed = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
      expect(failed.status).toBe(500);
      disk.fail = null;
      expect(await cardNumbers(app, seller.apiKey)).toEqual(before);

      const retry = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      const again = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(retry.body);
      expect(await cardNumbers(app, seller.apiKey)).toEqual([...before, retry.body.number].sort());

      await files.closeAll();
      const restarted = await open();
      expect(await cardNumbers(restarted, seller.apiKey)).toEqual([...before, retry.body.number].sort());
    });
  }

  it('ENOSPC on an update → 500 and the old price stays, in memory and after a restart', async () => {
    const created = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    const number = created.body.number;
    disk.fail = 'ENOSPC';
    const patch = { ...CODE_CARD, priceRub: 4321, service: undefined, tariff: undefined };
    expect((await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${number}`, patch)).status).toBe(500);
    disk.fail = null;
    expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}`)).body.priceRub).toBe(CODE_CARD.priceRub);
    await files.closeAll();
    const restarted = await open();
    expect((await call(restarted, seller.apiKey, 'GET', `/api/v1/listings/${number}`)).body.priceRub).toBe(CODE_CARD.priceRub);
  });

  it('a card switched on by a failed write is not counted by demand (the market follows the rollback)', async () => {
    const live = async (): Promise<number> => {
      const demand = await call<{ items: { service: string; productType: string; liveCards: number }[] }>(
        app, seller.apiKey, 'GET', `/api/v1/catalog/demand?service=${CODE_CARD.service}`,
      );
      return demand.body.items.find((row) => row.productType === CODE_CARD.productType)?.liveCards ?? 0;
    };
    const on = (number: number) => call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active: true });
    const [a, b] = [(await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body.number, (await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body.number];
    const before = await live();
    expect((await on(a)).status).toBe(200);
    expect(await live()).toBe(before + 1); // the control: a committed switch counts
    disk.fail = 'ENOSPC';
    expect((await on(b)).status).toBe(500);
    disk.fail = null;
    expect(await live()).toBe(before + 1);
  });

  it('a key issued by a failed write does not authenticate', async () => {
    disk.fail = 'ENOSPC';
    const issued = await call(app, seller.apiKey, 'POST', '/api/v1/keys', { name: 'lost', scopes: ['catalog'] });
    expect(issued.status).toBe(500);
    expect(issued.text).not.toMatch(/service_(live|test)_/);
    disk.fail = null;
    const keys = (await call(app, seller.apiKey, 'GET', '/api/v1/keys')).body.items.map((k: { name: string }) => k.name);
    expect(keys).not.toContain('lost');
  });
});

describe('the order sweep under a failing disk', () => {
  /** An unpaid order of `who`'s (cancelled by the sweep once its 24 hours are over). */
  async function unpaidOrder(who: SellerCreated): Promise<string> {
    const card = await call(app, who.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    expect(card.status, card.text).toBe(201);
    const on = await call(app, who.apiKey, 'POST', `/api/v1/listings/${card.body.number}/state`, { active: true });
    expect(on.status, on.text).toBe(200);
    const order = await sandbox(app, 'POST', '/orders', { number: card.body.number });
    expect(order.status, order.text).toBe(201);
    return order.body.id;
  }
  const statusOf = async (who: SellerCreated, id: string) => (await app.service.store.seller(who.sellerId)).orders[id]?.status;
  const later = () => new Date(app.service.clock.nowMs() + 25 * 3600_000);

  it('a sweep whose write fails is done again by the next sweep', async () => {
    const id = await unpaidOrder(seller);
    disk.fail = 'ENOSPC';
    await expect(sweepOrders(app.service, later())).rejects.toThrow(/ENOSPC/);
    disk.fail = null;
    expect(await statusOf(seller, id)).toBe('awaiting_payment');
    expect(await sweepOrders(app.service, later())).toBe(1);
    expect(await statusOf(seller, id)).toBe('cancelled');
  });

  it('a sweep across sellers whose write fails for one of them: the next sweep handles what is left', async () => {
    const other = await newSeller(app, { admission: 'complete' });
    const mine = await unpaidOrder(seller);
    const theirs = await unpaidOrder(other);
    disk.fail = 'ENOSPC';
    disk.failOnly = (file) => file.includes(other.sellerId);
    await expect(sweepOrders(app.service, later())).rejects.toThrow(/ENOSPC/);
    disk.fail = null;
    disk.failOnly = null;
    expect(await statusOf(other, theirs)).toBe('awaiting_payment');
    // the next sweep finishes what the failed one left, whichever of the two sellers it wrote
    await sweepOrders(app.service, later());
    expect([await statusOf(seller, mine), await statusOf(other, theirs)]).toEqual(['cancelled', 'cancelled']);
    expect(await sweepOrders(app.service, later())).toBe(0);
  });
});

describe('reads answer from memory whatever the disk does', () => {
  it('the disk fills up after a write journalled its files: the write stands (200), reads answer from memory, later writes 500, nothing lost after the disk recovers', async () => {
    const created = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    const number = created.body.number;
    disk.fail = 'ENOSPC';
    disk.failOnly = (file) => !file.includes('journal');
    const patch = { ...CODE_CARD, priceRub: 777, service: undefined, tariff: undefined };
    const write = await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${number}`, patch);
    // the journal was written whole: the commit point, so the write is answered as done
    expect(write.status, write.text).toBe(200);
    disk.failOnly = null; // now nothing can be written at all
    for (let round = 0; round < 3; round++) {
      const me = await call(app, seller.apiKey, 'GET', '/api/v1/me');
      expect(me.status, me.text).toBe(200);
      const card = await call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}`);
      expect(card.status, card.text).toBe(200);
      expect(card.body.priceRub).toBe(777);
      expect((await call(app, seller.apiKey, 'GET', '/api/v1/listings')).status).toBe(200);
    }
    expect((await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${number}`, { ...patch, priceRub: 888 })).status).toBe(500);
    disk.fail = null;
    // a write of something else carries the journalled files along: they are on disk after it
    expect((await call(app, seller.apiKey, 'POST', '/api/v1/keys', { name: 'after', scopes: ['catalog'] })).status).toBe(201);
    await files.closeAll();
    await fs.rm(`${files.dir}/sellers/${seller.sellerId}/journal`, { force: true }); // nothing left to replay
    const restarted = await open();
    expect((await call(restarted, seller.apiKey, 'GET', `/api/v1/listings/${number}`)).body.priceRub).toBe(777);
  });

  for (const code of ['ENOSPC', 'EIO']) {
    it(`${code}: GET /me, a card, the card list, orders and keys answer 200 while writes answer 500`, async () => {
      const created = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
      const number = created.body.number;
      disk.fail = code;
      // several rounds: work a read may set off (last use of a key, sweeps) must not fail it
      for (let round = 0; round < 3; round++) {
        const me = await call(app, seller.apiKey, 'GET', '/api/v1/me');
        expect(me.status, me.text).toBe(200);
        const card = await call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}`);
        expect(card.status, card.text).toBe(200);
        expect(card.body.priceRub).toBe(CODE_CARD.priceRub);
        expect((await call(app, seller.apiKey, 'GET', '/api/v1/listings')).status).toBe(200);
        expect((await call(app, seller.apiKey, 'GET', '/api/v1/orders')).status).toBe(200);
        expect((await call(app, seller.apiKey, 'GET', '/api/v1/keys')).status).toBe(200);
      }
      const write = await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${number}`, { ...CODE_CARD, priceRub: 999, service: undefined, tariff: undefined });
      expect(write.status).toBe(500);
      disk.fail = null;
      expect((await call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}`)).body.priceRub).toBe(CODE_CARD.priceRub);
    });
  }
});

describe('a twin retry racing a slow commit', () => {
  it('is not answered before the commit, then replays the one stored answer', async () => {
    const before = await cardNumbers(app, seller.apiKey);
    let release!: () => void;
    disk.stall = new Promise<void>((r) => (release = r));
    const key = { 'idempotency-key': 'twin-slow' };
    const first = call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
    while (disk.stalled === 0) await new Promise((r) => setTimeout(r, 1));
    let twinDone = false;
    const twin = call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key).then((r) => {
      twinDone = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(twinDone).toBe(false); // no replay before the commit
    disk.stall = null;
    release();
    const [a, b] = await Promise.all([first, twin]);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body).toEqual(a.body);
    expect(await cardNumbers(app, seller.apiKey)).toEqual([...before, a.body.number].sort());
  });

  it('a twin of a call whose commit fails never replays it', async () => {
    let release!: () => void;
    disk.stall = new Promise<void>((r) => (release = r));
    const key = { 'idempotency-key': 'twin-fail' };
    const first = call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
    while (disk.stalled === 0) await new Promise((r) => setTimeout(r, 1));
    const twin = call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
    await new Promise((r) => setTimeout(r, 20));
    disk.fail = 'ENOSPC';
    disk.stall = null;
    release();
    const a = await first;
    const b = await twin;
    disk.fail = null;
    // The stalled write was the journal's rename: the first write's later files fail.
    expect(a.status).toBe(500);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    const retry = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
    expect(retry.status).toBe(201);
    if (b.status === 201) expect(retry.body).toEqual(b.body);
  });
});

describe('durability', () => {
  it('every write flushes files and directories; fsync: false flushes nothing', async () => {
    disk.syncs = 0;
    expect((await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).status).toBe(201);
    // journal, shards, core, the records' shard and their directories; the journal's removal.
    expect(disk.syncs).toBeGreaterThanOrEqual(6);

    await files.closeAll();
    const quick = await open(false);
    disk.syncs = 0;
    expect((await call(quick, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).status).toBe(201);
    expect(disk.syncs).toBe(0);
  });
});

afterEach(() => {
  disk.fail = null;
  disk.stall = null;
});
