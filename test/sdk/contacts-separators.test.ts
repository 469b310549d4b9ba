/**
 * A phone's digits parted by any run of characters that are neither letters nor digits
 * (`8_916_555_44_33`, `8*916*555*44*33`, `8 ~ 916 ~ 555`), with the look-alike letters read as
 * digits, is a phone, in the SDK's offline check (`hasContacts`, `contactsIn`) and in the server's
 * rule (`contactsRefusal`), which are one filter (sdk/contacts.ts). Prose with numbers, prices,
 * dates and order numbers, joined by list punctuation, still passes. Examples and properties
 * (fast-check) both ways.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactsIn } from '../../sdk/contact-words.ts';
import { findContacts, hasContacts } from '../../sdk/contacts.ts';
import { contactsRefusal } from '../../server/domain/contacts-rule.ts';

const SPLIT: readonly string[] = [
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
];

describe('a phone split by any run of non-alphanumeric characters', () => {
  it.each(SPLIT)('is a phone: %j', (text) => {
    expect(findContacts(text)[0]?.kind, text).toBe('phone');
    expect(hasContacts(text)).toBe(true);
    expect(contactsIn(text)?.kind).toBe('phone');
    expect(contactsRefusal(text, 'description')).toMatchObject({ kind: 'contacts', field: 'description', reason: 'phone' });
  });

  it.each(PROSE)('prose passes: %j', (text) => {
    expect(findContacts(text)).toEqual([]);
    expect(contactsRefusal(text, 'description')).toBeNull();
  });
});

/** Characters that are neither letters nor digits, as a phone's separators. */
const SEP_CHARS = [' ', '_', '-', '.', '/', '\\', '*', '~', ':', '#', '=', '+', '(', ')', '[', ']', '\u2014', '\u00a0', '·', '•', '\t'];
const separator = fc
  .array(fc.constantFrom(...SEP_CHARS), { minLength: 1, maxLength: 3 })
  .map((cs) => cs.join(''));
/** The groupings of a Russian number's ten digits after the prefix that read as a phone. */
const SHAPES = [[3, 3, 2, 2], [3, 3, 4], [3, 2, 2, 3], [3, 7]] as const;

const splitPhone = fc
  .record({
    prefix: fc.constantFrom('8', '+7'),
    area: fc.integer({ min: 300, max: 999 }),
    rest: fc.stringMatching(/^[0-9]{7}$/),
    shape: fc.constantFrom(...SHAPES),
    seps: fc.array(separator, { minLength: 4, maxLength: 4 }),
    before: fc.constantFrom('', 'звоните ', 'call ', 'номер: '),
    after: fc.constantFrom('', ' после шести', '.', ', спасибо'),
  })
  .map(({ prefix, area, rest, shape, seps, before, after }) => {
    const digits = `${area}${rest}`;
    const groups: string[] = [];
    let at = 0;
    for (const n of shape) {
      groups.push(digits.slice(at, at + n));
      at += n;
    }
    const body = groups.reduce((text, g, i) => `${text}${seps[i]!}${g}`, prefix);
    return `${before}${body}${after}`;
  });

const day = fc.integer({ min: 1, max: 28 }).map((d) => String(d).padStart(2, '0'));
const month = fc.integer({ min: 1, max: 12 }).map((m) => String(m).padStart(2, '0'));
const year = fc.integer({ min: 2020, max: 2030 });
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
const proseNumber = fc.oneof(
  fc.integer({ min: 1, max: 99_999 }).map((n) => `${thousands(n)} ₽`),
  fc.integer({ min: 1, max: 99_999 }).map((n) => `${n} руб.`),
  fc.tuple(day, month, year).map(([d, m, y]) => `${d}.${m}.${y}`),
  fc.tuple(year, month, day).map(([y, m, d]) => `${y}-${m}-${d}`),
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${h}:${String(m).padStart(2, '0')}`),
  fc.integer({ min: 1, max: 99 }).map((n) => `${n}%`),
  fc.integer({ min: 1000, max: 99_999_999 }).map((n) => `заказ №${n}`),
  fc.stringMatching(/^[a-z0-9]{6}$/).map((id) => `ord_${id}`),
  fc.integer({ min: 1, max: 36 }).map((n) => `${n} мес.`),
  fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 })).map(([a, b, c]) => `v${a}.${b}.${c}`),
);
const prose = fc
  .array(fc.tuple(proseNumber, fc.constantFrom(', ', '; ', ' и ', ' — до ', ', затем ', '. Потом ')), { minLength: 1, maxLength: 6 })
  .map((parts) => `Итого: ${parts.map(([n, join], i) => (i === parts.length - 1 ? n : `${n}${join}`)).join('')}.`);

describe('properties', () => {
  it('every Russian phone split by runs of non-alphanumeric characters is found', () => {
    fc.assert(
      fc.property(splitPhone, (text) => {
        expect(findContacts(text).some((f) => f.kind === 'phone'), text).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('prose of prices, dates, times, percentages, terms and order numbers passes', () => {
    fc.assert(
      fc.property(prose, (text) => {
        expect(findContacts(text), text).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
