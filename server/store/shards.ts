/**
 * A seller's large sections ({@link SHARDED_SECTIONS}: cards, stock pieces, orders, message pieces,
 * keys and the other growing lists) kept in several small documents (shards),
 * behind a map that looks and behaves like the plain object it replaces, and that knows which
 * shards a change touched.
 *
 * - **Placement.** A key gets a home shard the first time it is set: the newest shard while it
 *   holds fewer than `limits.records` keys and its last serialisation was under `limits.bytes`,
 *   else a new shard. A key keeps its home for the life of the process (a deleted and re-added key
 *   goes back to it), so it is never in two shards written apart. Shards are numbered from 0 in
 *   the order they were opened: records made together (cards by number, orders by creation) sit
 *   together.
 * - **Dirty tracking.** The map is a Proxy over a plain object holding every record (reads of a
 *   key are a property read plus a trap). A record read through it comes back wrapped in a Proxy
 *   whose `set`, `deleteProperty` and `defineProperty` traps, on the record and on every object or
 *   array reached through it (`order.messages.push(…)`, `order.vaults.seller = …`,
 *   `stock['<number>.<i>'].units = …`), mark the record's home shard dirty. Setting or deleting a key of the
 *   map marks its shard too. Marking is synchronous, at the change itself, so a change made after
 *   a snapshot was taken marks the shard again for the next one.
 * - **What is not seen.** A change made through a reference that never came out of the map: the
 *   object just assigned (`const o = {…}; doc.orders[id] = o; … o.status = …` changes `o` directly).
 *   Such a change is written only if its shard is dirty anyway, which it is until the next
 *   snapshot, since the assignment marked it; handlers change state synchronously after their last
 *   await, so the assignment and the changes that follow land in the same snapshot. Change a record
 *   later through `doc.orders[id]`.
 *
 * Records are stored unwrapped: a tracked value assigned into the map or into a record is stored
 * as its target ({@link rawOf}), so the data never holds a Proxy.
 */

export interface ShardLimits {
  /** At most this many keys are placed in one shard. */
  records: number;
  /** No new key is placed in a shard whose last serialisation was this many bytes or more. */
  bytes: number;
}

/**
 * The sections kept in shards, in the order their shards are written (see server/store/seller-files.ts).
 * `idempotency` (the sealed answers of the last 24 hours, one per Idempotency-Key) is one too, so
 * that a write rewrites one small shard of them rather than all of them: its cost does not grow
 * with the number of writes a seller made that day.
 *
 * The lists a seller grows without limit (API keys, questions, reviews, complaints about buyers,
 * catalogue requests: issue 19's audit, docs/decisions.md) are sections too, keyed by record id,
 * so that none of them is rewritten whole by every write of the seller; and so are the messages of
 * an order past its first fifty, in pieces (server/store/message-pieces.ts).
 */
export const SHARDED_SECTIONS = ['stock', 'cards', 'orders', 'messages', 'keys', 'questions', 'reviews', 'complaints', 'catalogRequests', 'idempotency'] as const;
export type ShardedSection = (typeof SHARDED_SECTIONS)[number];

const KB = 1024;
/**
 * About 250 KB of cards, 500 KB of orders; stock by pieces (server/store/stock-pieces.ts: up to 128
 * units, ~25 KB, each), two a shard, so that issuing a unit rewrites ~50 KB however large the stock;
 * idempotency records by number.
 */
export const DEFAULT_SHARD_LIMITS: Readonly<Record<ShardedSection, ShardLimits>> = {
  cards: { records: 500, bytes: 512 * KB },
  stock: { records: 2, bytes: 96 * KB },
  orders: { records: 500, bytes: 512 * KB },
  // Pieces of 50 messages (server/store/message-pieces.ts): up to ~100 KB each with long texts.
  messages: { records: 4, bytes: 128 * KB },
  keys: { records: 200, bytes: 128 * KB },
  questions: { records: 500, bytes: 256 * KB },
  reviews: { records: 500, bytes: 256 * KB },
  complaints: { records: 500, bytes: 256 * KB },
  catalogRequests: { records: 500, bytes: 256 * KB },
  // A sealed record is ~350 bytes: ~70 KB a shard. Expired records are dropped (server/http/idempotency.ts `prune`).
  idempotency: { records: 200, bytes: 128 * KB },
};

/** Every tracking Proxy → its target. */
const targets = new WeakMap<object, object>();
/** A stored object (a record, or an object or array inside one) → its tracking Proxy. */
const proxies = new WeakMap<object, object>();
/** A stored object → the record it belongs to. */
const owners = new WeakMap<object, Owner>();

/** The stored object behind a tracked value (the value itself when it is not tracked). */
export function rawOf<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    const target = targets.get(value);
    if (target) return target as T;
  }
  return value;
}

export class Shard {
  /** Keys whose records this shard holds now. */
  readonly keys = new Set<string>();
  dirty = false;
  /** Length of the last serialisation (or of the file read at start). */
  bytes = 0;
  constructor(readonly index: number) {}
}

/** A record: the section it is in and the key it is stored under (updated when it is stored under another). */
interface Owner {
  readonly map: ShardedMap<object>;
  key: string;
}

function mark(target: object): void {
  const owner = owners.get(target);
  if (owner) owner.map.markKey(owner.key);
}

/**
 * One handler for every tracked record and every object inside one (a single shape keeps the traps
 * cheap): reads of plain values pass through; an object read comes back tracked, for the same
 * record; every change marks the record's shard.
 */
const tracking: ProxyHandler<object> = {
  get(t, k) {
    const v = (t as Record<PropertyKey, unknown>)[k];
    if (typeof v !== 'object' || v === null) return v;
    return proxies.get(v) ?? track(v, owners.get(t));
  },
  set(t, k, v) {
    const value = stored(v);
    (t as Record<PropertyKey, unknown>)[k] = value;
    adoptInto(value, t);
    mark(t);
    return true;
  },
  deleteProperty(t, k) {
    const ok = Reflect.deleteProperty(t, k);
    mark(t);
    return ok;
  },
  defineProperty(t, k, d) {
    const value = 'value' in d ? stored(d.value) : undefined;
    const ok = Reflect.defineProperty(t, k, 'value' in d ? { ...d, value } : d);
    adoptInto(value, t);
    mark(t);
    return ok;
  },
};

function track(target: object, owner: Owner | undefined): object {
  const proxy = new Proxy(target, tracking);
  proxies.set(target, proxy);
  targets.set(proxy, target);
  if (owner) owners.set(target, owner);
  return proxy;
}

/**
 * A value as it is stored: unwrapped, and so is every tracked value inside it (an object built
 * from parts of records, `{...a, vaults: b.vaults}`, holds proxies), so that stored data never holds
 * a Proxy.
 */
function stored<T>(value: T): T {
  const raw = rawOf(value);
  if (typeof raw !== 'object' || raw === null) return raw;
  const stack: object[] = [raw];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (seen.has(o)) continue;
    seen.add(o);
    for (const k of Object.keys(o)) {
      const v = (o as Record<string, unknown>)[k];
      if (typeof v !== 'object' || v === null) continue;
      const inner = rawOf(v);
      if (inner !== v) (o as Record<string, unknown>)[k] = inner;
      stack.push(inner);
    }
  }
  return raw;
}

/**
 * An object stored into a record that was already tracked for another record (moved from one
 * record to another) now belongs to this one, with everything inside it that was tracked.
 */
function adoptInto(value: unknown, parent: object): void {
  if (typeof value !== 'object' || value === null) return;
  const owner = owners.get(parent);
  const before = owners.get(value);
  if (owner && before && before !== owner) rebind(value, owner);
}

/** Gives `value` and every object inside it to `owner`. */
function rebind(value: object, owner: Owner): void {
  const stack: object[] = [value];
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (owners.get(o) === owner) continue;
    owners.set(o, owner);
    for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) stack.push(v);
  }
}

/** Serialised shards to write: the shard, its index and its text. */
export interface ShardSnapshot {
  index: number;
  shard: Shard;
  text: string | null;
}

/** One sharded section of one seller. `proxy` is what the seller document exposes. */
export class ShardedMap<V extends object> {
  /** Every record of the section, unwrapped: the target of {@link proxy}. */
  readonly raw: Record<string, V> = {};
  readonly proxy: Record<string, V>;
  readonly #shards = new Map<number, Shard>();
  readonly #homes = new Map<string, Shard>();
  readonly #dirty = new Set<Shard>();
  #newest: Shard | null = null;
  /**
   * Called synchronously with the key of every change this map sees (a key set or deleted, a change
   * inside its record): derived views kept in step with the records (server/domain/market.ts).
   */
  readonly watchers = new Set<(key: string) => void>();

  constructor(readonly limits: ShardLimits) {
    const self = this as unknown as ShardedMap<object>;
    this.proxy = new Proxy(this.raw, {
      get: (t, k) => {
        const v = (t as Record<PropertyKey, unknown>)[k];
        if (typeof k !== 'string' || typeof v !== 'object' || v === null) return v;
        const proxy = proxies.get(v);
        if (proxy) return proxy;
        if (k === '__proto__' && !Object.hasOwn(t, k)) return v;
        return track(v, { map: self, key: k });
      },
      set: (t, k, v) => {
        if (typeof k !== 'string') return Reflect.set(t, k, v);
        this.#put(k, stored(v) as V);
        return true;
      },
      defineProperty: (t, k, d) => {
        if (typeof k !== 'string' || !('value' in d)) return Reflect.defineProperty(t, k, d);
        this.#put(k, stored(d.value) as V);
        return true;
      },
      deleteProperty: (t, k) => {
        if (typeof k === 'string') this.#remove(k);
        return Reflect.deleteProperty(t, k);
      },
    }) as Record<string, V>;
    targets.set(this.proxy, this.raw);
  }

  /** Marks the home shard of `key` dirty (a record under it changed). */
  markKey(key: string): void {
    if (this.watchers.size > 0) this.#changed(key);
    const shard = this.#homes.get(key);
    if (shard) this.#mark(shard);
  }

  /** The index of the home shard of `key` (tests). */
  homeOf(key: string): number | undefined {
    return this.#homes.get(key)?.index;
  }

  /**
   * Takes the records of a shard file read at start. A key already placed by an earlier shard
   * (which a crash cannot make, but a hand-edited directory can) moves here, and the earlier shard
   * is marked to be rewritten without it. Load shards in ascending index order.
   */
  load(index: number, records: Record<string, V>, bytes: number): void {
    const shard = this.#shard(index);
    shard.bytes = bytes;
    for (const [key, record] of Object.entries(records)) {
      const before = this.#homes.get(key);
      if (before && before !== shard) {
        before.keys.delete(key);
        this.#mark(before);
      }
      Object.defineProperty(this.raw, key, { value: record, enumerable: true, writable: true, configurable: true });
      shard.keys.add(key);
      this.#homes.set(key, shard);
    }
  }

  /**
   * Takes records of an older seller file that held the section inline. Keys some shard already
   * holds keep the shard's record (shards are written before the seller file, so they are the
   * newer); the others are placed as new keys and marked, so the next write moves them out.
   */
  adopt(records: Record<string, V>): void {
    for (const [key, record] of Object.entries(records)) {
      if (!this.#homes.has(key)) this.#put(key, record);
    }
  }

  /** Replaces every record (an assignment to the whole section, e.g. a document reset). */
  replace(records: Record<string, V>): void {
    const incoming = rawOf(records);
    const entries = Object.entries(incoming === this.raw ? { ...incoming } : incoming);
    for (const key of Object.keys(this.raw)) {
      this.#remove(key);
      delete this.raw[key];
    }
    for (const [key, record] of entries) this.#put(key, stored(record));
  }

  /**
   * The dirty shards, marked clean (synchronously, so any later change marks them again), with
   * their serialisation when `serialize` (null texts for a store that keeps nothing).
   */
  takeDirty(serialize: ((shard: Shard, records: Record<string, V>) => string) | null): ShardSnapshot[] {
    const out: ShardSnapshot[] = [];
    for (const shard of this.#dirty) {
      shard.dirty = false;
      let text: string | null = null;
      if (serialize) {
        const records: Record<string, V> = {};
        for (const key of shard.keys) {
          Object.defineProperty(records, key, { value: this.raw[key], enumerable: true, writable: true, configurable: true });
        }
        text = serialize(shard, records);
        shard.bytes = text.length;
      }
      out.push({ index: shard.index, shard, text });
    }
    this.#dirty.clear();
    return out;
  }

  /** Marks shards of a snapshot that could not be written dirty again. */
  remark(snapshots: readonly ShardSnapshot[]): void {
    for (const s of snapshots) this.#mark(s.shard);
  }

  #changed(key: string): void {
    for (const watch of this.watchers) watch(key);
  }

  #mark(shard: Shard): void {
    if (shard.dirty) return;
    shard.dirty = true;
    this.#dirty.add(shard);
  }

  #shard(index: number): Shard {
    let shard = this.#shards.get(index);
    if (!shard) {
      shard = new Shard(index);
      this.#shards.set(index, shard);
      if (!this.#newest || index > this.#newest.index) this.#newest = shard;
    }
    return shard;
  }

  /** The shard a new key goes to: the newest while it has room, else a new one. */
  #placement(): Shard {
    const newest = this.#newest;
    if (newest && newest.keys.size < this.limits.records && newest.bytes < this.limits.bytes) return newest;
    return this.#shard(newest ? newest.index + 1 : 0);
  }

  #put(key: string, record: V): void {
    let shard = this.#homes.get(key);
    if (!shard) {
      shard = this.#placement();
      this.#homes.set(key, shard);
    }
    shard.keys.add(key);
    // defineProperty: a key such as `__proto__` is an ordinary key here, not the prototype.
    Object.defineProperty(this.raw, key, { value: record, enumerable: true, writable: true, configurable: true });
    // A record tracked before (stored again, under this key or another): it now belongs here.
    const owner = typeof record === 'object' && record !== null ? owners.get(record) : undefined;
    if (owner?.map === (this as unknown as ShardedMap<object>)) owner.key = key;
    else if (owner) rebind(record, { map: this as unknown as ShardedMap<object>, key });
    this.#mark(shard);
    if (this.watchers.size > 0) this.#changed(key);
  }

  #remove(key: string): void {
    if (!Object.hasOwn(this.raw, key)) return;
    const shard = this.#homes.get(key);
    if (!shard) return;
    shard.keys.delete(key);
    this.#mark(shard);
    if (this.watchers.size > 0) this.#changed(key);
  }
}
