/**
 * A card's choices against its catalogue position, written once: the server refuses a card at its
 * first misfit (server/domain/cards.ts, as the spec orders the rules), and a scenario's check names
 * every misfit of every `card:` step before the run (sdk/scenario/catalog.ts). No zod here: the
 * scenario check runs in the SDK, which reads the catalogue tolerantly.
 */

/** What the fit looks at of a position (the contract's `Position`, read tolerantly). */
export interface PositionChoices {
  tariffs: ReadonlyArray<{ slug: string }>;
  productTypes: readonly string[];
  /** For each offered product type, the delivery methods it allows. */
  deliveryMethods: Partial<Record<string, readonly string[]>>;
  slaChoices: readonly number[];
  guaranteeChoices: readonly number[];
  creditsTypes?: readonly string[] | undefined;
}

/** A card's choices (a creation body, or a card's fixed fields with an update). */
export interface CardChoices {
  tariff: string;
  productType: string;
  deliveryMethod: string;
  slaMinutes: number;
  guaranteeDays: number;
  creditsType?: string | undefined;
}

/** A choice the position does not offer, with what it does offer. */
export interface CatalogMisfit {
  field: 'tariff' | 'productType' | 'deliveryMethod' | 'slaMinutes' | 'guaranteeDays' | 'creditsType';
  value: string | number;
  allowed: Array<string | number>;
}

/**
 * Every choice of `card` its position does not offer, in the spec's order: tariff, product type,
 * delivery method (only when the product type is offered: the methods are the type's), SLA,
 * guarantee, credits type (a `credits` card that names one).
 */
export function catalogMisfits(position: PositionChoices, card: CardChoices): CatalogMisfit[] {
  const misfits: CatalogMisfit[] = [];
  const check = (field: CatalogMisfit['field'], value: string | number, allowed: ReadonlyArray<string | number>) => {
    if (!allowed.includes(value)) misfits.push({ field, value, allowed: [...allowed] });
  };
  check('tariff', card.tariff, position.tariffs.map((t) => t.slug));
  check('productType', card.productType, position.productTypes);
  if (position.productTypes.includes(card.productType)) check('deliveryMethod', card.deliveryMethod, position.deliveryMethods[card.productType] ?? []);
  check('slaMinutes', card.slaMinutes, position.slaChoices);
  check('guaranteeDays', card.guaranteeDays, position.guaranteeChoices);
  if (card.productType === 'credits' && card.creditsType !== undefined) check('creditsType', card.creditsType, position.creditsTypes ?? []);
  return misfits;
}
