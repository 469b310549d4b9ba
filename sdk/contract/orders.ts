/** Orders, their messages, vaults and disputes. Scope `orders`. */
import { z } from 'zod';
import { boolParam, DateString, IdParam, page, pageQuery, prefixedId, Rub, Slug, Text, Timestamp } from './common.ts';
import { DeliveryMethod, OrderStatus, ProductType } from './enums.ts';
import { MESSAGE_MAX, SECRET_MAX } from './constants.ts';
import { op } from './operation.ts';

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
  number: z.number().int(),
  service: Slug,
  tariff: Slug,
  productType: ProductType,
  deliveryMethod: DeliveryMethod,
  priceRub: Rub,
  status: OrderStatus,
  isTest: z.boolean(),
  needsAction: z.boolean(),
  slaMinutes: z.number().int(),
  deliverBy: Timestamp.nullable(),
  guaranteeDays: z.number().int(),
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
  'orders.list': op({
    id: 'orders.list',
    method: 'GET',
    path: '/orders',
    scope: 'orders',
    summary:
      'List orders; with updatedSince, every order updated at or after it in ascending order (the reliable way to poll).',
    query: z.strictObject({
      status: OrderStatus.optional(),
      needsAction: boolParam.optional(),
      updatedSince: Timestamp.optional(),
      ...pageQuery,
    }),
    answer: page(Order),
    paging: 'cursor',
  }),
  'orders.get': op({
    id: 'orders.get',
    method: 'GET',
    path: '/orders/{id}',
    scope: 'orders',
    summary: 'Read one order with its messages.',
    params: id,
    answer: OrderWithMessages,
  }),
  'orders.confirm': op({
    id: 'orders.confirm',
    method: 'POST',
    path: '/orders/{id}/confirm',
    scope: 'orders',
    summary: 'Confirm a paid order of a card that requires confirmation.',
    params: id,
    answer: Order,
    refusals: ['state_moved'],
  }),
  'orders.decline': op({
    id: 'orders.decline',
    method: 'POST',
    path: '/orders/{id}/decline',
    scope: 'orders',
    summary: 'Decline an order awaiting confirmation or delivery; the buyer is refunded.',
    params: id,
    body: z.strictObject({ reason: Text(1000) }),
    answer: Order,
    refusals: ['state_moved', 'contacts'],
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
  'orders.deliver': op({
    id: 'orders.deliver',
    method: 'POST',
    path: '/orders/{id}/deliver',
    scope: 'orders',
    summary: 'Mark an order delivered; check noteRejected and resend a rejected note as a message.',
    params: id,
    body: Deliver,
    answer: DeliverAnswer,
    refusals: ['not_found', 'state_moved', 'need_next_charge'],
  }),
  'orders.message': op({
    id: 'orders.message',
    method: 'POST',
    path: '/orders/{id}/messages',
    scope: 'orders',
    summary: 'Write to the buyer of an order (the contact filter applies).',
    params: id,
    body: z.strictObject({ text: Text(MESSAGE_MAX) }),
    answer: Message,
    status: 201,
    /** `state_moved`: a closed order (cancelled, declined, refunded) takes no messages. */
    refusals: ['contacts', 'state_moved'],
  }),
  'orders.vaults': op({
    id: 'orders.vaults',
    method: 'GET',
    path: '/orders/{id}/handover',
    scope: 'orders',
    summary: "List the order's vaults: whose side and whether opened; never their contents.",
    params: id,
    answer: z.object({ items: z.array(Vault) }),
  }),
  'orders.putVault': op({
    id: 'orders.putVault',
    method: 'POST',
    path: '/orders/{id}/handover',
    scope: 'orders',
    summary: "Put credentials into the seller's own vault for the buyer (cannot be read back).",
    params: id,
    body: z.strictObject({ secret: z.string().min(1).max(SECRET_MAX) }),
    answer: Vault,
    status: 201,
    refusals: ['state_moved'],
  }),
  'orders.reveal': op({
    id: 'orders.reveal',
    method: 'POST',
    path: '/orders/{id}/handover/reveal',
    scope: 'orders',
    summary: "Read the buyer's vault; this works exactly once.",
    params: id,
    answer: z.object({ secret: z.string() }),
    refusals: ['already_opened'],
  }),
  'orders.disputeReply': op({
    id: 'orders.disputeReply',
    method: 'POST',
    path: '/orders/{id}/dispute/reply',
    scope: 'orders',
    summary: 'Answer the buyer’s dispute on an order.',
    params: id,
    body: z.strictObject({ text: Text(MESSAGE_MAX) }),
    answer: Order,
    refusals: ['not_disputed', 'contacts'],
  }),
} as const;
