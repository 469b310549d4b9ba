/**
 * Card images: bytes in `<dataDir>/images/<number>.<ext>` (or in memory for an in-memory store),
 * metadata on the card record. One image store per server (`svc.images`, built by `buildApp`).
 * The public URL `/images/<number>-<sha8>.<ext>` changes with the content; server/http/image-route.ts
 * serves it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_EXTENSIONS, type ImageType } from '../domain/cards.ts';
import type { CardRecord } from './records/listings.ts';

export type CardImage = NonNullable<CardRecord['image']>;

export class ImageStore {
  readonly #dir: string | null;
  readonly #memory = new Map<string, Buffer>();

  constructor(dataDir: string | null) {
    this.#dir = dataDir ? path.join(dataDir, 'images') : null;
  }

  async put(number: number, ext: string, bytes: Buffer): Promise<void> {
    const name = `${number}.${ext}`;
    if (!this.#dir) {
      this.#memory.set(name, Buffer.from(bytes));
      return;
    }
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(this.#dir, name), bytes);
  }

  async get(number: number, ext: string): Promise<Buffer | null> {
    const name = `${number}.${ext}`;
    if (!this.#dir) return this.#memory.get(name) ?? null;
    try {
      return await readFile(path.join(this.#dir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(number: number, ext: string): Promise<void> {
    const name = `${number}.${ext}`;
    if (!this.#dir) {
      this.#memory.delete(name);
      return;
    }
    await rm(path.join(this.#dir, name), { force: true });
  }
}

export const extensionOf = (contentType: string): string => IMAGE_EXTENSIONS[contentType as ImageType] ?? 'bin';

/** The record of an uploaded image. */
export function imageRecord(number: number, type: ImageType, bytes: Buffer): CardImage {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { url: `/images/${number}-${sha256.slice(0, 8)}.${IMAGE_EXTENSIONS[type]}`, contentType: type, bytes: bytes.length, sha256 };
}
