/**
 * A card's auto-delivery stock in bounded pieces (issue 19), so that a change writes about its own
 * size whatever the size of the stock.
 *
 * - **Layout.** The seller's `stock` section (a sharded section: server/store/shards.ts) holds, per
 *   card, pieces under the keys `<number>.<i>` (i = 0, 1, 2, … without gaps), each holding at most
 *   {@link PIECE_UNITS} units in the order they were added. A refill fills the last piece and
 *   appends new ones; an issue rewrites the one piece of its unit. The section's shards are small
 *   (DEFAULT_SHARD_LIMITS.stock: two pieces), so a write rewrites a few tens of kilobytes of stock.
 * - **Packed units.** A piece keeps its units as one string, `units`: a unit is
 *   `<id> <sealed> <hash> <addedAt> <issuedAt|-> <order|->` (no field holds a space or a `|`), units
 *   are joined by `|`. One string a piece rather than an object of seven strings a unit: a million
 *   units are ~250 bytes each in memory, parse at start-up as plain strings (nothing to unescape),
 *   and are not millions of objects for the garbage collector to mark while other sellers wait.
 *   {@link StockItemRecord} is the unpacked view of one unit.
 * - **Kept, not recomputed.** Per card, in memory only: the counts (free, issued), the keyed hashes
 *   of its units (duplicates are found in a Set, not by a scan) and the first piece that may hold a
 *   free unit (units are issued oldest first, so the free units follow the issued ones). Built
 *   from the pieces once, when the seller's documents are opened ({@link indexStock}), kept in step
 *   by every change made through this module, and rebuilt with the documents after a failed write
 *   (server/store/store.ts `reloadSeller` opens new documents: the index is per `stock` object).
 *   The hashes are slices of the piece strings they were read from, which they keep alive: a piece
 *   rewritten since start-up is in memory twice at most.
 * - **Older data.** A card's stock stored as one array of unit objects under `<number>` (before
 *   issue 19) is packed into pieces on its first use; the next write of the seller moves it (through
 *   the journal, so the old array and the new pieces are never both on disk, nor neither).
 *
 * Every change goes through `doc.stock[...]` so that its shard is marked dirty.
 */
import type { z } from 'zod';
import type { StockCounts as ContractStockCounts } from '../../sdk/contract/index.ts';
import type { SellerDoc } from './docs.ts';
import type { StockItemRecord, StockPieceRecord } from './records/listings.ts';
import { rawOf } from './shards.ts';

/** Units one piece holds at most: ~25 kB. */
export const PIECE_UNITS = 128;

/** The key of piece `i` of card `number` in the `stock` section. */
export const pieceKey = (number: number, i: number): string => `${number}.${i}`;

const PIECE_KEY = /^(\d{1,15})\.(\d{1,9})$/;
const UNIT_SEP = '|';
const FIELD_SEP = ' ';
const NONE = '-';

type Stock = SellerDoc['stock'];

/** One unit packed (see the module's comment). */
function packUnit(u: StockItemRecord): string {
  return [u.id, u.sealed, u.hash, u.addedAt, u.issuedAt ?? NONE, u.order ?? NONE].join(FIELD_SEP);
}

/** A packed unit unpacked. */
function unpackUnit(text: string): StockItemRecord {
  const [id = '', sealed = '', hash = '', addedAt = '', issuedAt = NONE, order = NONE] = text.split(FIELD_SEP);
  const issued = issuedAt !== NONE;
  return { id, sealed, hash, status: issued ? 'issued' : 'free', addedAt, issuedAt: issued ? issuedAt : null, order: order === NONE ? null : order };
}

const unitsOf = (piece: StockPieceRecord): string[] => (piece.units === '' ? [] : piece.units.split(UNIT_SEP));

interface CardStock {
  /** Pieces `0 … pieces-1` exist. */
  pieces: number;
  /** Units in the last piece. */
  lastSize: number;
  free: number;
  issued: number;
  /** Keyed hash of every unit (free or issued). */
  hashes: Set<string>;
  /** No free unit is in a piece before this one. */
  cursor: number;
}

/** Per `stock` object (raw), per card number. */
const indexes = new WeakMap<object, Map<number, CardStock>>();

const emptyCard = (): CardStock => ({ pieces: 0, lastSize: 0, free: 0, issued: 0, hashes: new Set(), cursor: Number.POSITIVE_INFINITY });

/** Counts a piece into its card (hashes, counts, cursor, size of the last piece), walking its string without splitting it. */
function note(card: CardStock, i: number, piece: StockPieceRecord): void {
  const text = piece.units;
  let size = 0;
  let hasFree = false;
  for (let at = 0; at < text.length; ) {
    let end = text.indexOf(UNIT_SEP, at);
    if (end === -1) end = text.length;
    const a = text.indexOf(FIELD_SEP, at);
    const b = text.indexOf(FIELD_SEP, a + 1);
    const c = text.indexOf(FIELD_SEP, b + 1);
    const d = text.indexOf(FIELD_SEP, c + 1);
    card.hashes.add(text.slice(b + 1, c));
    // `issuedAt` is NONE: the unit is free.
    if (text.startsWith(NONE + FIELD_SEP, d + 1)) {
      card.free++;
      hasFree = true;
    } else card.issued++;
    size++;
    at = end + 1;
  }
  if (i + 1 > card.pieces) {
    card.pieces = i + 1;
    card.lastSize = size;
  }
  if (hasFree && i < card.cursor) card.cursor = i;
}

const isPiece = (value: unknown): value is StockPieceRecord =>
  typeof value === 'object' && value !== null && typeof (value as StockPieceRecord).units === 'string';

function settle(card: CardStock): CardStock {
  if (!Number.isFinite(card.cursor)) card.cursor = card.pieces;
  return card;
}

/**
 * Builds the index of every card's pieces in a `stock` section (one pass over its records); called
 * when a seller's documents are opened, so that no request pays for it. Legacy arrays are left to
 * their card's first use.
 */
export function indexStock(stock: Stock): void {
  const raw = rawOf(stock);
  const cards = new Map<number, CardStock>();
  for (const key of Object.keys(raw)) {
    const m = PIECE_KEY.exec(key);
    const piece = raw[key];
    if (!m || !isPiece(piece)) continue;
    const number = Number(m[1]);
    let card = cards.get(number);
    if (!card) cards.set(number, (card = emptyCard()));
    note(card, Number(m[2]), piece);
  }
  for (const card of cards.values()) settle(card);
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
    packLegacy(doc, number);
    cards.delete(number);
  }
  let card = cards.get(number);
  if (!card) {
    card = emptyCard();
    for (let i = 0; Object.hasOwn(raw, pieceKey(number, i)); i++) note(card, i, raw[pieceKey(number, i)]!);
    cards.set(number, settle(card));
  }
  return card;
}

/** A card's stock stored whole under `<number>` (before issue 19): packed into pieces after the ones it may have. */
function packLegacy(doc: SellerDoc, number: number): void {
  const legacy = rawOf(doc.stock)[String(number)] as unknown;
  delete doc.stock[String(number)];
  if (!Array.isArray(legacy)) return;
  const units = (legacy as StockItemRecord[]).map(packUnit);
  let i = 0;
  while (Object.hasOwn(rawOf(doc.stock), pieceKey(number, i))) i++;
  for (let at = 0; at < units.length; at += PIECE_UNITS, i++) {
    doc.stock[pieceKey(number, i)] = { number, units: units.slice(at, at + PIECE_UNITS).join(UNIT_SEP) };
  }
}

/** A card's free and issued units (the contract's `StockCounts`). */
export type StockCounts = z.infer<typeof ContractStockCounts>;

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
  const packed = units.map(packUnit);
  let at = 0;
  const last = card.pieces - 1;
  const room = PIECE_UNITS - card.lastSize;
  if (last >= 0 && room > 0) {
    const piece = doc.stock[pieceKey(number, last)]!;
    const more = packed.slice(0, room);
    piece.units = card.lastSize === 0 ? more.join(UNIT_SEP) : `${piece.units}${UNIT_SEP}${more.join(UNIT_SEP)}`;
    card.lastSize += more.length;
    at = more.length;
    if (card.cursor > last) card.cursor = last;
  }
  for (; at < packed.length; at += PIECE_UNITS) {
    const more = packed.slice(at, at + PIECE_UNITS);
    doc.stock[pieceKey(number, card.pieces++)] = { number, units: more.join(UNIT_SEP) };
    card.lastSize = more.length;
  }
  for (const unit of units) card.hashes.add(unit.hash);
  card.free += units.length;
}

/**
 * Marks the oldest free unit of the card issued to `orderId` and answers it, or null when none is
 * free. Rewrites one piece; visits more only past pieces with no free unit left (never again after).
 */
export function takeFreeUnit(doc: SellerDoc, number: number, orderId: string, at: string): StockItemRecord | null {
  const card = cardStock(doc, number);
  if (card.free === 0) return null;
  const raw = rawOf(doc.stock);
  for (; card.cursor < card.pieces; card.cursor++) {
    const key = pieceKey(number, card.cursor);
    const piece = raw[key];
    if (!piece) continue;
    const units = unitsOf(piece);
    const j = units.findIndex((u) => unpackUnit(u).status === 'free');
    if (j === -1) continue;
    const unit = { ...unpackUnit(units[j]!), status: 'issued' as const, issuedAt: at, order: orderId };
    units[j] = packUnit(unit);
    doc.stock[key]!.units = units.join(UNIT_SEP);
    card.free--;
    card.issued++;
    return unit;
  }
  return null;
}

/** Every unit of the card unpacked, oldest first (tests and tools; a request never walks them all). */
export function allUnits(doc: SellerDoc, number: number): StockItemRecord[] {
  const card = cardStock(doc, number);
  const out: StockItemRecord[] = [];
  for (let i = 0; i < card.pieces; i++) out.push(...unitsOf(rawOf(doc.stock)[pieceKey(number, i)]!).map(unpackUnit));
  return out;
}

/** Drops the card's stock: every piece (and an older whole array), and its index. */
export function dropCardStock(doc: SellerDoc, number: number): void {
  const card = cardStock(doc, number);
  for (let i = 0; i < card.pieces; i++) delete doc.stock[pieceKey(number, i)];
  indexes.get(rawOf(doc.stock))?.delete(number);
}
