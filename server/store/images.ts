/**
 * Card images: bytes in `<dataDir>/images/<number>.<ext>` (or in memory for an in-memory store),
 * metadata on the card record. The public URL `/images/<number>-<sha8>.<ext>` changes with the
 * content, so it can be cached for good.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.ts';
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

const stores = new WeakMap<ServerContext, ImageStore>();

/** The image store of a server (created on first use beside its data files). */
export function imagesOf(svc: ServerContext): ImageStore {
  let store = stores.get(svc);
  if (!store) {
    store = new ImageStore(svc.store.dataDir);
    stores.set(svc, store);
  }
  return store;
}

export const extensionOf = (contentType: string): string => IMAGE_EXTENSIONS[contentType as ImageType] ?? 'bin';

/** The record of an uploaded image. */
export function imageRecord(number: number, type: ImageType, bytes: Buffer): CardImage {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { url: `/images/${number}-${sha256.slice(0, 8)}.${IMAGE_EXTENSIONS[type]}`, contentType: type, bytes: bytes.length, sha256 };
}

/** The URL in answers: absolute when the server knows its public URL. */
export function imageUrl(svc: ServerContext, image: CardImage): string {
  return svc.options.publicUrl ? new URL(image.url, svc.options.publicUrl).toString() : image.url;
}

/**
 * Optional public route `GET /images/<number>-<sha8>.<ext>` serving the bytes (not part of the
 * operation table; the app may register it). A stale or unknown name is a plain 404.
 */
export function registerImageRoute(app: FastifyInstance, svc: ServerContext): void {
  app.get<{ Params: { name: string } }>('/images/:name', async (req, reply) => {
    const m = /^(\d{1,12})-([0-9a-f]{8})\.(png|jpg|webp)$/.exec(req.params.name);
    const sellerId = m ? svc.store.shared.cardIndex[m[1]!] : undefined;
    const card = m && sellerId ? (await svc.store.seller(sellerId)).cards[m[1]!] : undefined;
    const image = card?.image;
    const bytes = image && image.url === `/images/${req.params.name}` ? await imagesOf(svc).get(card.number, extensionOf(image.contentType)) : null;
    if (!image || !bytes) return reply.code(404).send({ error: 'not_found', detail: 'no such image' });
    return reply
      .code(200)
      .header('content-type', image.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });
}
