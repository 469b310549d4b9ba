/**
 * Card images: bytes in `<dataDir>/images/<number>.<ext>` (or in memory for an in-memory store),
 * metadata on the card record. The public URL `/images/<number>-<sha8>.<ext>` changes with the
 * content. It is served to anyone only while the card is on show (switched on, not hidden, its
 * seller active), and otherwise only with the owner's key; so a shared cache keeps it for minutes,
 * not for good, and an answer given for the owner's key is never kept by a shared cache.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../auth.ts';
import type { ServerContext } from '../context.ts';
import { IMAGE_EXTENSIONS, type ImageType } from '../domain/cards.ts';
import { isLive } from '../domain/usual-price.ts';
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

/** Whether the key in `authorization` (if any) is one of the seller's, usable now. */
async function ownerAsks(svc: ServerContext, sellerId: string, authorization: string | undefined): Promise<boolean> {
  if (!authorization) return false;
  try {
    return (await authenticate(svc.store, authorization, svc.clock.now())).seller.id === sellerId;
  } catch {
    return false;
  }
}

/**
 * Optional public route `GET /images/<number>-<sha8>.<ext>` serving the bytes (not part of the
 * operation table; the app may register it). A stale or unknown name, or the image of a card not
 * on show asked for without its owner's key, is a plain 404 (the same answer: nothing is revealed).
 */
export function registerImageRoute(app: FastifyInstance, svc: ServerContext): void {
  app.get<{ Params: { name: string } }>('/images/:name', async (req, reply) => {
    const m = /^(\d{1,12})-([0-9a-f]{8})\.(png|jpg|webp)$/.exec(req.params.name);
    const cardIndex = svc.store.shared.cardIndex;
    const sellerId = m && Object.hasOwn(cardIndex, m[1]!) ? cardIndex[m[1]!] : undefined;
    const card = m && sellerId ? (await svc.store.seller(sellerId)).cards[m[1]!] : undefined;
    const image = card?.image;
    const current = image && image.url === `/images/${req.params.name}`;
    const onShow = current && isLive(card) && svc.store.shared.sellers[sellerId!]?.status === 'active';
    const allowed = onShow || (current && (await ownerAsks(svc, sellerId!, req.headers.authorization)));
    const bytes = allowed ? await imagesOf(svc).get(card!.number, extensionOf(image!.contentType)) : null;
    if (!image || !bytes) return reply.code(404).send({ error: 'not_found', detail: 'no such image' });
    return reply
      .code(200)
      .header('content-type', image.contentType)
      .header('cache-control', onShow ? 'public, max-age=300' : 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });
}
