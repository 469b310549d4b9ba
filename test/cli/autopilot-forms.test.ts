/**
 * The autopilot's events are data (sdk/autopilot/words.ts): every form the SDK can emit has a message
 * in both catalogues (`autopilot.events.<form>`), with the same placeholders, and the catalogues have
 * no form the SDK lacks; the English catalogue holds the SDK's very English; every value a form names
 * is declared (what it holds, so how a client shows it), and none is declared that no form names.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTOPILOT_VALUES, AUTOPILOT_WORDS } from '../../sdk/autopilot/words.ts';
import { LANGUAGES } from '../../cli/i18n/language.ts';
import { flatten, messages } from '../helpers/catalogue.ts';

const root = resolve(import.meta.dirname, '../..');
const catalogue = (language: string) => JSON.parse(readFileSync(join(root, 'cli/locales', `${language}.json`), 'utf8')) as { autopilot: { events: object; short: object } };

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)].map((m) => m[1]!);

/** The SDK's forms, each with its texts (one, or one per English plural category) and placeholders. */
const sdk = new Map(
  Object.entries(AUTOPILOT_WORDS).map(([form, words]) => {
    const texts: Record<string, string> = typeof words === 'string' ? { '': words } : { ...words };
    return [form, { texts, plural: typeof words !== 'string', placeholders: new Set(Object.values(texts).flatMap(placeholders)) }];
  }),
);

describe('autopilot forms: the SDK and the catalogues', () => {
  it('the SDK has forms', () => {
    expect(sdk.size).toBeGreaterThan(50);
  });

  for (const language of LANGUAGES) {
    const said = messages(catalogue(language).autopilot.events);

    it(`${language}: has a message for every form the SDK can emit, and none the SDK lacks`, () => {
      expect([...sdk.keys()].filter((form) => !said.has(form))).toEqual([]);
      expect([...said.keys()].filter((form) => !sdk.has(form))).toEqual([]);
    });

    it(`${language}: each message names the SDK's values, no more, no fewer`, () => {
      const differ = [...sdk].filter(([form, mine]) => {
        const theirs = said.get(form);
        return theirs === undefined || [...mine.placeholders].sort().join() !== [...theirs.placeholders].sort().join();
      });
      expect(differ.map(([form]) => form)).toEqual([]);
    });

    it(`${language}: a form whose English depends on the count has plural forms`, () => {
      expect([...sdk].filter(([form, mine]) => mine.plural && said.get(form)?.forms.size === 0).map(([form]) => form)).toEqual([]);
    });
  }

  it("the English catalogue holds the SDK's English, form by form and plural by plural", () => {
    const english = new Map(flatten(catalogue('en').autopilot.events));
    const differ: string[] = [];
    for (const [form, mine] of sdk) {
      for (const [key, text] of english) {
        const plural = /^(.*)_(zero|one|two|few|many|other)$/.exec(key);
        if ((plural ? plural[1] : key) !== form) continue;
        const expected = mine.plural ? mine.texts[plural?.[2] ?? 'other'] : mine.texts[''];
        if (text !== expected) differ.push(`${key}: ${text} ≠ ${expected}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('the short words under the columns are of forms the SDK has, with the same placeholders', () => {
    for (const language of LANGUAGES) {
      const short = messages(catalogue(language).autopilot.short);
      expect([...short.keys()].filter((form) => !sdk.has(form))).toEqual([]);
      expect([...short].filter(([form, entry]) => [...entry.placeholders].sort().join() !== [...sdk.get(form)!.placeholders].sort().join()).map(([form]) => form)).toEqual([]);
    }
  });

  it('every value a form names is declared, and every declared value is named by a form', () => {
    const named = new Set([...sdk.values()].flatMap((form) => [...form.placeholders]));
    expect([...named].filter((name) => !Object.hasOwn(AUTOPILOT_VALUES, name))).toEqual([]);
    expect(Object.keys(AUTOPILOT_VALUES).filter((name) => !named.has(name))).toEqual([]);
  });
});
