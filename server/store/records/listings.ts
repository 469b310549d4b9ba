/** Stored records of cards and their stock. Stock items are kept sealed, in pieces; `hash` finds duplicates. */
import type { CreditsType, DeliveryMethod, ProductType } from '../../../sdk/contract/index.ts';

export interface CardRecord {
  number: number;
  service: string;
  tariff: string;
  productType: ProductType;
  deliveryMethod: DeliveryMethod;
  priceRub: number;
  slaMinutes: number;
  guaranteeDays: number;
  description: string;
  creditsType: CreditsType | null;
  creditsAmount: number | null;
  creditsRate: number | null;
  declaredStock: number;
  confirmRequired: boolean;
  isActive: boolean;
  isTest: boolean;
  autoIssue: boolean;
  /** Deleted while it had orders: kept (switched off) for its orders; cleared when switched on again. */
  hidden?: boolean;
  /** `url` is the relative path `/images/<number>-<sha8>.<ext>`; answers make it absolute when the server knows its public URL. */
  image: { url: string; contentType: string; bytes: number; sha256: string } | null;
  createdAt: string;
  updatedAt: string;
}

export interface StockItemRecord {
  id: string;
  /** AES-256-GCM, AAD `stock:<card number>:<item id>`. */
  sealed: string;
  /** Keyed hash within the card, for duplicates. */
  hash: string;
  status: 'free' | 'issued';
  addedAt: string;
  issuedAt: string | null;
  order: string | null;
}

/**
 * Up to PIECE_UNITS units of one card, oldest first, stored under `<number>.<i>`; `units` holds them
 * packed, `|` between units (server/store/stock-pieces.ts). {@link StockItemRecord} is one unpacked.
 */
export interface StockPieceRecord {
  number: number;
  units: string;
}
