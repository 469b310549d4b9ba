/**
 * The reference of the scenario steps (sdk/scenario/reference.ts) is read from the schema
 * (sdk/scenario/verbs.ts), and docs/scenarios.md is what it renders: a verb or a field added to the
 * schema without running `node scripts/scenario-reference.mjs` fails here. Every verb has a
 * description and an example step its schema accepts; every field has a description.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderReference, scenarioReference, typeText } from '../../sdk/scenario/reference.ts';
import { EXPECT_KINDS, VERB_NAMES, VERBS } from '../../sdk/scenario/verbs.ts';
import { ROOT } from '../helpers/cli.ts';

const reference = scenarioReference();
const steps = reference.flatMap((verb) => (verb.kinds ? verb.kinds.map((kind) => ({ ...kind, id: `expect.${kind.name}`, verb: 'expect' })) : [{ ...verb, id: verb.name, verb: verb.name }]));

describe('docs/scenarios.md', () => {
  it('is what the scenario schema renders (run node scripts/scenario-reference.mjs after changing sdk/scenario/verbs.ts)', () => {
    expect(readFileSync(join(ROOT, 'docs/scenarios.md'), 'utf8')).toBe(renderReference());
  });

  it('scripts/scenario-reference.mjs --check agrees: exit 0 on the file as committed', async () => {
    const { stderr } = await promisify(execFile)(process.execPath, ['scripts/scenario-reference.mjs', '--check'], { cwd: ROOT });
    expect(stderr).toMatch(/up to date/);
  }, 60_000);

  it('changes with the schema: a field more in the reference is a different document', () => {
    const more = structuredClone(reference);
    more.find((v) => v.name === 'pay')!.fields.push({ name: 'tip', type: { kind: 'integer', min: 0 }, required: false, description: 'a tip' });
    const text = renderReference(more);
    expect(text).not.toBe(renderReference());
    expect(text).toContain('| `tip` | whole number from 0 | no |  |  | a tip |');
  });
});

describe('the reference', () => {
  it('has every verb of the schema, and expect with each of its kinds', () => {
    expect(reference.map((v) => v.name)).toEqual(VERB_NAMES);
    expect(reference.find((v) => v.name === 'expect')!.kinds!.map((k) => k.name)).toEqual(Object.keys(EXPECT_KINDS));
  });

  it('gives every verb a description and an example step its schema accepts', () => {
    for (const step of steps) {
      expect(step.description, step.id).not.toBe('');
      const [verb, args] = Object.entries(parse(`{ ${step.example} }`) as Record<string, unknown>)[0]!;
      expect(verb, step.id).toBe(step.verb);
      const schema = step.verb === 'expect' ? EXPECT_KINDS[step.name as keyof typeof EXPECT_KINDS].args : VERBS[step.verb as keyof typeof VERBS].args;
      const parsed = schema.safeParse(args);
      expect(parsed.success, `${step.id}: ${step.example} ${parsed.error?.message ?? ''}`).toBe(true);
    }
  });

  it('describes every field, with its type, whether it is required, its default and its allowed values', () => {
    for (const step of steps) for (const field of step.fields) expect(field.description, `${step.id}.${field.name}`).not.toBe('');
    const field = (id: string, name: string) => steps.find((s) => s.id === id)!.fields.find((f) => f.name === name)!;
    expect(field('seller', 'admission')).toMatchObject({ required: false, default: 'complete', allowed: ['complete', 'none'] });
    expect(field('review', 'stars')).toMatchObject({ required: true, type: { kind: 'integer', min: 1, max: 5 } });
    expect(typeText(field('review', 'stars').type)).toBe('whole number from 1 to 5');
    expect(field('deliver', 'order')).toMatchObject({ required: true, type: { kind: 'name', of: 'order' } });
    expect(field('expect.order', 'within').type).toEqual({ kind: 'duration' });
    expect(field('card', 'autoIssue')).toMatchObject({ required: false, type: { kind: 'boolean' } });
    expect(field('hooks', 'events').allowed).toContain('order.paid');
    expect(field('deliver', 'nextChargeDay')).toMatchObject({ required: false, type: { kind: 'date' } });
  });
});
