/**
 * Card rules, free of HTTP: whether a card fits its catalogue position and its seller, which
 * card starts as a test card, when a card may go real, when auto-delivery may be on, and what an
 * uploaded image must look like. Every check answers one refusal (server/domain/refusal.ts) or null;
 * the routes answer it.
 *
 * Order of the card checks (one refusal at a time, the most fundamental first):
 *   1. `service`        unknown catalogue position                 → complaint {field:'service'}
 *   2. `tariff`         not a tariff of the position               → complaint {field:'tariff', allowed}
 *   3. `productType`    not offered by the position                → type_not_available {field, allowed}
 *                       (update only) differs from the card's own  → complaint {field:'productType', allowed:[current]}
 *   4. `deliveryMethod` not allowed for that product type          → complaint {field:'deliveryMethod', allowed}
 *   5. seller           self-employed outside subscription via own_account/invite → self_employed_forbidden
 *   6. credits fields   creditsType / creditsAmount / creditsRate   → complaint {field, allowed?, reason}
 *   7. `slaMinutes`     not in the position's slaChoices           → complaint {field, allowed}
 *   8. `guaranteeDays`  not in the position's guaranteeChoices     → complaint {field, allowed}
 *   9. `description`    contact details found                      → contacts {field:'description', reason: kind}
 * Catalogue fit comes first (a card for a position that cannot exist is pointless to judge further),
 * then whether this seller may sell it at all, then the shape of the offer, and the text last.
 */
import {
  CARD_RULE_KINDS,
  STOCKABLE_METHODS,
  type CreditsType,
  type DeliveryMethod,
  type Position,
  type ProductType,
  type SellerType,
} from '../../sdk/contract/index.ts';
import type { ApiOperations, KeyMode } from '../../sdk/contract/index.ts';
import { catalogMisfits, type CatalogMisfit } from '../../sdk/contract/catalog-fit.ts';
import type { PapersRecord } from '../store/docs.ts';
import type { CardRecord } from '../store/records/listings.ts';
import { admissionComplete } from './admission.ts';
import { contactsRefusal } from './contacts-rule.ts';
import { refuse, type Refusal } from './refusal.ts';
import type { z } from 'zod';

/** The body of `POST /listings/{number}/state`, as the contract reads it. */
type SetStateBody = z.output<ApiOperations['listings.setState']['body']>;

/** The fields a card is judged by (a creation body, or the card's fixed fields plus a PATCH body). */
export interface CardFields {
  service: string;
  tariff: string;
  productType: ProductType;
  deliveryMethod: DeliveryMethod;
  priceRub: number;
  slaMinutes: number;
  guaranteeDays: number;
  description?: string | undefined;
  creditsType?: CreditsType | undefined;
  creditsAmount?: number | undefined;
  creditsRate?: number | undefined;
}

/** What the rules need to know about the seller. */
export interface SellerFacts {
  sellerType: SellerType | null;
}

export type CardRuleKind = (typeof CARD_RULE_KINDS)[number];

export type CardRefusal = Refusal<CardRuleKind>;

/** What a self-employed seller may sell (gaps.md, Enumerations). */
export const SELF_EMPLOYED_TYPES: readonly ProductType[] = ['subscription'];
export const SELF_EMPLOYED_METHODS: readonly DeliveryMethod[] = ['own_account', 'invite'];

const CREDITS_FIELDS = ['creditsType', 'creditsAmount', 'creditsRate'] as const;

/** A card (new, or after an update) against its position and its seller; null when it fits. */
export function validateCard(position: Position | undefined, card: CardFields, seller: SellerFacts): CardRefusal | null {
  if (!position) return refuse('complaint', { field: 'service', reason: 'unknown_service' });
  return (
    fitsPosition(position, card) ??
    sellerMay(card, seller) ??
    creditsRefusal(position, card) ??
    choicesRefusal(position, card) ??
    contactsRefusal(card.description, 'description')
  );
}

/**
 * A whole-body update: the product type must stay what it was (a card of another type is another
 * card: create it), then the updated card is judged like a new one.
 */
export function validateUpdate(position: Position | undefined, current: CardRecord, update: Omit<CardFields, 'service' | 'tariff'>, seller: SellerFacts): CardRefusal | null {
  const card: CardFields = { ...update, service: current.service, tariff: current.tariff };
  if (position && update.productType !== current.productType) {
    if (!position.productTypes.includes(update.productType)) return typeNotAvailable(position);
    return refuse('complaint', { field: 'productType', allowed: [current.productType], reason: 'fixed_after_creation' });
  }
  return validateCard(position, card, seller);
}

function typeNotAvailable(position: Position): CardRefusal {
  return refuse('type_not_available', { field: 'productType', allowed: [...position.productTypes] });
}

/** The first misfit of `fields` (sdk/contract/catalog-fit.ts, the one set of catalogue choices), as a refusal. */
function misfitRefusal(position: Position, card: CardFields, fields: ReadonlyArray<CatalogMisfit['field']>): CardRefusal | null {
  const misfit = catalogMisfits(position, card).find((m) => fields.includes(m.field));
  if (!misfit) return null;
  if (misfit.field === 'productType') return typeNotAvailable(position);
  return refuse('complaint', { field: misfit.field, allowed: misfit.allowed, reason: 'not_allowed' });
}

const fitsPosition = (position: Position, card: CardFields) => misfitRefusal(position, card, ['tariff', 'productType', 'deliveryMethod']);

function sellerMay(card: CardFields, seller: SellerFacts): CardRefusal | null {
  if (seller.sellerType !== 'self_employed') return null;
  if (SELF_EMPLOYED_TYPES.includes(card.productType) && SELF_EMPLOYED_METHODS.includes(card.deliveryMethod)) return null;
  const field = SELF_EMPLOYED_TYPES.includes(card.productType) ? 'deliveryMethod' : 'productType';
  const allowed = field === 'productType' ? [...SELF_EMPLOYED_TYPES] : [...SELF_EMPLOYED_METHODS];
  return refuse('self_employed_forbidden', { field, allowed });
}

function creditsRefusal(position: Position, card: CardFields): CardRefusal | null {
  if (card.productType !== 'credits') {
    const stray = CREDITS_FIELDS.find((f) => card[f] !== undefined);
    return stray ? refuse('complaint', { field: stray, reason: 'credits_only' }) : null;
  }
  const types = [...(position.creditsTypes ?? [])];
  if (card.creditsType === undefined) return refuse('complaint', { field: 'creditsType', allowed: types, reason: 'required' });
  if (!types.includes(card.creditsType)) return refuse('complaint', { field: 'creditsType', allowed: types, reason: 'not_allowed' });
  const [needed, other] = card.creditsType === 'pack' ? (['creditsAmount', 'creditsRate'] as const) : (['creditsRate', 'creditsAmount'] as const);
  if (card[needed] === undefined) return refuse('complaint', { field: needed, reason: 'required' });
  if (card[other] !== undefined) return refuse('complaint', { field: other, reason: `not_for_${card.creditsType}` });
  return null;
}

const choicesRefusal = (position: Position, card: CardFields) => misfitRefusal(position, card, ['slaMinutes', 'guaranteeDays']);

/** The description is the only free text of a card; the found contact itself is never echoed. */
// ---------------------------------------------------------------------------------------------
// Test and real cards

export interface SellerStanding {
  /** Admission papers complete. */
  admissionComplete: boolean;
  /** The seller (or the key in use) is in test mode: it never sells for real. */
  testMode: boolean;
}

/** The standing of a caller: its papers, and the mode of its seller and of the key in use. */
export function sellerStanding(caller: { seller: { mode: KeyMode }; key: { mode: KeyMode }; doc: { papers: PapersRecord } }): SellerStanding {
  return { admissionComplete: admissionComplete(caller.doc.papers), testMode: caller.seller.mode === 'test' || caller.key.mode === 'test' };
}

/** A new card (and a copy) is a test card while the seller may not sell for real. */
export const startsAsTest = (s: SellerStanding): boolean => !s.admissionComplete || s.testMode;

/** Turning a test card real needs complete papers and a live seller. */
export function goRealRefusal(s: SellerStanding): Refusal<'test_to_real_needs_papers'> | null {
  if (s.testMode) return refuse('test_to_real_needs_papers', { reason: 'test_seller' });
  if (!s.admissionComplete) return refuse('test_to_real_needs_papers', { reason: 'admission_incomplete' });
  return null;
}

// ---------------------------------------------------------------------------------------------
// Switching on and off

/** Whether a card's units can come from auto-delivery stock. */
export const stockable = (method: DeliveryMethod): boolean => STOCKABLE_METHODS.includes(method);

/**
 * `POST /listings/{n}/state`. Auto-delivery (asked for, or already on while switching on) needs a
 * stock-able delivery method and free stock. Switching off leaves `autoIssue` as it is unless the
 * body names it.
 */
export function stateRefusal(
  card: Pick<CardRecord, 'deliveryMethod' | 'autoIssue'>,
  body: SetStateBody,
  free: number,
): Refusal<'complaint' | 'stock_empty'> | null {
  const autoIssue = body.autoIssue ?? card.autoIssue;
  if (!autoIssue || !(body.autoIssue === true || body.active)) return null;
  if (!stockable(card.deliveryMethod)) {
    return refuse('complaint', { field: 'autoIssue', reason: 'delivery_method_not_stockable' });
  }
  if (free === 0) return refuse('stock_empty', { field: 'autoIssue' });
  return null;
}

/** Switches the card on or off, and auto-delivery when the body names it; or refuses ({@link stateRefusal}). */
export function setState(card: CardRecord, body: SetStateBody, free: number, now: Date): Refusal<'complaint' | 'stock_empty'> | null {
  const refusal = stateRefusal(card, body, free);
  if (refusal) return refusal;
  card.isActive = body.active;
  if (body.autoIssue !== undefined) card.autoIssue = body.autoIssue;
  if (body.active) card.hidden = false;
  card.updatedAt = now.toISOString();
  return null;
}

/** Marks the card a test card, or a real one when the seller may sell for real ({@link goRealRefusal}). */
export function setTest(card: CardRecord, isTest: boolean, standing: SellerStanding, now: Date): Refusal<'test_to_real_needs_papers'> | null {
  const refusal = isTest ? null : goRealRefusal(standing);
  if (refusal) return refusal;
  card.isTest = isTest;
  card.updatedAt = now.toISOString();
  return null;
}

/**
 * A card asked to be deleted: one that has orders is kept for them, hidden and switched off
 * (`hidden`); another is for the caller to remove with its stock and image (`deleted`).
 */
export function retire(card: CardRecord, hasOrders: boolean, now: Date): 'hidden' | 'deleted' {
  if (!hasOrders) return 'deleted';
  card.isActive = false;
  card.autoIssue = false;
  card.hidden = true;
  card.updatedAt = now.toISOString();
  return 'hidden';
}

// ---------------------------------------------------------------------------------------------
// Records

/** The stored form of a new card: always switched off, auto-delivery off. */
export function newCardRecord(number: number, fields: CardFields & { stock?: number | undefined; confirmRequired?: boolean | undefined }, isTest: boolean, now: Date): CardRecord {
  const at = now.toISOString();
  return {
    number,
    service: fields.service,
    tariff: fields.tariff,
    ...editableOf(fields, ''),
    declaredStock: fields.stock ?? 0,
    confirmRequired: fields.confirmRequired ?? false,
    isActive: false,
    isTest,
    autoIssue: false,
    hidden: false,
    image: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** Applies a (validated) whole-body update; an absent description keeps the current one. */
export function applyUpdate(card: CardRecord, update: Omit<CardFields, 'service' | 'tariff'>, now: Date): void {
  Object.assign(card, editableOf(update, card.description));
  card.updatedAt = now.toISOString();
}

function editableOf(f: Omit<CardFields, 'service' | 'tariff'>, description: string) {
  return {
    productType: f.productType,
    deliveryMethod: f.deliveryMethod,
    priceRub: f.priceRub,
    slaMinutes: f.slaMinutes,
    guaranteeDays: f.guaranteeDays,
    description: f.description ?? description,
    creditsType: f.creditsType ?? null,
    creditsAmount: f.creditsAmount ?? null,
    creditsRate: f.creditsRate ?? null,
  };
}

/** The fields of a card as a creation body (for a copy). */
export function fieldsOf(card: CardRecord): CardFields & { stock: number; confirmRequired: boolean } {
  return {
    service: card.service,
    tariff: card.tariff,
    productType: card.productType,
    deliveryMethod: card.deliveryMethod,
    priceRub: card.priceRub,
    slaMinutes: card.slaMinutes,
    guaranteeDays: card.guaranteeDays,
    description: card.description,
    ...(card.creditsType === null ? {} : { creditsType: card.creditsType }),
    ...(card.creditsAmount === null ? {} : { creditsAmount: card.creditsAmount }),
    ...(card.creditsRate === null ? {} : { creditsRate: card.creditsRate }),
    stock: card.declaredStock,
    confirmRequired: card.confirmRequired,
  };
}

// ---------------------------------------------------------------------------------------------
// Images

export const IMAGE_EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' } as const;
export type ImageType = keyof typeof IMAGE_EXTENSIONS;

/** The image type the bytes really are, by their magic numbers. */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  const at = (i: number, ...b: number[]) => b.every((x, k) => bytes[i + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

/**
 * An upload: the declared type must be one of the three, the size at most `maxBytes`, and the
 * bytes must really be of the declared type. Checked in that order.
 */
export function checkImage(contentType: string | undefined, bytes: Uint8Array, maxBytes: number): { type: ImageType } | Refusal<'image_type' | 'image_size'> {
  const declared = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const allowed = Object.keys(IMAGE_EXTENSIONS);
  if (!(declared in IMAGE_EXTENSIONS)) return refuse('image_type', { field: 'content-type', allowed, reason: 'unsupported_type' });
  if (bytes.length > maxBytes) return refuse('image_size', { reason: 'too_large', max: maxBytes, length: bytes.length }, `the image has ${bytes.length} bytes; at most ${maxBytes} are accepted`);
  if (sniffImage(bytes) !== declared) return refuse('image_type', { allowed, reason: 'content_mismatch' });
  return { type: declared as ImageType };
}
