import { describe, expect, expectTypeOf, it } from 'vitest';
import type { SellerClient } from '../../sdk/client.ts';
import {
  allowedDeliveryMethods,
  allowedProductTypes,
  buildCard,
  CardChoiceError,
  cardUpdateOf,
  missingChoices,
  type CardChoices,
  type BuildCardOptions,
} from '../../sdk/card-builder.ts';
import { NewCard, CardUpdate, type Card, type Position } from '../../sdk/contract/index.ts';
import type { Tolerant, Widened } from '../../sdk/open.ts';
import * as sdk from '../../sdk/index.ts';
import { SOLO, SPOTIFY } from '../helpers/fixtures.ts';

const STEAM: Position = {
  slug: 'steam-wallet',
  title: 'Steam wallet',
  category: 'games',
  tariffs: [{ slug: 'any', title: 'Any region' }],
  productTypes: ['credits', 'code'],
  deliveryMethods: { credits: ['transfer', 'code'], code: ['code'] },
  slaChoices: [15, 60],
  guaranteeChoices: [0],
  creditsTypes: ['pack', 'rate'],
};

const GEMS: Position = { ...STEAM, slug: 'gems', productTypes: ['credits'], deliveryMethods: { credits: ['transfer'] }, creditsTypes: ['pack'] };

const full: CardChoices = { tariff: 'family', productType: 'code', deliveryMethod: 'code', slaMinutes: 60, guaranteeDays: 7, priceRub: 390 };

/** The error `buildCard` throws for these choices. */
function refusal(position: Position, choices: Partial<CardChoices>, options?: BuildCardOptions): CardChoiceError {
  try {
    buildCard(position, { priceRub: 100, ...choices } as CardChoices, options);
  } catch (error) {
    expect(error).toBeInstanceOf(CardChoiceError);
    return error as CardChoiceError;
  }
  throw new Error('buildCard did not throw');
}

describe('buildCard', () => {
  it('builds a body the contract accepts, with only the given optional fields', () => {
    const body = buildCard(SPOTIFY, { ...full, description: 'Instant code', confirmRequired: true, stock: 5 });
    expect(body).toEqual({
      service: 'spotify',
      tariff: 'family',
      productType: 'code',
      deliveryMethod: 'code',
      priceRub: 390,
      slaMinutes: 60,
      guaranteeDays: 7,
      description: 'Instant code',
      confirmRequired: true,
      stock: 5,
    });
    expect(NewCard.safeParse(body).success).toBe(true);
    expect(Object.keys(buildCard(SPOTIFY, full)).sort()).toEqual(
      ['deliveryMethod', 'guaranteeDays', 'priceRub', 'productType', 'service', 'slaMinutes', 'tariff'],
    );
  });

  it('takes the only allowed value of every choice left out', () => {
    expect(buildCard(SOLO, { priceRub: 199 })).toEqual({
      service: 'soundcloud-go',
      tariff: '1m',
      productType: 'subscription',
      deliveryMethod: 'own_account',
      priceRub: 199,
      slaMinutes: 60,
      guaranteeDays: 30,
    });
    // The delivery method of `account` on Spotify is fixed; the other choices are not.
    expect(buildCard(SPOTIFY, { ...full, productType: 'account', deliveryMethod: undefined }).deliveryMethod).toBe('credentials');
  });

  it('accepts a product type and delivery method the position offers that our enums do not list', () => {
    const grown = { ...SPOTIFY, productTypes: [...SPOTIFY.productTypes, 'gift_card'], deliveryMethods: { ...SPOTIFY.deliveryMethods, gift_card: ['email_link'] } };
    const body = buildCard(grown, { tariff: 'family', productType: 'gift_card', slaMinutes: 30, guaranteeDays: 7, priceRub: 390 });
    expect(body).toMatchObject({ productType: 'gift_card', deliveryMethod: 'email_link' });
    // …and still refuses one the position does not offer, naming the position's own list.
    expect(() => buildCard(grown, { tariff: 'family', productType: 'voucher', priceRub: 390 })).toThrow(/"voucher" is not offered by the position; allowed: .*gift_card/);
  });

  it('builds what the client methods take (types)', () => {
    type CreateInput = Parameters<SellerClient['listings']['create']>[0];
    type UpdateInput = Parameters<SellerClient['listings']['update']>[1];
    expectTypeOf(buildCard).returns.toEqualTypeOf<Widened<NewCard>>();
    expectTypeOf<ReturnType<typeof buildCard>>().toExtend<CreateInput>();
    expectTypeOf<ReturnType<typeof cardUpdateOf>>().toExtend<UpdateInput>();
    expectTypeOf(cardUpdateOf).parameter(0).toEqualTypeOf<Tolerant<Card>>();
  });

  it('is exported from the package entry', () => {
    expect(sdk.buildCard).toBe(buildCard);
    expect(sdk.CardChoiceError).toBe(CardChoiceError);
  });

  describe('refuses before the call, naming the field and the allowed values', () => {
    it('tariff: missing with several, or unknown', () => {
      expect(refusal(SPOTIFY, { ...full, tariff: undefined })).toMatchObject({ field: 'tariff', reason: 'required', allowed: ['individual', 'family'] });
      const e = refusal(SPOTIFY, { ...full, tariff: 'duo' });
      expect(e).toMatchObject({ field: 'tariff', reason: 'not_allowed', allowed: ['individual', 'family'], value: 'duo' });
      expect(e.message).toBe('tariff "duo" is not allowed; allowed: individual, family');
    });

    it('productType: missing with several, or not offered (type_not_available)', () => {
      expect(refusal(SPOTIFY, { ...full, productType: undefined })).toMatchObject({ field: 'productType', reason: 'required', allowed: ['subscription', 'account', 'code'] });
      expect(refusal(SPOTIFY, { ...full, productType: 'credits' })).toMatchObject({
        field: 'productType',
        reason: 'type_not_available',
        allowed: ['subscription', 'account', 'code'],
      });
    });

    it('deliveryMethod: must be one of the product type’s methods', () => {
      expect(refusal(SPOTIFY, { ...full, productType: 'subscription', deliveryMethod: undefined })).toMatchObject({
        field: 'deliveryMethod',
        reason: 'required',
        allowed: ['own_account', 'invite'],
      });
      expect(refusal(SPOTIFY, { ...full, productType: 'subscription', deliveryMethod: 'credentials' })).toMatchObject({
        field: 'deliveryMethod',
        reason: 'not_allowed',
        allowed: ['own_account', 'invite'],
      });
    });

    it('slaMinutes and guaranteeDays: only the position’s choices', () => {
      expect(refusal(SPOTIFY, { ...full, slaMinutes: 45 })).toMatchObject({ field: 'slaMinutes', reason: 'not_allowed', allowed: [30, 60, 180] });
      expect(refusal(SPOTIFY, { ...full, slaMinutes: undefined })).toMatchObject({ field: 'slaMinutes', reason: 'required', allowed: [30, 60, 180] });
      expect(refusal(SPOTIFY, { ...full, guaranteeDays: 14 })).toMatchObject({ field: 'guaranteeDays', reason: 'not_allowed', allowed: [0, 7, 30] });
      expect(refusal(SPOTIFY, { ...full, guaranteeDays: undefined })).toMatchObject({ field: 'guaranteeDays', reason: 'required', allowed: [0, 7, 30] });
    });

    it('priceRub, description and stock: required and in range', () => {
      expect(refusal(SPOTIFY, { ...full, priceRub: undefined as unknown as number })).toMatchObject({ field: 'priceRub', reason: 'required' });
      for (const priceRub of [0, 10.5, 10_000_001]) expect(refusal(SPOTIFY, { ...full, priceRub })).toMatchObject({ field: 'priceRub', reason: 'out_of_range' });
      expect(refusal(SPOTIFY, { ...full, description: 'x'.repeat(5001) })).toMatchObject({ field: 'description', reason: 'out_of_range' });
      expect(refusal(SPOTIFY, { ...full, stock: -1 })).toMatchObject({ field: 'stock', reason: 'out_of_range' });
    });
  });

  describe('credits, judged as a whole', () => {
    const credits = { tariff: 'any', productType: 'credits' as const, deliveryMethod: 'transfer' as const, slaMinutes: 15, priceRub: 500 };

    it('pack takes an amount, rate takes a rate', () => {
      expect(buildCard(STEAM, { ...credits, credits: { type: 'pack', amount: 1000 } })).toMatchObject({ creditsType: 'pack', creditsAmount: 1000, guaranteeDays: 0 });
      const rate = buildCard(STEAM, { ...credits, credits: { type: 'rate', rate: 2.5 } });
      expect(rate).toMatchObject({ creditsType: 'rate', creditsRate: 2.5 });
      expect(rate).not.toHaveProperty('creditsAmount');
    });

    it('the credits type defaults to the only one the position offers', () => {
      expect(buildCard(GEMS, { ...credits, credits: { amount: 50 } })).toMatchObject({ creditsType: 'pack', creditsAmount: 50 });
    });

    it('refuses a missing or foreign type, a missing number, and the number of the other type', () => {
      expect(refusal(STEAM, { ...credits })).toMatchObject({ field: 'creditsType', reason: 'required', allowed: ['pack', 'rate'] });
      expect(refusal(GEMS, { ...credits, credits: { type: 'rate', rate: 1 } })).toMatchObject({ field: 'creditsType', reason: 'not_allowed', allowed: ['pack'] });
      expect(refusal(STEAM, { ...credits, credits: { type: 'pack' } })).toMatchObject({ field: 'creditsAmount', reason: 'required' });
      expect(refusal(STEAM, { ...credits, credits: { type: 'rate' } })).toMatchObject({ field: 'creditsRate', reason: 'required' });
      expect(refusal(STEAM, { ...credits, credits: { type: 'pack', amount: 1, rate: 2 } })).toMatchObject({ field: 'creditsRate', reason: 'not_for_pack' });
      expect(refusal(STEAM, { ...credits, credits: { type: 'rate', amount: 1, rate: 2 } })).toMatchObject({ field: 'creditsAmount', reason: 'not_for_rate' });
      expect(refusal(STEAM, { ...credits, credits: { type: 'pack', amount: 1.5 } })).toMatchObject({ field: 'creditsAmount', reason: 'out_of_range' });
      expect(refusal(STEAM, { ...credits, credits: { type: 'rate', rate: 0 } })).toMatchObject({ field: 'creditsRate', reason: 'out_of_range' });
    });

    it('refuses credits fields on a card of another type', () => {
      expect(refusal(SPOTIFY, { ...full, credits: { type: 'pack', amount: 5 } })).toMatchObject({ field: 'creditsType', reason: 'credits_only' });
      expect(refusal(SPOTIFY, { ...full, credits: { rate: 5 } })).toMatchObject({ field: 'creditsRate', reason: 'credits_only' });
      expect(buildCard(SPOTIFY, { ...full, credits: {} })).not.toHaveProperty('creditsType');
    });
  });

  describe('the self-employed rule (with sellerType)', () => {
    const se = { sellerType: 'self_employed' } as const;

    it('allows a subscription by own account or invite, and narrows the defaults', () => {
      expect(allowedProductTypes(SPOTIFY, se)).toEqual(['subscription']);
      expect(allowedDeliveryMethods(STEAM, 'credits', se)).toEqual([]);
      const body = buildCard(SPOTIFY, { ...full, productType: undefined, deliveryMethod: 'invite' }, se);
      expect(body.productType).toBe('subscription');
    });

    it('refuses other product types, naming what the seller may choose', () => {
      expect(refusal(SPOTIFY, { ...full, productType: 'account', deliveryMethod: 'credentials' }, se)).toMatchObject({
        field: 'productType',
        reason: 'self_employed_forbidden',
        allowed: ['subscription'],
      });
      expect(refusal(SPOTIFY, { ...full, productType: 'code', deliveryMethod: undefined }, se)).toMatchObject({ field: 'productType', reason: 'self_employed_forbidden' });
      expect(refusal(STEAM, { tariff: 'any', slaMinutes: 15 }, se)).toMatchObject({ field: 'productType', reason: 'self_employed_forbidden', allowed: ['subscription'] });
    });

    it('judges the delivery method against the position before the seller (as the server does)', () => {
      expect(refusal(SPOTIFY, { ...full, productType: 'account', deliveryMethod: 'invite' }, se)).toMatchObject({ field: 'deliveryMethod', reason: 'not_allowed' });
    });

    it('without sellerType the rule is not applied', () => {
      expect(buildCard(SPOTIFY, { ...full, productType: 'account', deliveryMethod: 'credentials' }).productType).toBe('account');
      expect(buildCard(SPOTIFY, { ...full, productType: 'account', deliveryMethod: 'credentials' }, { sellerType: 'ip' }).productType).toBe('account');
    });
  });
});

describe('missingChoices', () => {
  it('names every field still to ask, in order', () => {
    expect(missingChoices(SPOTIFY, {})).toEqual(['tariff', 'productType', 'deliveryMethod', 'slaMinutes', 'guaranteeDays', 'priceRub']);
    expect(missingChoices(SOLO, {})).toEqual(['priceRub']);
    expect(missingChoices(SPOTIFY, { ...full })).toEqual([]);
    expect(missingChoices(SPOTIFY, { ...full, productType: 'code', deliveryMethod: undefined })).toEqual([]);
  });

  it('asks the credits fields of a credits card', () => {
    expect(missingChoices(STEAM, { productType: 'credits', deliveryMethod: 'transfer', slaMinutes: 15, priceRub: 1 })).toEqual(['creditsType']);
    expect(missingChoices(GEMS, { slaMinutes: 15, priceRub: 1 })).toEqual(['creditsAmount']);
    expect(missingChoices(STEAM, { productType: 'credits', deliveryMethod: 'code', slaMinutes: 15, priceRub: 1, credits: { type: 'rate' } })).toEqual(['creditsRate']);
  });
});

describe('cardUpdateOf', () => {
  const card: Card = {
    number: 1001,
    service: 'steam-wallet',
    tariff: 'any',
    productType: 'credits',
    deliveryMethod: 'transfer',
    priceRub: 500,
    slaMinutes: 15,
    guaranteeDays: 0,
    description: 'Fast',
    creditsType: 'pack',
    creditsAmount: 1000,
    creditsRate: null,
    declaredStock: 0,
    confirmRequired: false,
    isActive: true,
    isTest: false,
    autoIssue: false,
    stock: { free: 0, issued: 0 },
    image: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };

  it('is the whole body with only the changed fields replaced', () => {
    const body = cardUpdateOf(card, { priceRub: 450, slaMinutes: undefined });
    expect(body).toEqual({
      productType: 'credits',
      deliveryMethod: 'transfer',
      priceRub: 450,
      slaMinutes: 15,
      guaranteeDays: 0,
      description: 'Fast',
      creditsType: 'pack',
      creditsAmount: 1000,
    });
    expect(CardUpdate.safeParse(body).success).toBe(true);
  });

  it('switching the credits type drops the other type’s number', () => {
    expect(cardUpdateOf(card, { creditsType: 'rate', creditsRate: 3 })).toMatchObject({ creditsType: 'rate', creditsRate: 3 });
    expect(cardUpdateOf(card, { creditsType: 'rate', creditsRate: 3 })).not.toHaveProperty('creditsAmount');
  });
});
