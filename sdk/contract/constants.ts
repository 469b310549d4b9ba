/**
 * The contract's plain values: enumerations, error codes and their statuses, limits. No zod here,
 * so that code needing only these (the SDK's errors, the card builder, the CLI's commands) loads no
 * schema library and builds no schema. The schema modules build their enums from these arrays and
 * re-export them, so `import { PRODUCT_TYPES } from '…/contract/index.ts'` keeps working.
 */

// ---------------------------------------------------------------------------
// Authentication and errors (spec: Authentication; gaps.md: error codes)
// ---------------------------------------------------------------------------

/** Scopes a key can carry (spec: Authentication, rule 4). */
export const SCOPES = ['catalog', 'listings', 'stock', 'stats', 'orders', 'payouts', 'documents', 'keys', 'hooks'] as const;

/** Every error code of the API and the HTTP status it is answered with (gaps.md). */
export const ERROR_STATUS = {
  bad_request: 400,
  idempotency_key_required: 400,
  no_key: 401,
  bad_key: 401,
  revoked: 401,
  not_seller: 403,
  seller_blocked: 403,
  scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  rejected: 409,
  idempotency_mismatch: 422,
  rate: 429,
  internal: 500,
  unavailable: 503,
} as const;

/** Codes that mean "this key cannot be used": the CLI exits 4 on them. */
export const AUTH_CODES: readonly (keyof typeof ERROR_STATUS)[] = ['no_key', 'bad_key', 'revoked', 'not_seller', 'seller_blocked', 'scope'];

/**
 * An `Idempotency-Key`: 1–255 printable ASCII characters, neither the first nor the last a space
 * (HTTP strips those, so a key of spaces only arrives empty and is `idempotency_key_required`).
 * The server, the MCP tools and the OpenAPI document take this one pattern.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e](?:[\\x20-\\x7e]{0,253}[\\x21-\\x7e])?$';

// ---------------------------------------------------------------------------
// Pagination (gaps.md): `limit` 1–200 default 50
// ---------------------------------------------------------------------------

export const PAGE_LIMIT_MAX = 200;
export const PAGE_LIMIT_DEFAULT = 50;

// ---------------------------------------------------------------------------
// Enumerations (gaps.md "Enumerations")
// ---------------------------------------------------------------------------

export const PRODUCT_TYPES = ['subscription', 'account', 'credits', 'code'] as const;
export const DELIVERY_METHODS = ['own_account', 'invite', 'credentials', 'code', 'transfer'] as const;

/** Delivery methods whose units can come from auto-delivery stock. */
export const STOCKABLE_METHODS: readonly (typeof DELIVERY_METHODS)[number][] = ['credentials', 'code'];

/** Product types that need `nextChargeDay` on delivery. */
export const NEEDS_NEXT_CHARGE: readonly (typeof PRODUCT_TYPES)[number][] = ['subscription', 'account'];

export const CREDITS_TYPES = ['pack', 'rate'] as const;
export const SELLER_TYPES = ['self_employed', 'ip', 'company'] as const;

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

export const KEY_MODES = ['live', 'test'] as const;

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

// ---------------------------------------------------------------------------
// Limits of cards, stock and orders
// ---------------------------------------------------------------------------

/** Refusal kinds of card creation and update (spec: card update). */
export const CARD_RULE_KINDS = ['complaint', 'contacts', 'type_not_available', 'self_employed_forbidden'] as const;

/** The `reason` of a webhook address refusal (kind `url`; gaps.md, webhook addresses). */
export const URL_REFUSAL_REASONS = ['malformed', 'https_only', 'credentials', 'public_host_only'] as const;

/** Refusal kinds of the payout details (spec: payout). */
export const PAYOUT_KINDS = ['sbp_only_self', 'phone_format', 'bik_bad', 'account_bad', 'name_needed', 'kpp_bad'] as const;

export const DESCRIPTION_MAX = 5000;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const STOCK_BATCH_MAX = 1000;
export const STOCK_ITEM_MAX = 4096;
export const MESSAGE_MAX = 4000;
export const SECRET_MAX = 4096;

/** Header names of a webhook delivery. */
export const WEBHOOK_HEADERS = {
  event: 'x-service-event',
  delivery: 'x-service-delivery',
  timestamp: 'x-service-timestamp',
  attempt: 'x-service-attempt',
  signature: 'x-service-signature',
} as const;

/** How far a delivery's timestamp may be from the receiver's clock, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
