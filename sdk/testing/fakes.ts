/**
 * Factories of records as the API answers them, for tests of code that reads them: every field the
 * contract requires, with coherent values (a paid code order awaiting delivery, a switched-on code
 * card, an event's data for its kind), the fields given taking over. No schema library here: our
 * tests hold the results to the contract's schemas.
 */
import type { Card, EventDataOf, EventKind, Order, OrderStatus, WebhookEvent } from '../contract/types.ts';
import { fakeId } from './ids.ts';

/** The card number the fakes use unless told otherwise. */
export const FAKE_CARD_NUMBER = 1001;

/** What the fakes sell unless told otherwise: a spotify code (300 ₽, 60 minutes, 7 days of guarantee). */
const CODE_OFFER = {
  service: 'spotify',
  tariff: 'individual',
  productType: 'code',
  deliveryMethod: 'code',
  priceRub: 300,
  slaMinutes: 60,
  guaranteeDays: 7,
} as const;

const iso = (ms: number) => new Date(ms).toISOString();
const now = () => Math.floor(Date.now() / 1000) * 1000;

/** Whether an order of this status needs the seller (as the server says when nothing else is pending). */
const actionable = (status: OrderStatus) => status === 'awaiting_confirmation' || status === 'awaiting_delivery' || status === 'disputed';

/**
 * An order: by default a paid spotify code order awaiting delivery (300 ₽, 60 minutes, 7 days of
 * guarantee). `needsAction` follows the status given unless given itself.
 *
 * @example fakeOrder({ status: 'delivered', priceRub: 990 })
 */
export function fakeOrder(partial: Partial<Order> = {}): Order {
  const created = partial.createdAt ? Date.parse(partial.createdAt) : now() - 5 * 60_000;
  const status = partial.status ?? 'awaiting_delivery';
  const slaMinutes = partial.slaMinutes ?? CODE_OFFER.slaMinutes;
  const paid = status !== 'awaiting_payment';
  return {
    id: fakeId('ord'),
    number: FAKE_CARD_NUMBER,
    ...CODE_OFFER,
    status,
    isTest: false,
    needsAction: actionable(status),
    slaMinutes,
    deliverBy: paid ? iso(created + slaMinutes * 60_000) : null,
    guaranteeUntil: null,
    nextChargeDay: null,
    createdAt: iso(created),
    paidAt: paid ? iso(created) : null,
    updatedAt: iso(created),
    ...partial,
  };
}

/**
 * A card: by default a switched-on spotify code card (300 ₽, 60 minutes, 7 days of guarantee) with
 * no stock.
 *
 * @example fakeCard({ number: 1002, stock: { free: 5, issued: 0 }, autoIssue: true })
 */
export function fakeCard(partial: Partial<Card> = {}): Card {
  const created = iso(now() - 86_400_000);
  return {
    number: FAKE_CARD_NUMBER,
    ...CODE_OFFER,
    description: '',
    creditsType: null,
    creditsAmount: null,
    creditsRate: null,
    declaredStock: 0,
    confirmRequired: false,
    isActive: true,
    isTest: false,
    autoIssue: false,
    stock: { free: 0, issued: 0 },
    image: null,
    createdAt: created,
    updatedAt: created,
    ...partial,
  };
}

/** The status an order has when an event of this kind is sent. */
const STATUS_OF: Record<string, OrderStatus> = {
  'order.new': 'awaiting_payment',
  'order.paid': 'awaiting_delivery',
  'order.message': 'awaiting_delivery',
  'order.dispute': 'disputed',
  'order.cancelled': 'cancelled',
  'order.completed': 'completed',
};

function dataOf(kind: EventKind, at: string): Record<string, unknown> {
  const order = { order: fakeId('ord'), number: FAKE_CARD_NUMBER, status: STATUS_OF[kind] };
  switch (kind) {
    case 'order.paid':
      return { ...order, slaMinutes: 60 };
    case 'order.message':
      return { ...order, message: { id: fakeId('msg'), text: 'Hello! When will it come?', at } };
    case 'stock.out':
      return { number: FAKE_CARD_NUMBER };
    case 'review.new':
      return { review: fakeId('rev'), number: FAKE_CARD_NUMBER };
    case 'question.new':
      return { question: fakeId('q'), number: FAKE_CARD_NUMBER };
    default:
      return order;
  }
}

/**
 * A webhook event of `kind` as a receiver gets it (first attempt, a new delivery id), its data
 * filled in for the kind, the fields of `data` taking over.
 *
 * @example fakeEvent('order.paid', { order: order.id, number: order.number })
 */
export function fakeEvent<K extends EventKind>(kind: K, data: Partial<EventDataOf<K>> = {}): Extract<WebhookEvent, { event: K }> {
  const at = iso(now());
  return { event: kind, data: { ...dataOf(kind, at), ...data }, at, delivery: fakeId('dlv'), attempt: 1 } as unknown as Extract<WebhookEvent, { event: K }>;
}
