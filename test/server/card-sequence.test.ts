/**
 * The card sequence off the shared document: a card creation (or copy) takes its number from the
 * in-memory sequence and writes `seq.json` (a few bytes) before the seller's documents, never
 * shared.json. At start the sequence is the highest of `seq.json`, shared.json's copy and every
 * stored card number, so no number is handed out twice: not after a crash, not after the highest
 * card was deleted.
 */
import { readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { StoreError } from '../../server/store/store.ts';
import { useFileStore } from '../helpers/file-store.ts';
import { ADMIN, call, makeApp, newSeller, sandbox, type SellerCreated } from './helpers.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';

const store = useFileStore('seller-seq-test-');
const { fileApp, closeAll } = store;

const sharedFile = () => path.join(store.dir, 'shared.json');
const seqFile = () => path.join(store.dir, 'seq.json');
const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
/** Identity of shared.json on disk: every write replaces it (new mtime). */
const sharedStamp = async () => {
  const st = await stat(sharedFile());
  return `${st.ino}:${st.mtimeMs}:${st.size}`;
};

async function create(app: FastifyInstance, s: SellerCreated, body: object = CODE_CARD): Promise<number> {
  const res = await call(app, s.apiKey, 'POST', '/api/v1/listings', body);
  expect(res.status, res.text).toBe(201);
  return res.body.number;
}

describe('card numbers without a shared write', () => {
  it('creation and copy write seq.json before answering, and leave shared.json alone', async () => {
    const app = await fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    const before = await sharedStamp();
    const first = await create(app, s);
    expect(first).toBe(1001);
    expect(await readJson(seqFile())).toEqual({ card: first });
    const copy = await call(app, s.apiKey, 'POST', `/api/v1/listings/${first}/copy`);
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body.number).toBe(first + 1);
    expect(await readJson(seqFile())).toEqual({ card: first + 1 });
    expect(await sharedStamp()).toBe(before);
    expect(app.service.store.shared.cardIndex).toEqual({ [first]: s.sellerId, [first + 1]: s.sellerId });
    // a deletion writes neither (the index is derived; the number stays used)
    expect((await call(app, s.apiKey, 'DELETE', `/api/v1/listings/${first + 1}`)).body.result).toBe('deleted');
    expect(await sharedStamp()).toBe(before);
    expect(await readJson(seqFile())).toEqual({ card: first + 1 });
  });

  it('a write of the shared document for another reason carries the sequence too', async () => {
    const app = await fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    const last = [await create(app, s), await create(app, s), await create(app, s)][2]!;
    expect((await readJson(sharedFile())).seq.card).toBeLessThan(last);
    await sandbox(app, 'POST', '/clock/advance', { seconds: 1 });
    expect((await readJson(sharedFile())).seq.card).toBe(last);
  });

  it('the number of a deleted highest card is not handed out again after a restart', async () => {
    let app = await fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    await create(app, s);
    const highest = await create(app, s);
    expect((await call(app, s.apiKey, 'DELETE', `/api/v1/listings/${highest}`)).body.result).toBe('deleted');
    await closeAll();

    app = await fileApp();
    expect(await create(app, s)).toBe(highest + 1);
  });

  it('concurrent creations over several sellers get distinct numbers; the sequence on disk covers them all', async () => {
    let app = await fileApp();
    const sellers = await Promise.all(Array.from({ length: 3 }, () => newSeller(app, { admission: 'complete' })));
    const numbers = await Promise.all(Array.from({ length: 30 }, (_, i) => create(app, sellers[i % 3]!, { ...CODE_CARD, priceRub: 100 + i })));
    expect(new Set(numbers).size).toBe(30);
    const max = Math.max(...numbers);
    expect(await readJson(seqFile())).toEqual({ card: max });
    for (const s of sellers) {
      const list = await call(app, s.apiKey, 'GET', '/api/v1/listings?limit=100');
      expect(list.body.items).toHaveLength(10);
    }
    await closeAll();

    app = await fileApp();
    const next = await create(app, sellers[0]!);
    expect(next).toBe(max + 1);
  });

  it('a store without seq.json (written before it existed) continues from shared.json', async () => {
    let app = await fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    await create(app, s);
    await closeAll();
    const shared = await readJson(sharedFile());
    shared.seq.card = 1500; // an older store kept the sequence there (numbers deleted since)
    await writeFile(sharedFile(), JSON.stringify(shared));
    await unlink(seqFile());

    app = await fileApp();
    expect(await create(app, s)).toBe(1501);
    expect(await readJson(seqFile())).toEqual({ card: 1501 });
  });

  it('the sequence starts at the highest of seq.json, shared.json and the stored cards', async () => {
    let app = await fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    const stored = await create(app, s);
    await closeAll();
    for (const [seq, shared, next] of [
      [1000, 1000, stored + 1],
      [stored + 5, 1000, stored + 6],
      [1000, stored + 9, stored + 10],
    ] as const) {
      await writeFile(seqFile(), JSON.stringify({ card: seq }));
      const doc = await readJson(sharedFile());
      doc.seq.card = shared;
      await writeFile(sharedFile(), JSON.stringify(doc));
      app = await fileApp();
      expect(app.service.store.shared.seq.card).toBe(next - 1);
      await closeAll();
    }
  });

  it.each([
    ['not JSON', '{"card":'],
    ['an array', '[1001]'],
    ['no number', '{"card":"1001"}'],
    ['a fraction', '{"card":1001.5}'],
    ['JSON null', 'null'],
  ])('a seq.json holding %s stops the start with a StoreError naming it; the file is untouched', async (_what, text) => {
    await fileApp();
    await closeAll();
    await writeFile(seqFile(), text);
    const err = await buildApp({ dataDir: store.dir, adminToken: ADMIN }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toContain(seqFile());
    expect(await readFile(seqFile(), 'utf8')).toBe(text);
  });

  it('the sequence is on disk before the seller documents are written (same rule as shared first)', async () => {
    const app = await fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    const { store } = app.service;
    const log: string[] = [];
    const writeSeq = store.writeSeq.bind(store);
    const writeSeller = store.writeSeller.bind(store);
    const writeShared = store.writeShared.bind(store);
    store.writeSeq = async () => {
      log.push('seq:start');
      await writeSeq();
      log.push(`seq:done:${(await readJson(seqFile())).card}`);
    };
    store.writeSeller = async (id: string) => {
      log.push('seller:start');
      await writeSeller(id);
    };
    store.writeShared = async () => {
      log.push('shared');
      await writeShared();
    };
    const number = await create(app, s);
    expect(log).toEqual(['seq:start', `seq:done:${number}`, 'seller:start']);
  });

  it('an in-memory store numbers cards the same way', async () => {
    const app = await makeApp();
    store.track(app);
    const s = await newSeller(app, { admission: 'complete' });
    expect([await create(app, s), await create(app, s)]).toEqual([1001, 1002]);
  });
});
