/** Unit tests of the card rules (server/domain/cards.ts), without HTTP. */
import { describe, expect, it } from 'vitest';
import type { Position } from '../../sdk/contract/index.ts';
import {
  applyUpdate,
  checkImage,
  fieldsOf,
  goRealRefusal,
  newCardRecord,
  sellerStanding,
  sniffImage,
  startsAsTest,
  stateRefusal,
  validateCard,
  validateUpdate,
  type CardFields,
} from '../../server/domain/cards.ts';
import { CREDITS_PACK_CARD } from '../helpers/fixtures.ts';
import { SEED_CATALOG } from '../../server/seed/catalog.ts';
import { newSellerDoc } from '../../server/store/docs.ts';

const pos = (slug: string): Position => {
  const p = SEED_CATALOG.find((x) => x.slug === slug);
  if (!p) throw new Error(`no seed position ${slug}`);
  return p;
};

const spotify = pos('spotify');
const steam = pos('steam-wallet');
const openai = pos('openai-api');
const ip = { sellerType: 'ip' as const };
const selfEmployed = { sellerType: 'self_employed' as const };

const sub: CardFields = {
  service: 'spotify',
  tariff: 'individual',
  productType: 'subscription',
  deliveryMethod: 'own_account',
  priceRub: 299,
  slaMinutes: 60,
  guaranteeDays: 30,
  description: 'Spotify Premium на ваш аккаунт, продление без смены пароля',
};
const pack: CardFields = { ...CREDITS_PACK_CARD };
const rate: CardFields = { ...pack, creditsType: 'rate', creditsAmount: undefined, creditsRate: 0.9 };

describe('validateCard: a fitting card', () => {
  it.each([
    ['subscription via own_account', sub, spotify],
    ['subscription via invite', { ...sub, deliveryMethod: 'invite' as const }, spotify],
    ['account via credentials', { ...sub, productType: 'account' as const, deliveryMethod: 'credentials' as const }, spotify],
    ['code via code', { ...sub, productType: 'code' as const, deliveryMethod: 'code' as const }, spotify],
    ['credits pack', pack, steam],
    ['credits rate', rate, steam],
    ['no description', { ...sub, description: undefined }, spotify],
  ])('%s → null', (_name, card, position) => {
    expect(validateCard(position, card, ip)).toBeNull();
  });

  it('a seller without a type yet is judged like any non-self-employed seller', () => {
    expect(validateCard(spotify, { ...sub, productType: 'account', deliveryMethod: 'credentials' }, { sellerType: null })).toBeNull();
  });
});

describe('validateCard: each rule broken', () => {
  it('unknown service → complaint on service', () => {
    expect(validateCard(undefined, { ...sub, service: 'nope' }, ip)).toEqual({ kind: 'complaint', field: 'service', reason: 'unknown_service' });
  });

  it('tariff not of the position → complaint with the allowed tariffs', () => {
    expect(validateCard(spotify, { ...sub, tariff: 'gold' }, ip)).toEqual({
      kind: 'complaint',
      field: 'tariff',
      allowed: ['individual', 'duo', 'family'],
      reason: 'not_allowed',
    });
  });

  it('product type not offered → type_not_available with the offered types', () => {
    expect(validateCard(pos('apple-music'), { ...sub, service: 'apple-music', productType: 'account', deliveryMethod: 'credentials' }, ip)).toEqual({
      kind: 'type_not_available',
      field: 'productType',
      allowed: ['subscription', 'code'],
    });
  });

  it('delivery method not allowed for the type → complaint with the allowed methods', () => {
    expect(validateCard(spotify, { ...sub, deliveryMethod: 'credentials' }, ip)).toEqual({
      kind: 'complaint',
      field: 'deliveryMethod',
      allowed: ['own_account', 'invite'],
      reason: 'not_allowed',
    });
  });

  it('slaMinutes outside slaChoices → complaint with the choices', () => {
    expect(validateCard(spotify, { ...sub, slaMinutes: 45 }, ip)).toEqual({ kind: 'complaint', field: 'slaMinutes', allowed: [30, 60, 180, 720], reason: 'not_allowed' });
  });

  it('guaranteeDays outside guaranteeChoices → complaint with the choices', () => {
    expect(validateCard(spotify, { ...sub, guaranteeDays: 14 }, ip)).toEqual({ kind: 'complaint', field: 'guaranteeDays', allowed: [0, 7, 30, 90], reason: 'not_allowed' });
  });

  it.each([
    ['an e-mail', 'пишите на ivan.petrov@gmail.com', 'email'],
    ['a phone', 'звоните +7 912 345-67-89', 'phone'],
    ['a messenger link', 'вопросы: t.me/ivan_shop', 'messenger'],
  ])('description with %s → contacts on description, the contact not echoed', (_n, description, kind) => {
    const r = validateCard(spotify, { ...sub, description }, ip);
    expect(r).toMatchObject({ kind: 'contacts', field: 'description', reason: kind });
    expect(r?.detail).toMatch(/^description: the text contains .+; contacts are not allowed$/);
    expect(JSON.stringify(r)).not.toMatch(/ivan|912|345/);
  });
});

describe('validateCard: credits', () => {
  it('credits without creditsType → complaint, allowed the position’s credits types', () => {
    expect(validateCard(steam, { ...pack, creditsType: undefined }, ip)).toEqual({
      kind: 'complaint',
      field: 'creditsType',
      allowed: ['pack', 'rate'],
      reason: 'required',
    });
  });

  it('a credits type the position does not offer → complaint with the offered ones', () => {
    expect(validateCard(openai, { ...pack, service: 'openai-api', tariff: 'balance', slaMinutes: 60 }, ip)).toEqual({
      kind: 'complaint',
      field: 'creditsType',
      allowed: ['rate'],
      reason: 'not_allowed',
    });
  });

  it('pack without creditsAmount → complaint on creditsAmount', () => {
    expect(validateCard(steam, { ...pack, creditsAmount: undefined }, ip)).toMatchObject({ kind: 'complaint', field: 'creditsAmount' });
  });

  it('pack with a creditsRate → complaint on creditsRate', () => {
    expect(validateCard(steam, { ...pack, creditsRate: 1.5 }, ip)).toMatchObject({ kind: 'complaint', field: 'creditsRate' });
  });

  it('rate without creditsRate → complaint on creditsRate', () => {
    expect(validateCard(steam, { ...rate, creditsRate: undefined }, ip)).toMatchObject({ kind: 'complaint', field: 'creditsRate' });
  });

  it('rate with a creditsAmount → complaint on creditsAmount', () => {
    expect(validateCard(steam, { ...rate, creditsAmount: 10 }, ip)).toMatchObject({ kind: 'complaint', field: 'creditsAmount' });
  });

  it.each(['creditsType', 'creditsAmount', 'creditsRate'] as const)('%s on a non-credits card → complaint on that field', (field) => {
    const value = field === 'creditsType' ? 'pack' : 5;
    expect(validateCard(spotify, { ...sub, [field]: value }, ip)).toEqual({ kind: 'complaint', field, reason: 'credits_only' });
  });
});

describe('validateCard: the self-employed rule', () => {
  it('subscription via own_account or invite is allowed', () => {
    expect(validateCard(spotify, sub, selfEmployed)).toBeNull();
    expect(validateCard(spotify, { ...sub, deliveryMethod: 'invite' }, selfEmployed)).toBeNull();
  });

  it.each([
    ['account', { ...sub, productType: 'account' as const, deliveryMethod: 'credentials' as const }, spotify],
    ['code', { ...sub, productType: 'code' as const, deliveryMethod: 'code' as const }, spotify],
    ['credits', pack, steam],
  ])('%s → self_employed_forbidden', (_n, card, position) => {
    expect(validateCard(position, card, selfEmployed)).toEqual({
      kind: 'self_employed_forbidden',
      field: 'productType',
      allowed: ['subscription'],
    });
  });
});

describe('validateCard: order of the checks (most fundamental first)', () => {
  const everythingWrong: CardFields = {
    ...sub,
    tariff: 'gold',
    productType: 'credits',
    deliveryMethod: 'code',
    slaMinutes: 1,
    guaranteeDays: 1,
    creditsAmount: 1,
    description: 'ivan@gmail.com',
  };
  it('service, tariff, productType, deliveryMethod, seller, credits, sla, guarantee, description', () => {
    const steps: [CardFields, string, string | undefined][] = [];
    let card: CardFields = { ...everythingWrong, service: 'nope' };
    const position = (c: CardFields) => SEED_CATALOG.find((p) => p.slug === c.service);
    const next = (fix: Partial<CardFields>) => (card = { ...card, ...fix });
    const expectStep = (kind: string, field: string | undefined, seller = selfEmployed) => {
      const r = validateCard(position(card), card, seller);
      expect(r?.kind).toBe(kind);
      expect(r?.field).toBe(field);
      steps.push([card, kind, field]);
    };
    expectStep('complaint', 'service');
    next({ service: 'spotify' });
    expectStep('complaint', 'tariff');
    next({ tariff: 'individual' });
    expectStep('type_not_available', 'productType');
    next({ productType: 'subscription' });
    expectStep('complaint', 'deliveryMethod');
    next({ productType: 'account', deliveryMethod: 'credentials' });
    expectStep('self_employed_forbidden', 'productType');
    next({ productType: 'subscription', deliveryMethod: 'own_account' });
    expectStep('complaint', 'creditsAmount');
    next({ creditsAmount: undefined });
    expectStep('complaint', 'slaMinutes');
    next({ slaMinutes: 60 });
    expectStep('complaint', 'guaranteeDays');
    next({ guaranteeDays: 30 });
    expectStep('contacts', 'description');
    next({ description: 'чисто' });
    expect(validateCard(position(card), card, selfEmployed)).toBeNull();
    expect(steps).toHaveLength(9);
  });
});

describe('validateUpdate', () => {
  const current = newCardRecord(1001, sub, false, new Date('2026-01-01T00:00:00.000Z'));
  const { service: _s, tariff: _t, ...body } = sub;

  it('the same product type passes through the card rules', () => {
    expect(validateUpdate(spotify, current, body, ip)).toBeNull();
    expect(validateUpdate(spotify, current, { ...body, slaMinutes: 7 }, ip)).toMatchObject({ kind: 'complaint', field: 'slaMinutes' });
  });

  it('another offered product type → complaint on productType, allowed the current one', () => {
    expect(validateUpdate(spotify, current, { ...body, productType: 'code', deliveryMethod: 'code' }, ip)).toEqual({
      kind: 'complaint',
      field: 'productType',
      allowed: ['subscription'],
      reason: 'fixed_after_creation',
    });
  });

  it('a product type the position does not offer → type_not_available', () => {
    expect(validateUpdate(spotify, current, { ...body, productType: 'credits', deliveryMethod: 'transfer' }, ip)).toMatchObject({
      kind: 'type_not_available',
      allowed: ['subscription', 'account', 'code'],
    });
  });

  it('the self-employed rule holds on update too', () => {
    const acct = newCardRecord(1002, { ...sub, productType: 'account', deliveryMethod: 'credentials' }, false, new Date());
    expect(validateUpdate(spotify, acct, { ...body, productType: 'account', deliveryMethod: 'credentials' }, selfEmployed)).toMatchObject({
      kind: 'self_employed_forbidden',
    });
  });

  it('applyUpdate keeps the description when none is sent, and replaces the credits fields', () => {
    const card = newCardRecord(1003, pack, false, new Date('2026-01-01T00:00:00.000Z'));
    card.description = 'old text';
    const { service: _a, tariff: _b, ...update } = { ...rate, description: undefined };
    applyUpdate(card, update, new Date('2026-01-02T00:00:00.000Z'));
    expect(card).toMatchObject({ description: 'old text', creditsType: 'rate', creditsAmount: null, creditsRate: 0.9, updatedAt: '2026-01-02T00:00:00.000Z' });
    applyUpdate(card, { ...update, description: '' }, new Date('2026-01-03T00:00:00.000Z'));
    expect(card.description).toBe('');
  });
});

describe('new cards and copies', () => {
  it('a new card is switched off, without auto-delivery or image', () => {
    const card = newCardRecord(1001, { ...sub, stock: 5, confirmRequired: true }, true, new Date('2026-01-01T00:00:00.000Z'));
    expect(card).toMatchObject({ isActive: false, autoIssue: false, isTest: true, image: null, declaredStock: 5, confirmRequired: true });
    expect(card.createdAt).toBe(card.updatedAt);
  });

  it('fieldsOf gives back a body that validates and recreates the same card', () => {
    const card = newCardRecord(1001, pack, false, new Date());
    const fields = fieldsOf(card);
    expect(validateCard(steam, fields, ip)).toBeNull();
    expect(newCardRecord(1002, fields, false, new Date(card.createdAt))).toEqual({ ...card, number: 1002 });
  });
});

describe('test and real', () => {
  it('startsAsTest: test while admission is incomplete or in test mode', () => {
    expect(startsAsTest({ admissionComplete: true, testMode: false })).toBe(false);
    expect(startsAsTest({ admissionComplete: false, testMode: false })).toBe(true);
    expect(startsAsTest({ admissionComplete: true, testMode: true })).toBe(true);
  });

  it('goRealRefusal: needs complete papers and a live seller', () => {
    expect(goRealRefusal({ admissionComplete: true, testMode: false })).toBeNull();
    expect(goRealRefusal({ admissionComplete: false, testMode: false })).toEqual({ kind: 'test_to_real_needs_papers', reason: 'admission_incomplete' });
    expect(goRealRefusal({ admissionComplete: true, testMode: true })).toEqual({ kind: 'test_to_real_needs_papers', reason: 'test_seller' });
  });

  it('sellerStanding reads the papers and both modes', () => {
    const doc = newSellerDoc('sel_x');
    expect(sellerStanding({ seller: { mode: 'live' }, key: { mode: 'live' }, doc })).toEqual({ admissionComplete: false, testMode: false });
    expect(sellerStanding({ seller: { mode: 'live' }, key: { mode: 'test' }, doc }).testMode).toBe(true);
    expect(sellerStanding({ seller: { mode: 'test' }, key: { mode: 'live' }, doc }).testMode).toBe(true);
  });
});

describe('stateRefusal', () => {
  const code = { deliveryMethod: 'code' as const, autoIssue: false };
  it('switching on or off without auto-delivery needs nothing', () => {
    expect(stateRefusal(code, { active: true }, 0)).toBeNull();
    expect(stateRefusal(code, { active: false }, 0)).toBeNull();
  });
  it('auto-delivery on a stock-able card needs free stock', () => {
    expect(stateRefusal(code, { active: true, autoIssue: true }, 0)).toEqual({ kind: 'stock_empty', field: 'autoIssue' });
    expect(stateRefusal(code, { active: false, autoIssue: true }, 0)).toEqual({ kind: 'stock_empty', field: 'autoIssue' });
    expect(stateRefusal(code, { active: true, autoIssue: true }, 1)).toBeNull();
  });
  it('auto-delivery on a card delivered by hand → complaint on autoIssue', () => {
    expect(stateRefusal({ deliveryMethod: 'own_account', autoIssue: false }, { active: true, autoIssue: true }, 5)).toMatchObject({
      kind: 'complaint',
      field: 'autoIssue',
    });
  });
  it('switching on a card whose auto-delivery is already on re-checks the stock; switching off does not', () => {
    const on = { deliveryMethod: 'credentials' as const, autoIssue: true };
    expect(stateRefusal(on, { active: true }, 0)?.kind).toBe('stock_empty');
    expect(stateRefusal(on, { active: false }, 0)).toBeNull();
    expect(stateRefusal(on, { active: true, autoIssue: false }, 0)).toBeNull();
  });
});

describe('images', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
  const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

  it('sniffImage knows the three types by their magic bytes', () => {
    expect(sniffImage(png)).toBe('image/png');
    expect(sniffImage(jpeg)).toBe('image/jpeg');
    expect(sniffImage(webp)).toBe('image/webp');
    expect(sniffImage(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WAVE'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });

  it('checkImage: declared type, then size, then the bytes', () => {
    expect(checkImage('image/png', png, 100)).toEqual({ type: 'image/png' });
    expect(checkImage('IMAGE/JPEG; charset=binary', jpeg, 100)).toEqual({ type: 'image/jpeg' });
    expect(checkImage('image/gif', png, 100)).toMatchObject({ kind: 'image_type', reason: 'unsupported_type' });
    expect(checkImage(undefined, png, 100)).toMatchObject({ kind: 'image_type' });
    expect(checkImage('image/png', jpeg, 100)).toMatchObject({ kind: 'image_type', reason: 'content_mismatch' });
    expect(checkImage('image/png', png, 5)).toMatchObject({ kind: 'image_size' });
  });
});
