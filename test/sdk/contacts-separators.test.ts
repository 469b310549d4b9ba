/**
 * A phone is its digits (sdk/contact-phones.ts): Russian numbers (7, 8 or +7, then ten digits) and
 * international `+` numbers, however the digits are grouped and whatever runs of characters that
 * are neither letters nor digits part them (any length: `8_____916_____555_____44_____33`,
 * `8 91 65 55 44 33`, `8-916-55-544-33`), with look-alike letters read as digits, in the SDK's
 * offline check (`hasContacts`, `contactsIn`) and in the server's rule (`contactsRefusal`), which are
 * one filter (sdk/contacts.ts). Prose with prices, dates, times, quantities, order and card numbers,
 * versions and lists of small numbers still passes: every note of test/data/seller-notes.txt, and
 * generated prose. Examples and properties (fast-check) both ways.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactsIn } from '../../sdk/contact-words.ts';
import { findContacts, hasContacts } from '../../sdk/contacts.ts';
import { contactsRefusal } from '../../server/domain/contacts-rule.ts';

const SPLIT: readonly string[] = [
  // issue 37, item 10: long separator runs and groupings the regexes did not know
  '8_____916_____555_____44_____33',
  '8 91 65 55 44 33',
  '8-916-55-544-33',
  '8 916 555 44 3 3',
  '89 16 555 44 33',
  '+7 9 1 6 5 5 5 4 4 3 3',
  '8 .,. 916 ;-; 555 //// 44 ___ 33',
  'тел.8 916 555 44 33',
  'Спасибо за заказ! Если что: 8 (916) 555 44 33, Иван',
  '+44 20 79 46 09 58',
  '+49 (30) 1234-5678',
  '8+916+555+44+33',
  '8_916_555_44_33',
  'звоните 8_916_555_44_33 после шести',
  '+7_916_555_44_33',
  '8__916__555__44__33',
  '8*916*555*44*33',
  '8 ~ 916 ~ 555 ~ 44 ~ 33',
  '8|916|555|44|33',
  '8\\916\\555\\44\\33',
  '8 _ (916) _ 555 _ 44 _ 33',
  '8:916:555:44:33',
  '8#916#555#4433',
  '8=916=5554433',
  '8,916,555,44,33',
  '8\n916\n555\n44\n33',
  '916_555_44_33',
  '8_9I6_555_44_33', // a look-alike letter for a digit, underscores between
  '8_9О6_555_44_33', // a Cyrillic О for a zero
  'тел. 555_44_33',
  '+44_20_7946_0958',
];

const PROSE: readonly string[] = [
  'Сроки: 7, 300, 500, 10, 20 дней',
  'Заказы 8; 916; 555; 44; 33 закрыты',
  'Цены: 8 990 ₽ / 9 990 ₽ / 12 990 ₽',
  'Размер 8_916 — это артикул, 555 шт',
  'file_2026_11_21_report.pdf',
  'ord_8f2k19_916 paid',
  'Время 8:30 — 9:00 — 12:30 — 13:00',
  'Действует с 21.11.2026 по 21.12.2026, заказ №10045678',
  // found by the properties below: a card number, then a version, a quantity, a time
  'Итого: карточка 73000000 — 1.0.0, 01.01.2020.',
  'Итого: карточка 7300000 — 1000 шт., 0:00.',
  'Цены: 7 990 / 12 990 / 19 990 ₽',
  'Отправка: 8:30 / 12:30 / 18:30',
  'Акция: 21.11.2026 8:30 – 21.12.2026',
  'заказ №79161234567',
  'Поддерживаемые модели: iPhone 8, 11, 12, 13, 14, 15',
];

describe('a phone split by any run of non-alphanumeric characters', () => {
  it.each(SPLIT)('is a phone: %j', (text) => {
    expect(findContacts(text)[0]?.kind, text).toBe('phone');
    expect(hasContacts(text)).toBe(true);
    expect(contactsIn(text)?.kind).toBe('phone');
    expect(contactsRefusal(text, 'description')).toMatchObject({ kind: 'contacts', field: 'description', reason: 'phone' });
  });

  it('two phones of one note are reported each (a `+` after a separator begins a number)', () => {
    expect(findContacts('+7 916 555 44 33, +7 916 555 44 34').map((f) => f.match)).toEqual(['+7 916 555 44 33', '+7 916 555 44 34']);
    expect(findContacts('8 916 555 44 33 / 8 916 555 44 34').map((f) => f.match)).toEqual(['8 916 555 44 33', '8 916 555 44 34']);
  });

  it.each(PROSE)('prose passes: %j', (text) => {
    expect(findContacts(text)).toEqual([]);
    expect(contactsRefusal(text, 'description')).toBeNull();
  });
});

/**
 * Characters that are neither letters nor digits, as a phone's separators: spaces, commas, dots,
 * dashes, underscores, slashes, brackets and more. Not `+` (it begins an international number),
 * nor what makes the number before it an amount or an id (currency signs, `%`, `№`).
 */
const SEP_CHARS = [
  ' ', ' ', '_', '-', '.', ',', ';', '/', '\\', '*', '~', ':', '#', '=', '(', ')', '[', ']', '{', '}', '<', '>',
  '\u2014', '\u2013', '\u00a0', '\u2009', '·', '•', '\t', '\n', '|', '"', "'", '!', '?', '&', '^',
];
/** A separator run of any length (1 to 12 here). */
const separator = fc.array(fc.constantFrom(...SEP_CHARS), { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));
/** List punctuation (only a comma or semicolon with spaces after it) parts a list, not a phone. */
const LIST_GAP = /^\s*[,;]\s+$/u;
/**
 * A lone colon between an hour and its minutes, a day.month.year, a version's lone dots: a time, a
 * date and a version (the filter reads them as such; the prose below checks it).
 */
const TIME_OR_DATE = /(?<![\d:])\d{1,2}:\d{2}(?![\d:])|(?<![\d./-])\d{1,2}([./-])\d{1,2}\1\d{4}(?!\d)|(?<![\d./-])\d{4}-\d{1,2}-\d{1,2}(?!\d)|(?<![\d.])\d{1,2}\.\d{1,2}\.\d{1,4}(?:\.\d{1,4})?(?!\d|\.\d)/u;

/** `digits` cut at arbitrary places into groups of one or more digits. */
const groupsOf = (digits: string) =>
  fc.array(fc.boolean(), { minLength: digits.length - 1, maxLength: digits.length - 1 }).map((cuts) => {
    const groups: string[] = [];
    let group = digits[0]!;
    cuts.forEach((cut, i) => {
      if (cut) {
        groups.push(group);
        group = '';
      }
      group += digits[i + 1]!;
    });
    groups.push(group);
    return groups;
  });

const BEFORE = ['', 'звоните ', 'Call me: ', 'номер: ', 'Спасибо за заказ! Пишите на ', 'Цена 390 ₽, звоните ', 'Мой номер — '];
const AFTER = ['', ' после шести', '.', ', спасибо', '!', ' (до 21:00)', ' — Иван', '\nЖду звонка'];

/** `digits` grouped arbitrarily, parted by arbitrary separator runs, with text around. */
const written = (digits: fc.Arbitrary<string>, lead: string | fc.Arbitrary<string>) =>
  digits
    .chain((d) => fc.record({ groups: groupsOf(d), lead: typeof lead === 'string' ? fc.constant(lead) : lead }))
    .chain(({ groups, lead: l }) =>
      fc.record({
        groups: fc.constant(groups),
        lead: fc.constant(l),
        seps: fc.array(separator, { minLength: groups.length, maxLength: groups.length }),
        before: fc.constantFrom(...BEFORE),
        after: fc.constantFrom(...AFTER),
      }),
    )
    .filter(({ seps }) => !seps.slice(1).some((sep) => LIST_GAP.test(sep)))
    .map(({ groups, lead: l, seps, before, after }) => {
      const body = groups.map((g, i) => (i === 0 ? g : `${seps[i]!}${g}`)).join('');
      return { text: `${before}${l}${body}${after}`, groups, number: `${l}${body}` };
    })
    .filter(({ number }) => !TIME_OR_DATE.test(number));

/** A Russian number: 7 or 8 and ten digits whose first (the area code's) is 3–9; its groups: the prefix with the first. */
const russian = fc
  .record({ prefix: fc.constantFrom('7', '8'), area: fc.integer({ min: 3, max: 9 }), rest: fc.stringMatching(/^[0-9]{9}$/) })
  .map(({ prefix, area, rest }) => `${prefix}${area}${rest}`);
const russianPhone = written(russian, '')
  // the prefix fused with one or two digits of the area code, in three groups or fewer, reads as prices (`899 1290 1990`)
  .filter(({ groups }) => !((groups[0]!.length === 2 || groups[0]!.length === 3) && groups.length <= 3));
const plusSevenPhone = written(fc.stringMatching(/^[0-9]{10}$/).map((d) => `7${d}`), fc.constantFrom('+', '+ ', '+'));
/** An international number: `+`, a country code (not 0), 10–15 digits in all. */
const internationalPhone = written(
  fc.integer({ min: 10, max: 15 }).chain((n) => fc.tuple(fc.integer({ min: 1, max: 9 }), fc.stringMatching(new RegExp(`^[0-9]{${n - 1}}$`)))).map(([c, d]) => `${c}${d}`),
  '+',
);

const expectPhone = (text: string): void => {
  expect(findContacts(text).some((f) => f.kind === 'phone'), JSON.stringify(text)).toBe(true);
  expect(contactsRefusal(text, 'text')?.reason, JSON.stringify(text)).toBe('phone');
};

/** Real-looking seller notes (test/data/seller-notes.txt), none with a contact. */
const NOTES = readFileSync(new URL('../data/seller-notes.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));

const day = fc.integer({ min: 1, max: 28 }).map((d) => String(d).padStart(2, '0'));
const month = fc.integer({ min: 1, max: 12 }).map((m) => String(m).padStart(2, '0'));
const year = fc.integer({ min: 2020, max: 2030 });
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
const smallList = fc.array(fc.integer({ min: 1, max: 99 }), { minLength: 2, maxLength: 12 }).map((ns) => ns.join(', '));
const proseNumber = fc.oneof(
  fc.integer({ min: 1, max: 999_999 }).map((n) => `${thousands(n)} ₽`),
  fc.integer({ min: 1, max: 99_999 }).map((n) => `${n} руб.`),
  fc.integer({ min: 1, max: 9_999 }).map((n) => `${n} шт.`),
  fc.tuple(day, month, year).map(([d, m, y]) => `${d}.${m}.${y}`),
  fc.tuple(year, month, day).map(([y, m, d]) => `${y}-${m}-${d}`),
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${h}:${String(m).padStart(2, '0')}`),
  fc.integer({ min: 1, max: 99 }).map((n) => `${n}%`),
  fc.integer({ min: 1000, max: 99_999_999_999 }).map((n) => `заказ №${n}`),
  fc.stringMatching(/^[a-z0-9]{6}$/).map((id) => `ord_${id}`),
  fc.integer({ min: 1, max: 99_999_999 }).map((n) => `карточка ${n}`),
  fc.integer({ min: 1, max: 36 }).map((n) => `${n} мес.`),
  fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 })).map(([a, b, c]) => `${a}.${b}.${c}`),
  smallList,
);
const prose = fc
  .array(fc.tuple(proseNumber, fc.constantFrom(', ', '; ', ' и ', ' — до ', ', затем ', '. Потом ', ' / ', ' — ')), { minLength: 1, maxLength: 6 })
  .map((parts) => `Итого: ${parts.map(([n, join], i) => (i === parts.length - 1 ? n : `${n}${join}`)).join('')}.`);
const notes = fc.array(fc.constantFrom(...NOTES), { minLength: 1, maxLength: 4 }).map((lines) => lines.join(' '));

describe('properties', () => {
  it('a Russian number (7 or 8 and ten digits), grouped arbitrarily and parted by arbitrary separator runs, is a phone', () => {
    fc.assert(fc.property(russianPhone, ({ text }) => expectPhone(text)), { numRuns: 1000 });
  });

  it('+7 and ten digits, grouped arbitrarily and parted by arbitrary separator runs, is a phone', () => {
    fc.assert(fc.property(plusSevenPhone, ({ text }) => expectPhone(text)), { numRuns: 500 });
  });

  it('an international + number (10 to 15 digits), grouped arbitrarily and parted by arbitrary separator runs, is a phone', () => {
    fc.assert(fc.property(internationalPhone, ({ text }) => expectPhone(text)), { numRuns: 500 });
  });

  it('every seller note of the corpus passes, alone and several together', () => {
    expect(NOTES.length).toBeGreaterThan(60);
    for (const note of NOTES) expect(findContacts(note), note).toEqual([]);
    fc.assert(
      fc.property(notes, (text) => {
        expect(findContacts(text), text).toEqual([]);
        expect(contactsRefusal(text, 'text')).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('prose of prices, dates, times, quantities, percentages, terms, versions, lists, order and card numbers passes', () => {
    fc.assert(
      fc.property(prose, (text) => {
        expect(findContacts(text), text).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
