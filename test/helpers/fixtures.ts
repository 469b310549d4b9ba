/** Record fixtures shared by the CLI, SDK and server tests. */
import type { Order, OrderStatus, Position } from '../../sdk/contract/index.ts';
import { newId } from '../../server/ids.ts';
import type { OrderRecord } from '../../server/store/records/orders.ts';

/** A code card body (POST /api/v1/listings) that every seeded catalogue accepts. */
export const CODE_CARD = {
  service: 'spotify',
  tariff: 'individual',
  productType: 'code',
  deliveryMethod: 'code',
  priceRub: 300,
  slaMinutes: 60,
  guaranteeDays: 7,
};

/** A netflix code card body with no guarantee: the market a reprice reads (other sellers' prices over it). */
export const NETFLIX_CODE_CARD = { ...CODE_CARD, service: 'netflix', tariff: 'basic', slaMinutes: 30, guaranteeDays: 0 };

/** A credits card body (a Steam wallet pack of 1000) that the seeded catalogue accepts. */
export const CREDITS_PACK_CARD = {
  service: 'steam-wallet',
  tariff: 'region-ru',
  productType: 'credits',
  deliveryMethod: 'transfer',
  priceRub: 1100,
  slaMinutes: 15,
  guaranteeDays: 0,
  creditsType: 'pack',
  creditsAmount: 1000,
} as const;

/** A catalogue position with several choices for every field. */
export const SPOTIFY: Position = {
  slug: 'spotify',
  title: 'Spotify Premium',
  category: 'music',
  tariffs: [
    { slug: 'individual', title: 'Individual' },
    { slug: 'family', title: 'Family' },
  ],
  productTypes: ['subscription', 'account', 'code'],
  deliveryMethods: { subscription: ['own_account', 'invite'], account: ['credentials'], code: ['code'] },
  slaChoices: [30, 60, 180],
  guaranteeChoices: [0, 7, 30],
};

/** One value everywhere: every choice but the price has a default. */
export const SOLO: Position = {
  slug: 'soundcloud-go',
  title: 'SoundCloud Go+',
  category: 'music',
  tariffs: [{ slug: '1m', title: '1 month' }],
  productTypes: ['subscription'],
  deliveryMethods: { subscription: ['own_account'] },
  slaChoices: [60],
  guaranteeChoices: [30],
};

/** The timestamps of an order fixture. */
export interface OrderTimes {
  deliverBy: string | null;
  createdAt: string;
  paidAt: string | null;
  updatedAt: string;
}

/** A Netflix invite order (card 1001) in `status`; needs action exactly when awaiting delivery. */
export function netflixOrder(id: string, status: OrderStatus, times: OrderTimes): Order {
  return {
    id,
    number: 1001,
    service: 'netflix',
    tariff: 'premium',
    productType: 'subscription',
    deliveryMethod: 'invite',
    priceRub: 500,
    status,
    isTest: false,
    needsAction: status === 'awaiting_delivery',
    slaMinutes: 60,
    deliverBy: times.deliverBy,
    guaranteeDays: 30,
    guaranteeUntil: null,
    nextChargeDay: null,
    createdAt: times.createdAt,
    paidAt: times.paidAt,
    updatedAt: times.updatedAt,
  };
}

/**
 * A stored order record (server/store/records/orders.ts) for tests that put orders straight into a
 * seller's document: an unpaid code order of card 1001 with no messages or vaults, `over` applied.
 */
export function orderRecord(over: Partial<OrderRecord> = {}): OrderRecord {
  const at = '2026-03-01T00:00:00.000Z';
  return {
    id: newId('ord'),
    number: 1001,
    service: 'spotify',
    tariff: 'individual',
    productType: 'code',
    deliveryMethod: 'code',
    priceRub: 300,
    status: 'awaiting_payment',
    isTest: false,
    confirmRequired: false,
    slaMinutes: 60,
    deliverBy: null,
    guaranteeDays: 7,
    guaranteeUntil: null,
    nextChargeDay: null,
    createdAt: at,
    paidAt: null,
    updatedAt: at,
    buyer: { id: 'buy_fixture', test: false },
    messages: [],
    unreadBuyerMessage: false,
    disputeReplied: false,
    vaults: { seller: null, buyer: null },
    note: null,
    stockItem: null,
    ...over,
  };
}

/** A server rate limit no test reaches (`rateLimit: NO_RATE_LIMIT`). */
export const NO_RATE_LIMIT = { perMinute: 1_000_000, burst: 1_000_000 };
