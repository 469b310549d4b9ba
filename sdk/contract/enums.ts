/**
 * Enumerations of gaps.md ("Enumerations") as zod schemas and types. The value arrays live in
 * constants.ts (no zod) and are re-exported here.
 */
import { z } from 'zod';
import { CREDITS_TYPES, DELIVERY_METHODS, EVENT_KINDS, KEY_MODES, ORDER_STATUSES, PRODUCT_TYPES, SELLER_TYPES } from './constants.ts';

export {
  CREDITS_TYPES,
  DELIVERY_METHODS,
  EVENT_KINDS,
  KEY_MODES,
  NEEDS_NEXT_CHARGE,
  ORDER_STATUSES,
  PRODUCT_TYPES,
  SELLER_TYPES,
  STOCKABLE_METHODS,
} from './constants.ts';

export const ProductType = z.enum(PRODUCT_TYPES);
export type ProductType = z.infer<typeof ProductType>;

export const DeliveryMethod = z.enum(DELIVERY_METHODS);
export type DeliveryMethod = z.infer<typeof DeliveryMethod>;

export const CreditsType = z.enum(CREDITS_TYPES);
export type CreditsType = z.infer<typeof CreditsType>;

export const SellerType = z.enum(SELLER_TYPES);
export type SellerType = z.infer<typeof SellerType>;

export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const KeyMode = z.enum(KEY_MODES);
export type KeyMode = z.infer<typeof KeyMode>;

export const EventKind = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof EventKind>;
