/**
 * Auto-delivery stock of a card. Units are sealed at rest (AES-256-GCM, AAD `stock:<number>:<item id>`)
 * and compared through a keyed hash within the card (`stock:<number>`), never by opening them.
 * No unit ever appears in an answer, a log line or an error; only `issueUnit` opens one, for a buyer.
 */
import type { ServerContext } from '../context.ts';
import { newId } from '../ids.ts';
import type { Sealer } from '../store/crypto.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { CardRecord, StockItemRecord } from '../store/records/listings.ts';
import { appendUnits, dropCardStock, hasUnit, stockCounts, takeFreeUnit } from '../store/stock-pieces.ts';
import { recordEvent } from './events.ts';

/** AAD of one sealed unit: it cannot be moved to another card or item. */
export const stockAad = (number: number, itemId: string): string => `stock:${number}:${itemId}`;
/** Scope of the duplicate hashes: the same secret in two cards is not a duplicate. */
export const stockScope = (number: number): string => `stock:${number}`;

export { stockCounts };

/**
 * Seals and adds `items` to the card's stock. Units already in the stock (free or issued) and
 * repeats within the batch are skipped and counted: found by their keyed hash in the card's index
 * (server/store/stock-pieces.ts), not by a scan. Synchronous: no await between the duplicate check
 * and the append. Writes the new units (and the last piece they fill), not the whole stock.
 */
export function addUnits(sealer: Sealer, doc: SellerDoc, number: number, items: readonly string[], now: Date): { added: number; duplicates: number } {
  const batch = new Set<string>();
  const units: StockItemRecord[] = [];
  const at = now.toISOString();
  for (const item of items) {
    const hash = sealer.hash(item, stockScope(number));
    if (batch.has(hash) || hasUnit(doc, number, hash)) continue;
    batch.add(hash);
    const id = newId('itm');
    units.push({ id, sealed: sealer.seal(item, stockAad(number, id)), hash, status: 'free', addedAt: at, issuedAt: null, order: null });
  }
  appendUnits(doc, number, units);
  return { added: units.length, duplicates: items.length - units.length };
}

/**
 * Takes the oldest FREE unit of the card for an order, marks it issued and answers its id and
 * plaintext (for the buyer's vault); null when none is free. Synchronous, so two orders never get
 * one unit. After it, call `afterIssue` to announce an emptied stock.
 */
export function issueUnit(svc: ServerContext, doc: SellerDoc, number: number, orderId: string, now: Date): { id: string; secret: string } | null {
  const item = takeFreeUnit(doc, number, orderId, now.toISOString());
  if (!item) return null;
  return { id: item.id, secret: svc.sealer.open(item.sealed, stockAad(number, item.id)) };
}

/**
 * When the card's free stock is empty: records `stock.out` and switches auto-delivery off.
 * Answers whether it did (false while units are left).
 */
export function afterIssue(svc: ServerContext, doc: SellerDoc, card: CardRecord, now: Date): boolean {
  if (stockCounts(doc, card.number).free > 0) return false;
  card.autoIssue = false;
  card.updatedAt = now.toISOString();
  recordEvent(svc, doc, 'stock.out', { number: card.number }, now);
  return true;
}

/** Drops a removed card's stock (its units were never delivered and never will be). */
export function dropStock(doc: SellerDoc, number: number): void {
  dropCardStock(doc, number);
}
