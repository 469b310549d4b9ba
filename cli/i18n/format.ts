/**
 * Numbers, money and times for people, by the active language, with `Intl`. English keeps the
 * forms the CLI always printed (`1299 RUB`, ISO times in UTC: scripts that read tables rely on
 * them); Russian reads as Russians write (`1 299 ₽`, `25.11.2026, 12:00 GMT+3` in the user's zone,
 * `через 12 мин.`). `--json` never passes through here.
 */
import { language, t, tOr } from './index.ts';
import { serviceClockNow } from '../lib/service-clock.ts';

/** What `useTimeZone` was told; the zone is worked out from it when a time is first shown. */
let zoneChoice: { utc?: boolean | undefined; tz?: string | undefined } = {};
let zone: { value: string | undefined } | undefined;

/**
 * The time zone times are shown in: UTC with `--utc`, else `TZ` when it names a zone Intl knows,
 * else the system's (undefined). Only recorded here: checking `TZ` builds an `Intl` formatter and
 * loads the zone's data (~20 ms with `TZ=Europe/Moscow`), which a run that shows no time never pays.
 */
export function useTimeZone(options: { utc?: boolean; tz?: string | undefined }): void {
  zoneChoice = options;
  zone = undefined;
  formatters.clear();
}

/** The zone times are shown in, worked out on first use. */
function timeZone(): string | undefined {
  zone ??= { value: zoneChoice.utc ? 'UTC' : validZone(zoneChoice.tz) };
  return zone.value;
}

function validZone(tz: string | undefined): string | undefined {
  if (!tz) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz.replace(/^:/, '') });
    return tz.replace(/^:/, '');
  } catch {
    return undefined;
  }
}

/** Formatters made when first needed and kept for the run (one per language, zone and kind). */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();

function formatter<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(kind: string, make: () => T): T {
  const key = `${language()}|${kind}`;
  let made = formatters.get(key) as T | undefined;
  if (made === undefined) {
    made = make();
    formatters.set(key, made);
  }
  return made;
}

const locale = () => (language() === 'ru' ? 'ru-RU' : 'en-US');

/** Whole roubles: `1 299 ₽` (ru), `1299 RUB` (en). */
export function money(rub: number): string {
  if (language() !== 'ru') return `${rub} RUB`;
  return formatter('money', () => new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'RUB', maximumFractionDigits: 0 })).format(rub);
}

/**
 * A moment for people: in Russian the date and time in the user's zone with the zone shown
 * (`25.11.2026, 12:00 GMT+3`, `--utc` for UTC); in English as the service sent it (ISO, UTC). A
 * value that is not a time is shown as it came.
 */
export function dateTime(iso: string | null | undefined): string | null | undefined {
  if (iso === null || iso === undefined || iso === '') return iso;
  if (language() !== 'ru') return iso;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const format = formatter('dateTime', () =>
    new Intl.DateTimeFormat('ru-RU', {
      timeZone: timeZone(),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    }),
  );
  return format.format(date);
}

/** The time of day of a moment, in the user's zone (`12:00:05`), for live lines. */
export function clockTime(ms: number): string {
  const format = formatter('clock', () => new Intl.DateTimeFormat(language() === 'ru' ? 'ru-RU' : 'en-GB', { timeZone: timeZone(), hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }));
  return format.format(ms);
}

/** A moment relative to now, by Intl: `через 12 мин.`, `3 мин. назад` (ru), `in 12 min.` (en). */
export function relative(at: number, now: number): string {
  const seconds = Math.round((at - now) / 1000);
  const abs = Math.abs(seconds);
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    abs < 60 ? [seconds, 'second'] : abs < 3600 ? [Math.trunc(seconds / 60), 'minute'] : abs < 86_400 ? [Math.trunc(seconds / 3600), 'hour'] : [Math.trunc(seconds / 86_400), 'day'];
  return formatter('relative', () => new Intl.RelativeTimeFormat(locale(), { style: 'short', numeric: 'always' })).format(value, unit);
}

/** A deadline for people: its moment and, in Russian, the time left (`25.11.2026, 12:00 GMT+3 (через 12 мин.)`). */
export function deadline(iso: string | null | undefined, now = serviceClockNow()): string | null | undefined {
  const shown = dateTime(iso);
  if (language() !== 'ru' || !iso) return shown;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? shown : `${shown} (${relative(at, now)})`;
}

/**
 * An enum value for people (`word('orderStatus', 'awaiting_delivery')`): a word in Russian
 * (`ждёт выдачи`), the raw value in English, and any value the catalogue does not know (one the
 * service added) as it came. Where a seller must type the value (an option's known values), show
 * the raw value, not this.
 */
export function word(kind: string, value: string): string {
  const key = `enums.${kind}.${value}`;
  return tOr(key, value);
}

/** A number of minutes as days, hours and minutes: `1 d 2 h 30 min` (en), `1 дн. 2 ч 30 мин` (ru). */
export function duration(total: number): string {
  const d = Math.floor(total / 1440);
  const h = Math.floor((total % 1440) / 60);
  const m = total % 60;
  const parts = [d ? t('units.days', { n: d }) : '', h ? t('units.hours', { n: h }) : '', m ? t('units.minutes', { n: m }) : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : t('units.minutes', { n: 0 });
}

/** A guarantee or a period in days: `30 d` (en), `30 дн.` (ru); 0 is `none`. */
export function days(n: number): string {
  return n === 0 ? t('words.none') : t('units.days', { n });
}

/** Alternatives for people: `"a" or "b"` (en), `"a" или "b"` (ru). */
export function either(items: readonly string[]): string {
  return items.join(` ${t('words.or')} `);
}

/** Things together: `a and b` (en), `a и b` (ru). */
export function both(items: readonly string[]): string {
  return items.join(` ${t('words.and')} `);
}

/** A list for people: `a, b and c` (en), `a, b и c` (ru); one item as it is, none empty. */
export function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${t('words.and')} ${items.at(-1)!}`;
}

/** A number in a money column whose header names the currency in English: `990` (en), `990 ₽` (ru). */
export function rubles(n: number): string {
  return language() === 'ru' ? money(n) : String(n);
}

/** An enum value a seller may have to type later, for a choice list: `подписка (subscription)` (ru), `subscription` (en). */
export function named(kind: string, value: string): string {
  const shown = word(kind, value);
  return shown === value ? value : `${shown} (${value})`;
}

/** A calendar day (`2026-12-26`) as the language writes it: `26.12.2026` (ru), as it is (en). */
export function day(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return language() === 'ru' && match ? `${match[3]}.${match[2]}.${match[1]}` : iso;
}

/** A card's number as a reference: `№1002` (ru), `#1002` (en), the same everywhere a card is named. */
export function cardNo(number: number | string): string {
  return `${language() === 'ru' ? '№' : '#'}${number}`;
}

/** A percentage as the language writes it: `12.5%` (en), `12,5 %` (ru); `digits` after the point. */
export function percent(value: number, digits = 0): string {
  if (language() !== 'ru') return `${value.toFixed(digits)}%`;
  return formatter(`percent${digits}`, () => new Intl.NumberFormat('ru-RU', { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits })).format(value / 100);
}

/** Yes or no in words, for piped lines too: `yes`/`no` (en), `да`/`нет` (ru). */
export function yesNo(value: boolean): string {
  return t(value ? 'words.yes' : 'words.no');
}
