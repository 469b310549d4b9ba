/**
 * Which language the CLI speaks: `--lang ru|en`, else `SELLER_LANG`, else the profile's saved
 * choice, else the POSIX order `LC_ALL`, `LC_MESSAGES`, `LANG` (the first one set decides). A
 * Russian locale (`ru`, `ru_RU.UTF-8`) gives Russian; anything else (`C`, `en_GB`, `de_DE`) English.
 * Read before the program is built, so that the help itself is in the chosen language.
 */
export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

type Env = Record<string, string | undefined>;

/** `ru`, `ru_RU.UTF-8`, `ru-RU` → ru; `en…` → en; anything else: undefined. */
export function languageOf(value: string | undefined): Language | undefined {
  const prefix = value?.trim().toLowerCase().split(/[_.@-]/)[0];
  return LANGUAGES.find((language) => language === prefix);
}

/** The value of `--lang` in an argument list (`--lang ru` or `--lang=ru`), before `--`. */
export function langFlag(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === '--lang') found = argv[++i] ?? '';
    else if (arg.startsWith('--lang=')) found = arg.slice('--lang='.length);
  }
  return found;
}

/** The POSIX locale for messages: the first of LC_ALL, LC_MESSAGES, LANG that is set and not empty. */
export function posixLocale(env: Env): string | undefined {
  return [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
}

export interface LanguageChoice {
  language: Language;
  /** A value given explicitly (`--lang`, `SELLER_LANG`) that is no language we speak. */
  invalid?: { source: '--lang' | 'SELLER_LANG'; value: string };
}

/** The language for a run; `saved` reads the profile's remembered choice (only when needed). */
export function chooseLanguage(argv: readonly string[], env: Env, saved: () => string | undefined = () => undefined): LanguageChoice {
  const flag = langFlag(argv);
  if (flag !== undefined) {
    const language = languageOf(flag);
    return language ? { language } : { language: fromLocale(env, saved), invalid: { source: '--lang', value: flag } };
  }
  if (env.SELLER_LANG) {
    const language = languageOf(env.SELLER_LANG);
    return language ? { language } : { language: fromLocale(env, saved), invalid: { source: 'SELLER_LANG', value: env.SELLER_LANG } };
  }
  return { language: fromLocale(env, saved) };
}

function fromLocale(env: Env, saved: () => string | undefined): Language {
  return languageOf(saved()) ?? (languageOf(posixLocale(env)) === 'ru' ? 'ru' : 'en');
}
