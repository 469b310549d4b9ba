/**
 * The public image route `GET /images/<number>-<sha8>.<ext>` (not part of the operation table).
 * An image is served to anyone only while its card is on show (switched on, not hidden, its seller
 * active), and otherwise only with the owner's key; so a shared cache keeps it for minutes, not for
 * good, and an answer given for the owner's key is never kept by a shared cache.
 */
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../auth.ts';
import type { ServerContext } from '../context.ts';
import { isLive } from '../domain/usual-price.ts';
import { extensionOf, type CardImage } from '../store/images.ts';
import { errorBody } from './errors.ts';

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
 * Serves the bytes. A stale or unknown name, or the image of a card not
 * on show asked for without its owner's key, is a plain 404 (the same answer: nothing is revealed).
 */
export function registerImageRoute(app: FastifyInstance, svc: ServerContext): void {
  app.get<{ Params: { name: string } }>('/images/:name', async (req, reply) => {
    // Any extension: the name must equal the card's current image URL below, which has the right one.
    const m = /^(\d{1,12})-([0-9a-f]{8})\.(\w{1,8})$/.exec(req.params.name);
    const cardIndex = svc.store.shared.cardIndex;
    const sellerId = m && Object.hasOwn(cardIndex, m[1]!) ? cardIndex[m[1]!] : undefined;
    const card = m && sellerId ? (await svc.store.seller(sellerId)).cards[m[1]!] : undefined;
    const image = card?.image;
    const current = image && image.url === `/images/${req.params.name}`;
    const onShow = current && isLive(card) && svc.store.shared.sellers[sellerId!]?.status === 'active';
    const allowed = onShow || (current && (await ownerAsks(svc, sellerId!, req.headers.authorization)));
    const bytes = allowed ? await svc.images.get(card!.number, extensionOf(image!.contentType)) : null;
    if (!image || !bytes) return reply.code(404).send(errorBody('not_found', 'no such image', { record: 'image' }));
    return reply
      .code(200)
      .header('content-type', image.contentType)
      .header('cache-control', onShow ? 'public, max-age=300' : 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });
}
