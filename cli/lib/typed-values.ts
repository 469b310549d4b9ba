/**
 * Values as people type them, in either language's way: a price `1299`, `1 299` or `1 299 ₽` (spaces,
 * non-breaking spaces: the CLI's own money format), a day `2026-12-26` or `26.12.2026` (the form the
 * CLI prints), a span of minutes or days `90`, `1ч30мин`, `30д` (sdk/duration.ts). Each reader
 * answers the value, or a reason from the catalogue (`typed.*`) for commander, a prompt's check or a
 * usage error. A flag and its prompt read with the same reader. Yes and no are the prompts' own (cli/lib/prompt-theme.ts: `да`/`нет` and `y`/`n`).
 */
import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../../sdk/duration.ts';
import { t } from '../i18n/index.ts';

export type Read<T> = { value: T } | { problem: string };

/** Spaces people put between groups of digits: a space, a no-break space, a narrow or thin one. */
const GROUP = '[ \\u00a0\\u202f\\u2009]';
const GROUPED = new RegExp(`^\\d{1,3}(?:${GROUP}\\d{3})+$`);
/** A currency after the amount: `₽`, `р.`, `руб.`, `RUB` (any case). */
// `\u` escapes for ₽, р, руб: the `seller` bundle stays ASCII (test/cli/bundle-text.test.ts).
const CURRENCY = /[\s\u00a0\u202f]*(?:\u20bd|\u0440\.?|\u0440\u0443\u0431\.?|rub)$/iu;

/** A price in whole roubles (at least 1): `1299`, `1 299`, `1 299 ₽`; `299,50` is refused (no kopecks). */
export function readRoubles(text: string): Read<number> {
  const bare = text.trim().replace(CURRENCY, '').trim();
  if (/^\d+$/.test(bare) || GROUPED.test(bare)) {
    const value = Number(bare.replace(new RegExp(GROUP, 'g'), ''));
    return value >= 1 ? { value } : { problem: t('typed.roubles.atLeastOne', { text }) };
  }
  if (/^\d[\d \u00a0\u202f\u2009]*[.,]\d+$/.test(bare)) return { problem: t('typed.roubles.whole', { text, rounded: bare.replace(/[.,]\d+$/, '') }) };
  return { problem: t('typed.roubles.notANumber', { text }) };
}

/** A calendar day as the API writes it (`2026-12-26`) from `2026-12-26` or `26.12.2026` (`1.2.2027` too); a real date only. */
export function readDay(text: string): Read<string> {
  const source = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(source);
  const ru = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(source);
  const [year, month, day] = iso ? [iso[1], iso[2], iso[3]] : ru ? [ru[3], ru[2], ru[1]] : [];
  if (year === undefined || month === undefined || day === undefined) return { problem: t('typed.day.notADay', { text }) };
  const value = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return { problem: t('typed.day.noSuchDay', { text }) };
  return { value };
}

/**
 * A whole number of `unit`s (minutes, days) from a bare number (`60`) or a duration with units
 * (`1ч`, `2h`, `1д 12ч`); a duration that is not a whole number of `unit`s is refused.
 */
export function readSpan(text: string, unit: 'minutes' | 'days', options: { min?: number } = {}): Read<number> {
  const min = options.min ?? 1;
  const source = text.trim();
  const unitSeconds = unit === 'minutes' ? 60 : 86_400;
  let value: number | undefined;
  if (/^\d+$/.test(source)) value = Number(source);
  else {
    const seconds = parseDuration(source);
    if (seconds !== undefined && seconds % unitSeconds === 0) value = seconds / unitSeconds;
  }
  if (value === undefined || value < min) return { problem: t(`typed.span.${unit}`, { text, min }) };
  return { value };
}

/** A positive number, with a decimal point or comma (`1.5`, `1,5`): a credits rate. */
export function readPositiveNumber(text: string): Read<number> {
  const source = text.trim();
  const value = Number(source.replace(',', '.'));
  return /^\d+([.,]\d+)?$/.test(source) && value > 0 ? { value } : { problem: t('typed.positiveNumber') };
}

/** The value read, or a commander `InvalidArgumentError` with its reason (for an argParser). */
export function orInvalid<T>(read: Read<T>): T {
  if ('problem' in read) throw new InvalidArgumentError(read.problem);
  return read.value;
}

/** A prompt's check: `true`, or the reason. */
export const checkOf =
  <T>(reader: (text: string) => Read<T>) =>
  (text: string): true | string => {
    const read = reader(text);
    return 'problem' in read ? read.problem : true;
  };

/** commander argParsers. */
export const roublesArg = (text: string): number => orInvalid(readRoubles(text));
export const minutesArg = (text: string): number => orInvalid(readSpan(text, 'minutes'));
export const daysArg = (text: string): number => orInvalid(readSpan(text, 'days', { min: 0 }));
export const positiveNumberArg = (text: string): number => orInvalid(readPositiveNumber(text));
