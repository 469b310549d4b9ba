/**
 * Building a card body from a catalogue position and the seller's choices, so that a program (or a
 * form) fails before the call, naming the field and its allowed values, instead of after it.
 *
 * The checks mirror the server's card rules in their order: tariff, product type, delivery method
 * for that type, the self-employed rule (when `sellerType` is given), the credits fields as a whole,
 * SLA, guarantee; then the plain ranges of price, description and stock. The contact filter of the
 * description is the server's alone: it can still refuse a built card with `contacts`.
 *
 * Defaults: where the position allows exactly one value (one tariff, one product type, one delivery
 * method for the type, one SLA, one guarantee, one credits type), a missing choice takes it; where
 * it allows more, the choice is required.
 *
 * @example
 * const position = await client.catalog.get('spotify');
 * const body = buildCard(position, { tariff: 'family', productType: 'code', slaMinutes: 30, guaranteeDays: 0, priceRub: 390 });
 * const { number } = await client.listings.create(body);
 */
import type {
  Card as StrictCard,
  CardUpdate as StrictCardUpdate,
  CreditsType as KnownCreditsType,
  DeliveryMethod as KnownMethod,
  NewCard as StrictNewCard,
  Position as StrictPosition,
  ProductType as KnownType,
  SellerType as KnownSellerType,
} from './contract/types.ts';
import { DESCRIPTION_MAX } from './contract/constants.ts';
import type { CardChoiceReason } from './contract/error-data.ts';
import type { Tolerant, Widened } from './open.ts';

// The position is the source of truth, not our enums (gaps.md's guesses): a product type, delivery
// method or credits type the position offers is accepted even when the contract does not list it.
type Position = Tolerant<StrictPosition>;
type ProductType = Widened<KnownType>;
type DeliveryMethod = Widened<KnownMethod>;
type CreditsType = Widened<KnownCreditsType>;
type SellerType = Widened<KnownSellerType>;
type Card = Tolerant<StrictCard>;
type NewCard = Widened<StrictNewCard>;
type CardUpdate = Widened<StrictCardUpdate>;

/** What the seller chooses for a new card. Fields the position fixes to one value may be left out. */
export interface CardChoices {
  /** A tariff slug of the position. */
  tariff?: string | undefined;
  productType?: ProductType | undefined;
  deliveryMethod?: DeliveryMethod | undefined;
  /** One of the position's `slaChoices`. */
  slaMinutes?: number | undefined;
  /** One of the position's `guaranteeChoices`. */
  guaranteeDays?: number | undefined;
  /** Whole roubles, 1–10 000 000. */
  priceRub: number;
  description?: string | undefined;
  /**
   * Only for the `credits` product type, then required: `pack` with `amount` (units per purchase)
   * or `rate` with `rate` (units per rouble). `type` may be left out when the position offers one.
   */
  credits?: { type?: CreditsType | undefined; amount?: number | undefined; rate?: number | undefined } | undefined;
  /** The seller confirms each paid order before delivering. */
  confirmRequired?: boolean | undefined;
  /** Declared quantity for manual delivery. */
  stock?: number | undefined;
}

export interface BuildCardOptions {
  /** Apply the self-employed rule (only a subscription, delivered by `own_account` or `invite`). */
  sellerType?: SellerType | null | undefined;
}

/** The body field a choice fills; `field` of a `CardChoiceError` is one of these (as in the server's refusals). */
export type CardField =
  | 'tariff'
  | 'productType'
  | 'deliveryMethod'
  | 'slaMinutes'
  | 'guaranteeDays'
  | 'priceRub'
  | 'description'
  | 'creditsType'
  | 'creditsAmount'
  | 'creditsRate'
  | 'stock';

/**
 * Why a choice does not fit:
 * - `required`: missing, and the position allows more than one value (or the field has no default);
 * - `not_allowed`: a value outside `allowed`;
 * - `type_not_available`: the position has no such product type (the server's refusal kind);
 * - `self_employed_forbidden`: a self-employed seller may not sell this (the server's refusal kind);
 * - `credits_only`: credits fields on a card that is not of the `credits` type;
 * - `not_for_pack` / `not_for_rate`: the amount/rate that the credits type does not take;
 * - `out_of_range`: a number outside its range, or a description too long.
 *
 * The contract declares them (`CHECK_CODES.card_choice`, sdk/contract/error-data.ts).
 */
export type { CardChoiceReason };

/** A choice that does not fit the position (thrown by `buildCard` before any call). */
export class CardChoiceError extends Error {
  override name = 'CardChoiceError';
  constructor(
    /** The card body field at fault. */
    readonly field: CardField,
    readonly reason: CardChoiceReason,
    /** The values the position allows, when they form a list. */
    readonly allowed?: readonly (string | number)[] | undefined,
    /** The value given, if any. */
    readonly value?: unknown,
  ) {
    super(messageOf(field, reason, allowed, value));
  }
}

function messageOf(field: CardField, reason: CardChoiceReason, allowed: readonly (string | number)[] | undefined, value: unknown): string {
  const list = allowed && allowed.length > 0 ? `; allowed: ${allowed.join(', ')}` : allowed ? '; nothing is allowed' : '';
  const given = value === undefined ? '' : ` ${JSON.stringify(value)}`;
  switch (reason) {
    case 'required':
      return `${field} is required${list}`;
    case 'not_allowed':
      return `${field}${given} is not allowed${list}`;
    case 'type_not_available':
      return `product type${given} is not offered by the position${list}`;
    case 'self_employed_forbidden':
      return `a self-employed seller may not sell ${field}${given}${list}`;
    case 'credits_only':
      return `${field} is only for the credits product type`;
    case 'not_for_pack':
    case 'not_for_rate':
      return `${field} does not go with credits type ${reason.slice(8)}`;
    case 'out_of_range':
      return `${field}${given} is out of range`;
  }
}

/** What a self-employed seller may sell (gaps.md, Enumerations). */
const SELF_EMPLOYED_TYPES: readonly ProductType[] = ['subscription'];
const SELF_EMPLOYED_METHODS: readonly DeliveryMethod[] = ['own_account', 'invite'];

const PRICE_MAX = 10_000_000;
const STOCK_MAX = 1_000_000;

/** The product types the seller may choose on this position. */
export function allowedProductTypes(position: Position, options: BuildCardOptions = {}): ProductType[] {
  const types = [...position.productTypes];
  return options.sellerType === 'self_employed' ? types.filter((t) => SELF_EMPLOYED_TYPES.includes(t)) : types;
}

/** The delivery methods the seller may choose for a product type of this position. */
export function allowedDeliveryMethods(position: Position, productType: ProductType, options: BuildCardOptions = {}): DeliveryMethod[] {
  const methods = [...methodsOf(position, productType)];
  return options.sellerType === 'self_employed' ? methods.filter((m) => SELF_EMPLOYED_METHODS.includes(m)) : methods;
}

/** The delivery methods the position allows for a product type (any type it names, known to the contract or not). */
function methodsOf(position: Position, productType: ProductType): readonly DeliveryMethod[] {
  const methods = (position.deliveryMethods as Record<string, unknown>)[productType];
  return Array.isArray(methods) ? (methods as DeliveryMethod[]) : [];
}

/**
 * The only allowed value of a field left out, else a `required` error; when the seller rule leaves
 * nothing (`forbidden`), a `self_employed_forbidden` error naming what a self-employed seller may sell.
 */
function defaultOf<T extends string>(field: CardField, allowed: readonly T[], forbidden: boolean, selfEmployedMay: readonly T[]): T {
  if (forbidden) throw new CardChoiceError(field, 'self_employed_forbidden', selfEmployedMay);
  return pick(field, undefined, allowed);
}

/** The given value, the only allowed value, or a `required` error. */
function pick<T extends string | number>(field: CardField, value: T | undefined, allowed: readonly T[]): T {
  if (value !== undefined) return value;
  if (allowed.length === 1) return allowed[0]!;
  throw new CardChoiceError(field, 'required', allowed);
}

/**
 * A valid `NewCard` for `position`, or a `CardChoiceError` naming the first choice that does not
 * fit (with the allowed values). Nothing is sent.
 */
export function buildCard(position: Position, choices: CardChoices, options: BuildCardOptions = {}): NewCard {
  const selfEmployed = options.sellerType === 'self_employed';

  const tariffs = position.tariffs.map((t) => t.slug);
  const tariff = pick('tariff', choices.tariff, tariffs);
  if (!tariffs.includes(tariff)) throw new CardChoiceError('tariff', 'not_allowed', tariffs, tariff);

  // Product type, then delivery method, against the position; then the seller rule (the server's order).
  const types = allowedProductTypes(position, options);
  const productType = choices.productType ?? defaultOf('productType', types, selfEmployed && types.length === 0, SELF_EMPLOYED_TYPES);
  if (!position.productTypes.includes(productType)) {
    throw new CardChoiceError('productType', 'type_not_available', [...position.productTypes], productType);
  }
  const positionMethods = methodsOf(position, productType);
  const sellerMayType = !selfEmployed || SELF_EMPLOYED_TYPES.includes(productType);
  if (!sellerMayType && choices.deliveryMethod === undefined) {
    throw new CardChoiceError('productType', 'self_employed_forbidden', types.length ? types : SELF_EMPLOYED_TYPES, productType);
  }
  const methods = allowedDeliveryMethods(position, productType, options);
  const deliveryMethod = choices.deliveryMethod ?? defaultOf('deliveryMethod', methods, selfEmployed && methods.length === 0, SELF_EMPLOYED_METHODS);
  if (!positionMethods.includes(deliveryMethod)) {
    throw new CardChoiceError('deliveryMethod', 'not_allowed', [...positionMethods], deliveryMethod);
  }
  if (!sellerMayType) throw new CardChoiceError('productType', 'self_employed_forbidden', types.length ? types : SELF_EMPLOYED_TYPES, productType);
  if (!methods.includes(deliveryMethod)) {
    throw new CardChoiceError('deliveryMethod', 'self_employed_forbidden', methods.length ? methods : SELF_EMPLOYED_METHODS, deliveryMethod);
  }

  const credits = creditsOf(position, productType, choices.credits);

  const slaMinutes = pick('slaMinutes', choices.slaMinutes, position.slaChoices);
  if (!position.slaChoices.includes(slaMinutes)) throw new CardChoiceError('slaMinutes', 'not_allowed', position.slaChoices, slaMinutes);
  const guaranteeDays = pick('guaranteeDays', choices.guaranteeDays, position.guaranteeChoices);
  if (!position.guaranteeChoices.includes(guaranteeDays)) {
    throw new CardChoiceError('guaranteeDays', 'not_allowed', position.guaranteeChoices, guaranteeDays);
  }

  const { priceRub, description, stock } = choices;
  if (priceRub === undefined || priceRub === null) throw new CardChoiceError('priceRub', 'required');
  if (!Number.isInteger(priceRub) || priceRub < 1 || priceRub > PRICE_MAX) throw new CardChoiceError('priceRub', 'out_of_range', undefined, priceRub);
  if (description !== undefined && description.length > DESCRIPTION_MAX) throw new CardChoiceError('description', 'out_of_range');
  if (stock !== undefined && (!Number.isInteger(stock) || stock < 0 || stock > STOCK_MAX)) throw new CardChoiceError('stock', 'out_of_range', undefined, stock);

  return {
    service: position.slug,
    tariff,
    productType,
    deliveryMethod,
    priceRub,
    slaMinutes,
    guaranteeDays,
    ...(description === undefined ? {} : { description }),
    ...credits,
    ...(stock === undefined ? {} : { stock }),
    ...(choices.confirmRequired === undefined ? {} : { confirmRequired: choices.confirmRequired }),
  };
}

type CreditsFields = Pick<NewCard, 'creditsType' | 'creditsAmount' | 'creditsRate'>;

/** The credits fields, judged as a whole (the server's order: type, the needed number, the stray one). */
function creditsOf(position: Position, productType: ProductType, credits: CardChoices['credits']): CreditsFields {
  if (productType !== 'credits') {
    if (credits === undefined) return {};
    const stray: CardField = credits.type !== undefined ? 'creditsType' : credits.amount !== undefined ? 'creditsAmount' : 'creditsRate';
    if (credits.type === undefined && credits.amount === undefined && credits.rate === undefined) return {};
    throw new CardChoiceError(stray, 'credits_only');
  }
  const types = [...(position.creditsTypes ?? [])];
  const type = pick('creditsType', credits?.type, types);
  if (!types.includes(type)) throw new CardChoiceError('creditsType', 'not_allowed', types, type);
  if (type === 'pack') {
    const amount = credits?.amount;
    if (amount === undefined) throw new CardChoiceError('creditsAmount', 'required');
    if (!Number.isInteger(amount) || amount <= 0) throw new CardChoiceError('creditsAmount', 'out_of_range', undefined, amount);
    if (credits?.rate !== undefined) throw new CardChoiceError('creditsRate', 'not_for_pack');
    return { creditsType: type, creditsAmount: amount };
  }
  const rate = credits?.rate;
  if (rate === undefined) throw new CardChoiceError('creditsRate', 'required');
  if (!Number.isFinite(rate) || rate <= 0) throw new CardChoiceError('creditsRate', 'out_of_range', undefined, rate);
  if (credits?.amount !== undefined) throw new CardChoiceError('creditsAmount', 'not_for_rate');
  return { creditsType: type, creditsRate: rate };
}

/**
 * Every field a form still has to ask for: those left out whose position allows more than one value
 * (in the order `buildCard` checks them), plus the price. Given values are not judged here; a field
 * that depends on an unanswered one (the delivery method on the product type) counts as missing
 * unless every possible answer leads to one value.
 */
export function missingChoices(position: Position, choices: Partial<CardChoices>, options: BuildCardOptions = {}): CardField[] {
  const missing: CardField[] = [];
  if (choices.tariff === undefined && position.tariffs.length !== 1) missing.push('tariff');
  const types = allowedProductTypes(position, options);
  const type = choices.productType ?? (types.length === 1 ? types[0] : undefined);
  if (type === undefined) missing.push('productType');
  if (choices.deliveryMethod === undefined) {
    const candidates = type === undefined ? types : [type];
    const methods = candidates.map((t) => allowedDeliveryMethods(position, t, options));
    if (!methods.every((m) => m.length === 1)) missing.push('deliveryMethod');
  }
  if (type === 'credits') {
    const credits = choices.credits ?? {};
    const creditTypes = position.creditsTypes ?? [];
    const creditsType = credits.type ?? (creditTypes.length === 1 ? creditTypes[0] : undefined);
    if (creditsType === undefined) missing.push('creditsType');
    if (creditsType === 'pack' && credits.amount === undefined) missing.push('creditsAmount');
    if (creditsType === 'rate' && credits.rate === undefined) missing.push('creditsRate');
  }
  if (choices.slaMinutes === undefined && position.slaChoices.length !== 1) missing.push('slaMinutes');
  if (choices.guaranteeDays === undefined && position.guaranteeChoices.length !== 1) missing.push('guaranteeDays');
  if (choices.priceRub === undefined) missing.push('priceRub');
  return missing;
}

/** What `cardUpdateOf` may change: the editable fields (service, tariff and product type are fixed). */
export type CardChanges = Partial<Omit<CardUpdate, 'productType'>>;

/**
 * The whole PATCH body of a card with `changes` applied: the update endpoint replaces every
 * editable field, so a partial change must carry the current values of the rest.
 * Setting `creditsType` drops the amount or rate that type does not take (unless given).
 *
 * @example
 * const card = await client.listings.get(1001);
 * await client.listings.update(1001, cardUpdateOf(card, { priceRub: 450 }));
 */
export function cardUpdateOf(card: Card, changes: CardChanges = {}): CardUpdate {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as CardChanges;
  const creditsType = defined.creditsType ?? card.creditsType ?? undefined;
  let creditsAmount = defined.creditsAmount ?? card.creditsAmount ?? undefined;
  let creditsRate = defined.creditsRate ?? card.creditsRate ?? undefined;
  if (defined.creditsType === 'pack' && defined.creditsRate === undefined) creditsRate = undefined;
  if (defined.creditsType === 'rate' && defined.creditsAmount === undefined) creditsAmount = undefined;
  return {
    productType: card.productType,
    deliveryMethod: defined.deliveryMethod ?? card.deliveryMethod,
    priceRub: defined.priceRub ?? card.priceRub,
    slaMinutes: defined.slaMinutes ?? card.slaMinutes,
    guaranteeDays: defined.guaranteeDays ?? card.guaranteeDays,
    description: defined.description ?? card.description,
    ...(creditsType === undefined ? {} : { creditsType }),
    ...(creditsAmount === undefined ? {} : { creditsAmount }),
    ...(creditsRate === undefined ? {} : { creditsRate }),
  };
}
