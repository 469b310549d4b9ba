/**
 * The document store: lowdb documents, on files (atomic replace through steno, concurrent writes
 * coalesced) or in memory. A changing call is answered only after `write()` resolved.
 * A data file that cannot be read or parsed stops the server; it is never overwritten.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Low, Memory } from 'lowdb';
import { DataFile } from 'lowdb/node';
import {
  newSellerDoc,
  newSharedDoc,
  upgradeSeller,
  upgradeShared,
  type SellerDoc,
  type SharedDoc,
} from './docs.ts';

export class StoreError extends Error {
  override name = 'StoreError';
}

export interface StoreOptions {
  /** Directory of the data files; omit for an in-memory store. */
  dataDir?: string;
}

type Adapter<T> = ConstructorParameters<typeof Low<T>>[0];

function fileAdapter<T>(file: string, stringify: (data: T) => string = (data) => JSON.stringify(data)): Adapter<T> {
  return new DataFile<T>(file, {
    parse: (text) => {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (err) {
        throw new StoreError(
          `data file ${file} is not valid JSON (${(err as Error).message}); it was left untouched. ` +
            'Restore it from a backup or move it away, then start again.',
        );
      }
      // `null` would read as "no file yet" and the file would be overwritten with a fresh store.
      if (data === null) throw new StoreError(`data file ${file} holds null, not a store document; it was left untouched.`);
      return data as T;
    },
    stringify,
  });
}

/** The shared document as written: without the indexes derived from the seller documents. */
function stringifyShared(data: SharedDoc): string {
  const { cardIndex: _cards, orderIndex: _orders, ...kept } = data;
  return JSON.stringify(kept);
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
 * Rebuilds the shared document's derived indexes (`cardIndex`, `orderIndex`) from every seller
 * document (under the id the store opened it by), dropping whatever an older data file held for
 * them. They are never written (see {@link stringifyShared}): creating a card or an order does not
 * rewrite a document that grows with the whole store. A card number handed out by a shared write
 * whose seller write never happened (a crash between the two) is simply absent. The card sequence
 * is kept at or above every stored card number.
 */
export function deriveIndexes(shared: SharedDoc, docs: ReadonlyMap<string, SellerDoc>): void {
  const cardIndex: Record<string, string> = {};
  const orderIndex: Record<string, string> = {};
  let maxCard = shared.seq.card;
  for (const [sellerId, doc] of docs) {
    for (const number of Object.keys(doc.cards)) {
      cardIndex[number] = sellerId;
      const n = Number(number);
      if (Number.isSafeInteger(n) && n > maxCard) maxCard = n;
    }
    for (const id of Object.keys(doc.orders)) orderIndex[id] = sellerId;
  }
  shared.cardIndex = cardIndex;
  shared.orderIndex = orderIndex;
  shared.seq.card = maxCard;
}

export class Store {
  readonly dataDir: string | null;
  #shared!: Low<SharedDoc>;
  #sellers = new Map<string, Promise<Low<SellerDoc>>>();
  #created = false;

  private constructor(opts: StoreOptions) {
    this.dataDir = opts.dataDir ?? null;
  }

  /**
   * Opens (or creates) a store and every seller document in it, and rebuilds the derived indexes;
   * throws StoreError on an unreadable or corrupt file.
   */
  static async open(opts: StoreOptions = {}): Promise<Store> {
    const store = new Store(opts);
    if (store.dataDir) await mkdir(path.join(store.dataDir, 'sellers'), { recursive: true, mode: 0o700 });
    const file = store.dataDir ? path.join(store.dataDir, 'shared.json') : null;
    const { db, created } = await open<SharedDoc>(file ? fileAdapter(file, stringifyShared) : new Memory(), file, newSharedDoc);
    db.data = upgradeShared(db.data);
    store.#shared = db;
    store.#created = created;
    const ids = await store.sellerIds();
    const docs = await Promise.all(ids.map((id) => store.seller(id)));
    deriveIndexes(db.data, new Map(ids.map((id, i) => [id, docs[i]!])));
    return store;
  }

  /** Whether the shared document was created by this open (a fresh store). */
  get created(): boolean {
    return this.#created;
  }

  get shared(): SharedDoc {
    return this.#shared.data;
  }

  writeShared(): Promise<void> {
    return this.#shared.write();
  }

  /** The seller's document, loaded on first use. */
  async sellerDb(sellerId: string): Promise<Low<SellerDoc>> {
    let pending = this.#sellers.get(sellerId);
    if (!pending) {
      pending = this.#openSeller(sellerId);
      this.#sellers.set(sellerId, pending);
      pending.catch(() => this.#sellers.delete(sellerId));
    }
    return pending;
  }

  async seller(sellerId: string): Promise<SellerDoc> {
    return (await this.sellerDb(sellerId)).data;
  }

  async writeSeller(sellerId: string): Promise<void> {
    await (await this.sellerDb(sellerId)).write();
  }

  /** Ids of every seller document on disk or in memory (for start-up work such as resuming deliveries). */
  async sellerIds(): Promise<string[]> {
    const ids = new Set(Object.keys(this.shared.sellers));
    if (this.dataDir) {
      for (const f of await readdir(path.join(this.dataDir, 'sellers'))) {
        if (f.endsWith('.json')) ids.add(f.slice(0, -5));
      }
    }
    return [...ids];
  }

  async #openSeller(sellerId: string): Promise<Low<SellerDoc>> {
    if (!/^[A-Za-z0-9_]+$/.test(sellerId)) throw new StoreError(`bad seller id ${sellerId}`);
    const file = this.dataDir ? path.join(this.dataDir, 'sellers', `${sellerId}.json`) : null;
    const { db } = await open<SellerDoc>(file ? fileAdapter(file) : new Memory(), file, () => newSellerDoc(sellerId));
    db.data = upgradeSeller(db.data);
    return db;
  }
}
