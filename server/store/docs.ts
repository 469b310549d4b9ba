/**
 * The stored documents. One shared document (catalogue, sellers, card sequence, clock; the card,
 * order, key and nickname indexes are derived from the seller documents, in memory) and one document
 * per seller, so that the cost of a write grows with one seller's business, not with the whole store.
 * On disk a seller's `cards`, `stock` and `orders` are split further into shards of bounded size
 * (server/store/seller-files.ts), so that it grows with neither; in memory the seller document keeps
 * the shape below. Records here are the server's own; answers are built from them through the
 * contract's schemas.
 */
import type { KeyMode, Position, Scope, SellerType } from '../../sdk/contract/index.ts';
import type { EventRecord } from './records/events.ts';
import type { ComplaintRecord, PayoutRecord, QuestionRecord, ReviewRecord, WorkModeRecord } from './records/account.ts';
import type { DeliveryRecord, HookRecord, ProbeHitRecord } from './records/hooks.ts';
import type { CardRecord, StockPieceRecord } from './records/listings.ts';
import type { MessagePieceRecord, OrderRecord } from './records/orders.ts';

export const DOC_VERSION = 1;

export type SellerStatus = 'active' | 'blocked' | 'not_seller';

export interface SellerEntry {
  id: string;
  status: SellerStatus;
  mode: KeyMode;
  createdAt: string;
}

export interface KeyIndexEntry {
  sellerId: string;
  keyId: string;
}

export interface SharedDoc {
  version: number;
  /**
   * The last card number handed out. In memory it is the live counter (`Store.nextCardNumber`);
   * on disk it is kept in `seq.json`, written by every call that hands out a number, before its
   * seller documents (and in shared.json whenever that is written). At start it is raised to the
   * highest of both files and of every stored card number, so a number is never handed out twice.
   */
  seq: { card: number };
  sellers: Record<string, SellerEntry>;
  /**
   * Derived, in memory only: rebuilt from the seller documents when the store opens
   * (server/store/store.ts `deriveIndexes`) and kept in step by the handlers that add and remove
   * records; never written to shared.json (an older file's copies are ignored, and dropped by its
   * next write).
   *
   * - `keyIndex`: sha256 of a key → its owner (from each seller's `keys`, revoked ones included);
   *   keys themselves are never stored.
   * - `cardIndex`: card number → seller id; `orderIndex`: order id → seller id.
   * - `nicknames`: lower-cased nickname → seller id (nicknames are unique; from `papers.nickname`).
   * - `requestIndex`: catalogue request id → seller id (from each seller's `catalogRequests`).
   */
  keyIndex: Record<string, KeyIndexEntry>;
  cardIndex: Record<string, string>;
  orderIndex: Record<string, string>;
  nicknames: Record<string, string>;
  requestIndex: Record<string, string>;
  catalog: Position[];
  clock: { offsetMs: number };
  demo: { sellerId: string } | null;
}

export interface KeyRecord {
  id: string;
  name: string;
  hash: string;
  prefix: string;
  scopes: Scope[];
  mode: KeyMode;
  createdAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
  revokedAt: string | null;
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: unknown;
  createdAt: number;
}

export interface CatalogRequestRecord {
  id: string;
  title: string;
  category: string | null;
  url: string | null;
  comment: string | null;
  status: 'pending' | 'approved' | 'rejected';
  createdAt: string;
  decidedAt: string | null;
}

export interface PapersRecord {
  nickname: string | null;
  offerAcceptedAt: string | null;
  sellerType: SellerType | null;
  inn: string | null;
  registryName: string | null;
  registryConfirmed: boolean;
  payout: {
    method: 'account' | 'sbp';
    /** Encrypted when the store has a master key; the tail is kept apart for answers. */
    sealed: string | null;
    accountTail: string | null;
    bik: string | null;
    name: string;
    kpp: string | null;
  } | null;
  /**
   * When payout details sufficient for a payout were first saved (kept when they are replaced).
   * Payouts of weeks that ended before it are paid at this moment (server/domain/stats.ts, `payoutsOf`).
   * Absent on papers filled by the sandbox's fixtures: filled since always.
   */
  payoutFilledAt?: string | null;
}

export interface SellerDoc {
  version: number;
  sellerId: string;
  /**
   * The sections a seller grows without limit are maps by record id kept in shards
   * (server/store/shards.ts `SHARDED_SECTIONS`): keys, questions, reviews, complaints, catalogue
   * requests, as well as cards, stock, orders and idempotency records. List them with
   * `Object.values` (in the order they were added).
   */
  keys: Record<string, KeyRecord>;
  papers: PapersRecord;
  catalogRequests: Record<string, CatalogRequestRecord>;
  idempotency: Record<string, IdempotencyRecord>;
  /** Cards by number. */
  cards: Record<string, CardRecord>;
  /** Stock units in pieces by `<card number>.<i>` (server/store/stock-pieces.ts); change them only through it. */
  stock: Record<string, StockPieceRecord>;
  orders: Record<string, OrderRecord>;
  /** Orders' messages past the first fifty, in pieces by `<order id>.<i>` (server/store/message-pieces.ts). */
  messages: Record<string, MessagePieceRecord>;
  /** Latest `updatedAt` given to an order (kept strictly increasing). */
  lastOrderUpdate: string | null;
  questions: Record<string, QuestionRecord>;
  reviews: Record<string, ReviewRecord>;
  complaints: Record<string, ComplaintRecord>;
  payouts: PayoutRecord[];
  workMode: WorkModeRecord;
  hooks: HookRecord | null;
  deliveries: DeliveryRecord[];
  probe: { token: string; hits: ProbeHitRecord[] } | null;
  /** The outbox of events, newest last. */
  events: EventRecord[];
}

export function newSharedDoc(): SharedDoc {
  return {
    version: DOC_VERSION,
    seq: { card: 1000 },
    sellers: {},
    keyIndex: {},
    cardIndex: {},
    orderIndex: {},
    requestIndex: {},
    nicknames: {},
    catalog: [],
    clock: { offsetMs: 0 },
    demo: null,
  };
}

export function newSellerDoc(sellerId: string): SellerDoc {
  return {
    version: DOC_VERSION,
    sellerId,
    keys: {},
    papers: {
      nickname: null,
      offerAcceptedAt: null,
      sellerType: null,
      inn: null,
      registryName: null,
      registryConfirmed: false,
      payout: null,
      payoutFilledAt: null,
    },
    catalogRequests: {},
    idempotency: {},
    cards: {},
    stock: {},
    orders: {},
    messages: {},
    lastOrderUpdate: null,
    questions: {},
    reviews: {},
    complaints: {},
    payouts: [],
    workMode: { capacity: null, doNotDisturb: false, quietHours: null },
    hooks: null,
    deliveries: [],
    probe: null,
    events: [],
  };
}

/** Fills fields a newer version added, so an older data file keeps working. */
export function upgradeShared(doc: SharedDoc): SharedDoc {
  return { ...newSharedDoc(), ...doc };
}

export function upgradeSeller(doc: SellerDoc): SellerDoc {
  return { ...newSellerDoc(doc.sellerId), ...doc };
}
