/**
 * Cards: create, list, read, update, delete, state, copy, test marking, image.
 * The rules live in domain/cards.ts; here they meet the seller's documents, and a refusal of theirs
 * is answered as it is. Every check and change happens synchronously after the handler's last await.
 */
import type { Card, Position } from '../../sdk/contract/index.ts';
import { IMAGE_MAX_BYTES } from '../../sdk/contract/index.ts';
import type { ServerContext } from '../context.ts';
import {
  applyUpdate,
  checkImage,
  fieldsOf,
  retire,
  sellerStanding,
  setState,
  setTest,
  validateUpdate,
} from '../domain/cards.ts';
import { addCard, type NewCardFields } from '../domain/card-create.ts';
import { isRefusal } from '../domain/refusal.ts';
import { dropStock, stockCounts } from '../domain/stock.ts';
import { apiHandlers, type ApiContext } from '../http/handlers.ts';
import { pageOf } from '../http/paging.ts';
import type { SellerDoc } from '../store/docs.ts';
import { imageUrl } from '../http/image-route.ts';
import { extensionOf, imageRecord } from '../store/images.ts';
import type { CardRecord } from '../store/records/listings.ts';

export const positionOf = (svc: ServerContext, slug: string): Position | undefined => svc.store.shared.catalog.find((p) => p.slug === slug);

/** The caller's card, or the not-found answer (absent and foreign cards look the same). */
export function ownCard(ctx: ApiContext, number: number): CardRecord {
  const card = ctx.caller.doc.cards[String(number)];
  if (!card) throw ctx.notFound('card', number);
  return card;
}

/** Whether any order of the seller was placed on the card. */
const hasOrders = (doc: SellerDoc, number: number): boolean => Object.values(doc.orders).some((o) => o.number === number);

export function cardView(svc: ServerContext, doc: SellerDoc, card: CardRecord): Card {
  return {
    number: card.number,
    service: card.service,
    tariff: card.tariff,
    productType: card.productType,
    deliveryMethod: card.deliveryMethod,
    priceRub: card.priceRub,
    slaMinutes: card.slaMinutes,
    guaranteeDays: card.guaranteeDays,
    description: card.description,
    creditsType: card.creditsType,
    creditsAmount: card.creditsAmount,
    creditsRate: card.creditsRate,
    declaredStock: card.declaredStock,
    confirmRequired: card.confirmRequired,
    isActive: card.isActive,
    isTest: card.isTest,
    autoIssue: card.autoIssue,
    stock: stockCounts(doc, card.number),
    image: card.image ? { url: imageUrl(svc, card.image) } : null,
    createdAt: card.createdAt,
    updatedAt: card.updatedAt,
  };
}

/** Checks a would-be card and stores it switched off under the next number (server/domain/card-create.ts). */
const createCard = (ctx: ApiContext, fields: NewCardFields) => addCard(ctx.svc, ctx.tx, ctx.caller.doc, sellerStanding(ctx.caller), fields, ctx.now);

/** List order: newest first (by number, which only grows). */
const byNumber = (card: CardRecord) => String(card.number).padStart(12, '0');

export const listingHandlers = apiHandlers({
  'listings.list': ({ svc, caller }, { query }) => {
    const cards = Object.values(caller.doc.cards).filter(
      (c) => (query.active === undefined || c.isActive === query.active) && (!query.service || c.service === query.service),
    );
    const page = pageOf(cards, query, { key: byNumber, desc: true });
    return { items: page.items.map((c) => cardView(svc, caller.doc, c)), nextCursor: page.nextCursor };
  },

  'listings.create': (ctx, { body }) => createCard(ctx, body),

  'listings.get': (ctx, { params }) => cardView(ctx.svc, ctx.caller.doc, ownCard(ctx, params.number)),

  'listings.update': (ctx, { params, body }) => {
    const card = ownCard(ctx, params.number);
    const refusal = validateUpdate(positionOf(ctx.svc, card.service), card, body, ctx.caller.doc.papers);
    if (refusal) return refusal;
    // Orders keep their own price snapshot; only the card changes (and with it the usual price).
    applyUpdate(card, body, ctx.now);
    return { number: card.number, isActive: card.isActive };
  },

  'listings.delete': async (ctx, { params }) => {
    const { caller } = ctx;
    const card = ownCard(ctx, params.number);
    if (retire(card, hasOrders(caller.doc, card.number), ctx.now) === 'hidden') return { number: card.number, result: 'hidden' as const };
    delete caller.doc.cards[String(card.number)];
    dropStock(caller.doc, card.number);
    // The index is derived (in memory only); the number stays used: the sequence is never lowered.
    delete ctx.svc.store.shared.cardIndex[String(card.number)];
    if (card.image) await ctx.svc.images.remove(card.number, extensionOf(card.image.contentType));
    return { number: card.number, result: 'deleted' as const };
  },

  'listings.setState': (ctx, { params, body }) => {
    const card = ownCard(ctx, params.number);
    return setState(card, body, stockCounts(ctx.caller.doc, card.number).free, ctx.now) ?? { number: card.number, isActive: card.isActive, autoIssue: card.autoIssue };
  },

  'listings.copy': (ctx, { params }) => createCard(ctx, fieldsOf(ownCard(ctx, params.number))),

  'listings.setTest': (ctx, { params, body }) => {
    const card = ownCard(ctx, params.number);
    return setTest(card, body.isTest, sellerStanding(ctx.caller), ctx.now) ?? { number: card.number, isTest: card.isTest };
  },

  'listings.setImage': async (ctx, { params, raw, contentType }) => {
    const bytes = raw ?? Buffer.alloc(0);
    ownCard(ctx, params.number);
    const checked = checkImage(contentType, bytes, IMAGE_MAX_BYTES);
    if (isRefusal(checked)) return checked;
    const images = ctx.svc.images;
    const image = imageRecord(params.number, checked.type, bytes);
    await images.put(params.number, extensionOf(image.contentType), bytes);
    // After the write: the card may have gone meanwhile.
    const card = ctx.caller.doc.cards[String(params.number)];
    if (!card) {
      await images.remove(params.number, extensionOf(image.contentType));
      throw ctx.notFound('card', params.number);
    }
    const previous = card.image;
    card.image = image;
    card.updatedAt = ctx.now.toISOString();
    if (previous && extensionOf(previous.contentType) !== extensionOf(image.contentType)) {
      await images.remove(card.number, extensionOf(previous.contentType));
    }
    return { number: card.number, image: { url: imageUrl(ctx.svc, image) } };
  },

  'listings.removeImage': async (ctx, { params }) => {
    const card = ownCard(ctx, params.number);
    const previous = card.image;
    if (previous) {
      card.image = null;
      card.updatedAt = ctx.now.toISOString();
      await ctx.svc.images.remove(card.number, extensionOf(previous.contentType));
    }
    return { number: card.number, image: null };
  },
});
