/**
 * Offline checks of Russian tax and bank identifiers (INN, KPP, BIK, bank account, SBP phone) and of
 * a whole payout body. Pure functions, no I/O: a form can run them before a call, and the reference
 * server uses the very same functions for its refusals, so both sides agree.
 *
 * Every check answers a {@link CheckResult}; a failure is data, as the server's refusal of the same
 * check is (sdk/contract/error-data.ts): the spec's refusal `kind`, its `reason`, the body `field`
 * and the values the reason needs (`length` given, `expected` lengths, the account's `tail`), and,
 * for developers, an English `detail`. The failure never repeats an account number or a phone
 * number (at most the last four digits of an account).
 *
 * The validators take the value as sent and do not normalise it (no trimming, no stripping of
 * spaces). {@link normalizePhone} is offered separately for forms that want to accept
 * `+7 (999) 123-45-67`; the server does not call it.
 */
import type { SellerType } from '../contract/types.ts';
import type { RefusalReasonOf } from '../contract/error-data.ts';

/** Refusal kinds these checks produce (the payout ones are the spec's payout refusals). */
export type BankCheckKind = 'bik_bad' | 'account_bad' | 'inn_bad' | 'kpp_bad' | 'phone_format' | 'sbp_only_self' | 'name_needed';

/** The values a failed check carries beside its kind and reason (the contract's `REFUSAL_VALUES`). */
export interface CheckValues {
  /** The body field at fault (`inn`, `bik`, `account`, `kpp`, `phone`, `name`, `method`). */
  field: string;
  /** The length of the value given. */
  length?: number;
  /** The lengths that would have been accepted. */
  expected?: number[];
  /** The last four digits of the account given. */
  tail?: string;
  /** The values that would have been accepted. */
  allowed?: string[];
}

/** A failed check of kind `K`: its reason is one the contract declares for `K`. */
export type CheckFailure<K extends BankCheckKind | 'payout_method' = BankCheckKind | 'payout_method'> = K extends unknown
  ? CheckValues & { ok: false; kind: K; reason?: K extends 'payout_method' ? 'not_allowed' : RefusalReasonOf<K>; detail: string }
  : never;

export type CheckResult = { ok: true } | CheckFailure;

/** A payout body as `PUT /papers/payout` takes it. */
export interface PayoutInput {
  method: 'account' | 'sbp';
  account?: string | undefined;
  bik?: string | undefined;
  name?: string | undefined;
  kpp?: string | undefined;
  phone?: string | undefined;
}

const OK: CheckResult = Object.freeze({ ok: true }) as CheckResult;

const FIELD_OF: Record<BankCheckKind, string> = {
  bik_bad: 'bik',
  account_bad: 'account',
  inn_bad: 'inn',
  kpp_bad: 'kpp',
  phone_format: 'phone',
  sbp_only_self: 'method',
  name_needed: 'name',
};

function fail<K extends BankCheckKind>(kind: K, reason: RefusalReasonOf<K> | undefined, detail: string, values: Omit<CheckValues, 'field'> = {}): CheckResult {
  return { ok: false, kind, ...(reason === undefined ? {} : { reason }), field: FIELD_OF[kind], ...values, detail } as CheckFailure;
}

function isDigits(value: unknown, length: number): value is string {
  return typeof value === 'string' && value.length === length && /^\d+$/.test(value);
}

function digitsOf(value: string): number[] {
  return Array.from(value, (c) => c.charCodeAt(0) - 48);
}

/** Weighted sum of the first `weights.length` digits. */
function weighted(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (digits[i] ?? 0) * (weights[i] ?? 0);
  return sum;
}

// ---------------------------------------------------------------------------------------------
// BIK and bank account

/**
 * BIK: nine digits beginning with `04` (the Russian Federation's code in the BIK), per gaps.md.
 */
export function validateBik(bik: unknown): CheckResult {
  if (typeof bik !== 'string' || bik.length === 0) return fail('bik_bad', 'missing', 'The BIK is missing.');
  if (!/^\d+$/.test(bik)) return fail('bik_bad', 'digits', 'The BIK must consist of digits only.');
  if (bik.length !== 9) return fail('bik_bad', 'length', `The BIK must have 9 digits, not ${bik.length}.`, { length: bik.length, expected: [9] });
  if (!bik.startsWith('04')) return fail('bik_bad', 'prefix', 'The BIK must begin with 04 (a Russian bank).');
  return OK;
}

/** Whether a (valid) BIK belongs to a Bank of Russia settlement centre (ends `000`, `001` or `002`). */
export function isSettlementCentreBik(bik: string): boolean {
  const tail = bik.slice(6, 9);
  return tail === '000' || tail === '001' || tail === '002';
}

/**
 * The three digits put before the account for the 7-1-3 control sum.
 *
 * As the Bank of Russia prescribes: the last three BIK digits (7–9) for an account at a credit
 * institution; `0` + BIK digits 5–6 (the settlement centre's conditional number) for an account at a
 * settlement centre (BIK ending `000`–`002`) and for a bank's correspondent account (`30101…`), which
 * is itself held at the settlement centre. The correspondent case is how real correspondent accounts
 * such as `30101810400000000225` (BIK `044525225`) come out valid; for ordinary settlement accounts
 * the rule is exactly the one gaps.md states.
 */
function accountKeyPrefix(account: string, bik: string): string {
  if (isSettlementCentreBik(bik) || account.startsWith('30101')) return `0${bik.slice(4, 6)}`;
  return bik.slice(6, 9);
}

const WEIGHTS_713 = [7, 1, 3] as const;

function controlSum(account: string, bik: string): number {
  const digits = digitsOf(accountKeyPrefix(account, bik) + account);
  let sum = 0;
  digits.forEach((d, i) => {
    sum += d * WEIGHTS_713[i % 3]!;
  });
  return sum;
}

/**
 * The control digit (the account's 9th digit) that makes `account` valid at `bik`; the current
 * 9th digit is ignored. Handy for fixtures: `acc.slice(0, 8) + accountControlDigit(acc, bik) + acc.slice(9)`.
 * @throws RangeError when the BIK is not valid or the account is not 20 digits.
 */
export function accountControlDigit(account: string, bik: string): number {
  if (!validateBik(bik).ok) throw new RangeError('accountControlDigit: the BIK is not valid');
  if (!isDigits(account, 20)) throw new RangeError('accountControlDigit: the account must be 20 digits');
  // The control digit is index 11 of the 23 digits (3 + 8), so its weight is 7-1-3[11 % 3] = 3.
  // Sum the rest with the control digit as 0, then find d with (rest + 3d) mod 10 = 0.
  const zeroed = `${account.slice(0, 8)}0${account.slice(9)}`;
  const rest = controlSum(zeroed, bik) % 10;
  // 3 * d ≡ -rest (mod 10); 3 * 7 = 21 ≡ 1, so d ≡ 7 * (10 - rest) (mod 10).
  return (7 * (10 - rest)) % 10;
}

/**
 * Bank account: 20 digits whose control digit matches the BIK (Bank of Russia 7-1-3 algorithm).
 * The BIK is checked first (`bik_bad`).
 */
export function validateAccount(account: unknown, bik: unknown): CheckResult {
  const bikCheck = validateBik(bik);
  if (!bikCheck.ok) return bikCheck;
  if (typeof account !== 'string' || account.length === 0) return fail('account_bad', 'missing', 'The account number is missing.');
  if (!/^\d+$/.test(account)) return fail('account_bad', 'digits', 'The account number must consist of digits only.');
  if (account.length !== 20) return fail('account_bad', 'length', `The account number must have 20 digits, not ${account.length}.`, { length: account.length, expected: [20] });
  if (controlSum(account, bik as string) % 10 !== 0) {
    return fail('account_bad', 'control', `The account ending ${account.slice(-4)} fails the control-digit check with BIK ${bik as string}.`, { tail: account.slice(-4) });
  }
  return OK;
}

// ---------------------------------------------------------------------------------------------
// INN and KPP

const INN10_WEIGHTS = [2, 4, 10, 3, 5, 9, 4, 6, 8] as const;
const INN12_WEIGHTS_1 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8] as const;
const INN12_WEIGHTS_2 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8] as const;

const innCheck = (digits: readonly number[], weights: readonly number[]): number => (weighted(digits, weights) % 11) % 10;

/**
 * INN: 10 digits for a company (one check digit), 12 digits for a sole trader (`ip`) or a
 * self-employed person (two check digits). With `sellerType`, the length must fit it.
 */
export function validateInn(inn: unknown, sellerType?: SellerType | null): CheckResult {
  if (typeof inn !== 'string' || inn.length === 0) return fail('inn_bad', 'missing', 'The INN is missing.');
  if (!/^\d+$/.test(inn)) return fail('inn_bad', 'digits', 'The INN must consist of digits only.');
  if (inn.length !== 10 && inn.length !== 12) {
    return fail('inn_bad', 'length', `The INN must have 10 digits (company) or 12 digits (sole trader, self-employed), not ${inn.length}.`, { length: inn.length, expected: [10, 12] });
  }
  if (sellerType === 'company' && inn.length !== 10) return fail('inn_bad', 'company_length', "A company's INN has 10 digits, not 12.", { length: inn.length, expected: [10] });
  if ((sellerType === 'ip' || sellerType === 'self_employed') && inn.length !== 12) {
    return fail('inn_bad', 'person_length', 'The INN of a sole trader or a self-employed person has 12 digits, not 10.', { length: inn.length, expected: [12] });
  }
  const d = digitsOf(inn);
  if (inn.length === 10) {
    if (innCheck(d, INN10_WEIGHTS) !== d[9]) return fail('inn_bad', 'check_digit_10', 'The INN check digit (the 10th) does not match.');
    return OK;
  }
  if (innCheck(d, INN12_WEIGHTS_1) !== d[10]) return fail('inn_bad', 'check_digit_11', 'The first INN check digit (the 11th) does not match.');
  if (innCheck(d, INN12_WEIGHTS_2) !== d[11]) return fail('inn_bad', 'check_digit_12', 'The second INN check digit (the 12th) does not match.');
  return OK;
}

/** KPP: `^\d{4}[\dA-Z]{2}\d{3}$` (gaps.md): 4 digits, 2 digits or capital Latin letters, 3 digits. */
export function validateKpp(kpp: unknown): CheckResult {
  if (typeof kpp !== 'string' || kpp.length === 0) return fail('kpp_bad', 'missing', 'A company needs a KPP.');
  if (kpp.length !== 9) return fail('kpp_bad', 'length', `The KPP must have 9 characters, not ${kpp.length}.`, { length: kpp.length, expected: [9] });
  if (!/^\d{4}[\dA-Z]{2}\d{3}$/.test(kpp)) {
    return fail('kpp_bad', 'form', 'The KPP must be 4 digits, then 2 digits or capital Latin letters, then 3 digits.');
  }
  return OK;
}

// ---------------------------------------------------------------------------------------------
// Phone (SBP)

/** SBP phone: exactly 11 digits beginning with 7, nothing else (no `+`, spaces or dashes). */
export function validatePhone(phone: unknown): CheckResult {
  if (typeof phone !== 'string' || phone.length === 0) return fail('phone_format', 'missing', 'The phone number is missing.');
  if (!/^\d+$/.test(phone)) {
    return fail('phone_format', 'digits', 'The phone number must be 11 digits only, without +, spaces, dashes or brackets.');
  }
  if (phone.length !== 11) return fail('phone_format', 'length', `The phone number must have 11 digits, not ${phone.length}.`, { length: phone.length, expected: [11] });
  if (!phone.startsWith('7')) return fail('phone_format', 'prefix', 'The phone number must begin with 7.');
  return OK;
}

/**
 * Turns a phone as people type it into the strict form {@link validatePhone} accepts, or as near to
 * it as can be said without guessing: removes spaces, dashes, dots, brackets and one leading `+`,
 * and turns the domestic trunk prefix of an 11-digit number beginning with `8` into `7`
 * (`8 (999) 123-45-67` → `79991234567`; `+7 (999) 123-45-67` → `79991234567`). Anything else is
 * left as it is (so the validator still refuses it). Never throws.
 */
export function normalizePhone(phone: string): string {
  const trimmed = phone.trim();
  const plus = trimmed.startsWith('+');
  const stripped = (plus ? trimmed.slice(1) : trimmed).replace(/[\s\-.()\u2010-\u2015]/g, '');
  if (!plus && /^8\d{10}$/.test(stripped)) return `7${stripped.slice(1)}`;
  return stripped;
}

// ---------------------------------------------------------------------------------------------
// Whole payout body

/**
 * Checks a payout body for a seller of `sellerType`, returning the first failure in this order:
 * `sbp` only for a self-employed seller (`sbp_only_self`); the phone for `sbp` (`phone_format`);
 * a non-blank recipient `name` (`name_needed`); for `account`: the BIK (`bik_bad`) and the account
 * (`account_bad`); for a company: the KPP (`kpp_bad`).
 *
 * Fields that do not belong to the method (an account for `sbp`, a phone for `account`) are not
 * looked at. A `sellerType` of `null`/`undefined` (status not set yet) counts as neither
 * self-employed nor a company. An unknown `method` answers kind `payout_method` (reason `not_allowed`).
 */
export function validatePayout(body: PayoutInput, sellerType: SellerType | null | undefined): CheckResult {
  const method: unknown = body.method;
  if (method !== 'account' && method !== 'sbp') {
    return { ok: false, kind: 'payout_method', reason: 'not_allowed', field: 'method', allowed: ['account', 'sbp'], detail: "The payout method must be 'account' or 'sbp'." };
  }
  if (method === 'sbp') {
    if (sellerType !== 'self_employed') return fail('sbp_only_self', undefined, 'Payouts by phone (SBP) are only for self-employed sellers.');
    const phone = validatePhone(body.phone);
    if (!phone.ok) return phone;
  }
  if (typeof body.name !== 'string' || body.name.trim() === '') {
    return fail('name_needed', undefined, 'The recipient name, exactly as the bank has it, is required.');
  }
  if (method === 'account') {
    const account = validateAccount(body.account, body.bik);
    if (!account.ok) return account;
  }
  if (sellerType === 'company') {
    const kpp = validateKpp(body.kpp);
    if (!kpp.ok) return kpp;
  }
  return OK;
}
