/**
 * A check of a JSON value against the subset of JSON Schema that the contract's event schemas
 * become (`z.toJSONSchema`: type, const, enum, pattern, minimum/maximum, properties/required,
 * oneOf beside the properties all its alternatives share). Small on purpose: it runs in browsers
 * and edge runtimes, where a schema library would outweigh the code that uses it
 * (`service-seller/webhooks/web` has a 3 KiB budget). The derivation (event-schema.derived.ts)
 * refuses a keyword outside {@link JSON_CHECK_KEYWORDS}, so that a contract growing past this
 * subset fails the build and its tests rather than passing silently.
 */
export interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: readonly unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  oneOf?: readonly JsonSchema[];
}

/** The first difference between a value and a schema. */
export interface JsonIssue {
  path: (string | number)[];
  message: string;
}

/** The keywords checkJson reads. */
export const JSON_CHECK_KEYWORDS: readonly string[] = ['type', 'const', 'enum', 'pattern', 'minimum', 'maximum', 'properties', 'required', 'oneOf'];

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isSafeInteger(value) ? 'integer' : typeof value;

/** Checks `value` against `schema`; returns the first issue found, or undefined. */
export function checkJson(schema: JsonSchema, value: unknown, path: (string | number)[] = []): JsonIssue | undefined {
  const fail = (message: string): JsonIssue => ({ path, message });
  const type = typeOf(value);
  if (schema.type && type !== schema.type && !(schema.type === 'number' && type === 'integer')) return fail(`expected ${schema.type}, got ${type}`);
  if ('const' in schema && value !== schema.const) return fail(`expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) return fail(`expected one of ${schema.enum.join(', ')}`);
  if (typeof value === 'string' && schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) return fail(`does not match ${schema.pattern}`);
  if (typeof value === 'number' && (value < (schema.minimum ?? -Infinity) || value > (schema.maximum ?? Infinity))) return fail('out of range');
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in object)) return { path: [...path, name], message: 'required' };
    for (const [name, item] of Object.entries(object)) {
      const property = schema.properties?.[name];
      const issue = property && checkJson(property, item, [...path, name]);
      if (issue) return issue;
    }
  }
  // Alternatives last: what they share (hoisted beside them by the derivation) is checked once, above.
  let best: JsonIssue | undefined;
  for (const alternative of schema.oneOf ?? []) {
    const issue = checkJson(alternative, value, path);
    if (!issue) return undefined;
    // The alternative whose discriminating `const` matched explains the failure best.
    if (!best || issue.path.length > best.path.length) best = issue;
  }
  return best;
}
