/** Stored records of orders. `buyer` is internal: it never appears in a seller-facing answer. */
import type { DeliveryMethod, OrderMove, OrderStatus, ProductType } from '../../../sdk/contract/index.ts';

export interface MessageRecord {
  id: string;
  from: 'seller' | 'buyer' | 'marketplace';
  text: string;
  at: string;
}

export interface VaultRecord {
  /** AES-256-GCM, AAD `vault:<order id>:<side>`. */
  sealed: string;
  /**
   * Seller's vault: handed over to the buyer (at delivery, or at once when put after delivery).
   * Buyer's vault: read by the seller (it can be read once).
   */
  opened: boolean;
  at: string;
}

export interface OrderRecord {
  id: string;
  number: number;
  service: string;
  tariff: string;
  productType: ProductType;
  deliveryMethod: DeliveryMethod;
  /** Price snapshot taken when the buyer pressed buy. */
  priceRub: number;
  status: OrderStatus;
  isTest: boolean;
  confirmRequired: boolean;
  slaMinutes: number;
  deliverBy: string | null;
  guaranteeDays: number;
  guaranteeUntil: string | null;
  nextChargeDay: string | null;
  createdAt: string;
  paidAt: string | null;
  /** When the order became `delivered` (by the seller or by auto-delivery). */
  deliveredAt?: string | null;
  /** Strictly increasing per seller, so polling by updatedSince never misses a change. */
  updatedAt: string;
  buyer: { id: string; test: boolean };
  /** The first messages (server/store/message-pieces.ts: later ones are in the seller's `messages` pieces). */
  messages: MessageRecord[];
  unreadBuyerMessage: boolean;
  disputeReplied: boolean;
  /** `seller`: what the seller put for the buyer; `buyer`: what the buyer put for the seller. */
  vaults: { seller: VaultRecord | null; buyer: VaultRecord | null };
  note: string | null;
  /** The auto-delivery stock item issued to this order (its id), if any. */
  stockItem: string | null;
  /** Why the delivery note was not sent (it held contacts); absent on orders delivered before it was kept. */
  noteRejected?: string | null;
  /**
   * Every status move, oldest first, for the inspector's timeline (at most MOVES_KEPT,
   * server/domain/orders.ts); absent on orders created before moves were kept.
   */
  moves?: OrderMove[];
}

/** Messages of one order past the ones its record keeps, stored under `<order id>.<i>` (server/store/message-pieces.ts). */
export interface MessagePieceRecord {
  order: string;
  messages: MessageRecord[];
}
