/** Enumerations of gaps.md ("Enumerations"). */
import { z } from 'zod';

export const PRODUCT_TYPES = ['subscription', 'account', 'credits', 'code'] as const;
export const ProductType = z.enum(PRODUCT_TYPES);
export type ProductType = z.infer<typeof ProductType>;

export const DELIVERY_METHODS = ['own_account', 'invite', 'credentials', 'code', 'transfer'] as const;
export const DeliveryMethod = z.enum(DELIVERY_METHODS);
export type DeliveryMethod = z.infer<typeof DeliveryMethod>;

/** Delivery methods whose units can come from auto-delivery stock. */
export const STOCKABLE_METHODS: readonly DeliveryMethod[] = ['credentials', 'code'];

/** Product types that need `nextChargeDay` on delivery. */
export const NEEDS_NEXT_CHARGE: readonly ProductType[] = ['subscription', 'account'];

export const CREDITS_TYPES = ['pack', 'rate'] as const;
export const CreditsType = z.enum(CREDITS_TYPES);
export type CreditsType = z.infer<typeof CreditsType>;

export const SELLER_TYPES = ['self_employed', 'ip', 'company'] as const;
export const SellerType = z.enum(SELLER_TYPES);
export type SellerType = z.infer<typeof SellerType>;

export const ORDER_STATUSES = [
  'awaiting_payment',
  'awaiting_confirmation',
  'awaiting_delivery',
  'delivered',
  'completed',
  'disputed',
  'cancelled',
  'declined',
  'refunded',
] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const KEY_MODES = ['live', 'test'] as const;
export const KeyMode = z.enum(KEY_MODES);
export type KeyMode = z.infer<typeof KeyMode>;

export const EVENT_KINDS = [
  'order.new',
  'order.paid',
  'order.message',
  'order.dispute',
  'order.cancelled',
  'order.completed',
  'stock.out',
  'review.new',
  'question.new',
] as const;
export const EventKind = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof EventKind>;
