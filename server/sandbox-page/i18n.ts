/**
 * The page's words, numbers, money and times, by the language the server chose (`<html lang>`:
 * `?lang=ru|en`, else Accept-Language; server/sandbox-page-route.ts). The catalogues are this page's
 * own pair (locales/en.json, locales/ru.json, same keys; test/server/sandbox-page-i18n.test.ts checks
 * it), with the CLI's habits: plurals by Intl.PluralRules (`key_one`, `key_few`, …), roubles as
 * `1 299 ₽`, times local with their zone.
 */
import en from './locales/en.json' with { type: 'json' };
import ru from './locales/ru.json' with { type: 'json' };

export type Lang = 'en' | 'ru';
type Tree = { [key: string]: string | Tree };
const CATALOGUES: Record<Lang, Tree> = { en, ru };

export const pageLanguage = (): Lang => (typeof document !== 'undefined' && document.documentElement.lang === 'ru' ? 'ru' : 'en');

let lang: Lang = pageLanguage();
/** For tests: the language words come in. */
export const useLanguage = (next: Lang): void => void (lang = next);
const locale = (): string => (lang === 'ru' ? 'ru-RU' : 'en-GB');

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** Whether the catalogue has words for `key` (a code or a value the server may send before the page knows it). */
export const has = (key: string): boolean => lookup(CATALOGUES[lang], key) !== undefined;

/** A value's words when the catalogue has them under `group`, else the value itself (a newer server's). */
export const valueName = (group: string, value: string): string => (has(`${group}.${value}`) ? t(`${group}.${value}`) : value);

/** The text of `key` with `{{name}}` filled; with `count`, the plural form Intl.PluralRules picks. */
export function t(key: string, vars: Record<string, string | number> = {}): string {
  const tree = CATALOGUES[lang];
  let text: string | undefined;
  if (typeof vars.count === 'number') {
    const form = new Intl.PluralRules(locale()).select(vars.count);
    text = lookup(tree, `${key}_${form}`) ?? lookup(tree, `${key}_other`);
  }
  text ??= lookup(tree, key) ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** Whole roubles: `1 299 ₽` (ru, with Intl's no-break spaces), `₽1,299` (en). */
export const money = (rub: number): string =>
  new Intl.NumberFormat(locale(), { style: 'currency', currency: 'RUB', currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0 }).format(rub);

/** A moment in the browser's zone, with the zone named: `25.11.2026, 12:00:05 UTC`. */
export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(), {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  }).format(date);
}

/** An order status in words. */
export const statusName = (status: string): string => t(`status.${status}`);
