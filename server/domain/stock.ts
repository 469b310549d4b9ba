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
import { recordEvent } from './events.ts';

/** AAD of one sealed unit: it cannot be moved to another card or item. */
export const stockAad = (number: number, itemId: string): string => `stock:${number}:${itemId}`;
/** Scope of the duplicate hashes: the same secret in two cards is not a duplicate. */
export const stockScope = (number: number): string => `stock:${number}`;

export interface StockCounts {
  free: number;
  issued: number;
}

export function stockCounts(doc: SellerDoc, number: number): StockCounts {
  let free = 0;
  let issued = 0;
  for (const item of doc.stock[String(number)] ?? []) {
    if (item.status === 'free') free++;
    else issued++;
  }
  return { free, issued };
}

/**
 * Seals and adds `items` to the card's stock. Units already in the stock (free or issued) and
 * repeats within the batch are skipped and counted. Synchronous: no await between the duplicate
 * check and the push.
 */
export function addUnits(sealer: Sealer, doc: SellerDoc, number: number, items: readonly string[], now: Date): { added: number; duplicates: number } {
  const list = (doc.stock[String(number)] ??= []);
  const seen = new Set(list.map((i) => i.hash));
  const at = now.toISOString();
  let added = 0;
  for (const item of items) {
    const hash = sealer.hash(item, stockScope(number));
    if (seen.has(hash)) continue;
    seen.add(hash);
    const id = newId('itm');
    list.push({ id, sealed: sealer.seal(item, stockAad(number, id)), hash, status: 'free', addedAt: at, issuedAt: null, order: null });
    added++;
  }
  return { added, duplicates: items.length - added };
}

/**
 * Takes the oldest FREE unit of the card for an order, marks it issued and returns its plaintext
 * (for the buyer's vault); null when none is free. Synchronous, so two orders never get one unit.
 * After it, call `afterIssue` to announce an emptied stock.
 */
export function issueUnit(svc: ServerContext, doc: SellerDoc, number: number, orderId: string, now: Date): string | null {
  const item: StockItemRecord | undefined = (doc.stock[String(number)] ?? []).find((i) => i.status === 'free');
  if (!item) return null;
  const secret = svc.sealer.open(item.sealed, stockAad(number, item.id));
  item.status = 'issued';
  item.issuedAt = now.toISOString();
  item.order = orderId;
  return secret;
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
  delete doc.stock[String(number)];
}
