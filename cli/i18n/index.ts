/**
 * The CLI's messages: i18next over one catalogue per language (cli/locales/en.json, ru.json, the
 * same keys). `t('errors.noKey')` answers the active language's text; plurals are i18next's
 * (`_one`/`_few`/`_many`/`_other`, chosen by `Intl.PluralRules`), placeholders `{{name}}`.
 *
 * English is the default and is what any code run outside `runCli` (a test calling a command's
 * `run…` function) speaks. `useLanguage('ru')` loads the Russian catalogue, and only then: a run
 * in English never evaluates it. See docs/decisions.md ("The seller's language") for how to add
 * a message.
 */
import i18next, { type i18n, type TOptions } from 'i18next';
import en from '../locales/en.json' with { type: 'json' };
import type { Language } from './language.ts';

export type { Language } from './language.ts';

type Catalogue = Record<string, unknown>;

/**
 * The active language, its catalogue, and the i18next instance over it, made on the first message
 * that needs i18next (one with options, or with `{{…}}`/`$t(…)` in its text).
 */
let active: { language: Language; catalogue: Catalogue; i18n?: i18n } | undefined;

function instance(language: Language, catalogue: Catalogue): i18n {
  const created = i18next.createInstance();
  // With the resources given and initAsync off, init is synchronous.
  void created.init({
    lng: language,
    resources: { [language]: { translation: catalogue } },
    fallbackLng: false,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return created;
}

async function catalogueOf(language: Language): Promise<Catalogue> {
  if (language === 'ru') return (await import('../locales/ru.json', { with: { type: 'json' } })).default as unknown as Catalogue;
  return en;
}

/** Switches every later message to `language` (loads its catalogue). */
export async function useLanguage(language: Language): Promise<void> {
  if (active?.language === language) return;
  active = { language, catalogue: await catalogueOf(language) };
}

/** The active language (English until `useLanguage` chose another). */
export function language(): Language {
  return active?.language ?? 'en';
}

function i18nOf(current: NonNullable<typeof active>): i18n {
  return (current.i18n ??= instance(current.language, current.catalogue));
}

/**
 * The text of a message that i18next would answer as the catalogue writes it: asked without options,
 * a string with nothing to fill in (`{{…}}`) or nest (`$t(…)`), under a key without a namespace.
 * A command registers ~100 such messages (its options' descriptions) and i18next costs ~40 µs for
 * each in a fresh process, most of a command's start-up budget (docs/benchmarks.md, "Session 5").
 * test/cli/i18n-catalogues.test.ts checks that every message of both catalogues reads the same both ways.
 */
function plainText(catalogue: Catalogue, key: string): string | undefined {
  if (key.includes(':')) return undefined;
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' && !node.includes('{{') && !node.includes('$t(') ? node : undefined;
}

/** The text of `key` in the active language, with `options` interpolated (`count` picks the plural). */
export function t(key: string, options?: TOptions): string {
  active ??= { language: 'en', catalogue: en };
  if (options === undefined) {
    const text = plainText(active.catalogue, key);
    if (text !== undefined) return text;
  }
  return i18nOf(active).t(key, options) as string;
}

/** The same through i18next alone, never the plain-text reading (the tests compare the two). */
export function translated(key: string, options?: TOptions): string {
  active ??= { language: 'en', catalogue: en };
  return i18nOf(active).t(key, options) as string;
}

/** The text of `key`, or `fallback` when the catalogue has no such message (a value this version does not know). */
export function tOr(key: string, fallback: string): string {
  return has(key) ? t(key) : fallback;
}

/** Whether the active catalogue has `key` (an enum value, a refusal kind: known ones have words). */
export function has(key: string): boolean {
  active ??= { language: 'en', catalogue: en };
  return plainText(active.catalogue, key) !== undefined || i18nOf(active).exists(key);
}
