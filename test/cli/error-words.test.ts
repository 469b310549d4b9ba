/**
 * Errors are data, said in the run's language (cli/i18n/error-words.ts): every refusal kind and
 * reason, every check code, every error code, record, credential and issue code of the contract has
 * words in both catalogues; the CLI says a refusal by its reason, an error by its data and an
 * offline check by its code, and shows the service's English only for a code it does not know.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeError } from '../../cli/lib/errors.ts';
import { cardChoiceWords, checkWords } from '../../cli/i18n/error-words.ts';
import { useLanguage } from '../../cli/i18n/index.ts';
import { LANGUAGES } from '../../cli/i18n/language.ts';
import {
  apiOperations,
  BANK_CHECK_REASONS,
  CHECK_CODES,
  ERROR_STATUS,
  ISSUE_CODES,
  NOT_FOUND_RECORDS,
  REFUSAL_REASONS,
  sandboxOperations,
} from '../../sdk/contract/index.ts';
import { buildCard, CardChoiceError } from '../../sdk/card-builder.ts';
import { validateAccount, validateBik, validateInn, validateKpp, validatePayout, validatePhone, type CheckFailure, type CheckResult } from '../../sdk/validate/index.ts';
import { apiError } from './helpers.ts';

const root = resolve(import.meta.dirname, '../..');
const catalogue = (language: string) => JSON.parse(readFileSync(join(root, 'cli/locales', `${language}.json`), 'utf8')) as Record<string, unknown>;

/** The text at a dotted key, or undefined. */
function at(tree: Record<string, unknown>, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined), tree);
}

const KINDS = [...new Set([...Object.values(apiOperations), ...Object.values(sandboxOperations)].flatMap((op) => [...op.refusals]))];

/** Every key the contract's codes need words under. */
function neededKeys(): string[] {
  const keys = KINDS.map((kind) => `refusals.${kind}`);
  for (const [kind, reasons] of Object.entries(REFUSAL_REASONS)) for (const reason of reasons) keys.push(`reasons.${kind}.${reason}`);
  for (const [code, reasons] of Object.entries(CHECK_CODES)) for (const reason of reasons) keys.push(`checks.${code}.${reason}`);
  for (const code of [...Object.keys(ERROR_STATUS), 'connection', 'invalid_response']) keys.push(`errors.detail.${code}`);
  for (const record of NOT_FOUND_RECORDS) keys.push(`errors.notFound.${record}.withId`, `errors.notFound.${record}.noId`);
  for (const code of ISSUE_CODES) keys.push(`errors.issue.${code}`);
  keys.push('errors.adminToken.no_key', 'errors.adminToken.bad_key');
  return keys;
}

afterEach(async () => {
  await useLanguage('en');
});

describe('every code of the contract has words', () => {
  for (const language of LANGUAGES) {
    it(`${language}: every refusal kind and reason, check code, error code, record and issue code`, () => {
      const words = catalogue(language);
      expect(neededKeys().filter((key) => typeof at(words, key) !== 'string')).toEqual([]);
    });
  }

  it('no reason words for a reason the contract does not declare', () => {
    const said = at(catalogue('en'), 'reasons') as Record<string, Record<string, string>>;
    const extra = Object.entries(said).flatMap(([kind, reasons]) =>
      Object.keys(reasons).filter((reason) => !((REFUSAL_REASONS as Record<string, readonly string[]>)[kind] ?? []).includes(reason)).map((r) => `${kind}.${r}`),
    );
    expect(extra).toEqual([]);
  });

  it('every reason is of a refusal kind some operation answers', () => {
    expect(Object.keys(REFUSAL_REASONS).filter((kind) => !(KINDS as string[]).includes(kind))).toEqual([]);
  });
});

/** Failures the SDK's bank and tax checks give: one of each reason. */
const BANK_FAILURES: CheckResult[] = [
  validateBik(''),
  validateBik('04452522A'),
  validateBik('04452522'),
  validateBik('054525225'),
  validateAccount('', '044525225'),
  validateAccount('4070281000000000000A', '044525225'),
  validateAccount('123', '044525225'),
  validateAccount('40702810000000000001', '044525225'),
  validateInn(''),
  validateInn('77A'),
  validateInn('123'),
  validateInn('771234567890', 'company'),
  validateInn('7707083893', 'ip'),
  validateInn('7707083890'),
  validateInn('500100732250'),
  validateInn('500100732269'),
  validateKpp(''),
  validateKpp('7736'),
  validateKpp('7736ab001'),
  validatePhone(''),
  validatePhone('+79161234567'),
  validatePhone('7916123456'),
  validatePhone('89161234567'),
  validatePayout({ method: 'sbp', phone: '79161234567', name: 'X' }, 'ip'),
  validatePayout({ method: 'account', account: '40702810000000000001', bik: '044525225', name: ' ' }, 'ip'),
  validatePayout({ method: 'card' } as never, 'ip'),
];

describe('the offline checks are data, said from the catalogue', () => {
  it('every reason of the bank checks is given by some check, and each failure carries its field', () => {
    const failures = BANK_FAILURES.filter((c): c is CheckFailure => !c.ok);
    expect(failures).toHaveLength(BANK_FAILURES.length);
    const given = new Set(failures.map((f) => `${f.kind}.${f.reason ?? ''}`));
    const declared = Object.entries(BANK_CHECK_REASONS).flatMap(([kind, reasons]) => reasons.map((r) => `${kind}.${r}`));
    expect(declared.filter((key) => !given.has(key))).toEqual([]);
    for (const failure of failures) expect(typeof failure.field, failure.detail).toBe('string');
  });

  it('in Russian, every bank check failure reads in Russian, with its numbers', async () => {
    await useLanguage('ru');
    const failures = BANK_FAILURES.filter((c): c is CheckFailure => !c.ok);
    const said = failures.map((f) => checkWords(f));
    // No English sentence: no run of two Latin words.
    expect(said.filter((text) => /[A-Za-z]{3,} [A-Za-z]{3,}/.test(text))).toEqual([]);
    expect(checkWords(validateInn('123') as CheckFailure)).toBe('в ИНН должно быть 10 цифр (организация) или 12 цифр (ИП, самозанятый), а не 3');
    expect(checkWords(validateAccount('40702810000000000001', '044525225') as CheckFailure)).toContain('0001');
  });

  it('a card choice that does not fit is said by its reason, with the value given', async () => {
    const position = { slug: 's', tariffs: [{ slug: 'x' }], productTypes: ['code'], deliveryMethods: { code: ['code'] }, slaChoices: [15, 60], guaranteeChoices: [0] } as never;
    let error: unknown;
    try {
      buildCard(position, { slaMinutes: 45, priceRub: 100 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CardChoiceError);
    expect(error).toMatchObject({ field: 'slaMinutes', reason: 'not_allowed', allowed: [15, 60], value: 45 });
    expect(cardChoiceWords(error as CardChoiceError)).toBe('45 is not allowed');
    await useLanguage('ru');
    expect(cardChoiceWords(error as CardChoiceError)).toBe('значение 45 не разрешено');
  });
});

describe('errors of the service, said by their data', () => {
  it('a refusal by its reason, not its kind; the reason code is not repeated', async () => {
    await useLanguage('ru');
    const error = apiError(409, { error: 'rejected', refusal: { kind: 'complaint', field: 'autoIssue', reason: 'delivery_method_not_stockable' } });
    const { lines } = describeError(error);
    expect(lines[0]).toBe('ошибка: автовыдача работает только у карточек, которые выдаются данными для входа или кодом (rejected: complaint)');
    expect(lines.join('\n')).not.toContain('причина:');
  });

  it("a refusal's English detail is not shown where the catalogue has words; it is for an unknown kind", async () => {
    await useLanguage('ru');
    const known = describeError(apiError(409, { error: 'rejected', refusal: { kind: 'need_next_charge', field: 'nextChargeDay', reason: 'required' }, detail: 'body.nextChargeDay: required' }));
    expect(known.lines[0]).toContain('датой следующего списания');
    expect(known.lines.join('\n')).not.toContain('required');
    const newer = describeError(apiError(409, { error: 'rejected', refusal: { kind: 'holiday' }, detail: 'the marketplace is closed today' }));
    expect(newer.lines[0]).toBe('ошибка: the marketplace is closed today (rejected: holiday)');
  });

  it('a reason this version does not know: the kind in words, the reason as it came', async () => {
    const { lines } = describeError(apiError(409, { error: 'rejected', refusal: { kind: 'complaint', reason: 'moon_phase' }, detail: 'the moon is wrong' }));
    expect(lines[0]).toMatch(/^error: the card breaks a rule of its position/);
    expect(lines).toContain('reason: moon_phase');
  });

  it('not_found names the record; bad_key names the admin token; bad_request says each issue', async () => {
    await useLanguage('ru');
    const missing = describeError(apiError(404, { error: 'not_found', detail: { message: 'no card 9999', record: 'card', id: '9999' } }));
    expect(missing.lines[0]).toBe('ошибка: not_found: карточки 9999 нет, или она не ваша');
    const token = describeError(apiError(401, { error: 'bad_key', detail: { message: 'not the admin token of this server', credential: 'admin_token' } }));
    expect(token.lines[0]).toBe('ошибка: bad_key: это не токен администратора этого сервера');
    expect(token.exitCode).toBe(4);
    const issues = [
      { path: ['body', 'priceRub'], code: 'invalid_type', expected: 'int', message: 'expected int' },
      { path: ['body'], code: 'unrecognized_keys', keys: ['colour'], message: 'unknown field colour' },
      { path: ['body', 'x'], code: 'from_the_future', message: 'something new' },
    ];
    const bad = describeError(apiError(400, { error: 'bad_request', detail: { message: 'English', issues } }));
    expect(bad.lines[0]).toBe(
      'ошибка: bad_request: body.priceRub: ожидалось значение типа int; body: неизвестные поля colour; body.x: значение не проходит проверку',
    );
  });

  it("a code this version does not know shows the service's English message, and says it is the service's", () => {
    const { lines } = describeError(apiError(403, { error: 'seller_frozen', detail: { message: 'payouts frozen by risk review' } }));
    expect(lines[0]).toBe('error: seller_frozen: payouts frozen by risk review');
    expect(lines.join('\n')).toContain('does not know');
  });
});
