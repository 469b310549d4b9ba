/**
 * Durable text files: what the store writes goes through here, with the durability of SQLite's
 * default (`synchronous=FULL`): a file is written whole to a temporary name, flushed (`fsync`),
 * renamed over its place, and the directory is flushed, before the write resolves; a removal
 * (the journal's) flushes its directory too. lowdb's TextFile (steno) renames atomically but never
 * flushes, so a power cut could lose a write that was answered; steno offers no option for it, so
 * this ~100-line adapter of our own replaces it (docs/decisions.md, "The store keeps its promise").
 *
 * `fsync: false` (`seller-server --no-fsync`, `AppOptions.fsync`) skips the flushes: safe against a
 * killed process (the rename is still atomic), not against a power cut; for throwaway servers.
 * The file system is injectable (`fs`), so tests can make a disk fail (ENOSPC, EIO) or stall.
 *
 * Concurrent writes of one file are coalesced as steno did: while one runs, the latest text asked
 * for waits and is written next; every caller resolves once a text at least as new as its own is on
 * disk, so a file is never overwritten by an older text.
 */
import { promises as nodeFs } from 'node:fs';
import path from 'node:path';
import type { Adapter } from 'lowdb';

/** The part of `fs.promises` the store uses. */
export interface FileSystem {
  open: typeof nodeFs.open;
  rename: typeof nodeFs.rename;
  rm: typeof nodeFs.rm;
  mkdir: typeof nodeFs.mkdir;
  readFile: typeof nodeFs.readFile;
  readdir: typeof nodeFs.readdir;
}

export interface Disk {
  /** Flush files and directories before a write resolves. @default true */
  fsync: boolean;
  fs: FileSystem;
}

export const DEFAULT_DISK: Disk = { fsync: true, fs: nodeFs };

/** Flushes a directory (a rename or removal in it is then durable). */
export async function syncDir(dir: string, disk: Disk): Promise<void> {
  if (!disk.fsync) return;
  const handle = await disk.fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes a file (absent is fine) and flushes its directory. */
export async function removeFile(file: string, disk: Disk): Promise<void> {
  await disk.fs.rm(file, { force: true });
  await syncDir(path.dirname(file), disk);
}

/** Creates a directory (and its parents) and flushes its parent. */
export async function makeDir(dir: string, disk: Disk): Promise<void> {
  await disk.fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await syncDir(path.dirname(dir), disk);
}

/**
 * A write that failed after its file was renamed into place: the new text is the file's (what a
 * restart reads), only the flush of its directory failed. A caller whose commit point is this file
 * (a seller's journal) treats the write as done (docs/decisions.md, "A 5xx has no effect").
 */
export class PlacedWriteError extends Error {
  override name = 'PlacedWriteError';
  readonly placed = true;
  constructor(readonly file: string, override readonly cause: unknown) {
    super(`${file} was written, but its directory could not be flushed: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/**
 * Awaits a write; a failure after its file was renamed into place (only its directory's flush
 * failed) is no failure: the file is there, what a restart reads, so the write is done.
 */
export async function placed(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (!(err instanceof PlacedWriteError)) throw err;
  }
}

async function writeWhole(file: string, text: string, disk: Disk): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  const handle = await disk.fs.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    if (disk.fsync) await handle.sync();
  } finally {
    await handle.close();
  }
  await disk.fs.rename(tmp, file);
  try {
    await syncDir(path.dirname(file), disk);
  } catch (err) {
    throw new PlacedWriteError(file, err);
  }
}

/** A text file as a lowdb adapter: `read()` is null when there is no file; `write()` is durable. */
export class DurableTextFile implements Adapter<string> {
  readonly #file: string;
  readonly #disk: Disk;
  #running: Promise<void> | null = null;
  #next: { text: string; done: Promise<void> } | null = null;

  constructor(file: string, disk: Disk = DEFAULT_DISK) {
    this.#file = file;
    this.#disk = disk;
  }

  async read(): Promise<string | null> {
    try {
      return await this.#disk.fs.readFile(this.#file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  write(text: string): Promise<void> {
    if (this.#next) {
      this.#next.text = text;
      return this.#next.done;
    }
    if (!this.#running) return this.#start(text);
    const next = { text, done: Promise.resolve() };
    next.done = this.#running.catch(() => undefined).then(() => {
      this.#next = null;
      return this.#start(next.text);
    });
    this.#next = next;
    return next.done;
  }

  #start(text: string): Promise<void> {
    const run = writeWhole(this.#file, text, this.#disk);
    this.#running = run;
    const clear = () => {
      if (this.#running === run) this.#running = null;
    };
    run.then(clear, clear);
    return run;
  }
}
