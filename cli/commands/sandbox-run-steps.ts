/**
 * `seller sandbox run --steps [VERB]`: the reference of the scenario steps (sdk/scenario/reference.ts,
 * read from the schema, the same as docs/scenarios.md) in the seller's language: the verbs a line
 * each, or a verb's fields with their type, whether required (or the default), the allowed values
 * and what each is for. The words are the catalogue's (`scenario.steps.*`: the verbs, the kinds of
 * `expect`, every field by verb and name); with `--json` the reference itself, in English.
 */
import type { FieldReference, StepReference, VerbReference } from '../../sdk/scenario/reference.ts';
import { t } from '../i18n/index.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { nearestWithin } from '../lib/edit-distance.ts';
import { UsageError } from '../lib/errors.ts';
import { printJson, say } from '../lib/output.ts';

/** The catalogue's key of a field's description: `scenario.steps.fields.pay.order`, `scenario.steps.fields.expect.order.within`. */
export const fieldKey = (verb: string, kind: string | undefined, field: string): string => `scenario.steps.fields.${verb}.${kind === undefined ? '' : `${kind}.`}${field}`;

export async function printSteps(verbName: string | undefined, deps: Deps): Promise<void> {
  const { scenarioReference, typeText } = await import('../../sdk/scenario/reference.ts');
  const reference = scenarioReference();
  const names = reference.map((v) => v.name as string);
  if (verbName === undefined) {
    if (wantsJson(deps)) return printJson(deps.io, reference);
    const width = Math.max(...names.map((n) => n.length));
    const lines = [t('scenario.steps.title'), ...reference.map((v) => `  ${t('scenario.steps.line', { name: v.name.padEnd(width), description: t(`scenario.steps.verbs.${v.name}`) })}`)];
    say(deps.io, lines.join('\n'));
    return;
  }
  const verb = reference.find((v) => v.name === verbName);
  if (!verb) {
    const near = nearestWithin(verbName, names, 2);
    throw new UsageError(t('scenario.steps.unknownVerb', { verb: verbName }), near ? t('scenario.steps.didYouMean', { near }) : t('scenario.steps.verbsAre', { verbs: names.join(', ') }));
  }
  if (wantsJson(deps)) return printJson(deps.io, verb);
  const typeWords = (key: string, params?: Record<string, string | number>) => t(`scenario.steps.types.${key}`, params);
  say(deps.io, verbText(verb, (type) => typeText(type, typeWords)).join('\n'));
}

function verbText(verb: VerbReference, typeOf: (type: FieldReference['type']) => string): string[] {
  const lines = [t('scenario.steps.verbTitle', { verb: verb.name, description: t(`scenario.steps.verbs.${verb.name}`) })];
  if (verb.kinds === undefined) return [...lines, ...stepText(verb.name, undefined, verb, typeOf)];
  for (const kind of verb.kinds) {
    lines.push('', t('scenario.steps.kindTitle', { verb: verb.name, kind: kind.name, description: t(`scenario.steps.kinds.${kind.name}`) }), ...stepText(verb.name, kind.name, kind, typeOf));
  }
  return lines;
}

function stepText(verb: string, kind: string | undefined, step: StepReference, typeOf: (type: FieldReference['type']) => string): string[] {
  const lines: string[] = [];
  if (step.makes) lines.push(`  ${t('scenario.steps.makes', { kind: t(`scenario.steps.types.aKind.${step.makes}`) })}`);
  if (step.fields.length === 0) lines.push(`  ${t('scenario.steps.noFields')}`);
  const width = Math.max(0, ...step.fields.map((f) => f.name.length));
  for (const field of step.fields) {
    const need = [
      field.required ? t('scenario.steps.required') : field.default === undefined ? t('scenario.steps.optional') : t('scenario.steps.default', { value: field.default === '' ? '""' : String(field.default) }),
      ...(field.allowed ? [t('scenario.steps.allowed', { values: field.allowed.join(', ') })] : []),
    ].join('; ');
    lines.push(`  ${t('scenario.steps.field', { field: field.name.padEnd(width), type: typeOf(field.type), need })}`);
    lines.push(`  ${' '.repeat(width)}  ${t(fieldKey(verb, kind, field.name))}`);
  }
  lines.push(t('scenario.steps.example'), `  - ${step.example}`);
  return lines;
}
