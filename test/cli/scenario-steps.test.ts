/**
 * `seller sandbox run --steps [VERB]` (issue 37, item 5): the verbs a line each, or one verb's fields
 * with type, required or default, allowed values and description, from the scenario schema, in the
 * seller's language (English, and Russian under LANG=ru_RU.UTF-8 with no English sentence); an
 * unknown verb is refused with the nearest suggested; `run` without a file or --steps is refused.
 * The catalogue has an English and a Russian description of every verb and every field of the
 * schema, the English the schema's own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scenarioReference, TYPE_WORDS } from '../../sdk/scenario/reference.ts';
import { fieldKey } from '../../cli/commands/sandbox-run-steps.ts';
import { ensureBuilt, ROOT, runSeller } from '../helpers/cli.ts';

const catalogue = (language: string) => JSON.parse(readFileSync(join(ROOT, 'cli/locales', `${language}.json`), 'utf8')) as Record<string, unknown>;
const lookup = (cat: Record<string, unknown>, key: string): unknown => key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], cat);
const reference = scenarioReference();
const RU = { LANG: 'ru_RU.UTF-8' };

/** The lines of a Russian output that hold three English words in a row, less the command names, examples and values. */
function englishSentences(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !/^\s+- /.test(line)) // an example step: the file's own words
    .map((line) => line.replace(/seller [a-z]+ [a-z]+( [a-z]+)?( --steps)?/g, '').replace(/docs\/scenarios\.md/g, ''))
    // Words in a sentence: three in a row, spaces between (a list of keys or values has commas).
    .filter((line) => /\b[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}\b/.test(line.replace(/(допустимо|глаголы|по умолчанию): .*$/, '')));
}

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

describe('the catalogue of the steps', () => {
  const en = catalogue('en');
  const ru = catalogue('ru');

  it('has an English and a Russian description of every verb, every kind of expect and every field of the schema; the English is the schema\'s', () => {
    const missing: string[] = [];
    const differ: string[] = [];
    const check = (key: string, schemaText: string) => {
      for (const [language, cat] of [['en', en], ['ru', ru]] as const) if (typeof lookup(cat, key) !== 'string' || lookup(cat, key) === '') missing.push(`${language}:${key}`);
      if (lookup(en, key) !== schemaText) differ.push(key);
      if (lookup(ru, key) === schemaText) differ.push(`ru:${key}`);
    };
    for (const verb of reference) {
      check(`scenario.steps.verbs.${verb.name}`, verb.description);
      for (const field of verb.fields) check(fieldKey(verb.name, undefined, field.name), field.description);
      for (const kind of verb.kinds ?? []) {
        check(`scenario.steps.kinds.${kind.name}`, kind.description);
        for (const field of kind.fields) check(fieldKey(verb.name, kind.name, field.name), field.description);
      }
    }
    expect(missing).toEqual([]);
    expect(differ).toEqual([]);
  });

  it('says the types in English with the reference\'s own words', () => {
    expect(lookup(en, 'scenario.steps.types')).toEqual(TYPE_WORDS);
  });
});

describe('seller sandbox run --steps', () => {
  it('lists every verb, one line each', async () => {
    const run = await runSeller(['sandbox', 'run', '--steps']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/)[0])).toEqual(reference.map((v) => v.name));
    expect(run.stdout).toMatch(/^ {2}pay +The buyer pays the order\.$/m);
  });

  it('with a verb, says each field: type, required or default, allowed values, description; and an example', async () => {
    const seller = await runSeller(['sandbox', 'run', '--steps', 'seller']);
    expect(seller.code, seller.stderr).toBe(0);
    expect(seller.stdout).toContain('seller: Makes a new seller with an API key');
    expect(seller.stdout).toMatch(/^ {2}admission +choice; default complete; allowed: complete, none$/m);
    expect(seller.stdout).toMatch(/^ +whether the seller's admission is complete$/m);
    expect(seller.stdout).toContain('  - seller: { as: shop, type: ip }');
    const review = await runSeller(['sandbox', 'run', '--steps', 'review']);
    expect(review.stdout).toMatch(/^ {2}stars +whole number from 1 to 5; required$/m);
    expect(review.stdout).toMatch(/^ {2}order +name of an order; required$/m);
    const deliver = await runSeller(['sandbox', 'run', '--steps', 'deliver']);
    expect(deliver.stdout).toMatch(/^ {2}nextChargeDay +date YYYY-MM-DD; optional$/m);
    const expectVerb = await runSeller(['sandbox', 'run', '--steps', 'expect']);
    expect(expectVerb.stdout).toContain('expect (order): Checks an order');
    expect(expectVerb.stdout).toMatch(/^ {2}within +duration \(90s, 30m, 2h, 1d\); optional$/m);
  });

  it('--json prints the reference as data', async () => {
    const run = await runSeller(['sandbox', 'run', '--steps', 'pay', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'pay', fields: [{ name: 'order', required: true, type: { kind: 'name', of: 'order' } }] });
  });

  it('refuses an unknown verb with the nearest suggested (exit 2)', async () => {
    const run = await runSeller(['sandbox', 'run', '--steps', 'reveiw']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--steps: no verb reveiw');
    expect(run.stderr).toContain('did you mean review?');
    const far = await runSeller(['sandbox', 'run', '--steps', 'teleport']);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('the verbs: seller, admission, status, card');
  });

  it('refuses a run with neither a file nor --steps (exit 2)', async () => {
    const run = await runSeller(['sandbox', 'run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('name the scenario file to run (or - for stdin), or --steps to list the step verbs');
  });
});

describe('seller sandbox run --steps under LANG=ru_RU.UTF-8', () => {
  it('lists the verbs in Russian, no English sentence', async () => {
    const run = await runSeller(['sandbox', 'run', '--steps'], { env: RU });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ {2}pay +Покупатель оплачивает заказ\.$/m);
    expect(englishSentences(run.stdout)).toEqual([]);
  });

  it.each(reference.map((v) => v.name))('says the fields of %s in Russian, no English sentence', async (verb) => {
    const run = await runSeller(['sandbox', 'run', '--steps', verb], { env: RU });
    expect(run.code, run.stderr).toBe(0);
    expect(englishSentences(run.stdout)).toEqual([]);
    expect(run.stdout).toContain('Пример:');
  });

  it('says the seller verb\'s fields with Russian types, defaults and allowed values', async () => {
    const run = await runSeller(['sandbox', 'run', '--steps', 'seller'], { env: RU });
    expect(run.stdout).toMatch(/^ {2}admission +выбор; по умолчанию complete; допустимо: complete, none$/m);
    expect(run.stdout).toMatch(/^ +пройден ли допуск продавца$/m);
  });

  it('says the file and the verb in the help in Russian, as required placeholders are', async () => {
    const run = await runSeller(['sandbox', 'run', '--help'], { env: RU });
    expect(run.stdout).toContain('Использование: seller sandbox run [параметры] [файл]');
    expect(run.stdout).toMatch(/^ {2}--steps \[глагол\] +вывести глаголы шагов/m);
  });

  it('refuses an unknown verb and a run without a file in Russian', async () => {
    const unknown = await runSeller(['sandbox', 'run', '--steps', 'reveiw'], { env: RU });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--steps: глагола reveiw нет');
    expect(unknown.stderr).toContain('может быть, review?');
    const none = await runSeller(['sandbox', 'run'], { env: RU });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('укажите файл сценария для прогона');
    expect(englishSentences(unknown.stderr + none.stderr)).toEqual([]);
  });
});
