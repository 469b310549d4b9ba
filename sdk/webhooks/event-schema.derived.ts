/**
 * The JSON Schema of a webhook delivery's body, derived from the contract (`WebhookEvent`). The
 * build runs this module and ships only its data (scripts/build-time-data.mjs), so the verifiers
 * check a body without zod; from the sources it is computed when it loads.
 */
import { z } from 'zod';
import { WebhookEvent } from '../contract/events.ts';
import { JSON_CHECK_KEYWORDS, type JsonSchema } from './json-check.ts';

/**
 * Drops what checks nothing in JSON: `$schema`, `format` beside its `pattern`, a safe integer's own bounds; refuses
 * a keyword that checkJson does not read.
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

export const WEBHOOK_EVENT_SCHEMA = compact(z.toJSONSchema(WebhookEvent, { io: 'input', unrepresentable: 'throw' })) as JsonSchema;
