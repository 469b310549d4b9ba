import { describe, expect, it } from 'vitest';
import { Position } from '../../sdk/contract/catalog.ts';
import { DELIVERY_METHODS, PRODUCT_TYPES, SELLER_TYPES } from '../../sdk/contract/enums.ts';
import type { DeliveryMethod, ProductType, SellerType } from '../../sdk/contract/enums.ts';
import { SEED_CATALOG, SEED_CATEGORIES } from '../../server/seed/catalog.ts';
import { FIXTURE_PAPERS, REGISTRY, registryName } from '../../server/seed/registry.ts';

const ALLOWED: Record<ProductType, readonly DeliveryMethod[]> = {
  subscription: ['own_account', 'invite'],
  account: ['credentials'],
  code: ['code'],
  credits: ['transfer', 'code'],
};

function checkDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  weights.forEach((w, i) => (sum += w * Number(digits[i])));
  return (sum % 11) % 10;
}

function innValid(inn: string): boolean {
  if (/^\d{10}$/.test(inn)) return checkDigit(inn, [2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(inn[9]);
  if (/^\d{12}$/.test(inn)) {
    return (
      checkDigit(inn, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(inn[10]) &&
      checkDigit(inn, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(inn[11])
    );
  }
  return false;
}

/** Completes a 9- or 10-digit prefix into a valid INN. */
function makeInn(prefix: string): string {
  if (prefix.length === 9) return prefix + checkDigit(prefix, [2, 4, 10, 3, 5, 9, 4, 6, 8]);
  const eleven = prefix + checkDigit(prefix, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]);
  return eleven + checkDigit(eleven, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]);
}

function accountValid(bik: string, account: string): boolean {
  if (!/^\d{9}$/.test(bik) || !/^\d{20}$/.test(account)) return false;
  const tail = bik.slice(6, 9);
  const head = /^00[0-2]$/.test(tail) ? '0' + bik.slice(4, 6) : tail;
  const digits = head + account;
  const weights = [7, 1, 3];
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (weights[i % 3] as number);
  return sum % 10 === 0;
}

describe('seed catalogue', () => {
  it('has at least 24 positions, each parsing with the contract schema', () => {
    expect(SEED_CATALOG.length).toBeGreaterThanOrEqual(24);
    for (const p of SEED_CATALOG) {
      const parsed = Position.safeParse(p);
      expect(parsed.success, `${p.slug}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it('has unique slugs, unique tariff slugs within a position, and known categories', () => {
    const slugs = SEED_CATALOG.map((p) => p.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const p of SEED_CATALOG) {
      const tariffs = p.tariffs.map((t) => t.slug);
      expect(new Set(tariffs).size, p.slug).toBe(tariffs.length);
      expect(tariffs.length, p.slug).toBeLessThanOrEqual(4);
      expect(SEED_CATEGORIES as readonly string[], p.slug).toContain(p.category);
      expect(new Set(p.productTypes).size, p.slug).toBe(p.productTypes.length);
    }
    // every category is used
    for (const c of SEED_CATEGORIES) expect(SEED_CATALOG.some((p) => p.category === c), c).toBe(true);
  });

  it('offers every product type and every delivery method', () => {
    const types = new Set(SEED_CATALOG.flatMap((p) => p.productTypes));
    for (const t of PRODUCT_TYPES) expect(types.has(t), t).toBe(true);
    const methods = new Set(SEED_CATALOG.flatMap((p) => Object.values(p.deliveryMethods).flat()));
    for (const m of DELIVERY_METHODS) expect(methods.has(m), m).toBe(true);
  });

  it('keys deliveryMethods by exactly the offered product types, with allowed methods only', () => {
    for (const p of SEED_CATALOG) {
      expect(Object.keys(p.deliveryMethods).sort(), p.slug).toEqual([...p.productTypes].sort());
      for (const t of p.productTypes) {
        const methods = p.deliveryMethods[t] ?? [];
        expect(methods.length, `${p.slug}/${t}`).toBeGreaterThan(0);
        expect(new Set(methods).size, `${p.slug}/${t}`).toBe(methods.length);
        for (const m of methods) expect(ALLOWED[t], `${p.slug}/${t}`).toContain(m);
      }
    }
  });

  it('gives creditsTypes to credits positions only, in both kinds', () => {
    const credits = SEED_CATALOG.filter((p) => p.productTypes.includes('credits'));
    expect(credits.length).toBeGreaterThanOrEqual(3);
    for (const p of SEED_CATALOG) {
      if (p.productTypes.includes('credits')) {
        expect(p.creditsTypes?.length, p.slug).toBeGreaterThan(0);
      } else {
        expect(p.creditsTypes, p.slug).toBeUndefined();
      }
    }
    const kinds = credits.map((p) => [...(p.creditsTypes ?? [])].sort().join('+'));
    expect(kinds).toContain('pack');
    expect(kinds).toContain('rate');
    expect(kinds).toContain('pack+rate');
  });

  it('mostly offers only some product types, and choices vary', () => {
    const partial = SEED_CATALOG.filter((p) => p.productTypes.length < PRODUCT_TYPES.length);
    expect(partial.length).toBeGreaterThan(SEED_CATALOG.length / 2);
    const sla = new Set(SEED_CATALOG.map((p) => p.slaChoices.join(',')));
    const guarantee = new Set(SEED_CATALOG.map((p) => p.guaranteeChoices.join(',')));
    expect(sla.size).toBeGreaterThan(3);
    expect(guarantee.size).toBeGreaterThan(3);
    // some positions offer subscription and so are open to self-employed sellers, some are not
    expect(SEED_CATALOG.some((p) => p.productTypes.includes('subscription'))).toBe(true);
    expect(SEED_CATALOG.some((p) => !p.productTypes.includes('subscription'))).toBe(true);
  });
});

describe('fixture registry', () => {
  it('lists INNs with valid check digits whose lengths fit the seller type', () => {
    const entries = Object.entries(REGISTRY);
    expect(entries.length).toBeGreaterThanOrEqual(8);
    for (const [inn, entry] of entries) {
      expect(innValid(inn), inn).toBe(true);
      expect(inn.length, inn).toBe(entry.sellerType === 'company' ? 10 : 12);
      expect(SELLER_TYPES as readonly string[]).toContain(entry.sellerType);
    }
    for (const t of SELLER_TYPES) expect(entries.some(([, e]) => e.sellerType === t), t).toBe(true);
  });

  it('the inline INN check rejects a wrong check digit', () => {
    expect(innValid('7701234561')).toBe(false);
    expect(innValid('771234567858')).toBe(false);
    expect(innValid('77012345')).toBe(false);
  });

  it('answers the listed name for a listed INN', () => {
    expect(registryName('7701234560', 'company')).toBe('ООО «Цифровые Подписки»');
    expect(registryName('771234567859', 'ip')).toBe('ИП Петров Иван Сергеевич');
  });

  it('makes up deterministic, distinct names for unlisted INNs', () => {
    const a = makeInn('3664012345');
    const b = makeInn('2310987654');
    const c = makeInn('026401234');
    const d = makeInn('631500789');
    for (const inn of [a, b, c, d]) {
      expect(innValid(inn), inn).toBe(true);
      expect(REGISTRY[inn]).toBeUndefined();
    }
    expect(registryName(a, 'ip')).toBe(registryName(a, 'ip'));
    expect(registryName(a, 'ip')).not.toBe(registryName(b, 'ip'));
    expect(registryName(a, 'ip')).toMatch(/^ИП \S+ \S+ \S+$/);
    expect(registryName(a, 'self_employed')).toMatch(/^[А-ЯЁ]\S+ \S+ \S+$/);
    expect(registryName(c, 'company')).toMatch(/^ООО «.+»$/);
    expect(registryName(c, 'company')).toBe(registryName(c, 'company'));
    expect(registryName(c, 'company')).not.toBe(registryName(d, 'company'));
  });
});

describe('fixture papers', () => {
  it.each(SELLER_TYPES)('%s: complete and valid', (sellerType: SellerType) => {
    const p = FIXTURE_PAPERS(sellerType);
    expect(p.sellerType).toBe(sellerType);
    expect(REGISTRY[p.inn]?.sellerType).toBe(sellerType);
    expect(innValid(p.inn)).toBe(true);
    expect(p.registryName).toBe(registryName(p.inn, sellerType));
    expect(p.bankAccount.bik).toBe('044525225');
    expect(p.bankAccount.bik).toMatch(/^04\d{7}$/);
    expect(accountValid(p.bankAccount.bik, p.bankAccount.account)).toBe(true);
    expect(p.bankAccount.name.length).toBeGreaterThan(0);
    if (sellerType === 'company') expect(p.kpp).toMatch(/^\d{4}[\dA-Z]{2}\d{3}$/);
    else expect(p.kpp).toBeUndefined();
    if (p.nickname !== undefined) {
      expect(p.nickname.length).toBeGreaterThanOrEqual(3);
      expect(p.nickname.length).toBeLessThanOrEqual(24);
    }
  });

  it('the inline account check rejects a wrong control digit', () => {
    const { bankAccount } = FIXTURE_PAPERS('company');
    const broken = bankAccount.account.slice(0, 8) + ((Number(bankAccount.account[8]) + 1) % 10) + bankAccount.account.slice(9);
    expect(accountValid(bankAccount.bik, broken)).toBe(false);
  });
});
