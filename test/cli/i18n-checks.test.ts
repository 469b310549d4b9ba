/**
 * The SDK's offline checks answer English developer text; the CLI says each in Russian
 * (cli/i18n/checks.ts). Every detail the SDK's bank checks can give has a Russian form, and a
 * detail of a form it does not know passes unchanged.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDetail, checkKey } from '../../cli/i18n/checks.ts';
import { useLanguage } from '../../cli/i18n/index.ts';
import { validateAccount, validateBik, validateInn, validatePhone } from '../../sdk/validate/index.ts';

const source = readFileSync(resolve(import.meta.dirname, '../../sdk/validate/bank.ts'), 'utf8');

/** Every detail text the SDK's checks can give, with its interpolations as numbers. */
const details = [...source.matchAll(/(?:fail\('[a-z_]+', |detail: )(['"`])((?:\\.|(?!\1).)*)\1/g)].map((m) => m[2]!.replace(/\$\{[^}]*\}/g, '12').replace(/\\'/g, "'"));

afterEach(() => useLanguage('en'));

describe('the SDK checks in the seller’s language', () => {
  it('finds the details in the SDK source', () => {
    expect(details.length).toBeGreaterThan(20);
    expect(details).toContain('The second INN check digit (the 12th) does not match.');
  });

  it('knows the form of every detail the SDK checks give', () => {
    expect(details.filter((detail) => checkKey(detail) === undefined)).toEqual([]);
  });

  it('says them in Russian, with their numbers, and leaves English as it is', async () => {
    let inn12 = '';
    for (let d = 0; d < 100 && !inn12; d++) {
      const candidate = `7712345678${String(d).padStart(2, '0')}`;
      const check = validateInn(candidate, 'ip');
      if (!check.ok && check.detail.startsWith('The second')) inn12 = check.detail;
    }
    const bik = validateBik('04452522');
    const account = validateAccount('40702810900000000001', '044525225');
    const phone = validatePhone('89991234567');
    expect(checkDetail(inn12)).toBe('The second INN check digit (the 12th) does not match.');
    await useLanguage('ru');
    expect(checkDetail(inn12)).toBe('Вторая контрольная цифра ИНН (12-я) не совпадает.');
    expect(!bik.ok && checkDetail(bik.detail)).toBe('В БИК должно быть 9 цифр, а не 8.');
    expect(!account.ok && checkDetail(account.detail)).toBe('Счёт, оканчивающийся на 0001, не проходит проверку контрольной цифры с БИК 044525225.');
    expect(!phone.ok && checkDetail(phone.detail)).toBe('Номер телефона должен начинаться с 7.');
    expect(checkDetail('Something the SDK may say one day.')).toBe('Something the SDK may say one day.');
  });
});
