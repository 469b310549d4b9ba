/**
 * A check of a JSON value against the subset of JSON Schema that the contract's schemas become
 * (`z.toJSONSchema`: type, const, enum, pattern, minimum/maximum, lengths, properties/required,
 * items, oneOf/anyOf, additionalProperties: false). Small on purpose: it runs in browsers and edge
 * runtimes, where a schema library would outweigh the code that uses it. The derivation
 * (event-schema.derived.ts) refuses a keyword outside {@link JSON_CHECK_KEYWORDS}, so that a contract
 * growing past this subset fails the build and its tests rather than passing silently.
 */
export interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: readonly unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  oneOf?: readonly JsonSchema[];
  anyOf?: readonly JsonSchema[];
}

/** The first difference between `value` and `schema`, or undefined when it conforms. */
export interface JsonIssue {
  path: (string | number)[];
  message: string;
}

/** The keywords checkJson reads. */
export const JSON_CHECK_KEYWORDS: readonly string[] = ['type', 'const', 'enum', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'properties', 'required', 'additionalProperties', 'items', 'oneOf', 'anyOf'];

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

/** Checks `value` against `schema`; returns the first issue found, or undefined. */
export function checkJson(schema: JsonSchema, value: unknown, path: (string | number)[] = []): JsonIssue | undefined {
  const fail = (message: string): JsonIssue => ({ path, message });
  const type = typeOf(value);
  if (schema.type && type !== schema.type && !(schema.type === 'number' && type === 'integer')) return fail(`expected ${schema.type}, got ${type}`);
  if ('const' in schema && value !== schema.const) return fail(`expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) return fail(`expected one of ${schema.enum.join(', ')}`);
  if (typeof value === 'string') {
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) return fail(`does not match ${schema.pattern}`);
    if (value.length < (schema.minLength ?? 0) || value.length > (schema.maxLength ?? Infinity)) return fail('length out of range');
  }
  if (typeof value === 'number' && (value < (schema.minimum ?? -Infinity) || value > (schema.maximum ?? Infinity))) return fail('out of range');
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) {
    let first: JsonIssue | undefined;
    for (const alternative of alternatives) {
      const issue = checkJson(alternative, value, path);
      if (!issue) return undefined;
      // The alternative whose discriminating `const` matched explains the failure best.
      if (!first || issue.path.length > first.path.length) first = issue;
    }
    return first;
  }
  if (type === 'array' && schema.items) {
    for (const [index, item] of (value as unknown[]).entries()) {
      const issue = checkJson(schema.items, item, [...path, index]);
      if (issue) return issue;
    }
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in object)) return { path: [...path, name], message: 'required' };
    for (const [name, item] of Object.entries(object)) {
      const property = schema.properties?.[name];
      const rule = property ?? schema.additionalProperties;
      if (rule === false) return { path: [...path, name], message: 'not allowed' };
      if (rule && rule !== true) {
        const issue = checkJson(rule, item, [...path, name]);
        if (issue) return issue;
      }
    }
  }
  return undefined;
}
