/** Orders, their messages, vaults and disputes. Scope `orders`. */
import { z } from 'zod';
import { boolParam, DateString, IdParam, page, pageQuery, prefixedId, Rub, Slug, Text, Timestamp } from './common.ts';
import { DeliveryMethod, OrderStatus, ProductType } from './enums.ts';
import { MESSAGE_MAX, SECRET_MAX } from './constants.ts';
import { op } from './operation.ts';
import { ordersRoutes as R } from './routes/orders.ts';

export { MESSAGE_MAX, SECRET_MAX } from './constants.ts';

export const Message = z.object({
  id: prefixedId('msg'),
  from: z.enum(['seller', 'buyer', 'marketplace']),
  text: z.string(),
  at: Timestamp,
});
export type Message = z.infer<typeof Message>;

/** An order as the seller sees it: never any buyer identity. */
export const Order = z.object({
  id: prefixedId('ord'),
  number: z.number().int().min(1),
  service: Slug,
  tariff: Slug,
  productType: ProductType,
  deliveryMethod: DeliveryMethod,
  priceRub: Rub,
  status: OrderStatus,
  isTest: z.boolean(),
  needsAction: z.boolean(),
  slaMinutes: z.number().int().min(0),
  deliverBy: Timestamp.nullable(),
  guaranteeDays: z.number().int().min(0),
  guaranteeUntil: Timestamp.nullable(),
  nextChargeDay: DateString.nullable(),
  createdAt: Timestamp,
  paidAt: Timestamp.nullable(),
  updatedAt: Timestamp,
});
export type Order = z.infer<typeof Order>;

/** The single read adds the conversation. */
export const OrderWithMessages = Order.extend({ messages: z.array(Message) });
export type OrderWithMessages = z.infer<typeof OrderWithMessages>;

export const Deliver = z.strictObject({
  nextChargeDay: DateString.optional(),
  note: z.string().max(MESSAGE_MAX).optional(),
});

export const DeliverAnswer = z.object({
  order: prefixedId('ord'),
  status: OrderStatus,
  /** Non-null when the order was delivered but the note failed the contact filter and was not sent. */
  noteRejected: z.string().nullable(),
});
export type DeliverAnswer = z.infer<typeof DeliverAnswer>;

export const Vault = z.object({ side: z.enum(['own', 'other']), opened: z.boolean() });

const id = IdParam;

export const orderOperations = {
  'orders.list': op(R['orders.list'], {
    query: z.strictObject({
      status: OrderStatus.optional(),
      needsAction: boolParam.optional(),
      updatedSince: Timestamp.optional(),
      ...pageQuery,
    }),
    answer: page(Order),
  }),
  'orders.get': op(R['orders.get'], {
    params: id,
    answer: OrderWithMessages,
  }),
  'orders.confirm': op(R['orders.confirm'], {
    params: id,
    answer: Order,
  }),
  'orders.decline': op(R['orders.decline'], {
    params: id,
    body: z.strictObject({ reason: Text(1000) }),
    answer: Order,
  }),
  /**
   * Deliver an order. The delivery passes even when the note fails the contact filter: then the
   * note is not sent and `noteRejected` says why; rewrite it without contacts and send it as a message.
   *
   * @example
   * const answer = await client.orders.deliver(id, { nextChargeDay: '2026-12-21', note });
   * if (answer.noteRejected !== null) {
   *   console.warn(`note not sent: ${answer.noteRejected}`);
   *   await client.orders.message(id, { text: withoutContacts(note) });
   * }
   */
  'orders.deliver': op(R['orders.deliver'], {
    params: id,
    body: Deliver,
    answer: DeliverAnswer,
  }),
  'orders.message': op(R['orders.message'], {
    params: id,
    body: z.strictObject({ text: Text(MESSAGE_MAX) }),
    answer: Message,
  }),
  'orders.vaults': op(R['orders.vaults'], {
    params: id,
    answer: z.object({ items: z.array(Vault) }),
  }),
  'orders.putVault': op(R['orders.putVault'], {
    params: id,
    body: z.strictObject({ secret: z.string().min(1).max(SECRET_MAX) }),
    answer: Vault,
  }),
  'orders.reveal': op(R['orders.reveal'], {
    params: id,
    answer: z.object({ secret: z.string() }),
  }),
  'orders.disputeReply': op(R['orders.disputeReply'], {
    params: id,
    body: z.strictObject({ text: Text(MESSAGE_MAX) }),
    answer: Order,
  }),
} as const;
