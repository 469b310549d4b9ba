/**
 * Every operation of the OpenAPI document carries an example of its request body (when it takes a
 * JSON body) and of its success answer, and each example is what the contract accepts: the request
 * body parses with the operation's zod body schema, the answer with its answer schema. The document
 * also states the formats the server checks: `format: date` / `date-time` beside the patterns of
 * dates and timestamps, and `quietHours.tz` as an IANA zone with an example.
 */
import { describe, expect, it } from 'vitest';
import { apiOperations, BASE_PATH, type AnyOperation } from '../../sdk/contract/index.ts';
import { buildOpenApi, type JsonSchema } from '../../sdk/openapi.ts';

const doc = buildOpenApi(Object.values(apiOperations));
const ops = (Object.values(apiOperations) as AnyOperation[]).filter((op) => op.surface === 'api');

const operationOf = (op: AnyOperation) => doc.paths[BASE_PATH.api + op.path]![op.method.toLowerCase()]!;
const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? '' : r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');

describe('examples of every operation, checked against the contract', () => {
  it('there are operations, with bodies and answers', () => {
    expect(ops.length).toBeGreaterThan(50);
    expect(ops.filter((op) => op.bodyType === 'json').length).toBeGreaterThan(15);
  });

  it.each(ops.map((op) => [op.id, op] as const))('%s', (_id, op) => {
    const operation = operationOf(op);
    if (op.bodyType === 'json') {
      const media = (operation.requestBody as { content: Record<string, { example?: unknown }> }).content['application/json']!;
      expect(media.example, `${op.id}: request example`).toBeDefined();
      const parsed = op.body!.safeParse(media.example);
      expect(parsed.success, `${op.id} request ${JSON.stringify(media.example)}: ${issues(parsed)}`).toBe(true);
    }
    const success = (operation.responses as Record<string, { content: Record<string, { example?: unknown }> }>)[String(op.status)]!;
    const example = success.content['application/json']!.example;
    expect(example, `${op.id}: answer example`).toBeDefined();
    const parsed = op.answer.safeParse(example);
    expect(parsed.success, `${op.id} answer ${JSON.stringify(example)}: ${issues(parsed)}`).toBe(true);
  });
});

describe('the Idempotency-Key header', () => {
  it('refuses a key of spaces only (HTTP strips it: the server then answers that the key is missing), takes spaces inside', () => {
    const param = (doc.components!.parameters as Record<string, JsonSchema>).IdempotencyKey!;
    const pattern = new RegExp((param.schema as JsonSchema).pattern as string, 'u');
    for (const key of [' ', '   ', ' key', 'key ', 'tab\there']) expect(pattern.test(key), JSON.stringify(key)).toBe(false);
    for (const key of ['k', 'a key', 'order-8f2k19:deliver', '~'.repeat(255)]) expect(pattern.test(key), key).toBe(true);
  });
});

describe('formats beside patterns', () => {
  const all: JsonSchema[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    all.push(v as JsonSchema);
    Object.values(v).forEach(walk);
  };
  walk(doc);

  it('every timestamp pattern has format date-time, every date pattern format date', () => {
    const stamps = all.filter((s) => typeof s.pattern === 'string' && s.pattern.startsWith('^\\d{4}-\\d{2}-\\d{2}T'));
    const days = all.filter((s) => s.pattern === '^\\d{4}-\\d{2}-\\d{2}$');
    expect(stamps.length).toBeGreaterThan(5);
    expect(days.length).toBeGreaterThan(0);
    for (const s of stamps) expect(s.format).toBe('date-time');
    for (const s of days) expect(s.format).toBe('date');
  });

  it('updatedSince and nextChargeDay say their format', () => {
    const list = operationOf(apiOperations['orders.list'] as AnyOperation);
    const since = (list.parameters as JsonSchema[]).find((p) => p.name === 'updatedSince')!;
    expect((since.schema as JsonSchema).format).toBe('date-time');
    expect(JSON.stringify(doc.components?.schemas)).toMatch(/"nextChargeDay":\{"anyOf":\[\{"type":"string","pattern":"[^"]+","format":"date"/);
  });

  it('quietHours.tz is an IANA zone with an example', () => {
    const text = JSON.stringify(doc);
    const tz = all.filter((s) => typeof s.description === 'string' && /IANA/.test(s.description));
    expect(tz.length, text.slice(0, 0)).toBeGreaterThan(0);
    for (const s of tz) expect(s.examples).toEqual(['Europe/Moscow']);
  });
});

describe('integers with their bounds', () => {
  it("every integer of the document's schemas and parameters has its upper bound, at most the server's 2^53−1 (answer headers aside)", () => {
    const unbounded: string[] = [];
    const walk = (v: unknown, at: string): void => {
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}/${i}`));
      if (!v || typeof v !== 'object') return;
      const s = v as JsonSchema;
      const max = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : undefined;
      if (at.startsWith('/components/headers/')) return; // what the server sends in a header, not a value it takes
      if (s.type === 'integer' && (max === undefined || max > Number.MAX_SAFE_INTEGER)) unbounded.push(at);
      for (const [k, x] of Object.entries(s)) walk(x, `${at}/${k}`);
    };
    walk(doc, '');
    expect(unbounded, unbounded.join('\n')).toEqual([]);
    const card = (doc.components!.schemas as Record<string, JsonSchema>).NewCard ?? {};
    expect(JSON.stringify(card)).toContain(`"maximum":${Number.MAX_SAFE_INTEGER}`);
  });

  it('every integer of the document has its lower bound (counts from 0, card numbers from 1)', () => {
    const unbounded: string[] = [];
    const walk = (v: unknown, at: string): void => {
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}/${i}`));
      if (!v || typeof v !== 'object') return;
      const s = v as JsonSchema;
      if (s.type === 'integer' && s.minimum === undefined && s.exclusiveMinimum === undefined) unbounded.push(at);
      for (const [k, x] of Object.entries(s)) walk(x, `${at}/${k}`);
    };
    walk(doc, '');
    expect(unbounded, unbounded.join("\n")).toEqual([]);
    const card = (doc.components!.schemas as Record<string, JsonSchema>).Card!;
    expect((card.properties as Record<string, JsonSchema>).number!.minimum).toBe(1);
  });
});
