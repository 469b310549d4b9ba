/**
 * The message catalogues (cli/locales): the same keys in every language (a plural key has exactly
 * the forms its language's Intl.PluralRules names), the same placeholders, no empty text; and the
 * lint for hard-coded text (`i18next-cli lint`, run by `npm test` before vitest) is configured.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { has, t, translated, useLanguage } from '../../cli/i18n/index.ts';
import { flatten, messages } from '../helpers/catalogue.ts';
import { LANGUAGES } from '../../cli/i18n/language.ts';
import { CONTACT_WORDS } from '../../sdk/contact-words.ts';
import { apiOperations, sandboxOperations } from '../../sdk/contract/index.ts';

const root = resolve(import.meta.dirname, '../..');
const catalogue = (language: string) => JSON.parse(readFileSync(join(root, 'cli/locales', `${language}.json`), 'utf8')) as object;

describe('message catalogues', () => {
  const english = messages(catalogue('en'));

  it('English has messages', () => {
    expect(english.size).toBeGreaterThan(50);
  });

  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    const other = messages(catalogue(language));

    it(`${language} has exactly the keys of en`, () => {
      expect([...other.keys()].sort()).toEqual([...english.keys()].sort());
    });

    it(`${language} has the same placeholders as en in every message`, () => {
      const differ = [...english].filter(([key, en]) => {
        const mine = other.get(key);
        return mine && [...en.placeholders].sort().join() !== [...mine.placeholders].sort().join();
      });
      expect(differ.map(([key]) => key)).toEqual([]);
    });

    it(`${language} plurals have the forms of its Intl.PluralRules`, () => {
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories.slice().sort();
      const wrong = [...other].filter(([, entry]) => entry.forms.size > 0 && [...entry.forms].sort().join() !== categories.join());
      expect(wrong.map(([key]) => key)).toEqual([]);
    });
  }

  it('en plurals have the forms of its Intl.PluralRules', () => {
    const categories = new Intl.PluralRules('en').resolvedOptions().pluralCategories.slice().sort();
    const wrong = [...english].filter(([, entry]) => entry.forms.size > 0 && [...entry.forms].sort().join() !== categories.join());
    expect(wrong.map(([key]) => key)).toEqual([]);
  });

  it('no message is empty', () => {
    for (const language of LANGUAGES) {
      const empty = flatten(catalogue(language)).filter(([, text]) => text.trim() === '');
      expect(empty.map(([key]) => `${language}:${key}`)).toEqual([]);
    }
  });

  // t() reads a plain message straight from the catalogue (cli/i18n/index.ts): it must answer what
  // i18next answers, for every key of every language, and for keys that are not messages.
  for (const language of LANGUAGES) {
    it(`${language}: every message reads the same through t() as through i18next`, async () => {
      await useLanguage(language);
      const texts = new Map(flatten(catalogue(language)));
      const keys = [...texts.keys()];
      const sections = [...new Set(keys.map((key) => key.split('.')[0]!))];
      const others = ['no.such.key', 'program', 'program.description.more', 'a:b', ...sections, 'constructor', 'program.__proto__', 'toString'];
      const differ = [...keys, ...others].filter((key) => t(key) !== translated(key));
      expect(differ).toEqual([]);
      const plain = keys.filter((key) => !/\{\{|\$t\(/.test(texts.get(key)!));
      expect(plain.length).toBeGreaterThan(keys.length / 2);
      expect(others.filter((key) => has(key) !== keys.includes(key) && !sections.includes(key))).toEqual([]);
      await useLanguage('en');
    });
  }

  it('explains every refusal kind of the contract, and no kind the contract lacks', () => {
    const kinds = new Set<string>([...Object.values(apiOperations), ...Object.values(sandboxOperations)].flatMap((op) => [...op.refusals]));
    const explained = Object.keys((catalogue('en') as { refusals: object }).refusals);
    expect([...kinds].filter((kind) => !explained.includes(kind))).toEqual([]);
    expect(explained.filter((kind) => !kinds.has(kind))).toEqual([]);
  });

  it("the English contact words are the SDK's (sdk/contact-words.ts), kind for kind", () => {
    expect((catalogue('en') as { contacts: { kind: unknown } }).contacts.kind).toEqual(CONTACT_WORDS);
  });

  it('npm test runs the hard-coded-text lint over cli/ before the tests', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['lint:i18n']).toBe('i18next-cli lint');
    expect(pkg.scripts['test']).toContain('npm run lint:i18n');
    expect(readFileSync(join(root, 'i18next.config.mjs'), 'utf8')).toContain("input: ['cli/**/*.ts']");
  });
});
