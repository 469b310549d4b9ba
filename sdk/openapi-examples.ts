/**
 * Examples of every operation's request body and success answer in the OpenAPI document, drawn
 * from the contract: each is built from the operation's own JSON Schema (the same one the document
 * shows), with the values a seller would see (a Spotify card at 390 ₽, an order id, today's date).
 * Where a rule of the server needs particular values (an INN and a bank account with their check
 * digits, a card's fields that fit its product type, known event kinds), the contract gives the
 * example itself, as `examples` in the zod schema's metadata (sdk/contract: `NewCard`, `CardUpdate`,
 * `PayoutSet`, the status body, `HooksSet.events`), which the JSON Schema carries and comes first here.
 * test/server/openapi-examples.test.ts checks every example against the contract's zod schema, and
 * test/e2e/openapi-examples.e2e.test.ts sends every request example to a real server: each is accepted.
 */
import type { JsonSchema } from './openapi-schemas.ts';

const AT = '2026-11-21T08:13:39.000Z';
const DAY = '2026-12-21';

/** Strings by property name, where the name says more than the type. */
const STRING_BY_NAME: Record<string, string> = {
  tz: 'Europe/Moscow',
  from: '23:00',
  to: '08:00',
  service: 'spotify',
  tariff: 'individual',
  slug: 'spotify',
  nickname: 'ivan_shop',
  title: 'Spotify Premium Individual',
  name: 'orders robot',
  url: 'https://shop.example.com/hooks/seller',
  text: 'Спасибо за заказ! Код придёт в течение 15 минут.',
  description: 'Spotify Premium Individual на 1 месяц: код активации.',
  note: 'Код активации: XXXX-XXXX-XXXX',
  reason: 'out of stock',
  detail: 'the order already moved on',
  category: 'music',
  secret: 'whsec_0123456789abcdef0123456789abcdef',
  key: 'service_live_0123456789abcdefABCDEF0123',
  prefix: 'service_live_0123',
  cursor: 'eyJhZnRlciI6Im9yZF84ZjJrMTkifQ',
  nextCursor: 'eyJhZnRlciI6Im9yZF84ZjJrMTkifQ',
};

/** Numbers by property name. */
const NUMBER_BY_NAME: Record<string, number> = {
  priceRub: 390,
  usualPriceRub: 390,
  number: 1001,
  slaMinutes: 30,
  guaranteeDays: 30,
  capacity: 5,
  total: 1,
};

/** An example of a string under a pattern the contract uses. */
function stringForPattern(pattern: string, name: string): string | undefined {
  const prefixed = /^\^([a-z]+)_\[A-Za-z0-9\]/.exec(pattern);
  if (prefixed) return `${prefixed[1]}_8f2k19`;
  if (pattern.startsWith('^[a-z0-9][a-z0-9-]')) return STRING_BY_NAME[name] ?? 'spotify';
  if (pattern.includes('[01]\\d|2[0-3]')) return STRING_BY_NAME[name] ?? '23:00';
  if (pattern === '^\\d{4}-\\d{2}-\\d{2}$') return DAY;
  if (pattern.startsWith('^\\d{4}-\\d{2}-\\d{2}T')) return AT;
  return undefined;
}

function stringExample(schema: JsonSchema, name: string): string {
  if (schema.format === 'date-time') return AT;
  if (schema.format === 'date') return DAY;
  if (schema.format === 'uri') return STRING_BY_NAME.url!;
  const byPattern = typeof schema.pattern === 'string' ? stringForPattern(schema.pattern, name) : undefined;
  let text = byPattern ?? STRING_BY_NAME[name] ?? (name.endsWith('At') ? AT : name.endsWith('Day') ? DAY : `${name || 'text'}`);
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  if (max !== undefined && text.length > max) text = text.slice(0, max);
  while (text.length < min) text += 'x';
  return text;
}

function numberExample(schema: JsonSchema, name: string): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : undefined;
  let n = NUMBER_BY_NAME[name] ?? min ?? 1;
  if (min !== undefined && n < min) n = min;
  if (max !== undefined && n > max) n = max;
  return n;
}

/**
 * An example value of a JSON Schema of the document: its own `examples`, `const` or first `enum`
 * value when it has one, else built from its type, bounds, pattern and the property's name.
 */
export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>, name = '', depth = 0): unknown {
  if (depth > 12) return null;
  const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  if (ref !== undefined) return exampleOf(components[ref] ?? {}, components, name, depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const option = (options as JsonSchema[]).find((o) => o.type !== 'null') ?? (options as JsonSchema[])[0]!;
      return exampleOf(option, components, name, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) return exampleOf((schema.allOf as JsonSchema[])[0]!, components, name, depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
        out[key] = exampleOf(prop, components, key, depth + 1);
      }
      return out;
    }
    case 'array': {
      const item = exampleOf((schema.items ?? {}) as JsonSchema, components, name, depth + 1);
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      return Array.from({ length: count }, () => structuredClone(item));
    }
    case 'string':
      return stringExample(schema, name);
    case 'integer':
    case 'number':
      return numberExample(schema, name);
    case 'boolean':
      return name === 'active' || name === 'isActive';
    case 'null':
      return null;
    default:
      return null;
  }
}
