/** Catalogue: positions, usual price, demand, requests for new positions. Scope `catalog`. */
import { z } from 'zod';
import { intParam, page, pageQuery, Rub, Slug, Timestamp, prefixedId } from './common.ts';
import { CreditsType, DeliveryMethod, ProductType } from './enums.ts';
import { op } from './operation.ts';
import { catalogRoutes as R } from './routes/catalog.ts';

export const Tariff = z.object({ slug: Slug, title: z.string() });

/** A catalogue position (gaps.md). */
export const Position = z.object({
  slug: Slug,
  title: z.string(),
  category: z.string(),
  tariffs: z.array(Tariff).min(1),
  productTypes: z.array(ProductType).min(1),
  /** For each offered product type, the delivery methods it allows. */
  deliveryMethods: z.partialRecord(ProductType, z.array(DeliveryMethod).min(1)),
  slaChoices: z.array(z.number().int().positive()).min(1),
  guaranteeChoices: z.array(z.number().int().min(0)).min(1),
  /** Offered only by positions with the `credits` product type. */
  creditsTypes: z.array(CreditsType).optional(),
});
export type Position = z.infer<typeof Position>;

export const UsualPrice = z.object({
  service: Slug,
  productType: ProductType,
  usualPriceRub: Rub.nullable(),
  liveCards: z.number().int().min(0),
});

export const DemandItem = z.object({
  service: Slug,
  productType: ProductType,
  orders30d: z.number().int().min(0),
  liveCards: z.number().int().min(0),
  usualPriceRub: Rub.nullable(),
});

export const CATALOG_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const CatalogRequest = z.object({
  id: prefixedId('req'),
  title: z.string(),
  category: z.string().nullable(),
  url: z.string().nullable(),
  comment: z.string().nullable(),
  status: z.enum(CATALOG_REQUEST_STATUSES),
  createdAt: Timestamp,
  decidedAt: Timestamp.nullable(),
});
export type CatalogRequest = z.infer<typeof CatalogRequest>;

export const NewCatalogRequest = z.strictObject({
  title: z.string().trim().min(3).max(200),
  category: z.string().trim().min(1).max(100).optional(),
  url: z.url({ protocol: /^https?$/ }).max(2000).optional(),
  comment: z.string().trim().max(2000).optional(),
});

export const catalogOperations = {
  'catalog.list': op(R['catalog.list'], {
    query: z.strictObject({
      q: z.string().trim().max(100).optional(),
      category: z.string().trim().max(100).optional(),
      ...pageQuery,
    }),
    answer: page(Position),
  }),
  'catalog.get': op(R['catalog.get'], {
    params: z.strictObject({ slug: Slug }),
    answer: Position,
  }),
  'catalog.usualPrice': op(R['catalog.usualPrice'], {
    query: z.strictObject({ service: Slug, productType: ProductType }),
    answer: UsualPrice,
  }),
  'catalog.demand': op(R['catalog.demand'], {
    query: z.strictObject({
      service: Slug.optional(),
      productType: ProductType.optional(),
      top: intParam(1, 100).optional(),
    }),
    answer: z.object({ items: z.array(DemandItem) }),
  }),
  'catalogRequests.list': op(R['catalogRequests.list'], {
    query: z.strictObject({ ...pageQuery }),
    answer: page(CatalogRequest),
  }),
  'catalogRequests.create': op(R['catalogRequests.create'], {
    body: NewCatalogRequest,
    answer: CatalogRequest,
  }),
} as const;

