/**
 * The document store: lowdb documents, on files (atomic replace and flush through
 * server/store/durable-file.ts, concurrent writes coalesced) or in memory. A changing call is answered only after `write()` resolved.
 * A data file that cannot be read or parsed stops the server; it is never overwritten.
 *
 * Files: `shared.json` (catalogue, sellers, clock, demo seller), `seq.json`
 * (the card sequence: a few bytes, written by each call that hands out a card number), and per
 * seller a core document `sellers/<id>.json` beside shard documents `sellers/<id>/<section>-<n>.json`
 * for its cards, stock, orders and the other sections a seller grows (server/store/shards.ts
 * `SHARDED_SECTIONS`; server/store/seller-files.ts), so that a write rewrites documents of a bounded
 * size whatever the size of the seller or of the store. The key, card, order, nickname and catalogue
 * request indexes are derived from the seller documents at start and live in memory only.
 */
import path from 'node:path';
import { Low, Memory } from 'lowdb';
import { nicknameKey } from '../../sdk/text-fold.ts';
import { DEFAULT_DISK, makeDir, type Disk, type FileSystem } from './durable-file.ts';
import { newSharedDoc, upgradeShared, type KeyIndexEntry, type SellerDoc, type SharedDoc } from './docs.ts';
import { parseDocument, StoreError, textFile } from './file-text.ts';
import { SellerFiles } from './seller-files.ts';
import { DEFAULT_SHARD_LIMITS, SHARDED_SECTIONS, type ShardedSection, type ShardLimits } from './shards.ts';

export { StoreError };

export interface StoreOptions {
  /** Directory of the data files; omit for an in-memory store. */
  dataDir?: string;
  /** Sizes of the shards of a seller's cards, stock and orders (tests use small ones). @default DEFAULT_SHARD_LIMITS */
  shardLimits?: Partial<Record<ShardedSection, Partial<ShardLimits>>>;
  /** Flush every file and directory written before a write resolves (server/store/durable-file.ts). @default true */
  fsync?: boolean;
  /** The file system (tests inject a failing or slow one). @default node:fs/promises */
  fs?: FileSystem;
}

type Adapter<T> = ConstructorParameters<typeof Low<T>>[0];

function fileAdapter<T>(file: string, disk: Disk, stringify: (data: T) => string = (data) => JSON.stringify(data)): Adapter<T> {
  const text = textFile(file, disk);
  return {
    read: async () => {
      const t = await text.read();
      return t === null ? null : parseDocument<T>(t, file);
    },
    write: (data) => text.write(stringify(data)),
  };
}

/** The shared document as written: without the indexes derived from the seller documents. */
function stringifyShared(data: SharedDoc): string {
  const { cardIndex: _cards, orderIndex: _orders, keyIndex: _keys, nicknames: _nicknames, requestIndex: _requests, ...kept } = data;
  return JSON.stringify(kept);
}

/** What `seq.json` holds. */
interface SeqDoc {
  card: number;
}

/** The card number a sequence (`seq.json`, shared.json's `seq`) holds; throws StoreError when it holds something else. */
function seqCard(data: unknown, file: string | null): number {
  const card = typeof data === 'object' && data !== null ? (data as { card?: unknown }).card : undefined;
  if (typeof card !== 'number' || !Number.isSafeInteger(card) || card < 0) {
    throw new StoreError(`data file ${file} holds no card sequence ({"card": <whole number>}); it was left untouched.`);
  }
  return card;
}

async function open<T>(adapter: Adapter<T>, file: string | null, fresh: () => T): Promise<{ db: Low<T>; created: boolean }> {
  let data: T | null;
  try {
    data = await adapter.read();
  } catch (err) {
    if (err instanceof StoreError) throw err;
    throw new StoreError(`cannot read data file ${file}: ${(err as Error).message}; it was left untouched.`);
  }
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) {
    throw new StoreError(`data file ${file} does not hold a store document; it was left untouched.`);
  }
  return { db: new Low<T>(adapter, data ?? fresh()), created: data === null };
}

/**
 * Rebuilds the shared document's derived indexes (`keyIndex`, `cardIndex`, `orderIndex`,
 * `nicknames`, `requestIndex`) from every seller document (under the id the store opened it by), dropping whatever
 * an older data file held for them. They are never written (see {@link stringifyShared}): issuing a
 * key, creating a card, an order or a catalogue request, naming a seller does not rewrite a document that grows with the
 * whole store. A card number handed out whose seller write never happened (a crash before it) is
 * simply absent. The card sequence is kept at or above every stored card number.
 *
 * A nickname found in two sellers' papers (possible only after a crash between two concurrent
 * changes: one seller released it, another took it and was answered, the first one's write was
 * lost) goes to the seller whose id sorts first; the other keeps showing it until it changes it.
 */
export function deriveIndexes(shared: SharedDoc, docs: ReadonlyMap<string, SellerDoc>): void {
  const keyIndex: Record<string, KeyIndexEntry> = {};
  const cardIndex: Record<string, string> = {};
  const orderIndex: Record<string, string> = {};
  const nicknames: Record<string, string> = {};
  const requestIndex: Record<string, string> = {};
  let maxCard = shared.seq.card;
  for (const sellerId of [...docs.keys()].sort()) {
    const doc = docs.get(sellerId)!;
    for (const key of Object.values(doc.keys)) {
      if (typeof key.hash === 'string' && !Object.hasOwn(keyIndex, key.hash)) keyIndex[key.hash] = { sellerId, keyId: key.id };
    }
    const nickname = doc.papers.nickname == null ? undefined : nicknameKey(doc.papers.nickname);
    // Own keys only, and defined rather than assigned: `__proto__` is a nickname like any other.
    if (nickname !== undefined && !Object.hasOwn(nicknames, nickname)) {
      Object.defineProperty(nicknames, nickname, { value: sellerId, enumerable: true, writable: true, configurable: true });
    }
    for (const number of Object.keys(doc.cards)) {
      cardIndex[number] = sellerId;
      const n = Number(number);
      if (Number.isSafeInteger(n) && n > maxCard) maxCard = n;
    }
    for (const id of Object.keys(doc.orders)) orderIndex[id] = sellerId;
    for (const id of Object.keys(doc.catalogRequests)) requestIndex[id] = sellerId;
  }
  shared.keyIndex = keyIndex;
  shared.cardIndex = cardIndex;
  shared.orderIndex = orderIndex;
  shared.nicknames = nicknames;
  shared.requestIndex = requestIndex;
  shared.seq.card = maxCard;
}

const SELLER_ID = /^[A-Za-z0-9_]+$/;

export class Store {
  readonly dataDir: string | null;
  readonly disk: Disk;
  readonly #limits: Readonly<Record<ShardedSection, ShardLimits>>;
  #shared!: Low<SharedDoc>;
  #sharedAdapter!: Adapter<SharedDoc>;
  #seq!: Low<SeqDoc>;
  #sellers = new Map<string, Promise<SellerFiles>>();
  /** Counts reloads after failed writes; per seller (and `''` for the shared document), the count at its last one. */
  #epoch = 0;
  readonly #reloadedAt = new Map<string, number>();
  readonly #openWatchers = new Set<(sellerId: string, files: SellerFiles) => void>();

  private constructor(opts: StoreOptions) {
    this.dataDir = opts.dataDir ?? null;
    this.disk = { fsync: opts.fsync ?? DEFAULT_DISK.fsync, fs: opts.fs ?? DEFAULT_DISK.fs };
    this.#limits = Object.fromEntries(
      SHARDED_SECTIONS.map((s) => [s, { ...DEFAULT_SHARD_LIMITS[s], ...opts.shardLimits?.[s] }]),
    ) as Record<ShardedSection, ShardLimits>;
  }

  /**
   * Opens (or creates) a store and every seller document in it, and rebuilds the derived indexes;
   * throws StoreError on an unreadable or corrupt file.
   */
  static async open(opts: StoreOptions = {}): Promise<Store> {
    const store = new Store(opts);
    if (store.dataDir) await makeDir(path.join(store.dataDir, 'sellers'), store.disk);
    const file = store.dataDir ? path.join(store.dataDir, 'shared.json') : null;
    store.#sharedAdapter = file ? fileAdapter(file, store.disk, stringifyShared) : new Memory();
    const { db } = await open<SharedDoc>(store.#sharedAdapter, file, newSharedDoc);
    db.data = upgradeShared(db.data);
    store.#shared = db;
    const seqFile = store.dataDir ? path.join(store.dataDir, 'seq.json') : null;
    const seq = await open<SeqDoc>(seqFile ? fileAdapter(seqFile, store.disk) : new Memory(), seqFile, () => ({ card: 0 }));
    db.data.seq = { card: Math.max(seqCard(db.data.seq, file), seq.created ? 0 : seqCard(seq.db.data, seqFile)) };
    store.#seq = seq.db;
    const ids = await store.sellerIds();
    const docs = await Promise.all(ids.map((id) => store.seller(id)));
    deriveIndexes(db.data, new Map(ids.map((id, i) => [id, docs[i]!])));
    return store;
  }

  get shared(): SharedDoc {
    return this.#shared.data;
  }

  writeShared(): Promise<void> {
    return this.#shared.write();
  }

  /**
   * Hands out the next card number (in memory). The caller must have `writeSeq()` (or
   * `writeShared()`) resolve before it writes the card or answers: the unit of work does
   * (`UnitOfWork.nextCardNumber`).
   */
  nextCardNumber(): number {
    return ++this.shared.seq.card;
  }

  /** Writes the card sequence as it is now (every number handed out so far) to `seq.json`. */
  writeSeq(): Promise<void> {
    this.#seq.data.card = this.shared.seq.card;
    return this.#seq.write();
  }

  /** The seller's documents, loaded on first use. */
  async sellerDb(sellerId: string): Promise<SellerFiles> {
    let pending = this.#sellers.get(sellerId);
    if (!pending) {
      // Watchers see the documents before any caller awaiting them does.
      pending = this.#openSeller(sellerId).then((files) => {
        for (const watch of this.#openWatchers) watch(sellerId, files);
        return files;
      });
      this.#sellers.set(sellerId, pending);
      pending.catch(() => this.#sellers.delete(sellerId));
    }
    return pending;
  }

  async seller(sellerId: string): Promise<SellerDoc> {
    return (await this.sellerDb(sellerId)).doc;
  }

  /** Writes what changed in the seller's documents (its dirty shards, then its core document). */
  async writeSeller(sellerId: string): Promise<void> {
    await (await this.sellerDb(sellerId)).write();
  }

  /** The reload count now: a unit of work compares it with `reloadedSince` at commit. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Whether the seller (or, for `''`, the shared document) was reloaded after `epoch`. */
  reloadedSince(sellerId: string, epoch: number): boolean {
    return (this.#reloadedAt.get(sellerId) ?? 0) > epoch;
  }

  /**
   * Drops a seller's documents from memory after a failed write and reopens them from disk (which
   * replays a journal written whole), so that nothing of the failed write stays visible; its entries
   * in the derived indexes are rebuilt from what was reopened. Throws when the files cannot be read
   * (the seller is then opened again on next use).
   */
  async reloadSeller(sellerId: string): Promise<void> {
    if (!this.dataDir) return; // a store in memory has no failed writes to undo
    this.#reloadedAt.set(sellerId, ++this.#epoch);
    this.#sellers.delete(sellerId);
    const doc = await this.seller(sellerId);
    const shared = this.shared;
    for (const index of [shared.cardIndex, shared.orderIndex, shared.nicknames, shared.requestIndex]) {
      for (const [k, owner] of Object.entries(index)) if (owner === sellerId) delete index[k];
    }
    for (const [hash, entry] of Object.entries(shared.keyIndex)) if (entry.sellerId === sellerId) delete shared.keyIndex[hash];
    const one: SharedDoc = { ...shared, keyIndex: {}, cardIndex: {}, orderIndex: {}, nicknames: {}, requestIndex: {}, seq: { card: shared.seq.card } };
    deriveIndexes(one, new Map([[sellerId, doc]]));
    Object.assign(shared.keyIndex, one.keyIndex);
    Object.assign(shared.cardIndex, one.cardIndex);
    Object.assign(shared.orderIndex, one.orderIndex);
    Object.assign(shared.requestIndex, one.requestIndex);
    for (const [k, v] of Object.entries(one.nicknames)) {
      if (!Object.hasOwn(shared.nicknames, k)) Object.defineProperty(shared.nicknames, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
    shared.seq.card = Math.max(shared.seq.card, one.seq.card);
  }

  /** Reopens the shared document from disk after a failed write (the card sequence only grows), and rebuilds the derived indexes. */
  async reloadShared(): Promise<void> {
    if (!this.dataDir) return;
    this.#reloadedAt.set('', ++this.#epoch);
    const card = this.shared.seq.card;
    const { db } = await open<SharedDoc>(this.#sharedAdapter, null, newSharedDoc);
    db.data = upgradeShared(db.data);
    db.data.seq = { card };
    const ids = [...this.#sellers.keys()];
    const docs = await Promise.all(ids.map((id) => this.seller(id)));
    deriveIndexes(db.data, new Map(ids.map((id, i) => [id, docs[i]!])));
    this.#shared = db;
  }

  /**
   * Calls `watch` with each seller's documents opened from now on (a derived view attaches to them:
   * server/domain/market.ts); answers the function that stops it.
   */
  watchOpens(watch: (sellerId: string, files: SellerFiles) => void): () => void {
    this.#openWatchers.add(watch);
    return () => this.#openWatchers.delete(watch);
  }

  /** Ids of every seller document on disk or in memory (for start-up work such as resuming deliveries). */
  async sellerIds(): Promise<string[]> {
    const ids = new Set(Object.keys(this.shared.sellers));
    if (this.dataDir) {
      for (const entry of await this.disk.fs.readdir(path.join(this.dataDir, 'sellers'), { withFileTypes: true })) {
        if (!entry.isDirectory() && entry.name.endsWith('.json')) ids.add(entry.name.slice(0, -5));
        // shards whose core document was never written (a crash between the two on a first write)
        else if (entry.isDirectory() && SELLER_ID.test(entry.name)) ids.add(entry.name);
      }
    }
    return [...ids];
  }

  #openSeller(sellerId: string): Promise<SellerFiles> {
    if (!SELLER_ID.test(sellerId)) return Promise.reject(new StoreError(`bad seller id ${sellerId}`));
    return SellerFiles.open(sellerId, this.dataDir ? path.join(this.dataDir, 'sellers') : null, this.#limits, this.disk);
  }
}
