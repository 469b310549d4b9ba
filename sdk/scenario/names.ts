/**
 * The names of a scenario: `as: o1` gives a name to a step's result, later steps use it
 * (`order: o1`, or `${o1.id}` inside a text). Checked in step order: a name must be given before it
 * is used, once, and to a result of the kind the field wants.
 */
import type { ScenarioIssueCode } from './errors.ts';
import { EXPECT_KINDS, expectKind, FIELDS, VERBS, type NameKind, type VerbName } from './verbs.ts';

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
  /** Its arguments failed their schema (already reported): only the name it gives is kept, so later steps using it are not reported too. */
  failed?: boolean;
}

/** Every problem with the names of `steps`. */
export function checkNames(steps: readonly StepLike[]): NameProblem[] {
  const given = new Map<string, { kind: NameKind; step: number }>();
  const problems: NameProblem[] = [];
  for (const step of steps) {
    const at = ['steps', step.number - 1, step.verb];
    if (step.failed) {
      const made = VERBS[step.verb].makes;
      if (made && typeof step.args.as === 'string' && !given.has(step.args.as)) given.set(step.args.as, { kind: made, step: step.number });
      continue;
    }
    for (const [field, want] of Object.entries(refsOf(step.verb, step.args))) {
      const name = step.args[field];
      if (typeof name !== 'string') continue;
      const known = given.get(name);
      if (!known) problems.push(unknownName([...at, field], name));
      else if (known.kind !== want) {
        problems.push({
          path: [...at, field],
          code: 'wrong_kind',
          params: { name, kind: known.kind, want },
          message: `${name} is a ${known.kind} (steps[${known.step - 1}]), not a ${want}`,
        });
      }
    }
    for (const [path, text] of strings(step.args, at)) problems.push(...interpolationProblems(path, text, given));
    const made = VERBS[step.verb].makes;
    const name = step.args.as;
    if (made && typeof name === 'string') {
      const known = given.get(name);
      if (known) {
        problems.push({
          path: [...at, 'as'],
          code: 'name_taken',
          params: { name, step: String(known.step) },
          message: `the name ${name} is already given by steps[${known.step - 1}]`,
        });
      } else given.set(name, { kind: made, step: step.number });
    }
  }
  return problems;
}

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
        message: `\${${name}.${field}}: a ${kind} has ${FIELDS[kind].map((f) => `${name}.${f}`).join(', ')}`,
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
