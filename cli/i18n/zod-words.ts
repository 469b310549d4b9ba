/**
 * zod's standard issues (given as data by the SDK: sdk/issue-data.ts) in the active language, by
 * zod's own locale (`zod/v4/locales/ru.js`, loaded only when a Russian seller's file is wrong). In
 * English the SDK's messages are zod's English already.
 */
import { language } from './index.ts';

export type LocaleError = (issue: Record<string, unknown>) => { message: string } | string | undefined | null;

/** zod's error words for the active language, or undefined in English. */
export async function zodWords(): Promise<LocaleError | undefined> {
  if (language() !== 'ru') return undefined;
  const { default: ru } = await import('zod/v4/locales/ru.js');
  return ru().localeError as unknown as LocaleError;
}

/** A value of each kind zod names, in place of an input the SDK leaves out. */
const STAND_IN: Record<string, unknown> = { string: '', number: 0, bigint: 0n, boolean: false, object: {}, array: [], null: null, undefined: undefined, function: () => undefined, symbol: Symbol('input') };

/** One issue in zod's words for the language; undefined when there are none. */
export function zodIssueWords(issue: Record<string, unknown> | undefined, zod: LocaleError | undefined): string | undefined {
  if (issue === undefined || zod === undefined) return undefined;
  // zod's words name the kind of the input it got: a stand-in of that kind (the SDK never gives the value).
  const said = zod({ ...issue, input: STAND_IN[String(issue['received'])] });
  return (typeof said === 'string' ? said : said?.message) || undefined;
}
