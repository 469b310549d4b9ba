/**
 * A file-backed server app per test: a fresh temporary data directory before each test, apps
 * opened on it through `fileApp()` closed (and the directory removed) after each test.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { makeApp } from '../server/helpers.ts';

export interface FileStore {
  /** The current test's data directory. */
  readonly dir: string;
  /** A file-store app on `dir` (closed after the test). */
  fileApp(): Promise<FastifyInstance>;
  /** Closes every app opened so far in this test. */
  closeAll(): Promise<void>;
  /** Closes `app` after the test like the ones from `fileApp()`. */
  track(app: FastifyInstance): void;
}

/** Registers the per-test hooks; call at module (or describe) level. `prefix` names the temp directory. */
export function useFileStore(prefix: string): FileStore {
  let dir = '';
  const open: FastifyInstance[] = [];
  const closeAll = async (): Promise<void> => {
    for (const app of open.splice(0)) await app.close();
  };
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await closeAll();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    async fileApp() {
      const app = await makeApp({ memory: false, dataDir: dir });
      open.push(app);
      return app;
    },
    closeAll,
    track(app) {
      open.push(app);
    },
  };
}

/**
 * Makes the next write of a seller's core document fail (a directory stands where the file goes),
 * after its shards and journal are written; returns how to put the disk back as a crash at that
 * point leaves it: the core as it was before that write.
 */
export async function breakSellerCore(dir: string, sellerId: string): Promise<() => Promise<void>> {
  const core = path.join(dir, 'sellers', `${sellerId}.json`);
  const before = await readFile(core, 'utf8');
  await rm(core);
  await mkdir(core);
  return async () => {
    await rm(core, { recursive: true });
    await writeFile(core, before);
  };
}

/**
 * Makes the next journalled write of a seller fail before its commit point: a directory stands where
 * the journal's temporary file goes, so the journal cannot be written (nothing of the write is kept).
 */
export async function breakSellerJournal(dir: string, sellerId: string): Promise<void> {
  await mkdir(path.join(dir, 'sellers', sellerId, '.journal.tmp'), { recursive: true });
}
