/**
 * The sandbox's inspector operations (reference server only, left out of OpenAPI): sellers, their
 * cards, orders and timelines, webhook subscription, deliveries with every attempt, probe inbox;
 * create a card, refill it with generated units, switch it on or off, resend a delivery. And the
 * shapes of the live change stream's events ({@link ChangeEvent}).
 *
 * No answer here carries a secret: no stock unit, vault content, API key (only its prefix),
 * signing secret or bank account; the answers are written through these schemas, so a field not
 * declared here never leaves the server.
 */
import { z } from 'zod';
import { CardNumberParam, IdParam, intParam, page, pageQuery, prefixedId, Timestamp } from './common.ts';
import { STOCK_BATCH_MAX } from './constants.ts';
import { ProbeHit, Delivery, Hooks } from './hooks.ts';
import { ApiKey } from './keys.ts';
import { Card, CardCreated, CardState, CardStateChange, NewCard, StockCounts } from './listings.ts';
import { Message, Order } from './orders.ts';
import { Review } from './account.ts';
import { KeyMode, OrderStatus, SellerType } from './enums.ts';
import { op } from './operation.ts';
import { sandboxInspectRoutes as R } from './routes/sandbox-inspect.ts';

export { SANDBOX_CHANGES_PATH } from './routes/sandbox-inspect.ts';

const SellerId = z.string().min(1).max(80);
const sellerParam = z.strictObject({ sellerId: SellerId });

// ---------------------------------------------------------------------------------------------
// Sellers

export const SellerStatus = z.enum(['active', 'blocked', 'not_seller']);

/** A seller as the inspector shows it: never a key (only prefixes), never papers beyond their state. */
export const InspectSeller = z.object({
  sellerId: z.string(),
  status: SellerStatus,
  mode: KeyMode,
  createdAt: Timestamp,
  admission: z.object({
    complete: z.boolean(),
    sellerType: SellerType.nullable(),
    nickname: z.string().nullable(),
    /** What the papers still lack: `nickname`, `offer`, `status`, `registry`, `payout`. */
    missing: z.array(z.string()),
  }),
  /** Every key, revoked ones included: prefix and scopes, never the key. */
  keys: z.array(ApiKey),
  cards: z.number().int(),
  activeCards: z.number().int(),
  orders: z.number().int(),
  /** Orders the seller has to act on (awaiting confirmation or delivery, dispute unanswered, unread message). */
  needsAction: z.number().int(),
});
export type InspectSeller = z.infer<typeof InspectSeller>;

// ---------------------------------------------------------------------------------------------
// Orders

/** Every way an order moves (server/domain/orders.ts `TRANSITIONS`). */
export const ORDER_ACTIONS = [
  'pay',
  'confirm',
  'decline',
  'deliver',
  'cancel',
  'accept',
  'dispute',
  'resolveForSeller',
  'resolveForBuyer',
  'expirePayment',
  'missDeadline',
  'endGuarantee',
] as const;
export const OrderAction = z.enum(ORDER_ACTIONS);
export type OrderAction = z.infer<typeof OrderAction>;

/** Who moved an order: `auto` is auto-delivery from the card's stock, `clock` a deadline that ran. */
export const Mover = z.enum(['buyer', 'seller', 'auto', 'marketplace', 'clock']);
export type Mover = z.infer<typeof Mover>;

/** One status move of an order. */
export const OrderMove = z.object({ at: Timestamp, action: OrderAction, from: OrderStatus, to: OrderStatus, by: Mover });
export type OrderMove = z.infer<typeof OrderMove>;

/** An order a clock advance moved (its deadline ran). */
export const MovedOrder = z.object({
  order: prefixedId('ord'),
  sellerId: z.string(),
  number: z.number().int(),
  action: OrderAction,
  from: OrderStatus,
  to: OrderStatus,
});
export type MovedOrder = z.infer<typeof MovedOrder>;

/** Whether a vault holds something, when it was put and whether it was opened: never its contents. */
export const VaultState = z.object({ at: Timestamp, opened: z.boolean() });

/** The sandbox moves (buyer's and marketplace's) the inspector offers as buttons. */
export const SANDBOX_MOVES = ['pay', 'cancel', 'accept', 'message', 'vault', 'dispute', 'resolve', 'review'] as const;
export const SandboxMove = z.enum(SANDBOX_MOVES);

export const OrderTimeline = z.object({
  sellerId: z.string(),
  order: Order,
  /** Status moves, oldest first (orders created before moves were kept show what their timestamps tell). */
  moves: z.array(OrderMove),
  /** The deadline running now: payment window, delivery SLA or guarantee end; null when none. */
  deadline: z.object({ kind: z.enum(['payment', 'delivery', 'guarantee']), at: Timestamp }).nullable(),
  deliveredAt: Timestamp.nullable(),
  messages: z.array(Message),
  vaults: z.object({ seller: VaultState.nullable(), buyer: VaultState.nullable() }),
  /** The delivery note sent to the buyer; `noteRejected` says why a note was not sent (contacts). */
  note: z.string().nullable(),
  noteRejected: z.string().nullable(),
  /** Whether a stock unit was issued to the order by auto-delivery (never the unit). */
  stockIssued: z.boolean(),
  review: Review.nullable(),
  /** The sandbox moves that apply in the order's state now. */
  sandboxMoves: z.array(SandboxMove),
});
export type OrderTimeline = z.infer<typeof OrderTimeline>;

// ---------------------------------------------------------------------------------------------
// Webhooks

export const InspectHooks = Hooks.extend({
  /** The seller's probe receiver address, once created (`hooks.createProbe`). */
  probeUrl: z.string().nullable(),
});
export type InspectHooks = z.infer<typeof InspectHooks>;

/** One attempt of a delivery. */
export const DeliveryAttempt = z.object({
  attempt: z.number().int().min(1),
  at: Timestamp,
  /** The receiver's HTTP status; null when none came (refused address, network error, timeout). */
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int().min(0),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const InspectDelivery = Delivery.extend({
  createdAt: Timestamp,
  eventId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  /** Every attempt kept (the latest ones, bounded), oldest first. */
  attemptLog: z.array(DeliveryAttempt),
  /** The body as the last attempt sent it (as the first will, before any attempt). */
  body: z.string(),
  /** The last attempt's request headers (signature included: it is no secret); null before any attempt. */
  headers: z.record(z.string(), z.string()).nullable(),
});
export type InspectDelivery = z.infer<typeof InspectDelivery>;

export const ProbeInbox = z.object({ url: z.string().nullable(), items: z.array(ProbeHit) });

// ---------------------------------------------------------------------------------------------
// The live change stream: `GET /sandbox/v1/changes[?sellerId=…]`, server-sent events. Each event's
// `event:` field is its `type`, its `data:` one line of JSON of the shape below. The first event is
// `ready` (the stream is live: changes from then on are sent); a comment line `: ping` comes every
// 15 s. A change is sent once it is written to the store. Every event has an `id:` field
// (`<epoch>-<number>`, the epoch new at each server start; `ready` carries the last event's id). A
// reconnect that names the last id it read (the `Last-Event-ID` header, or `?lastEventId=`) is
// resumed when the server still keeps every event after it (the last 1,000, 512 KiB, 5 minutes at
// most): `ready` says `resumed: true` and the missed events follow it, in order. Otherwise (no id,
// another epoch, too old) `resumed: false`: what the client holds may be stale, read it again.

const change = { at: Timestamp };
const sellerChange = { ...change, sellerId: z.string() };

export const ChangeEvents = {
  /** The stream is live; `resumed`: the events missed since the `Last-Event-ID` follow (false: read everything again). */
  ready: z.object({ type: z.literal('ready'), ...change, now: Timestamp, resumed: z.boolean() }),
  /**
   * An order was created, moved (`from` → `to`, by whom), or otherwise changed (message, vault).
   * `to` is the status this change made; `order` is the order as it is when the event is sent, which
   * a later move (auto-delivery right after the payment) may already have moved on.
   */
  order: z.object({
    type: z.literal('order'),
    ...sellerChange,
    change: z.enum(['created', 'status', 'updated']),
    from: OrderStatus.nullable(),
    to: OrderStatus,
    action: OrderAction.nullable(),
    by: Mover.nullable(),
    order: Order,
  }),
  /** A card was created, changed or its stock moved; `card` null: it was deleted. */
  card: z.object({ type: z.literal('card'), ...sellerChange, number: z.number().int(), card: Card.nullable() }),
  /** A delivery was added, attempted or resent. */
  delivery: z.object({ type: z.literal('delivery'), ...sellerChange, delivery: InspectDelivery }),
  /** The subscription changed (set, deleted, paused, resumed, probe created). */
  hooks: z.object({ type: z.literal('hooks'), ...sellerChange, hooks: InspectHooks }),
  /** The probe receiver got a request. */
  probe: z.object({ type: z.literal('probe'), ...sellerChange, hit: ProbeHit }),
  /** A seller was created or changed (status, admission, keys). */
  seller: z.object({ type: z.literal('seller'), ...sellerChange, seller: InspectSeller }),
  /** The sandbox advanced the clock; `moved`: the orders whose deadlines ran. */
  clock: z.object({ type: z.literal('clock'), ...change, now: Timestamp, moved: z.array(MovedOrder) }),
  /** The sandbox's faults were added or cleared (`sandbox.listFaults` reads them). */
  faults: z.object({ type: z.literal('faults'), ...change }),
  /** A Telegram bot of the emulator changed: made, its commands set (`chat` null), or one of its private chats: a message, an edit, a press (`sandbox.telegramMessages` reads it). */
  telegram: z.object({ type: z.literal('telegram'), ...change, bot: z.number().int(), chat: z.number().int().nullable() }),
} as const;

export const ChangeEvent = z.discriminatedUnion('type', [
  ChangeEvents.ready,
  ChangeEvents.order,
  ChangeEvents.card,
  ChangeEvents.delivery,
  ChangeEvents.hooks,
  ChangeEvents.probe,
  ChangeEvents.seller,
  ChangeEvents.clock,
  ChangeEvents.faults,
  ChangeEvents.telegram,
]);
export type ChangeEvent = z.infer<typeof ChangeEvent>;
export type ChangeType = ChangeEvent['type'];
export const CHANGE_TYPES = Object.keys(ChangeEvents) as ChangeType[];

/** The stream's query. */
export const ChangesQuery = z.strictObject({
  sellerId: SellerId.optional(),
  /** The last event id read, for a client that cannot send the `Last-Event-ID` header (the header wins). */
  lastEventId: z.string().max(200).optional(),
});

// ---------------------------------------------------------------------------------------------
// The operations

const sellerPage = z.strictObject({ ...pageQuery });

export const sandboxInspectOperations = {
  'sandbox.listSellers': op(R['sandbox.listSellers'], {
    query: sellerPage,
    answer: page(InspectSeller),
  }),
  'sandbox.getSeller': op(R['sandbox.getSeller'], {
    params: sellerParam,
    answer: InspectSeller,
  }),
  'sandbox.sellerCards': op(R['sandbox.sellerCards'], {
    params: sellerParam,
    query: z.strictObject({ ...pageQuery }),
    answer: page(Card),
  }),
  'sandbox.createCard': op(R['sandbox.createCard'], {
    params: sellerParam,
    body: NewCard,
    answer: CardCreated,
  }),
  'sandbox.refill': op(R['sandbox.refill'], {
    params: CardNumberParam,
    body: z.strictObject({ count: z.number().int().min(1).max(STOCK_BATCH_MAX) }),
    answer: z.object({ number: z.number().int().min(1), added: z.number().int().min(0), ...StockCounts.shape }),
  }),
  'sandbox.setCardState': op(R['sandbox.setCardState'], {
    params: CardNumberParam,
    body: CardStateChange,
    answer: CardState,
  }),
  'sandbox.sellerOrders': op(R['sandbox.sellerOrders'], {
    params: sellerParam,
    query: z.strictObject({ status: OrderStatus.optional(), ...pageQuery }),
    answer: page(Order),
  }),
  'sandbox.orderTimeline': op(R['sandbox.orderTimeline'], {
    params: IdParam,
    answer: OrderTimeline,
  }),
  'sandbox.sellerHooks': op(R['sandbox.sellerHooks'], {
    params: sellerParam,
    answer: InspectHooks,
  }),
  'sandbox.sellerDeliveries': op(R['sandbox.sellerDeliveries'], {
    params: sellerParam,
    query: z.strictObject({ ...pageQuery }),
    answer: page(InspectDelivery),
  }),
  'sandbox.resendDelivery': op(R['sandbox.resendDelivery'], {
    params: z.strictObject({ sellerId: SellerId, id: z.string().min(1).max(80) }),
    answer: InspectDelivery,
  }),
  'sandbox.probeInbox': op(R['sandbox.probeInbox'], {
    params: sellerParam,
    query: z.strictObject({ limit: intParam(1, 200).optional() }),
    answer: ProbeInbox,
  }),
} as const;
