/**
 * Creating a card: checks a would-be card against its catalogue position and its seller, and stores
 * it switched off under the next number. One function for the API's `listings.create` and `copy`
 * and the sandbox's `createCard`. The number comes from the in-memory card sequence, written
 * (`seq.json`) before the seller's documents; the shared document is not written (the card index is
 * derived from the seller documents at start).
 */
import type { ServerContext, UnitOfWork } from '../context.ts';
import type { SellerDoc } from '../store/docs.ts';
import { newCardRecord, startsAsTest, validateCard, type CardFields, type CardRefusal, type SellerStanding } from './cards.ts';

export type NewCardFields = CardFields & { stock?: number | undefined; confirmRequired?: boolean | undefined };

export function addCard(
  svc: ServerContext,
  tx: UnitOfWork,
  doc: SellerDoc,
  standing: SellerStanding,
  fields: NewCardFields,
  now: Date,
): CardRefusal | { number: number; isActive: false; isTest: boolean } {
  const position = svc.store.shared.catalog.find((p) => p.slug === fields.service);
  const refusal = validateCard(position, fields, doc.papers);
  if (refusal) return refusal;
  const number = tx.nextCardNumber();
  svc.store.shared.cardIndex[String(number)] = doc.sellerId;
  const card = newCardRecord(number, fields, startsAsTest(standing), now);
  doc.cards[String(number)] = card;
  return { number, isActive: false as const, isTest: card.isTest };
}
