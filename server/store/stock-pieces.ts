/**
 * A card's auto-delivery stock in bounded pieces (issue 19), so that a change writes about its own
 * size whatever the size of the stock.
 *
 * - **Layout.** The seller's `stock` section (a sharded section: server/store/shards.ts) holds, per
 *   card, pieces under the keys `<number>.<i>` (i = 0, 1, 2, … without gaps), each holding at most
 *   {@link PIECE_UNITS} units in the order they were added. A refill fills the last piece and
 *   appends new ones; an issue changes one unit of one piece. The section's shards are small
 *   (DEFAULT_SHARD_LIMITS.stock: two pieces), so a write rewrites a few tens of kilobytes of stock.
 * - **Kept, not recomputed.** Per card, in memory only: the counts (free, issued), the keyed hashes
 *   of its units (duplicates are found in a Set, not by a scan) and the first piece that may hold a
 *   free unit (units are issued oldest first, so the free units follow the issued ones). Built
 *   from the pieces once, when the seller's documents are opened ({@link indexStock}), kept in step
 *   by every change made through this module, and rebuilt with the documents after a failed write
 *   (server/store/store.ts `reloadSeller` opens new documents: the index is per `stock` object).
 * - **Older data.** A card's stock stored as one array under `<number>` (before issue 19) is split
 *   into pieces on its first use; the next write of the seller moves it (through the journal, so
 *   the old array and the new pieces are never both on disk, nor neither).
 *
 * The index holds the stored objects behind the tracked `stock` (`rawOf`); every change goes through
 * `doc.stock[...]` so that its shard is marked dirty.
 */
import type { SellerDoc } from './docs.ts';
import type { StockItemRecord, StockPieceRecord } from './records/listings.ts';
import { rawOf } from './shards.ts';

/** Units one piece holds at most: ~36 kB of JSON. */
export const PIECE_UNITS = 128;

/** The key of piece `i` of card `number` in the `stock` section. */
export const pieceKey = (number: number, i: number): string => `${number}.${i}`;

const PIECE_KEY = /^(\d{1,15})\.(\d{1,9})$/;

type Stock = SellerDoc['stock'];

interface CardStock {
  /** Pieces `0 … pieces-1` exist. */
  pieces: number;
  free: number;
  issued: number;
  /** Keyed hash of every unit (free or issued). */
  hashes: Set<string>;
  /** No free unit is in a piece before this one. */
  cursor: number;
}

/** Per `stock` object (raw), per card number. */
const indexes = new WeakMap<object, Map<number, CardStock>>();

const emptyCard = (): CardStock => ({ pieces: 0, free: 0, issued: 0, hashes: new Set(), cursor: 0 });

/** Counts a piece into its card; answers whether it holds a free unit. */
function note(card: CardStock, i: number, piece: StockPieceRecord): boolean {
  if (i + 1 > card.pieces) card.pieces = i + 1;
  let free = false;
  for (const unit of piece.units) {
    card.hashes.add(unit.hash);
    if (unit.status === 'free') {
      card.free++;
      free = true;
    } else card.issued++;
  }
  return free;
}

const isPiece = (value: unknown): value is StockPieceRecord =>
  typeof value === 'object' && value !== null && Array.isArray((value as StockPieceRecord).units);

/**
 * Builds the index of every card's pieces in a `stock` section (one pass over its records); called
 * when a seller's documents are opened, so that no request pays for it. Legacy arrays are left to
 * their card's first use.
 */
export function indexStock(stock: Stock): void {
  const raw = rawOf(stock);
  const cards = new Map<number, CardStock>();
  const found: { number: number; i: number; piece: StockPieceRecord }[] = [];
  for (const key of Object.keys(raw)) {
    const m = PIECE_KEY.exec(key);
    const piece = raw[key];
    if (m && isPiece(piece)) found.push({ number: Number(m[1]), i: Number(m[2]), piece });
  }
  // Ascending piece order per card, so that the cursor lands on the first piece with a free unit.
  found.sort((a, b) => a.number - b.number || a.i - b.i);
  for (const { number, i, piece } of found) {
    let card = cards.get(number);
    if (!card) cards.set(number, (card = { ...emptyCard(), cursor: Number.POSITIVE_INFINITY }));
    if (note(card, i, piece) && i < card.cursor) card.cursor = i;
  }
  for (const card of cards.values()) if (!Number.isFinite(card.cursor)) card.cursor = card.pieces;
  indexes.set(raw, cards);
}

/** Forgets the index of a `stock` object (the whole section was replaced): it is built again on next use. */
export function dropStockIndex(stock: Stock): void {
  indexes.delete(rawOf(stock));
}

function cardStock(doc: SellerDoc, number: number): CardStock {
  const raw = rawOf(doc.stock);
  let cards = indexes.get(raw);
  if (!cards) {
    indexStock(doc.stock);
    cards = indexes.get(raw)!;
  }
  if (Object.hasOwn(raw, String(number))) {
    splitLegacy(doc, number);
    cards.delete(number);
  }
  let card = cards.get(number);
  if (!card) {
    card = emptyCard();
    let first = -1;
    for (let i = 0; Object.hasOwn(raw, pieceKey(number, i)); i++) {
      if (note(card, i, raw[pieceKey(number, i)]!) && first === -1) first = i;
    }
    card.cursor = first === -1 ? card.pieces : first;
    cards.set(number, card);
  }
  return card;
}

/** A card's stock stored whole under `<number>` (before issue 19): moved into pieces after the ones it may have. */
function splitLegacy(doc: SellerDoc, number: number): void {
  const legacy = rawOf(doc.stock)[String(number)] as unknown;
  delete doc.stock[String(number)];
  if (!Array.isArray(legacy)) return;
  const units = legacy as StockItemRecord[];
  let i = 0;
  while (Object.hasOwn(rawOf(doc.stock), pieceKey(number, i))) i++;
  for (let at = 0; at < units.length; at += PIECE_UNITS, i++) {
    doc.stock[pieceKey(number, i)] = { number, units: units.slice(at, at + PIECE_UNITS) };
  }
}

export interface StockCounts {
  free: number;
  issued: number;
}

/** The card's counts, as kept. */
export function stockCounts(doc: SellerDoc, number: number): StockCounts {
  const card = cardStock(doc, number);
  return { free: card.free, issued: card.issued };
}

/** Whether a unit with this keyed hash is in the card's stock (free or issued). */
export function hasUnit(doc: SellerDoc, number: number, hash: string): boolean {
  return cardStock(doc, number).hashes.has(hash);
}

/**
 * Appends units (already sealed, free, not in the stock: see {@link hasUnit}) to the card's stock:
 * the last piece is filled, then new pieces are added.
 */
export function appendUnits(doc: SellerDoc, number: number, units: readonly StockItemRecord[]): void {
  if (units.length === 0) return;
  const card = cardStock(doc, number);
  let at = 0;
  const last = card.pieces - 1;
  if (last >= 0) {
    const piece = doc.stock[pieceKey(number, last)]!;
    const room = PIECE_UNITS - piece.units.length;
    if (room > 0) {
      piece.units.push(...units.slice(0, room));
      at = Math.min(room, units.length);
      if (card.cursor > last) card.cursor = last;
    }
  }
  for (; at < units.length; at += PIECE_UNITS) {
    doc.stock[pieceKey(number, card.pieces++)] = { number, units: units.slice(at, at + PIECE_UNITS) };
  }
  for (const unit of units) card.hashes.add(unit.hash);
  card.free += units.length;
}

/**
 * Marks the oldest free unit of the card issued to `orderId` and answers it (tracked: change it only
 * through this module), or null when none is free. Visits one piece, or more only past pieces with no
 * free unit left (never again after).
 */
export function takeFreeUnit(doc: SellerDoc, number: number, orderId: string, at: string): StockItemRecord | null {
  const card = cardStock(doc, number);
  if (card.free === 0) return null;
  const raw = rawOf(doc.stock);
  for (; card.cursor < card.pieces; card.cursor++) {
    const key = pieceKey(number, card.cursor);
    const j = raw[key]?.units.findIndex((u) => u.status === 'free') ?? -1;
    if (j === -1) continue;
    const unit = doc.stock[key]!.units[j]!;
    unit.status = 'issued';
    unit.issuedAt = at;
    unit.order = orderId;
    card.free--;
    card.issued++;
    return unit;
  }
  return null;
}

/** Every unit of the card, oldest first (tests and tools; a request never walks them all). */
export function allUnits(doc: SellerDoc, number: number): StockItemRecord[] {
  const card = cardStock(doc, number);
  const out: StockItemRecord[] = [];
  for (let i = 0; i < card.pieces; i++) out.push(...doc.stock[pieceKey(number, i)]!.units);
  return out;
}

/** Drops the card's stock: every piece (and an older whole array), and its index. */
export function dropCardStock(doc: SellerDoc, number: number): void {
  const card = cardStock(doc, number);
  for (let i = 0; i < card.pieces; i++) delete doc.stock[pieceKey(number, i)];
  indexes.get(rawOf(doc.stock))?.delete(number);
}
