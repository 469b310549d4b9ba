/**
 * A seller's write is on disk whole or not at all (server/store/seller-files.ts): a write of several
 * files goes to `sellers/<id>/journal` first, and opening the seller finishes a write that a crash
 * cut short. The crash is made by putting a directory where the core document must go, so the write
 * fails after the shards (and the journal) are written; the core on disk is then put back as it was
 * before that write: exactly what a crash between the shard and the core leaves.
 *
 * - A card creation cut short after its journal is answered as done and finished at restart: its retry under the same idempotency key is
 *   answered from the record, and there is one card, not two (control: without the journal the retry
 *   makes a second card, the failure the journal exists for).
 * - The journal is removed after a write, and a bad journal stops the start with a message naming it,
 *   untouched.
 */
import { cp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { Store, StoreError } from '../../server/store/store.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { breakSellerCore, useFileStore } from '../helpers/file-store.ts';
import { ADMIN, call, newSeller, type SellerCreated } from './helpers.ts';

const files = useFileStore('seller-journal-test-');

async function appOn(dir: string): Promise<FastifyInstance> {
  const app = await buildApp({ store: await Store.open({ dataDir: dir }), adminToken: ADMIN, rateLimit: { perMinute: 1e6, burst: 1e6 } });
  files.track(app);
  return app;
}

const exists = (file: string) => stat(file).then(() => true, () => false);

async function cardNumbers(app: FastifyInstance, seller: SellerCreated): Promise<number[]> {
  const res = await call<{ items: { number: number }[] }>(app, seller.apiKey, 'GET', '/api/v1/listings');
  return res.body.items.map((c) => c.number).sort();
}

describe('the journal of a seller’s write', () => {
  it('finishes a card creation cut short between shard and core: the retry replays, one card', async () => {
    const app = await appOn(files.dir);
    const seller = await newSeller(app, { admission: 'complete' });
    const first = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    expect(first.status).toBe(201);
    const journal = path.join(files.dir, 'sellers', seller.sellerId, 'journal');
    expect(await exists(journal)).toBe(false);

    const crash = await breakSellerCore(files.dir, seller.sellerId);
    const key = { 'idempotency-key': 'create-after-crash' };
    const cut = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
    // The journal was in place, written whole (the commit point): the write stands, answered so.
    expect(cut.status, cut.text).toBe(201);
    await files.closeAll().catch(() => undefined);
    await crash();
    // The disk now holds the new card's shard and the old core; the journal holds the whole write.
    expect(await exists(journal)).toBe(true);
    const withoutJournal = `${files.dir}-control`;
    await cp(files.dir, withoutJournal, { recursive: true });
    await rm(path.join(withoutJournal, 'sellers', seller.sellerId, 'journal'));

    const again = await appOn(files.dir);
    expect(await exists(journal)).toBe(false);
    const retry = await call(again, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(cut.body);
    const numbers = await cardNumbers(again, seller);
    expect(numbers).toHaveLength(2);
    expect(numbers).toContain(first.body.number);
    expect(numbers).toContain(retry.body.number);

    // Control: the same disk without the journal makes the retry a second creation.
    try {
      const control = await appOn(withoutJournal);
      const twice = await call(control, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
      expect(twice.status).toBe(201);
      expect(twice.headers['idempotent-replayed']).toBeUndefined();
      expect(await cardNumbers(control, seller)).toHaveLength(3);
    } finally {
      await files.closeAll();
      await rm(withoutJournal, { recursive: true, force: true });
    }
  });

  it('is gone after every write, and the written changes are there after a restart', async () => {
    const app = await appOn(files.dir);
    const seller = await newSeller(app, { admission: 'complete' });
    const created = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    const { service: _service, tariff: _tariff, ...editable } = CODE_CARD;
    expect((await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${created.body.number}`, { ...editable, priceRub: 310 })).status).toBe(200);
    expect((await call(app, seller.apiKey, 'POST', '/api/v1/keys', { name: 'second', scopes: ['orders'] })).status).toBe(201);
    expect(await readdir(path.join(files.dir, 'sellers', seller.sellerId))).not.toContain('journal');
    await files.closeAll();
    const again = await appOn(files.dir);
    const card = await call(again, seller.apiKey, 'GET', `/api/v1/listings/${created.body.number}`);
    expect(card.body.priceRub).toBe(310);
  });

  it('a journal that is not whole stops the start, naming it, and is left untouched', async () => {
    const app = await appOn(files.dir);
    const seller = await newSeller(app, { admission: 'complete' });
    await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    await files.closeAll();
    const journal = path.join(files.dir, 'sellers', seller.sellerId, 'journal');
    const cases = [
      'not a journal',
      '{"version":1,"files":[{"name":"cards-0.json","length":50}]}\n{"short":true}',
      '{"version":1,"files":[{"name":"../../escape.json","length":2}]}\n{}',
      '{"version":2,"files":[]}\n',
      '{"version":1,"files":[{"name":"core","length":2}]}\n{}{}',
      '{"version":1,"files":[{"name":"core","length":5}]}\nnope!',
    ];
    for (const text of cases) {
      await writeFile(journal, text);
      const error = await Store.open({ dataDir: files.dir }).then(() => null, (err: unknown) => err);
      expect(error, text).toBeInstanceOf(StoreError);
      expect((error as Error).message, text).toContain(journal);
      expect(await readFile(journal, 'utf8')).toBe(text);
    }
    expect(await exists(path.join(files.dir, 'escape.json'))).toBe(false);
  });
});
