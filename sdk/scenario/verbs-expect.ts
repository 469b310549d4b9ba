/**
 * The kinds of `expect`: about an order, a card's stock, a webhook event, a Telegram chat or a
 * fault, each with its own fields and the names they hold; `expectKind` says which one a step is.
 */
import { z } from 'zod';
import { EventKind, OrderStatus } from '../contract/enums.ts';
import { d, doc, Name, orderName, Within, type NameKind } from './schema-parts.ts';

/** The arguments of `expect`: about an order, a card's stock, or a webhook event. */
export const ExpectOrder = doc(
  z.strictObject({
    order: orderName('the order (a name given by buy)'),
    status: d(OrderStatus.optional(), 'the order is in this status'),
    noteWithheld: d(z.boolean().optional(), 'the delivery\'s note was withheld by the contact filter (true) or sent (false)'),
    messages: d(z.number().int().min(0).optional(), 'the order\'s conversation holds exactly this many messages'),
    within: Within,
  }),
  { description: 'Checks an order: its status, its messages, whether the delivery note was withheld.', example: 'expect: { order: o1, status: awaiting_delivery, within: 30s }' },
);
export const ExpectStock = doc(
  z.strictObject({
    stock: d(Name, 'the card whose stock is checked (a name given by card)'),
    free: d(z.number().int().min(0).optional(), 'exactly this many units not yet issued'),
    issued: d(z.number().int().min(0).optional(), 'exactly this many units issued to buyers'),
    within: Within,
  }),
  { description: 'Checks a card\'s stock: units free and issued.', example: 'expect: { stock: codes, free: 0, issued: 3 }' },
);
export const ExpectWebhook = doc(
  z
    .strictObject({
      webhook: d(EventKind, 'the event kind'),
      seller: d(Name.optional(), 'whose events (a name given by seller); default: the seller of order or card'),
      order: d(Name.optional(), 'only events about this order (a name given by buy)'),
      card: d(Name.optional(), 'only events about this card (a name given by card)'),
      delivered: d(z.boolean().optional(), 'a delivery of the event reached the subscriber with a 2xx answer (true), or none did (false)'),
      count: d(z.number().int().min(0).optional(), 'exactly this many such events (default: at least one)'),
      within: Within,
    })
    .refine((w) => w.seller !== undefined || w.order !== undefined || w.card !== undefined, { message: 'say whose events: seller, order or card', params: { scenario: 'expect_whose' } }),
  { description: 'Checks the webhook events the service sent a seller (one of seller, order or card says whose).', example: 'expect: { webhook: order.paid, order: o1, delivered: true, within: 30s }' },
);

/** A message in a Telegram chat of the emulator (issue #36): from the bot by default, its text containing `text`, with a button of callback data `button`. */
export const ExpectTelegram = doc(
  z.strictObject({
    telegram: d(Name, 'the bot (a name given by a telegram step)'),
    chat: d(z.number().int().min(1), 'the private chat: the person\'s id'),
    text: d(z.string().min(1).optional(), 'a message whose text contains this'),
    button: d(z.string().min(1).optional(), 'a message with a button of this callback data'),
    from: d(z.enum(['bot', 'user']).default('bot'), 'who wrote the message: the bot or the person'),
    count: d(z.number().int().min(0).optional(), 'exactly this many such messages (default: at least one)'),
    within: Within,
  }),
  { description: 'Checks the messages in a Telegram chat of the emulator.', example: 'expect: { telegram: phone, chat: 1, text: "Заказ", within: 30s }' },
);

/** A fault step's fault (`as`) fired: exactly `hits` times (default: at least once), in force or ended. */
export const ExpectFault = doc(
  z.strictObject({
    fault: d(Name, 'the fault (a name given by a fault step)'),
    hits: d(z.number().int().min(0).optional(), 'exactly this many hits (default: at least one)'),
    within: Within,
  }),
  { description: 'Checks that a fault of the run fired, in force or ended.', example: 'expect: { fault: f1, hits: 2 }' },
);

export const EXPECT_KINDS = {
  webhook: { args: ExpectWebhook, refs: { seller: 'seller', order: 'order', card: 'card' } },
  telegram: { args: ExpectTelegram, refs: { telegram: 'bot' } },
  stock: { args: ExpectStock, refs: { stock: 'card' } },
  order: { args: ExpectOrder, refs: { order: 'order' } },
  fault: { args: ExpectFault, refs: { fault: 'fault' } },
} as const satisfies Record<string, { args: z.ZodType; refs: Record<string, NameKind> }>;

/** Which of `EXPECT_KINDS` an expectation is: the first of webhook, telegram, stock, order, fault among its keys. */
export function expectKind(args: unknown): keyof typeof EXPECT_KINDS | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  return (['webhook', 'telegram', 'stock', 'order', 'fault'] as const).find((k) => Object.hasOwn(args, k));
}
