/**
 * The routes of the sandbox's inspector operations (reference server only): what the inspector page
 * (and `seller sandbox`) reads and does that the rest of the sandbox lacks. Schemas: ../sandbox-inspect.ts.
 * No zod here. The live change stream is not an operation (it answers server-sent events, not one
 * JSON value): its path is {@link SANDBOX_CHANGES_PATH}, read by `SandboxClient.changes()`.
 */
import { CARD_RULE_KINDS } from '../constants.ts';
import { route } from '../route.ts';

/** The live change stream, `GET /sandbox/v1/changes[?sellerId=…]` (`text/event-stream`, admin token). */
export const SANDBOX_CHANGES_PATH = '/changes';

export const sandboxInspectRoutes = {
  'sandbox.listSellers': route({
    id: 'sandbox.listSellers',
    method: 'GET',
    path: '/sellers',
    surface: 'sandbox',
    scope: null,
    summary: 'Every seller: status, admission, keys (prefix and scopes only), card and order counts; newest first.',
    paging: 'cursor',
    input: 'query',
  }),
  'sandbox.getSeller': route({
    id: 'sandbox.getSeller',
    method: 'GET',
    path: '/sellers/{sellerId}',
    surface: 'sandbox',
    scope: null,
    summary: 'One seller as `listSellers` shows it.',
  }),
  'sandbox.sellerCards': route({
    id: 'sandbox.sellerCards',
    method: 'GET',
    path: '/sellers/{sellerId}/cards',
    surface: 'sandbox',
    scope: null,
    summary: "A seller's cards: price, on/off, test, free and issued stock (never a unit); newest first.",
    paging: 'cursor',
    input: 'query',
  }),
  'sandbox.createCard': route({
    id: 'sandbox.createCard',
    method: 'POST',
    path: '/sellers/{sellerId}/cards',
    surface: 'sandbox',
    scope: null,
    summary: 'Create a card for a seller (switched off), by the rules of `listings.create`.',
    status: 201,
    refusals: CARD_RULE_KINDS,
    input: 'json',
  }),
  'sandbox.refill': route({
    id: 'sandbox.refill',
    method: 'POST',
    path: '/cards/{number}/refill',
    surface: 'sandbox',
    scope: null,
    summary: "Add N generated units to a card's auto-delivery stock (the units are never shown).",
    input: 'json',
  }),
  'sandbox.setCardState': route({
    id: 'sandbox.setCardState',
    method: 'POST',
    path: '/cards/{number}/state',
    surface: 'sandbox',
    scope: null,
    summary: 'Switch a card on or off, with or without auto-delivery, by the rules of `listings.setState`.',
    refusals: ['stock_empty', 'complaint'],
    input: 'json',
  }),
  'sandbox.sellerOrders': route({
    id: 'sandbox.sellerOrders',
    method: 'GET',
    path: '/sellers/{sellerId}/orders',
    surface: 'sandbox',
    scope: null,
    summary: "A seller's orders, newest first, optionally of one status.",
    paging: 'cursor',
    input: 'query',
  }),
  'sandbox.orderTimeline': route({
    id: 'sandbox.orderTimeline',
    method: 'GET',
    path: '/orders/{id}/timeline',
    surface: 'sandbox',
    scope: null,
    summary: "An order's timeline: its moves, deadline, messages, vaults (never contents), note, review, and the buyer's moves that apply now.",
  }),
  'sandbox.sellerHooks': route({
    id: 'sandbox.sellerHooks',
    method: 'GET',
    path: '/sellers/{sellerId}/hooks',
    surface: 'sandbox',
    scope: null,
    summary: "A seller's event subscription (never its signing secret) and probe address.",
  }),
  'sandbox.sellerDeliveries': route({
    id: 'sandbox.sellerDeliveries',
    method: 'GET',
    path: '/sellers/{sellerId}/deliveries',
    surface: 'sandbox',
    scope: null,
    summary: "A seller's webhook deliveries, newest first, each with its attempts, the body as sent and the last attempt's headers.",
    paging: 'cursor',
    input: 'query',
  }),
  'sandbox.resendDelivery': route({
    id: 'sandbox.resendDelivery',
    method: 'POST',
    path: '/sellers/{sellerId}/deliveries/{id}/resend',
    surface: 'sandbox',
    scope: null,
    summary: 'Send a delivery again now, as a new attempt of the same delivery; answers it after the attempt. deliveredAt keeps the first success; a failed resend queues no retry.',
    refusals: ['state_moved'],
  }),
  'sandbox.probeInbox': route({
    id: 'sandbox.probeInbox',
    method: 'GET',
    path: '/sellers/{sellerId}/probe',
    surface: 'sandbox',
    scope: null,
    summary: "What a seller's probe receiver got, newest first.",
    input: 'query',
  }),
} as const;
