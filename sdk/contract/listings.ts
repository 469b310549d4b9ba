/** Cards (listings) and their stock. Scopes `listings` and `stock`. */
import { z } from 'zod';
import { boolParam, CardNumberParam, page, pageQuery, Rub, Slug, Timestamp } from './common.ts';
import { CreditsType, DeliveryMethod, ProductType } from './enums.ts';
import { DESCRIPTION_MAX, IMAGE_TYPES, STOCK_BATCH_MAX, STOCK_ITEM_MAX } from './constants.ts';
import { op } from './operation.ts';

export { DESCRIPTION_MAX, IMAGE_MAX_BYTES, IMAGE_TYPES, STOCK_BATCH_MAX, STOCK_ITEM_MAX } from './constants.ts';

/** Refusal kinds of card creation and update (spec: card update). */
export const CARD_RULE_KINDS = ['complaint', 'contacts', 'type_not_available', 'self_employed_forbidden'] as const;

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

export const NewCard = z.strictObject({
  service: Slug,
  tariff: Slug,
  ...editable,
  /** Declared quantity for manual delivery; auto-delivery units come from the stock endpoint. */
  stock: z.number().int().min(0).max(1_000_000).optional(),
  confirmRequired: z.boolean().optional(),
});
export type NewCard = z.input<typeof NewCard>;

/** PATCH takes the whole body; service and tariff cannot change. */
export const CardUpdate = z.strictObject({ ...editable });
export type CardUpdate = z.input<typeof CardUpdate>;

export const StockCounts = z.object({ free: z.number().int().min(0), issued: z.number().int().min(0) });

export const Card = z.object({
  number: z.number().int(),
  service: Slug,
  tariff: Slug,
  productType: ProductType,
  deliveryMethod: DeliveryMethod,
  priceRub: Rub,
  slaMinutes: z.number().int(),
  guaranteeDays: z.number().int(),
  description: z.string(),
  creditsType: CreditsType.nullable(),
  creditsAmount: z.number().int().nullable(),
  creditsRate: z.number().nullable(),
  declaredStock: z.number().int(),
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

export const CardCreated = z.object({ number: z.number().int(), isActive: z.literal(false), isTest: z.boolean() });

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
  'listings.list': op({
    id: 'listings.list',
    method: 'GET',
    path: '/listings',
    scope: 'listings',
    summary: "List the seller's cards.",
    query: z.strictObject({ active: boolParam.optional(), service: Slug.optional(), ...pageQuery }),
    answer: page(Card),
    paging: 'cursor',
  }),
  'listings.create': op({
    id: 'listings.create',
    method: 'POST',
    path: '/listings',
    scope: 'listings',
    summary: 'Create a card; it is always created switched off.',
    body: NewCard,
    answer: CardCreated,
    status: 201,
    refusals: CARD_RULE_KINDS,
  }),
  'listings.get': op({
    id: 'listings.get',
    method: 'GET',
    path: '/listings/{number}',
    scope: 'listings',
    summary: 'Read one card with its stock counts.',
    params: number,
    answer: Card,
  }),
  'listings.update': op({
    id: 'listings.update',
    method: 'PATCH',
    path: '/listings/{number}',
    scope: 'listings',
    summary: 'Replace the editable fields of a card (the whole body; service and tariff are fixed).',
    params: number,
    body: CardUpdate,
    answer: z.object({ number: z.number().int(), isActive: z.boolean() }),
    refusals: ['not_found', ...CARD_RULE_KINDS],
  }),
  'listings.delete': op({
    id: 'listings.delete',
    method: 'DELETE',
    path: '/listings/{number}',
    scope: 'listings',
    summary: 'Delete a card without orders, or hide (switch off) a card that has orders.',
    params: number,
    answer: z.object({ number: z.number().int(), result: z.enum(['deleted', 'hidden']) }),
  }),
  'listings.setState': op({
    id: 'listings.setState',
    method: 'POST',
    path: '/listings/{number}/state',
    scope: 'listings',
    summary: 'Switch a card on or off, and auto-delivery with it.',
    params: number,
    body: z.strictObject({ active: z.boolean(), autoIssue: z.boolean().optional() }),
    answer: z.object({ number: z.number().int(), isActive: z.boolean(), autoIssue: z.boolean() }),
    /** `complaint` (field `autoIssue`): auto-delivery asked for a card whose delivery method has no stock. */
    refusals: ['stock_empty', 'complaint'],
  }),
  'listings.copy': op({
    id: 'listings.copy',
    method: 'POST',
    path: '/listings/{number}/copy',
    scope: 'listings',
    summary: 'Copy a card into a new, switched-off card (stock is not copied).',
    params: number,
    answer: CardCreated,
    status: 201,
    /** The copy is checked like a new card (the seller's type may have changed since). */
    refusals: CARD_RULE_KINDS,
  }),
  'listings.setTest': op({
    id: 'listings.setTest',
    method: 'POST',
    path: '/listings/{number}/test',
    scope: 'listings',
    summary: 'Mark a card as test (only test buyers can buy it) or real.',
    params: number,
    body: z.strictObject({ isTest: z.boolean() }),
    answer: z.object({ number: z.number().int(), isTest: z.boolean() }),
    refusals: ['not_found', 'test_to_real_needs_papers'],
  }),
  'listings.setImage': op({
    id: 'listings.setImage',
    method: 'PUT',
    path: '/listings/{number}/image',
    scope: 'listings',
    summary: 'Upload the card image (raw PNG, JPEG or WebP, at most 2 MiB).',
    params: number,
    binaryBody: true,
    answer: z.object({ number: z.number().int(), image: z.object({ url: z.string() }) }),
    refusals: ['image_type', 'image_size'],
  }),
  'listings.removeImage': op({
    id: 'listings.removeImage',
    method: 'DELETE',
    path: '/listings/{number}/image',
    scope: 'listings',
    summary: 'Remove the card image.',
    params: number,
    answer: z.object({ number: z.number().int(), image: z.null() }),
  }),
  'stock.get': op({
    id: 'stock.get',
    method: 'GET',
    path: '/listings/{number}/stock',
    scope: 'stock',
    summary: 'Counts of free and issued auto-delivery units (never the units themselves).',
    params: number,
    answer: z.object({ number: z.number().int(), ...StockCounts.shape }),
  }),
  'stock.refill': op({
    id: 'stock.refill',
    method: 'POST',
    path: '/listings/{number}/stock',
    scope: 'stock',
    summary: 'Add secret units to the auto-delivery stock (1–1000 a call); duplicates are skipped.',
    params: number,
    body: StockRefill,
    answer: z.object({
      number: z.number().int(),
      added: z.number().int(),
      duplicates: z.number().int(),
      free: z.number().int(),
    }),
    status: 201,
  }),
} as const;
