/**
 * One seller's documents: a core document `sellers/<id>.json` (papers, work mode, hooks, the
 * bounded delivery log, probe hits and event outbox) and shard documents
 * `sellers/<id>/<section>-<n>.json` for the sections that grow with the business or with its calls (`cards`,
 * `stock`, `orders`, `messages`, `keys`, `questions`, `reviews`, `complaints`, `catalogRequests`,
 * `idempotency`: server/store/shards.ts `SHARDED_SECTIONS`). The seller document handed to handlers
 * reads and changes those sections like plain objects keyed by record id (`doc.cards[n]`,
 * `doc.keys[id]`).
 *
 * A write (`write()`) takes one snapshot of the seller, synchronously: the core document and every
 * dirty shard serialised at the same instant. It then writes the shard files side by side, the core
 * document, and the idempotency records' shards last, each through lowdb's text file adapter
 * (atomic replace). Writes of one seller never
 * overlap: a write asked for while another runs waits for it and takes its own snapshot then, and
 * every write asked for meanwhile shares that one (coalesced, as lowdb coalesces one file's writes).
 * So a file is never overwritten by an older snapshot.
 *
 * A write of more than one file goes through a journal: the snapshot's files are first written,
 * all together, to `sellers/<id>/journal` (atomic replace), then each to its place, then the journal
 * is removed. Opening a seller whose journal is still there (a crash, or a failed write, between the
 * two) writes its files to their places first. So a seller's write is on disk whole or not at all:
 * an idempotency record (in its shard) is never without its changes, nor changes without their record
 * (docs/decisions.md, "Store layout").
 *
 * An older seller file holding sections inline loads (as maps, or for keys, questions, reviews,
 * complaints and catalogue requests as lists of records with an `id`): its records go into shards on
 * the next write, and the core document is written without them after the shards.
 */
import path from 'node:path';
import type { Adapter } from 'lowdb';
import { makeDir, placed, removeFile, type Disk } from './durable-file.ts';
import { DOC_VERSION, upgradeSeller, type SellerDoc } from './docs.ts';
import { parseDocument, readText, StoreError, textFile } from './file-text.ts';
import { dropOrderIndex } from './order-index.ts';
import { dropStockIndex, indexStock } from './stock-pieces.ts';
import { SHARDED_SECTIONS, ShardedMap, type ShardedSection, type ShardLimits, type ShardSnapshot } from './shards.ts';

const SHARD_FILE = new RegExp(`^(${SHARDED_SECTIONS.join('|')})-(\\d{1,9})\\.json$`);
/** The journal of a seller's last write, in the seller's directory. */
const JOURNAL = 'journal';
/** The name the core document has in a journal (it lives beside the directory, as `<id>.json`). */
const CORE = 'core';
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
  readonly #disk: Disk;
  #dirReady = false;
  /** The error of a write that failed: these documents are stale then, and every later write fails too. */
  #failed: unknown = null;
  #running: Promise<void> | null = null;
  #queued: Promise<void> | null = null;
  /** A journal the disk could not place at open (it stays on disk): its files go into the next write. */
  #pending: readonly JournalFile[] = [];
  /** The last failure after a commit point (the write stood; its files go with the next write). */
  lateFailure: unknown = null;

  private constructor(sellerId: string, base: string | null, doc: SellerDoc, sections: Sections, disk: Disk) {
    this.#sellerId = sellerId;
    this.#disk = disk;
    this.#base = base;
    this.doc = doc;
    this.sections = sections;
  }

  /**
   * Opens a seller's documents under `sellersDir` (null: in memory, nothing read or written);
   * a seller with no file starts empty. Throws StoreError on a file that cannot be read or parsed.
   */
  static async open(sellerId: string, sellersDir: string | null, limits: Readonly<Record<ShardedSection, ShardLimits>>, disk: Disk): Promise<SellerFiles> {
    const base = sellersDir ? path.join(sellersDir, sellerId) : null;
    const sections = Object.fromEntries(SHARDED_SECTIONS.map((s) => [s, new ShardedMap<object>(limits[s])])) as Sections;
    let stored: SellerDoc | null = null;
    let pending: JournalFile[] = [];
    if (base) {
      // A journal the disk cannot place now (full, failing) is read as it is: reads answer from memory.
      pending = await replayJournal(base, disk);
      const overrides = new Map(pending.map((f) => [f.name, f.text]));
      const file = `${base}.json`;
      const text = overrides.get(CORE) ?? (await readText(textFile(file, disk), file));
      if (text !== null) stored = parseDocument<SellerDoc>(text, file);
      await loadShards(base, sections, disk, overrides);
    }
    const core = upgradeSeller(stored ?? ({ sellerId } as SellerDoc)) as unknown as Record<string, unknown>;
    for (const section of SHARDED_SECTIONS) {
      const inline = core[section];
      delete core[section];
      if (stored && isRecordMap(inline)) sections[section].adopt(inline);
      // A list an older seller file kept inline (keys, questions, …): its records by id.
      else if (stored && Array.isArray(inline)) sections[section].adopt(byId(inline));
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
          if (section === 'stock') dropStockIndex(doc.stock);
        },
      });
    }
    // Counts and duplicate hashes of every card's stock, built here rather than by a request.
    indexStock(doc.stock);
    const files = new SellerFiles(sellerId, base, doc, sections, disk);
    files.#pending = pending;
    return files;
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
    if (this.#failed !== null) return Promise.reject(this.#failed);
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
    const rewritten = taken.flatMap(({ section, shards }) => shards.map((s) => ({ name: `${section}-${s.index}.json`, text: s.text! })));
    // Files of a journal not placed at open that this snapshot does not rewrite go with it.
    const shardFiles = [...this.#pending.filter((f) => f.name !== CORE && !rewritten.some((t) => t.name === f.name)), ...rewritten];
    let files: JournalFile[];
    try {
      if (shardFiles.length === 0) {
        await placed(this.#adapter(`${base}.json`).write(core));
        return;
      }
      if (!this.#dirReady) {
        await makeDir(base, this.#disk);
        this.#dirReady = true;
      }
      files = [...shardFiles, { name: CORE, text: core }];
      await placed(this.#adapter(path.join(base, JOURNAL)).write(journalText(files)));
    } catch (err) {
      // These documents now hold changes that are not on disk: the caller reopens the seller from
      // disk (server/store/store.ts `reloadSeller`), and writes queued here fail. A journal cut
      // short was never renamed into place, so the old files (and an older journal) stand.
      this.#failed = err;
      throw err;
    }
    // The journal is in place, written whole: the commit point. What fails from here on (placing a
    // file, a flush, the journal's removal) does not undo the write: a restart replays the journal,
    // and so does the next write, which carries these files along (`#pending`), so it is not a failure.
    this.#pending = files;
    try {
      await writeFiles(base, files, (file) => this.#adapter(file));
      await removeFile(path.join(base, JOURNAL), this.#disk);
      this.#pending = [];
    } catch (err) {
      this.lateFailure = err;
    }
  }

  #adapter(file: string): Adapter<string> {
    let adapter = this.#adapters.get(file);
    if (!adapter) this.#adapters.set(file, (adapter = textFile(file, this.#disk)));
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

/** Records of a list by their `id` (an entry without a string id cannot be kept and is dropped). */
function byId(list: readonly unknown[]): Record<string, object> {
  const out: Record<string, object> = {};
  for (const r of list) {
    const id = typeof r === 'object' && r !== null ? (r as { id?: unknown }).id : undefined;
    if (typeof id === 'string') Object.defineProperty(out, id, { value: r, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Reads every shard file of a seller (none when the directory does not exist), in ascending shard
 * order; a text in `overrides` (a journal not yet placed) stands for its file.
 */
async function loadShards(base: string, sections: Sections, disk: Disk, overrides: ReadonlyMap<string, string> = new Map()): Promise<void> {
  let names: string[];
  try {
    names = await disk.fs.readdir(base);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new StoreError(`cannot read the directory ${base}: ${(err as Error).message}`);
    names = [];
  }
  for (const name of overrides.keys()) if (name !== CORE && !names.includes(name)) names.push(name);
  const found = names
    .map((name) => SHARD_FILE.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: path.join(base, m[0]), section: m[1] as ShardedSection, index: Number(m[2]) }))
    .sort((a, b) => a.index - b.index);
  // A few files at a time, each parsed as soon as its batch is read: a seller of thousands of
  // shards (a million stock units: ~200 MB) never holds every file's text at once. A text in
  // `overrides` (a journal not yet placed) stands for its file.
  for (let from = 0; from < found.length; from += LOAD_BATCH) {
    const batch = found.slice(from, from + LOAD_BATCH);
    const texts = await Promise.all(batch.map((f) => overrides.get(path.basename(f.file)) ?? readText(textFile(f.file, disk), f.file)));
    for (const [i, f] of batch.entries()) {
      const text = texts[i];
      if (text === null || text === undefined) continue; // gone between the listing and the read
      const data = parseDocument<Partial<ShardDocument>>(text, f.file);
      if (!isRecordMap(data.records)) throw new StoreError(`data file ${f.file} does not hold a shard's records; it was left untouched.`);
      sections[f.section].load(f.index, data.records, text.length);
    }
  }
}

/** Shard files read at once when a seller is opened. */
const LOAD_BATCH = 32;

interface JournalFile {
  /** A shard's file name, or `core`. */
  name: string;
  text: string;
}

/**
 * A journal: one header line (`{"version":1,"files":[{"name":…,"length":…},…]}`, lengths in UTF-16
 * units) and the files' texts one after the other, so that no text is escaped a second time.
 */
function journalText(files: readonly JournalFile[]): string {
  const header = { version: 1, files: files.map((f) => ({ name: f.name, length: f.text.length })) };
  return `${JSON.stringify(header)}\n${files.map((f) => f.text).join('')}`;
}

function parseJournal(text: string, file: string): JournalFile[] {
  const bad = (why: string) => new StoreError(`journal ${file} ${why}; it was left untouched. Move it away to start without it (its write is then lost).`);
  const newline = text.indexOf('\n');
  if (newline === -1) throw bad('has no header');
  let header: { version?: unknown; files?: unknown };
  try {
    header = JSON.parse(text.slice(0, newline));
  } catch {
    throw bad('has a header that is not JSON');
  }
  if (header.version !== 1 || !Array.isArray(header.files)) throw bad('is not a journal of this version');
  const files: JournalFile[] = [];
  let at = newline + 1;
  for (const entry of header.files as { name?: unknown; length?: unknown }[]) {
    const { name, length } = entry ?? {};
    if (typeof name !== 'string' || (name !== CORE && !SHARD_FILE.test(name))) throw bad(`names a file it may not write (${String(name)})`);
    if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0 || at + length > text.length) throw bad('is cut short');
    files.push({ name, text: text.slice(at, at + length) });
    at += length;
  }
  if (at !== text.length) throw bad('holds more than its header lists');
  for (const f of files) parseDocument(f.text, `${file} (${f.name})`);
  return files;
}

const isRecordShard = (name: string) => name.startsWith('idempotency-');

/**
 * Writes a journal's files to their places: the shards side by side, then the core, then the
 * idempotency records' shards, so that without the journal (moved away by hand) a record is never
 * on disk before the changes it answers for.
 */
async function writeFiles(base: string, files: readonly JournalFile[], adapter: (file: string) => Adapter<string>): Promise<void> {
  const shards = files.filter((f) => f.name !== CORE && !isRecordShard(f.name));
  await Promise.all(shards.map((f) => adapter(path.join(base, f.name)).write(f.text)));
  for (const f of files) if (f.name === CORE) await adapter(`${base}.json`).write(f.text);
  await Promise.all(files.filter((f) => isRecordShard(f.name)).map((f) => adapter(path.join(base, f.name)).write(f.text)));
}

/**
 * Finishes a write that a crash (or a failure) interrupted: its journal's files go to their places,
 * then the journal goes. When the disk refuses (full, failing), the journal stays and its files are
 * answered, to be read in place of the files on disk and written with the next write.
 */
async function replayJournal(base: string, disk: Disk): Promise<JournalFile[]> {
  const file = path.join(base, JOURNAL);
  const text = await readText(textFile(file, disk), file);
  if (text === null) return [];
  const files = parseJournal(text, file);
  try {
    await writeFiles(base, files, (f) => textFile(f, disk));
    await removeFile(file, disk);
    return [];
  } catch {
    return files;
  }
}
