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

let active: { language: Language; i18n: i18n } | undefined;

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
  active = { language, i18n: instance(language, await catalogueOf(language)) };
}

/** The active language (English until `useLanguage` chose another). */
export function language(): Language {
  return active?.language ?? 'en';
}

/** The text of `key` in the active language, with `options` interpolated (`count` picks the plural). */
export function t(key: string, options?: TOptions): string {
  active ??= { language: 'en', i18n: instance('en', en) };
  return active.i18n.t(key, options) as string;
}

/** Whether the active catalogue has `key` (an enum value, a refusal kind: known ones have words). */
export function has(key: string): boolean {
  t(key);
  return active!.i18n.exists(key);
}
