/**
 * Offline identifier checks.
 *
 * How the vectors were derived: the real ones are public bank and company details (BIK 044525225 with
 * its correspondent account 30101810400000000225; INN 7707083893, KPP 773601001). Every other vector
 * was computed independently of this code with a throw-away python3 snippet implementing the same
 * published rules:
 *   - account: key = BIK[6:9] (or '0' + BIK[4:6] for a BIK ending 000/001/002 and for a 30101…
 *     correspondent account); sum(int(c) * [7,1,3][i % 3] for i, c in enumerate(key + account)) % 10 == 0;
 *     the control digit is the one digit at account[8] that makes this true;
 *   - INN-10: sum(d[i] * [2,4,10,3,5,9,4,6,8][i]) % 11 % 10 == d[9];
 *   - INN-12: the same with [7,2,4,10,3,5,9,4,6,8] → d[10] and [3,7,2,4,10,3,5,9,4,6,8] → d[11].
 * Results: 4070281_0_00000012345 at 044525225 → control 2 (with the wrong key '025' it would be 0);
 * 4010181_0_00000010041 at 044525000 → control 8 (with the naive key '000' it would be 7);
 * 40102810_00000000001 at 044030001 → control 4; INN-12 from 5001234567 → 500123456750; INN-10 from
 * 500100732 → 5001007329.
 */
import { describe, expect, it } from 'vitest';
import {
  accountControlDigit,
  normalizePhone,
  validateAccount,
  validateBik,
  validateInn,
  validateKpp,
  validatePayout,
  validatePhone,
} from '../../sdk/validate/index.ts';
import type { CheckResult, PayoutInput } from '../../sdk/validate/index.ts';

const kindOf = (r: CheckResult): string | null => (r.ok ? null : r.kind);
const detailOf = (r: CheckResult): string => (r.ok ? '' : r.detail);

const SBER_BIK = '044525225';
const SBER_CORR = '30101810400000000225';
const SBER_ACCOUNT = '40702810200000012345'; // control digit 2 (python)
const SBER_ACCOUNT_BROKEN = '40702810300000012345'; // control digit changed 2 → 3
const RKC_BIK = '044525000'; // a settlement centre (ends 000)
const RKC_ACCOUNT = '40101810800000010041'; // control digit 8 with key '025' (python)
const RKC_ACCOUNT_NAIVE = '40101810700000010041'; // what the key '000' would give: must be refused
const RKC001_BIK = '044030001';
const RKC001_ACCOUNT = '40102810400000000001'; // control digit 4 with key '030' (python)

describe('validateBik', () => {
  it('accepts nine digits beginning with 04', () => {
    expect(validateBik(SBER_BIK)).toEqual({ ok: true });
    expect(validateBik(RKC_BIK)).toEqual({ ok: true });
  });
  it.each([
    ['wrong length (8)', '04452522'],
    ['wrong length (10)', '0445252250'],
    ['wrong country code', '054525225'],
    ['letters', '04452522A'],
    ['spaces', '044 525 225'],
    ['empty', ''],
  ])('refuses %s', (_label, bik) => {
    const r = validateBik(bik);
    expect(kindOf(r)).toBe('bik_bad');
    expect(detailOf(r).length).toBeGreaterThan(0);
  });
  it('refuses a missing value', () => {
    expect(kindOf(validateBik(undefined))).toBe('bik_bad');
  });
});

describe('validateAccount', () => {
  it("accepts a real bank's correspondent account with its BIK", () => {
    expect(validateAccount(SBER_CORR, SBER_BIK)).toEqual({ ok: true });
  });
  it('accepts a settlement account at a bank and refuses it with the control digit broken', () => {
    expect(validateAccount(SBER_ACCOUNT, SBER_BIK)).toEqual({ ok: true });
    expect(kindOf(validateAccount(SBER_ACCOUNT_BROKEN, SBER_BIK))).toBe('account_bad');
  });
  it('uses 0 + BIK digits 5–6 for a settlement-centre BIK (ending 000 / 001)', () => {
    expect(validateAccount(RKC_ACCOUNT, RKC_BIK)).toEqual({ ok: true });
    expect(kindOf(validateAccount(RKC_ACCOUNT_NAIVE, RKC_BIK))).toBe('account_bad');
    expect(validateAccount(RKC001_ACCOUNT, RKC001_BIK)).toEqual({ ok: true });
  });
  it('refuses a valid account paired with another bank', () => {
    expect(kindOf(validateAccount(SBER_ACCOUNT, '044525593'))).toBe('account_bad');
  });
  it('checks the BIK first', () => {
    expect(kindOf(validateAccount(SBER_ACCOUNT, '123'))).toBe('bik_bad');
    expect(kindOf(validateAccount('garbage', undefined))).toBe('bik_bad');
  });
  it.each([
    ['19 digits', SBER_ACCOUNT.slice(1)],
    ['21 digits', `${SBER_ACCOUNT}0`],
    ['a letter', '4070281020000001234A'],
    ['empty', ''],
  ])('refuses %s', (_label, account) => {
    expect(kindOf(validateAccount(account, SBER_BIK))).toBe('account_bad');
  });
  it('never echoes the whole account number', () => {
    const r = validateAccount(SBER_ACCOUNT_BROKEN, SBER_BIK);
    expect(detailOf(r)).not.toContain(SBER_ACCOUNT_BROKEN);
    expect(detailOf(r)).toContain('2345');
  });
});

describe('accountControlDigit', () => {
  it('computes the 9th digit', () => {
    expect(accountControlDigit(SBER_ACCOUNT_BROKEN, SBER_BIK)).toBe(2);
    expect(accountControlDigit(SBER_CORR, SBER_BIK)).toBe(4);
    expect(accountControlDigit(RKC_ACCOUNT_NAIVE, RKC_BIK)).toBe(8);
    expect(accountControlDigit(RKC001_ACCOUNT, RKC001_BIK)).toBe(4);
  });
  it('makes any account valid (round trip)', () => {
    for (const base of ['40817810000000000001', '40802810000012345678', '42301810099999999999']) {
      for (const bik of [SBER_BIK, RKC_BIK, '044525974']) {
        const fixed = `${base.slice(0, 8)}${accountControlDigit(base, bik)}${base.slice(9)}`;
        expect(validateAccount(fixed, bik)).toEqual({ ok: true });
      }
    }
  });
  it('throws on malformed input', () => {
    expect(() => accountControlDigit('123', SBER_BIK)).toThrow(RangeError);
    expect(() => accountControlDigit(SBER_ACCOUNT, '123')).toThrow(RangeError);
  });
});

describe('validateInn', () => {
  it('accepts a valid 10-digit INN (company)', () => {
    expect(validateInn('7707083893')).toEqual({ ok: true });
    expect(validateInn('5001007329', 'company')).toEqual({ ok: true });
  });
  it('refuses a 10-digit INN with a broken check digit', () => {
    expect(kindOf(validateInn('7707083894'))).toBe('inn_bad');
    expect(kindOf(validateInn('7707083883'))).toBe('inn_bad');
  });
  it('accepts a valid 12-digit INN', () => {
    expect(validateInn('500123456750')).toEqual({ ok: true });
    expect(validateInn('500123456750', 'ip')).toEqual({ ok: true });
    expect(validateInn('500123456750', 'self_employed')).toEqual({ ok: true });
  });
  it('refuses a 12-digit INN broken in either check digit', () => {
    const first = validateInn('500123456740');
    expect(kindOf(first)).toBe('inn_bad');
    expect(detailOf(first)).toMatch(/11th/);
    const second = validateInn('500123456751');
    expect(kindOf(second)).toBe('inn_bad');
    expect(detailOf(second)).toMatch(/12th/);
  });
  it('refuses a length that does not fit the seller type', () => {
    expect(kindOf(validateInn('500123456750', 'company'))).toBe('inn_bad');
    expect(kindOf(validateInn('7707083893', 'ip'))).toBe('inn_bad');
    expect(kindOf(validateInn('7707083893', 'self_employed'))).toBe('inn_bad');
  });
  it.each([['11 digits', '77070838931'], ['letters', '77070838AB'], ['empty', ''], ['spaces', '7707 083893']])(
    'refuses %s',
    (_label, inn) => {
      expect(kindOf(validateInn(inn))).toBe('inn_bad');
    },
  );
});

describe('validateKpp', () => {
  it('accepts nine digits and letters in positions 5–6', () => {
    expect(validateKpp('773601001')).toEqual({ ok: true });
    expect(validateKpp('7736AB001')).toEqual({ ok: true });
    expect(validateKpp('77360A001')).toEqual({ ok: true });
  });
  it.each([
    ['8 characters', '77360100'],
    ['10 characters', '7736010011'],
    ['lowercase letters', '7736ab001'],
    ['a letter in the first four', '77A601001'],
    ['a letter in the last three', '7736010A1'],
    ['Cyrillic letters', '7736АБ001'],
    ['empty', ''],
  ])('refuses %s', (_label, kpp) => {
    expect(kindOf(validateKpp(kpp))).toBe('kpp_bad');
  });
});

describe('validatePhone / normalizePhone', () => {
  it('accepts only 11 digits beginning with 7', () => {
    expect(validatePhone('79991234567')).toEqual({ ok: true });
    for (const bad of ['89991234567', '7999123456', '799912345678', '+79991234567', '7 999 123 45 67', '7999123456a', '']) {
      expect(kindOf(validatePhone(bad))).toBe('phone_format');
    }
  });
  it('never echoes the phone number', () => {
    expect(detailOf(validatePhone('+79991234567'))).not.toContain('9991234567');
  });
  it('normalises usual spellings into the strict form', () => {
    expect(normalizePhone('+7 (999) 123-45-67')).toBe('79991234567');
    expect(normalizePhone('8 (999) 123 45 67')).toBe('79991234567');
    expect(normalizePhone(' 7.999.123.45.67 ')).toBe('79991234567');
    expect(normalizePhone('79991234567')).toBe('79991234567');
    // not guessed: a foreign number stays foreign, a short one stays short
    expect(normalizePhone('+44 20 7946 0958')).toBe('442079460958');
    expect(normalizePhone('123-45-67')).toBe('1234567');
    expect(normalizePhone('+8 999 123 45 67')).toBe('89991234567');
    expect(validatePhone(normalizePhone('+7 (999) 123-45-67'))).toEqual({ ok: true });
  });
});

describe('validatePayout', () => {
  const account: PayoutInput = { method: 'account', account: SBER_ACCOUNT, bik: SBER_BIK, name: 'ООО Ромашка' };
  const sbp: PayoutInput = { method: 'sbp', phone: '79991234567', name: 'Иванов Иван Иванович' };

  it('accepts complete bodies', () => {
    expect(validatePayout(account, 'ip')).toEqual({ ok: true });
    expect(validatePayout(account, 'self_employed')).toEqual({ ok: true });
    expect(validatePayout({ ...account, kpp: '773601001' }, 'company')).toEqual({ ok: true });
    expect(validatePayout(sbp, 'self_employed')).toEqual({ ok: true });
  });
  it('sbp_only_self: SBP for a seller who is not self-employed', () => {
    expect(kindOf(validatePayout(sbp, 'ip'))).toBe('sbp_only_self');
    expect(kindOf(validatePayout(sbp, 'company'))).toBe('sbp_only_self');
    expect(kindOf(validatePayout(sbp, null))).toBe('sbp_only_self');
  });
  it('phone_format: SBP with a missing or malformed phone', () => {
    expect(kindOf(validatePayout({ ...sbp, phone: '+7 999 123-45-67' }, 'self_employed'))).toBe('phone_format');
    expect(kindOf(validatePayout({ method: 'sbp', name: 'Иван' }, 'self_employed'))).toBe('phone_format');
  });
  it('name_needed: no recipient or a blank one', () => {
    expect(kindOf(validatePayout({ ...account, name: undefined }, 'ip'))).toBe('name_needed');
    expect(kindOf(validatePayout({ ...account, name: '   ' }, 'ip'))).toBe('name_needed');
    expect(kindOf(validatePayout({ ...sbp, name: '' }, 'self_employed'))).toBe('name_needed');
  });
  it('bik_bad and account_bad for the account method', () => {
    expect(kindOf(validatePayout({ ...account, bik: '054525225' }, 'ip'))).toBe('bik_bad');
    expect(kindOf(validatePayout({ ...account, bik: undefined }, 'ip'))).toBe('bik_bad');
    expect(kindOf(validatePayout({ ...account, account: SBER_ACCOUNT_BROKEN }, 'ip'))).toBe('account_bad');
    expect(kindOf(validatePayout({ ...account, account: undefined }, 'ip'))).toBe('account_bad');
  });
  it('kpp_bad: a company without a valid KPP', () => {
    expect(kindOf(validatePayout(account, 'company'))).toBe('kpp_bad');
    expect(kindOf(validatePayout({ ...account, kpp: '77360100' }, 'company'))).toBe('kpp_bad');
    // only a company needs one
    expect(validatePayout({ ...account, kpp: 'junk' }, 'ip')).toEqual({ ok: true });
  });
  it('reports the first failure in the documented order', () => {
    const broken: PayoutInput = { method: 'sbp', phone: 'x', name: '', bik: 'x', account: 'x' };
    expect(kindOf(validatePayout(broken, 'company'))).toBe('sbp_only_self');
    expect(kindOf(validatePayout(broken, 'self_employed'))).toBe('phone_format');
    expect(kindOf(validatePayout({ ...broken, phone: '79991234567' }, 'self_employed'))).toBe('name_needed');
    const acc: PayoutInput = { method: 'account', account: 'x', bik: 'x', name: '' };
    expect(kindOf(validatePayout(acc, 'company'))).toBe('name_needed');
    expect(kindOf(validatePayout({ ...acc, name: 'ООО' }, 'company'))).toBe('bik_bad');
    expect(kindOf(validatePayout({ ...acc, name: 'ООО', bik: SBER_BIK }, 'company'))).toBe('account_bad');
    expect(kindOf(validatePayout({ ...acc, name: 'ООО', bik: SBER_BIK, account: SBER_ACCOUNT }, 'company'))).toBe('kpp_bad');
  });
  it('ignores fields of the other method', () => {
    expect(validatePayout({ ...sbp, account: 'junk', bik: 'junk' }, 'self_employed')).toEqual({ ok: true });
    expect(validatePayout({ ...account, phone: 'junk' }, 'ip')).toEqual({ ok: true });
  });
  it('answers payout_method for an unknown method', () => {
    expect(kindOf(validatePayout({ method: 'card' } as unknown as PayoutInput, 'ip'))).toBe('payout_method');
  });
});
