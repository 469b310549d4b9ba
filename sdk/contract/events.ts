/** Webhook events: kinds, their `data`, the body a subscriber receives. */
import { z } from 'zod';
import { prefixedId, Timestamp } from './common.ts';
import { EVENT_KINDS, EventKind, OrderStatus } from './enums.ts';

const orderData = z.object({ order: prefixedId('ord'), number: z.number().int().min(1), status: OrderStatus });

/** The `data` of each event kind (gaps.md). No buyer identity anywhere. */
export const EventData = {
  'order.new': orderData,
  'order.paid': orderData.extend({ slaMinutes: z.number().int().min(0) }),
  'order.message': orderData.extend({ message: z.object({ id: prefixedId('msg'), text: z.string(), at: Timestamp }) }),
  'order.dispute': orderData,
  'order.cancelled': orderData,
  'order.completed': orderData,
  'stock.out': z.object({ number: z.number().int().min(1) }),
  'review.new': z.object({ review: prefixedId('rev'), number: z.number().int().min(1) }),
  'question.new': z.object({ question: prefixedId('q'), number: z.number().int().min(1) }),
} as const satisfies Record<EventKind, z.ZodType>;

/** The `data` of each event kind, by kind. */
export type EventDataMap = { [K in EventKind]: z.infer<(typeof EventData)[K]> };
/** The `data` of a webhook event of kind `K`. */
export type EventDataOf<K extends EventKind> = EventDataMap[K];

const envelope = {
  at: Timestamp,
  delivery: prefixedId('dlv'),
  attempt: z.number().int().min(1),
  test: z.literal(true).optional(),
};

/** The JSON body of a webhook delivery, a union by `event`. */
export const WebhookEvent = z.discriminatedUnion(
  'event',
  EVENT_KINDS.map((kind) => z.object({ event: z.literal(kind), data: EventData[kind], ...envelope })) as unknown as [
    z.ZodObject,
    ...z.ZodObject[],
  ],
);

export type WebhookEvent = {
  [K in EventKind]: { event: K; data: EventDataOf<K>; at: string; delivery: string; attempt: number; test?: true };
}[EventKind];

export { WEBHOOK_HEADERS, WEBHOOK_TOLERANCE_SECONDS } from './constants.ts';
