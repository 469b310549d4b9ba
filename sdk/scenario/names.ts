/**
 * The names of a scenario: `as: o1` gives a name to a step's result, later steps use it
 * (`order: o1`, or `${o1.id}` inside a text). Checked in step order: a name must be given before it
 * is used, once, and to a result of the kind the field wants.
 */
import type { ScenarioIssueCode } from './errors.ts';
import { EXPECT_KINDS, expectKind, FIELDS, NAME, VERBS, type NameKind, type VerbName } from './verbs.ts';

export interface NameProblem {
  path: Array<string | number>;
  code: ScenarioIssueCode;
  params: Record<string, string>;
  message: string;
}

/** `${name.field}` inside a text. */
export const INTERPOLATION = /\$\{([A-Za-z_][A-Za-z0-9_-]*)\.([A-Za-z]+)\}/g;

/** The fields of a step that name earlier results, and the kind each wants. */
export function refsOf(verb: VerbName, args: Record<string, unknown>): Record<string, NameKind> {
  if (verb !== 'expect') return VERBS[verb].refs;
  const kind = expectKind(args);
  return kind ? EXPECT_KINDS[kind].refs : {};
}

interface StepLike {
  verb: VerbName;
  args: Record<string, unknown>;
  number: number;
  /** Its arguments failed their schema (already reported): the names it uses are checked, and the one it gives kept, so later steps using it are not reported too. */
  failed?: boolean;
}

/** Every problem with the names of `steps`. */
export function checkNames(steps: readonly StepLike[]): NameProblem[] {
  const given = new Map<string, { kind: NameKind; step: number }>();
  const problems: NameProblem[] = [];
  for (const step of steps) {
    const at = ['steps', step.number - 1, step.verb];
    for (const [field, want] of Object.entries(refsOf(step.verb, step.args))) {
      const name = step.args[field];
      if (typeof name !== 'string' || (step.failed && !NAME.test(name))) continue;
      const known = given.get(name);
      if (!known) problems.push(unknownName([...at, field], name));
      else if (known.kind !== want) {
        problems.push({
          path: [...at, field],
          code: 'wrong_kind',
          params: { name, kind: known.kind, want },
          message: `${name} is ${a(known.kind)} (steps[${known.step - 1}]), not ${a(want)}`,
        });
      }
    }
    if (!step.failed) for (const [path, text] of strings(step.args, at)) problems.push(...interpolationProblems(path, text, given));
    const made = VERBS[step.verb].makes;
    const name = step.args.as;
    if (made && typeof name === 'string') {
      const known = given.get(name);
      if (known && !step.failed) {
        problems.push({
          path: [...at, 'as'],
          code: 'name_taken',
          params: { name, step: String(known.step) },
          message: `the name ${name} is already given by steps[${known.step - 1}]`,
        });
      } else if (!known) given.set(name, { kind: made, step: step.number });
    }
  }
  return problems;
}

/** `a card`, `an order`. */
const a = (kind: string) => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;

const unknownName = (path: Array<string | number>, name: string): NameProblem => ({
  path,
  code: 'unknown_name',
  params: { name },
  message: `no step before this one is named ${name}`,
});

function interpolationProblems(path: Array<string | number>, text: string, given: Map<string, { kind: NameKind }>): NameProblem[] {
  const problems: NameProblem[] = [];
  for (const [, name, field] of text.matchAll(INTERPOLATION)) {
    const kind = name === 'run' ? 'run' : given.get(name!)?.kind;
    if (!kind) problems.push(unknownName(path, name!));
    else if (!FIELDS[kind].includes(field!)) {
      problems.push({
        path,
        code: 'unknown_field',
        params: { name: name!, field: field!, fields: FIELDS[kind].join(', ') },
        message: `\${${name}.${field}}: ${a(kind)} has ${FIELDS[kind].map((f) => `${name}.${f}`).join(', ')}`,
      });
    }
  }
  return problems;
}

/** Every string inside `value`, with its path. */
function* strings(value: unknown, path: Array<string | number>): Generator<[Array<string | number>, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* strings(item, [...path, i]);
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) yield* strings(item, [...path, key]);
}
