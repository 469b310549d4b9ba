/**
 * Values as people type them (cli/lib/typed-values.ts) and as the CLI shows them back in Russian
 * (cli/i18n/format.ts): prices with spaces, kopecks refused with a reason, days in both forms,
 * minutes and days with units; `№`, `0,0 %`, `26.12.2026`; a finished order's deadline without
 * time left; relative times by the service's clock; inquirer's words from the catalogue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cardNo, day, percent, useTimeZone } from '../../cli/i18n/format.ts';
import { useLanguage } from '../../cli/i18n/index.ts';
import { orderDeadline } from '../../cli/lib/order-deadline.ts';
import { checkboxTheme, confirmTheme, selectTheme } from '../../cli/lib/prompt-theme.ts';
import { dateRecordingFetch, serviceClockNow } from '../../cli/lib/service-clock.ts';
import { checkOf, readDay, readRoubles, readSpan, roublesArg } from '../../cli/lib/typed-values.ts';
import { parseSince, positiveSeconds, sinceFromNow } from '../../cli/commands/orders-common.ts';

afterEach(async () => {
  await useLanguage('en');
  useTimeZone({});
});

describe('prices', () => {
  it.each([
    ['1299', 1299], ['1 299', 1299], ['1\u00a0299', 1299], ['1\u202f299', 1299], ['1 299 ₽', 1299], ['1\u00a0299\u00a0₽', 1299],
    ['1 299 руб.', 1299], ['990 RUB', 990], [' 12 000 000 ', 12_000_000], ['1', 1],
  ])('%j is %i roubles', (text, value) => {
    expect(readRoubles(text)).toEqual({ value });
  });

  it.each(['0', '12 34', '1 2999', 'abc', '', '-5', '1 299 $'])('%j is no price', (text) => {
    expect(readRoubles(text)).toHaveProperty('problem');
  });

  it('refuses kopecks with a reason in the run’s language, naming the whole roubles', async () => {
    expect(readRoubles('299,50')).toEqual({ problem: 'prices are whole roubles: "299,50" has kopecks; write 299' });
    await useLanguage('ru');
    expect(readRoubles('299,50')).toEqual({ problem: 'цены — в целых рублях, без копеек: «299,50» не подходит; напишите 299' });
    expect(readRoubles('1 299.99')).toEqual({ problem: 'цены — в целых рублях, без копеек: «1 299.99» не подходит; напишите 1 299' });
    expect(() => roublesArg('299,50')).toThrow(/без копеек/);
    expect(checkOf(readRoubles)('1 299')).toBe(true);
  });
});

describe('days', () => {
  it.each([
    ['2026-12-26', '2026-12-26'], ['26.12.2026', '2026-12-26'], ['1.2.2027', '2027-02-01'], [' 29.02.2028 ', '2028-02-29'],
  ])('%j is %s', (text, value) => {
    expect(readDay(text)).toEqual({ value });
  });

  it.each(['31.02.2027', '2026-13-01', '29.02.2027', '26/12/2026', '26.12.26', 'tomorrow', ''])('%j is no day', (text) => {
    expect(readDay(text)).toHaveProperty('problem');
  });

  it('says which form to write in Russian', async () => {
    await useLanguage('ru');
    expect(readDay('завтра')).toEqual({ problem: '«завтра» — не дата: напишите ДД.ММ.ГГГГ или ГГГГ-ММ-ДД' });
    expect(readDay('31.02.2027')).toEqual({ problem: 'такого дня нет: «31.02.2027»' });
  });

  it('reads --since as a Russian day too, and counts ages back from the time given', () => {
    expect(parseSince('26.12.2026')).toBe(parseSince('2026-12-26'));
    const now = Date.parse('2026-11-25T09:00:00.000Z');
    expect(parseSince('2ч', now)).toBe('2026-11-25T07:00:00.000Z');
    expect(sinceFromNow('now')).toBe(true);
    expect(sinceFromNow('30мин')).toBe(true);
    expect(sinceFromNow('26.12.2026')).toBe(false);
    expect(sinceFromNow('all')).toBe(false);
  });
});

describe('spans', () => {
  it.each([
    ['60', 'minutes', 60], ['1ч', 'minutes', 60], ['1h30m', 'minutes', 90], ['1д', 'minutes', 1440], ['30мин', 'minutes', 30],
    ['30', 'days', 30], ['30д', 'days', 30], ['1н', 'days', 7], ['0', 'days', 0],
  ] as const)('%j is %s %i', (text, unit, value) => {
    expect(readSpan(text, unit, { min: 0 })).toEqual({ value });
  });

  it.each([['90с', 'minutes'], ['12ч', 'days'], ['0', 'minutes'], ['soon', 'minutes']] as const)('%j is no whole number of %s ≥ 1', (text, unit) => {
    expect(readSpan(text, unit)).toHaveProperty('problem');
  });

  it('takes seconds between polls with units and a decimal comma', () => {
    expect(positiveSeconds('0,5')).toBe(0.5);
    expect(positiveSeconds('2с')).toBe(2);
    expect(() => positiveSeconds('0')).toThrow();
  });
});

describe('shown back', () => {
  it('writes the card, the day and percentages as the language does', async () => {
    expect([cardNo(1002), day('2026-12-26'), percent(0, 1), percent(12.5, 1)]).toEqual(['#1002', '2026-12-26', '0.0%', '12.5%']);
    await useLanguage('ru');
    expect([cardNo(1002), day('2026-12-26'), percent(0, 1), percent(12.5, 1), percent(40)]).toEqual(['№1002', '26.12.2026', '0,0\u00a0%', '12,5\u00a0%', '40\u00a0%']);
  });

  it('counts no time left on a finished order; an open one counts from the service’s clock', async () => {
    await useLanguage('ru');
    useTimeZone({ tz: 'Europe/Moscow' });
    // An answer whose Date is two hours ahead of this computer: the service's clock was moved.
    const ahead = new Date(Date.now() + 2 * 3600_000).toUTCString();
    await dateRecordingFetch(async () => new Response('{}', { headers: { date: ahead } }), {})('http://127.0.0.1/');
    expect(serviceClockNow() - Date.now()).toBeGreaterThan(2 * 3600_000 - 2000);
    const deliverBy = new Date(Date.now() + 2 * 3600_000 + 30 * 60_000).toISOString();
    const open = orderDeadline({ status: 'awaiting_delivery', deliverBy });
    expect(open).toMatch(/\(через (29|30) мин\.\)$/);
    for (const status of ['delivered', 'completed', 'cancelled', 'declined', 'disputed', 'refunded']) {
      expect(orderDeadline({ status, deliverBy }), status).toMatch(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d GMT\+3$/);
    }
    // Back to this computer's clock for the tests after this one.
    await dateRecordingFetch(async () => new Response('{}', { headers: { date: new Date().toUTCString() } }), {})('http://127.0.0.1/');
  });
});

describe('inquirer’s words', () => {
  it('answers да/нет, says the key hints and the refusal in the run’s language', async () => {
    await useLanguage('ru');
    const confirm = confirmTheme();
    expect(confirm.keywords.yes).toBe('да');
    expect(confirm.keywords.no).toBe('нет');
    expect(confirm.keywords.error({ yes: 'да', no: 'нет' })).toBe('ответьте «да» или «нет»');
    const plainText = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plainText(selectTheme().style.keysHelpTip([['↑↓', 'navigate'], ['⏎', 'select']]))).toBe('↑↓ перемещение • ⏎ выбрать');
    expect(plainText(checkboxTheme().style.keysHelpTip([['space', 'select'], ['a', 'all'], ['⏎', 'submit']]))).toBe('пробел отметить • a все • ⏎ готово');
    expect(plainText(selectTheme().style.error('No results found'))).toBe('> Ничего не найдено.');
    await useLanguage('en');
    expect(confirmTheme().keywords.yes).toBe('Yes');
    expect(plainText(selectTheme().style.keysHelpTip([['↑↓', 'navigate'], ['⏎', 'select']]))).toBe('↑↓ navigate • ⏎ select');
  });
});
