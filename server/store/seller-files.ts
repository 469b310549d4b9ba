/**
 * One seller's documents: a core document `sellers/<id>.json` (keys, papers, idempotency records,
 * hooks, deliveries, events and the other small sections) and shard documents
 * `sellers/<id>/<section>-<n>.json` for the sections that grow with the business (`cards`,
 * `stock`, `orders`: server/store/shards.ts). The seller document handed to handlers looks as it
 * always did: `doc.cards`, `doc.stock`, `doc.orders` read and change like plain objects.
 *
 * A write (`write()`) takes one snapshot of the seller, synchronously: the core document and every
 * dirty shard serialised at the same instant. It then writes the shard files, section by section
 * (`stock`, then `cards`, then `orders`; the shards of one section side by side), and the core
 * document last, each through lowdb's text file adapter (atomic replace). Writes of one seller never
 * overlap: a write asked for while another runs waits for it and takes its own snapshot then, and
 * every write asked for meanwhile shares that one (coalesced, as lowdb coalesces one file's writes).
 * So a file is never overwritten by an older snapshot, and when a shard of `orders` on disk holds a
 * snapshot, the `stock` and `cards` shards on disk hold that snapshot or a later one. What a crash
 * between the files can leave is in docs/decisions.md ("Store layout").
 *
 * An older seller file holding `cards`, `stock` and `orders` inline loads: its records go into
 * shards on the next write, and the core document is written without them after the shards.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';
import { DOC_VERSION, upgradeSeller, type SellerDoc } from './docs.ts';
import { parseDocument, readText, StoreError, textFile } from './file-text.ts';
import { dropOrderIndex } from './order-index.ts';
import { SHARDED_SECTIONS, ShardedMap, type ShardedSection, type ShardLimits, type ShardSnapshot } from './shards.ts';

const SHARD_FILE = /^(cards|stock|orders)-(\d{1,9})\.json$/;
const SECTION_NAMES: ReadonlySet<string> = new Set(SHARDED_SECTIONS);

/** What a shard file holds. `records` is the part of the section this shard keeps. */
interface ShardDocument {
  version: number;
  sellerId: string;
  section: ShardedSection;
  shard: number;
  records: Record<string, object>;
}

type Sections = { [S in ShardedSection]: ShardedMap<object> };

interface Taken {
  section: ShardedSection;
  shards: ShardSnapshot[];
}

export class SellerFiles {
  readonly doc: SellerDoc;
  readonly sections: Sections;
  readonly #sellerId: string;
  /** `sellers/<id>` (the shards' directory; the core file is beside it), or null in memory. */
  readonly #base: string | null;
  readonly #adapters = new Map<string, Adapter<string>>();
  #dirReady = false;
  #running: Promise<void> | null = null;
  #queued: Promise<void> | null = null;

  private constructor(sellerId: string, base: string | null, doc: SellerDoc, sections: Sections) {
    this.#sellerId = sellerId;
    this.#base = base;
    this.doc = doc;
    this.sections = sections;
  }

  /**
   * Opens a seller's documents under `sellersDir` (null: in memory, nothing read or written);
   * a seller with no file starts empty. Throws StoreError on a file that cannot be read or parsed.
   */
  static async open(sellerId: string, sellersDir: string | null, limits: Readonly<Record<ShardedSection, ShardLimits>>): Promise<SellerFiles> {
    const base = sellersDir ? path.join(sellersDir, sellerId) : null;
    const sections = Object.fromEntries(SHARDED_SECTIONS.map((s) => [s, new ShardedMap<object>(limits[s])])) as Sections;
    let stored: SellerDoc | null = null;
    if (base) {
      const file = `${base}.json`;
      const text = await readText(textFile(file), file);
      if (text !== null) stored = parseDocument<SellerDoc>(text, file);
      await loadShards(base, sections);
    }
    const core = upgradeSeller(stored ?? ({ sellerId } as SellerDoc)) as unknown as Record<string, unknown>;
    for (const section of SHARDED_SECTIONS) {
      const inline = core[section];
      delete core[section];
      if (stored && isRecordMap(inline)) sections[section].adopt(inline);
    }
    const doc = core as unknown as SellerDoc;
    for (const section of SHARDED_SECTIONS) {
      const map = sections[section];
      Object.defineProperty(doc, section, {
        enumerable: true,
        configurable: false,
        get: () => map.proxy,
        // An assignment to the whole section (a reset of the document) replaces its records.
        set: (value: unknown) => {
          map.replace(isRecordMap(value) ? value : {});
          if (section === 'orders') dropOrderIndex(doc);
        },
      });
    }
    return new SellerFiles(sellerId, base, doc, sections);
  }

  /**
   * Writes what changed since the last write (every dirty shard, then the core document); resolves
   * once a snapshot taken at or after this call is on disk.
   */
  write(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (this.#running) {
      const queued = this.#running
        .catch(() => undefined)
        .then(() => {
          this.#queued = null;
          return this.#start();
        });
      this.#queued = queued;
      return queued;
    }
    return this.#start();
  }

  #start(): Promise<void> {
    const run = this.#flush();
    this.#running = run;
    const clear = () => {
      if (this.#running === run) this.#running = null;
    };
    run.then(clear, clear);
    return run;
  }

  async #flush(): Promise<void> {
    // The snapshot: synchronous, before the first await.
    const base = this.#base;
    const taken: Taken[] = SHARDED_SECTIONS.map((section) => ({
      section,
      shards: this.sections[section].takeDirty(base ? (shard, records) => this.#shardText(section, shard.index, records) : null),
    }));
    if (!base) return;
    const core = this.#coreText();
    try {
      if (!this.#dirReady && taken.some((t) => t.shards.length > 0)) {
        await mkdir(base, { recursive: true, mode: 0o700 });
        this.#dirReady = true;
      }
      for (const { section, shards } of taken) {
        await Promise.all(shards.map((s) => this.#adapter(path.join(base, `${section}-${s.index}.json`)).write(s.text!)));
      }
      await this.#adapter(`${base}.json`).write(core);
    } catch (err) {
      for (const t of taken) this.sections[t.section].remark(t.shards);
      throw err;
    }
  }

  #adapter(file: string): Adapter<string> {
    let adapter = this.#adapters.get(file);
    if (!adapter) this.#adapters.set(file, (adapter = textFile(file)));
    return adapter;
  }

  #shardText(section: ShardedSection, index: number, records: Record<string, object>): string {
    const doc: ShardDocument = { version: DOC_VERSION, sellerId: this.#sellerId, section, shard: index, records };
    return JSON.stringify(doc);
  }

  /** The core document as written: every section but the sharded ones. */
  #coreText(): string {
    const core = this.doc as unknown as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(core)) if (!SECTION_NAMES.has(key)) out[key] = core[key];
    return JSON.stringify(out);
  }
}

const isRecordMap = (value: unknown): value is Record<string, object> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads every shard file of a seller (none when the directory does not exist), in ascending shard order. */
async function loadShards(base: string, sections: Sections): Promise<void> {
  let names: string[];
  try {
    names = await readdir(base);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new StoreError(`cannot read the directory ${base}: ${(err as Error).message}`);
  }
  const found = names
    .map((name) => SHARD_FILE.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: path.join(base, m[0]), section: m[1] as ShardedSection, index: Number(m[2]) }))
    .sort((a, b) => a.index - b.index);
  const texts = await Promise.all(found.map((f) => readText(textFile(f.file), f.file)));
  for (const [i, f] of found.entries()) {
    const text = texts[i];
    if (text === null || text === undefined) continue; // gone between the listing and the read
    const data = parseDocument<Partial<ShardDocument>>(text, f.file);
    if (!isRecordMap(data.records)) throw new StoreError(`data file ${f.file} does not hold a shard's records; it was left untouched.`);
    sections[f.section].load(f.index, data.records, text.length);
  }
}
