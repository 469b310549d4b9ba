/** Cards (listings) and their stock. Scopes `listings` and `stock`. */
import { z } from 'zod';
import { boolParam, CardNumberParam, page, pageQuery, Rub, Slug, Timestamp } from './common.ts';
import { CreditsType, DeliveryMethod, ProductType } from './enums.ts';
import { DESCRIPTION_MAX, IMAGE_TYPES, STOCK_BATCH_MAX, STOCK_ITEM_MAX } from './constants.ts';
import { op } from './operation.ts';
import { listingsRoutes as R } from './routes/listings.ts';

export { DESCRIPTION_MAX, IMAGE_MAX_BYTES, IMAGE_TYPES, STOCK_BATCH_MAX, STOCK_ITEM_MAX } from './constants.ts';

export { CARD_RULE_KINDS } from './constants.ts';

/** The fields a seller chooses that both creation and the whole-body PATCH carry. */
const editable = {
  productType: ProductType,
  deliveryMethod: DeliveryMethod,
  priceRub: z.number().int().min(1).max(10_000_000),
  slaMinutes: z.number().int().positive(),
  guaranteeDays: z.number().int().min(0),
  description: z.string().max(DESCRIPTION_MAX).optional(),
  creditsType: CreditsType.optional(),
  /** Units per purchase; required for `creditsType: 'pack'`. */
  creditsAmount: z.number().int().positive().optional(),
  /** Units per rouble; required for `creditsType: 'rate'`. */
  creditsRate: z.number().positive().optional(),
};

/**
 * The OpenAPI document's example of a card's fields (sdk/openapi-examples.ts): a spotify code with an
 * SLA and a guarantee the seeded catalogue offers, and no fields of another product type.
 */
const CODE_EXAMPLE = {
  productType: 'code',
  deliveryMethod: 'code',
  priceRub: 390,
  slaMinutes: 60,
  guaranteeDays: 7,
  description: 'Spotify Premium Individual на 1 месяц: код активации.',
} as const;

export const NewCard = z.strictObject({
  service: Slug,
  tariff: Slug,
  ...editable,
  /** Declared quantity for manual delivery; auto-delivery units come from the stock endpoint. */
  stock: z.number().int().min(0).max(1_000_000).optional(),
  confirmRequired: z.boolean().optional(),
}).meta({ examples: [{ service: 'spotify', tariff: 'individual', ...CODE_EXAMPLE }] });
export type NewCard = z.input<typeof NewCard>;

/** PATCH takes the whole body; service and tariff cannot change. */
export const CardUpdate = z.strictObject({ ...editable }).meta({ examples: [CODE_EXAMPLE] });
export type CardUpdate = z.input<typeof CardUpdate>;

export const StockCounts = z.object({ free: z.number().int().min(0), issued: z.number().int().min(0) });

/** Switching a card on or off (and its auto-delivery): the body, and the state it leaves. */
export const CardStateChange = z.strictObject({ active: z.boolean(), autoIssue: z.boolean().optional() });
export const CardState = z.object({ number: z.number().int().min(1), isActive: z.boolean(), autoIssue: z.boolean() });

export const Card = z.object({
  number: z.number().int().min(1),
  service: Slug,
  tariff: Slug,
  productType: ProductType,
  deliveryMethod: DeliveryMethod,
  priceRub: Rub,
  slaMinutes: z.number().int().min(0),
  guaranteeDays: z.number().int().min(0),
  description: z.string(),
  creditsType: CreditsType.nullable(),
  creditsAmount: z.number().int().positive().nullable(),
  creditsRate: z.number().nullable(),
  declaredStock: z.number().int().min(0),
  confirmRequired: z.boolean(),
  isActive: z.boolean(),
  isTest: z.boolean(),
  autoIssue: z.boolean(),
  stock: StockCounts,
  image: z.object({ url: z.string() }).nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Card = z.infer<typeof Card>;

export const CardCreated = z.object({ number: z.number().int().min(1), isActive: z.literal(false), isTest: z.boolean() });

/** A UTF-16 surrogate not paired with its other half (with the `u` flag a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

export const StockRefill = z.strictObject({
  items: z
    .array(
      z
        .string()
        .min(1, 'a stock item must not be empty')
        .max(STOCK_ITEM_MAX, `a stock item is at most ${STOCK_ITEM_MAX} characters`)
        // A lone surrogate cannot be stored as UTF-8 (it would become U+FFFD, and two units differing
        // only by one would merge): such a unit is refused, not changed.
        .refine((s) => !LONE_SURROGATE.test(s), 'a stock item must be well-formed Unicode text (it holds a lone surrogate)'),
    )
    .min(1, 'at least one item')
    .max(STOCK_BATCH_MAX, `at most ${STOCK_BATCH_MAX} items a call`),
});

const number = CardNumberParam;

export const listingOperations = {
  'listings.list': op(R['listings.list'], {
    query: z.strictObject({ active: boolParam.optional(), service: Slug.optional(), ...pageQuery }),
    answer: page(Card),
  }),
  'listings.create': op(R['listings.create'], {
    body: NewCard,
    answer: CardCreated,
  }),
  'listings.get': op(R['listings.get'], {
    params: number,
    answer: Card,
  }),
  'listings.update': op(R['listings.update'], {
    params: number,
    body: CardUpdate,
    answer: z.object({ number: z.number().int().min(1), isActive: z.boolean() }),
  }),
  'listings.delete': op(R['listings.delete'], {
    params: number,
    answer: z.object({ number: z.number().int().min(1), result: z.enum(['deleted', 'hidden']) }),
  }),
  'listings.setState': op(R['listings.setState'], {
    params: number,
    body: CardStateChange,
    answer: CardState,
  }),
  'listings.copy': op(R['listings.copy'], {
    params: number,
    answer: CardCreated,
  }),
  'listings.setTest': op(R['listings.setTest'], {
    params: number,
    body: z.strictObject({ isTest: z.boolean() }),
    answer: z.object({ number: z.number().int().min(1), isTest: z.boolean() }),
  }),
  'listings.setImage': op(R['listings.setImage'], {
    params: number,
    answer: z.object({ number: z.number().int().min(1), image: z.object({ url: z.string() }) }),
  }),
  'listings.removeImage': op(R['listings.removeImage'], {
    params: number,
    answer: z.object({ number: z.number().int().min(1), image: z.null() }),
  }),
  'stock.get': op(R['stock.get'], {
    params: number,
    answer: z.object({ number: z.number().int().min(1), ...StockCounts.shape }),
  }),
  'stock.refill': op(R['stock.refill'], {
    params: number,
    body: StockRefill,
    answer: z.object({
      number: z.number().int().min(1),
      added: z.number().int().min(0),
      duplicates: z.number().int().min(0),
      free: z.number().int().min(0),
    }),
  }),
} as const;
