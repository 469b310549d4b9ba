/** Reading the store's data files: a file that cannot be read or parsed stops the server, untouched. */
import type { Adapter } from 'lowdb';
import { DEFAULT_DISK, DurableTextFile, type Disk } from './durable-file.ts';

export class StoreError extends Error {
  override name = 'StoreError';
}

/** A data file's text as a store document (a JSON object); throws StoreError naming the file otherwise. */
export function parseDocument<T>(text: string, file: string): T {
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
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new StoreError(`data file ${file} does not hold a store document; it was left untouched.`);
  }
  return data as T;
}

/** The text of a data file, or null when there is none; throws StoreError when it cannot be read. */
export async function readText(adapter: Adapter<string>, file: string): Promise<string | null> {
  try {
    return await adapter.read();
  } catch (err) {
    throw new StoreError(`cannot read data file ${file}: ${(err as Error).message}; it was left untouched.`);
  }
}

/** A text file: atomic replace (temp file + rename), flushed (server/store/durable-file.ts), concurrent writes coalesced. */
export const textFile = (file: string, disk: Disk = DEFAULT_DISK): Adapter<string> => new DurableTextFile(file, disk);
