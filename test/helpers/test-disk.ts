/** An injected file system for the store (server/store/durable-file.ts `FileSystem`) that fails, stalls and counts. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FileSystem } from '../../server/store/durable-file.ts';

/**
 * A file system that can fail writes (`fail`), stall renames (`stall`), counts flushes, and can
 * walk a commit step by step: every step that changes the disk (opening a file to write, writing,
 * flushing a file or a directory, closing a written file, renaming, removing, making a directory)
 * is counted and, while `recording`, named in `steps`; `failStep` fails the step of that number
 * (counted from `resetSteps()`), and with `failAfter` every step after it too (a disk that filled up).
 */
export class TestDisk {
  fail: string | null = null;
  /** With `fail`: only files this accepts fail (default every file). */
  failOnly: ((file: string) => boolean) | null = null;
  stall: Promise<void> | null = null;
  stalled = 0;
  syncs = 0;
  /** Steps counted since `resetSteps()`. */
  step = 0;
  recording = false;
  readonly steps: string[] = [];
  /** The number of the step to fail (0 is the first after `resetSteps()`), or null. */
  failStep: number | null = null;
  /** With `failStep`: every later step fails too. */
  failAfter = false;
  /** The error code of a failed step. */
  stepCode = 'ENOSPC';
  readonly fs: FileSystem;

  constructor() {
    const disk = this;
    this.fs = {
      ...fs,
      async open(...args: Parameters<typeof fs.open>) {
        const file = String(args[0]);
        const writing = args[1] !== undefined && args[1] !== 'r';
        if (writing) disk.#step(`open ${file}`);
        const handle = await fs.open(...args);
        return new Proxy(handle, {
          get(target, prop) {
            if (prop === 'writeFile' && disk.fail && (disk.failOnly?.(file) ?? true)) {
              const code = disk.fail;
              return async () => {
                throw Object.assign(new Error(`${code}: no space left on device, write`), { code });
              };
            }
            if (prop === 'sync') disk.syncs++;
            const v = Reflect.get(target, prop, target);
            if (typeof v !== 'function') return v;
            const named = prop === 'writeFile' || prop === 'sync' || (prop === 'close' && writing);
            if (!named) return v.bind(target);
            return async (...a: unknown[]) => {
              try {
                disk.#step(`${String(prop)} ${file}`);
              } catch (err) {
                if (prop === 'close') await v.apply(target, a); // the handle is not leaked
                throw err;
              }
              return v.apply(target, a);
            };
          },
        });
      },
      async rename(from, to) {
        disk.#step(`rename ${String(from)} → ${path.basename(String(to))}`);
        if (disk.stall) {
          disk.stalled++;
          await disk.stall;
        }
        return fs.rename(from, to);
      },
      async rm(file: Parameters<typeof fs.rm>[0], opts?: Parameters<typeof fs.rm>[1]) {
        disk.#step(`rm ${String(file)}`);
        return fs.rm(file, opts);
      },
      async mkdir(dir: Parameters<typeof fs.mkdir>[0], opts?: Parameters<typeof fs.mkdir>[1]) {
        disk.#step(`mkdir ${String(dir)}`);
        return fs.mkdir(dir, opts as never);
      },
    } as FileSystem;
  }

  /** Starts counting steps from 0 (and naming them, when `recording`). */
  resetSteps(): void {
    this.step = 0;
    this.steps.length = 0;
  }

  #step(name: string): void {
    const n = this.step++;
    if (this.recording) this.steps.push(name);
    if (this.failStep !== null && (n === this.failStep || (this.failAfter && n > this.failStep))) {
      const code = this.stepCode;
      throw Object.assign(new Error(`${code}: failed step ${n} (${name})`), { code });
    }
  }
}
