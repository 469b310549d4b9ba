/**
 * The JSON Schema of a webhook delivery's body, derived from the contract (`WebhookEvent`). The
 * build runs this module and ships only its data (scripts/build-time-data.mjs), so the verifiers
 * check a body without zod; from the sources it is computed when it loads.
 */
import { z } from 'zod';
import { WebhookEvent } from '../contract/events.ts';
import { JSON_CHECK_KEYWORDS, type JsonSchema } from './json-check.ts';

/**
 * Drops what checks nothing in JSON: `$schema`, `format` beside its `pattern`, a safe integer's own bounds (checkJson
 * calls only a safe integer an `integer`, as zod's `.int()` does); refuses a keyword that checkJson does not read.
 */
function compact(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compact);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || (key === 'format' && 'pattern' in schema)) continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    // `const` says the type already.
    if (key === 'type' && 'const' in schema) continue;
    if (!JSON_CHECK_KEYWORDS.includes(key)) throw new TypeError(`webhook event schema: checkJson does not read ${key}`);
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, item]) => [name, compact(item)])) : compact(value);
  }
  return out;
}

/**
 * Hoists what every alternative of a `oneOf` of objects has alike (the delivery's envelope: `at`,
 * `delivery`, `attempt`, `test`) beside the `oneOf`, so that it is written and checked once.
 */
function hoistShared(schema: JsonSchema): JsonSchema {
  const alternatives = schema.oneOf;
  if (!alternatives || alternatives.some((a) => a.type !== 'object' || !a.properties)) return schema;
  const [first, ...rest] = alternatives as (JsonSchema & { properties: Record<string, JsonSchema> })[];
  const same = (name: string) => rest.every((a) => JSON.stringify(a.properties?.[name]) === JSON.stringify(first!.properties[name]));
  const shared = Object.keys(first!.properties).filter((name) => same(name));
  const required = (first!.required ?? []).filter((name) => shared.includes(name) && rest.every((a) => a.required?.includes(name)));
  const strip = (a: JsonSchema): JsonSchema => ({
    ...a,
    properties: Object.fromEntries(Object.entries(a.properties!).filter(([name]) => !shared.includes(name))),
    required: (a.required ?? []).filter((name) => !required.includes(name)),
  });
  return {
    type: 'object',
    properties: Object.fromEntries(shared.map((name) => [name, first!.properties[name]!])),
    required,
    oneOf: alternatives.map(strip),
  };
}

export const WEBHOOK_EVENT_SCHEMA = hoistShared(
  compact(z.toJSONSchema(WebhookEvent, { io: 'input', unrepresentable: 'throw' })) as JsonSchema,
);
