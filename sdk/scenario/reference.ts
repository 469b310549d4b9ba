/**
 * The reference of the scenario format, read from its schema (./verbs.ts) so that it cannot drift:
 * every verb with what it does and an example step, every field with its type, whether it is
 * required, its default, its allowed values and its description. `renderReference()` is
 * docs/scenarios.md (written by `npm run docs:scenarios`, i.e. `node scripts/scenario-reference.mjs`, checked by
 * test/sdk/scenario-reference.test.ts); `seller sandbox run --steps [VERB]` says the same data in
 * the seller's language.
 */
import { z } from 'zod';
import { EXPECT_KINDS, NAME, VERB_NAMES, VERBS, type NameKind, type Verb, type VerbDoc, type VerbName } from './verbs.ts';

/** A field's type, as data: each front end words it (`typeText`). */
export type FieldType =
  | { kind: 'name'; of: NameKind }
  | { kind: 'newName'; of: NameKind }
  | { kind: 'duration' }
  | { kind: 'text'; min?: number; max?: number }
  | { kind: 'date' }
  | { kind: 'integer' | 'number'; min?: number; max?: number; above?: number }
  | { kind: 'boolean' }
  | { kind: 'choice' }
  | { kind: 'numberOrText' }
  | { kind: 'list'; item: FieldType; min?: number };

export type Plain = string | number | boolean;

export interface FieldReference {
  name: string;
  type: FieldType;
  /** Required: no default, and the step is refused without it (some fields are required together: see the description). */
  required: boolean;
  default?: Plain;
  /** The values it takes, when it takes a fixed set. */
  allowed?: Plain[];
  /** In English (the CLI says it from its catalogue: `scenario.steps.fields.<verb>.<field>`). */
  description: string;
}

export interface StepReference {
  /** The verb (`pay`), or for an expectation its kind (`order`, with `verb: 'expect'`). */
  name: string;
  description: string;
  /** One step as a scenario writes it. */
  example: string;
  /** What `as` names. */
  makes?: NameKind;
  fields: FieldReference[];
}

export interface VerbReference extends StepReference {
  name: VerbName;
  side: Verb['side'];
  /** `expect`'s kinds (order, stock, webhook, telegram, fault): each with its own fields. */
  kinds?: StepReference[];
}

type JsonSchema = {
  type?: string | string[];
  enum?: Plain[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  default?: Plain;
  description?: string;
  scenarioType?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const docOf = (schema: z.ZodType): VerbDoc => {
  const meta = z.globalRegistry.get(schema) as { description?: string; examples?: string[] } | undefined;
  return { description: meta?.description ?? '', example: meta?.examples?.[0] ?? '' };
};

/** Zod's "no bound" for integers: not a bound a person needs to read. */
const bound = (n: number | undefined) => (n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n);
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function typeOf(field: string, s: JsonSchema, refs: Record<string, NameKind>, makes: NameKind | undefined): FieldType {
  if (s.scenarioType === 'duration') return { kind: 'duration' };
  if (s.pattern === NAME.source) return field === 'as' && makes ? { kind: 'newName', of: makes } : { kind: 'name', of: refs[field] ?? 'seller' };
  if (s.enum) return { kind: 'choice' };
  if (s.anyOf || Array.isArray(s.type)) return { kind: 'numberOrText' };
  switch (s.type) {
    case 'string':
      return s.format === 'date' ? { kind: 'date' } : defined({ kind: 'text' as const, min: s.minLength, max: s.maxLength });
    case 'integer':
      return defined({ kind: 'integer' as const, min: bound(s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : s.exclusiveMinimum + 1)), max: bound(s.maximum) });
    case 'number':
      return defined({ kind: 'number' as const, min: bound(s.minimum), max: bound(s.maximum), above: s.exclusiveMinimum });
    case 'boolean':
      return { kind: 'boolean' };
    case 'array':
      return defined({ kind: 'list' as const, item: typeOf('', s.items ?? {}, {}, undefined), min: s.minItems });
    default:
      return { kind: 'text' };
  }
}

function fieldsOf(args: z.ZodType, refs: Record<string, NameKind>, makes: NameKind | undefined): FieldReference[] {
  const json = z.toJSONSchema(args, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, s]) => {
    const allowed = s.enum ?? (s.type === 'array' ? s.items?.enum : undefined);
    return defined({
      name,
      type: typeOf(name, s, refs, makes),
      required: required.has(name),
      default: s.default,
      allowed: allowed ? [...allowed] : undefined,
      description: s.description ?? '',
    });
  });
}

/** Every verb of the format, in the order of `VERBS`, `expect` with its kinds. */
export function scenarioReference(): VerbReference[] {
  return VERB_NAMES.map((name) => {
    const verb: Verb = VERBS[name];
    const kinds =
      name === 'expect'
        ? Object.entries(EXPECT_KINDS).map(([kind, e]) => ({ name: kind, ...docOf(e.args), fields: fieldsOf(e.args, e.refs, undefined) }))
        : undefined;
    return defined({
      name,
      side: verb.side,
      ...docOf(verb.args),
      makes: verb.makes,
      fields: name === 'expect' ? [] : fieldsOf(verb.args, verb.refs, verb.makes),
      kinds,
    });
  });
}

/** The words of the types, in English; the CLI's catalogue has them as `scenario.steps.types.*`, with the same placeholders. */
export const TYPE_WORDS = {
  name: 'name of {{of}}',
  newName: 'new name',
  duration: 'duration (90s, 30m, 2h, 1d)',
  text: 'text',
  textMax: 'text, at most {{max}} characters',
  textRange: 'text, {{min}} to {{max}} characters',
  date: 'date YYYY-MM-DD',
  integer: 'whole number',
  integerFrom: 'whole number from {{min}}',
  integerRange: 'whole number from {{min}} to {{max}}',
  number: 'number',
  numberAbove: 'number above {{above}}',
  boolean: 'true or false',
  choice: 'choice',
  numberOrText: 'number or text',
  list: 'list of: {{item}}',
  aKind: { seller: 'a seller', card: 'a card', order: 'an order', request: 'a request', question: 'a question', review: 'a review', fault: 'a fault', bot: 'a Telegram bot' },
} as const;

/** How a front end says a words key (`typeWords`, or the CLI's `t('scenario.steps.types.…')`). */
export type Say = (key: string, params?: Record<string, string | number>) => string;

const english: Say = (key, params = {}) => {
  const [group, item] = key.split('.') as [keyof typeof TYPE_WORDS, string | undefined];
  const entry = TYPE_WORDS[group];
  const text = typeof entry === 'string' ? entry : (entry as Record<string, string>)[item ?? ''] ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
};

/** A field's type in words: `whole number from 1 to 5`, `name of an order`. */
export function typeText(type: FieldType, say: Say = english): string {
  switch (type.kind) {
    case 'name':
      return say('name', { of: say(`aKind.${type.of}`) });
    case 'text':
      if (type.max === undefined) return say('text');
      return type.min !== undefined && type.min > 0 ? say('textRange', { min: type.min, max: type.max }) : say('textMax', { max: type.max });
    case 'integer':
      if (type.min === undefined) return say('integer');
      return type.max === undefined ? say('integerFrom', { min: type.min }) : say('integerRange', { min: type.min, max: type.max });
    case 'number':
      return type.above === undefined ? say('number') : say('numberAbove', { above: type.above });
    case 'list':
      return say('list', { item: typeText(type.item, say) });
    default:
      return say(type.kind);
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (value: Plain) => `\`${String(value)}\``;

function fieldTable(fields: FieldReference[]): string[] {
  if (fields.length === 0) return ['No fields.'];
  return [
    '| Field | Type | Required | Default | Allowed values | Description |',
    '| --- | --- | --- | --- | --- | --- |',
    ...fields.map((f) =>
      `| ${[code(f.name), typeText(f.type), f.required ? 'yes' : 'no', f.default === undefined ? '' : code(f.default === '' ? '""' : f.default), (f.allowed ?? []).map(code).join(', '), f.description].map(cell).join(' | ')} |`,
    ),
  ];
}

function stepSection(level: string, title: string, step: StepReference): string[] {
  return [
    `${level} ${title}`,
    '',
    step.description + (step.makes ? ` Its \`as\` names ${TYPE_WORDS.aKind[step.makes]}.` : ''),
    '',
    ...fieldTable(step.fields),
    '',
    '```yaml',
    `- ${step.example}`,
    '```',
    '',
  ];
}

const SIDES: Record<Verb['side'], string> = {
  sandbox: 'the sandbox (the admin token)',
  seller: 'the seller (its own key)',
  runner: 'the runner (reads only)',
};

/** docs/scenarios.md. */
export function renderReference(verbs: VerbReference[] = scenarioReference()): string {
  const lines = [
    '# Scenario steps',
    '',
    '<!-- Generated from the scenario schema (sdk/scenario/verbs.ts) by `node scripts/scenario-reference.mjs`: do not edit by hand. -->',
    '',
    'A scenario file (YAML or JSON) has a `name`, an optional `description` and `steps`: each step is one verb with its',
    'fields, such as `- pay: { order: o1 }`. `as: o1` names what a step made; later steps use the name (`order: o1`), or a',
    'field of it inside a text (`${o1.id}`). `seller sandbox run FILE` runs it; `seller sandbox run --steps [VERB]` prints',
    'this reference in your language. An unknown field is refused with the nearest one suggested; a card\'s catalogue',
    'choices (service, tariff, product type, delivery method, SLA, guarantee) are checked before the run when the',
    'catalogue can be read (`not_in_catalog`, `unknown_service`: exit 2, nothing made).',
    '',
    '| Verb | Played by | What it does |',
    '| --- | --- | --- |',
    ...verbs.map((v) => `| [\`${v.name}\`](#${v.name}) | ${SIDES[v.side]} | ${cell(v.description)} |`),
    '',
  ];
  for (const verb of verbs) {
    if (verb.kinds === undefined) {
      lines.push(...stepSection('##', verb.name, verb));
      continue;
    }
    lines.push(`## ${verb.name}`, '', verb.description, '', '```yaml', `- ${verb.example}`, '```', '');
    for (const kind of verb.kinds) lines.push(...stepSection('###', `${verb.name}: ${kind.name}`, kind));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
