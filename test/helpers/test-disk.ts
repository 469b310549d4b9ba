/** An injected file system for the store (server/store/durable-file.ts `FileSystem`) that fails, stalls and counts. */
import { promises as fs } from 'node:fs';
import type { FileSystem } from '../../server/store/durable-file.ts';

/** A file system that can fail writes (`fail`), stall renames (`stall`) and counts flushes. */
export class TestDisk {
  fail: string | null = null;
  /** With `fail`: only files this accepts fail (default every file). */
  failOnly: ((file: string) => boolean) | null = null;
  stall: Promise<void> | null = null;
  stalled = 0;
  syncs = 0;
  readonly fs: FileSystem;

  constructor() {
    const disk = this;
    this.fs = {
      ...fs,
      async open(...args: Parameters<typeof fs.open>) {
        const handle = await fs.open(...args);
        return new Proxy(handle, {
          get(target, prop) {
            if (prop === 'writeFile' && disk.fail && (disk.failOnly?.(String(args[0])) ?? true)) {
              const code = disk.fail;
              return async () => {
                throw Object.assign(new Error(`${code}: no space left on device, write`), { code });
              };
            }
            if (prop === 'sync') disk.syncs++;
            const v = Reflect.get(target, prop, target);
            return typeof v === 'function' ? v.bind(target) : v;
          },
        });
      },
      async rename(from, to) {
        if (disk.stall) {
          disk.stalled++;
          await disk.stall;
        }
        return fs.rename(from, to);
      },
    } as FileSystem;
  }
}
