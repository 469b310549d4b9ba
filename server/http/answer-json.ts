/**
 * Answer serialisation: an operation's answer schema (zod, the contract) turned once into JSON
 * Schema (`z.toJSONSchema`, output side) and compiled by fast-json-stringify, the serializer fastify
 * itself uses for response schemas. The compiled function writes only the properties the schema
 * declares, reading each by name: an internal field of a record (a buyer id, a sealed secret) has
 * no way out. It does not check values; that is zod's job, done in tests and behind a development
 * switch ({@link checkAnswer}: `SELLER_SERVER_CHECK_ANSWERS=1` or `AppOptions.checkAnswers`), not on
 * every request (docs/decisions.md, "One schema engine for answers").
 *
 * HTTP sends the text; MCP parses it; the idempotency record seals it: every transport answers
 * the same bytes, from the one serializer.
 */
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import type { AnyOperation } from '../../sdk/contract/index.ts';

type JsonSchema = Record<string, unknown>;
type Serializer = (value: unknown) => string;

/**
 * The JSON Schema of an answer, as fast-json-stringify reads it. The OpenAPI 3.0 target writes a
 * nullable value as `nullable: true` (fast-json-stringify's cheap form) rather than an `anyOf`,
 * which it would resolve by validating each value. A record keyed by an enumeration (the catalogue's
 * delivery methods by product type) takes only keys of the enumeration (`patternProperties`, in the
 * record's own key order, as zod writes it), so that a key outside it is not written either.
 */
export function answerJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'output',
    target: 'openapi-3.0',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as { type: string; keyType?: z.ZodType; valueType?: z.ZodType };
      const keys = def.type === 'record' ? def.keyType?._zod.values : undefined;
      if (!keys || !def.valueType) return;
      const value = jsonSchema.additionalProperties;
      if (typeof value !== 'object') return;
      const names = [...keys].map((k) => String(k).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      jsonSchema.patternProperties = { [`^(?:${names.join('|')})$`]: value };
      jsonSchema.additionalProperties = false;
      delete jsonSchema.propertyNames;
    },
  }) as JsonSchema;
  return withoutChecks(json);
}

/**
 * Keywords that only check a value (ranges, lengths, patterns): the serializer does not use them,
 * and the 3.0 target writes some in a form draft-07 (fast-json-stringify's dialect) refuses
 * (`exclusiveMinimum: true`). Checking is zod's ({@link checkAnswer}).
 */
const CHECK_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems'];

function withoutChecks(node: JsonSchema): JsonSchema {
  for (const k of CHECK_KEYWORDS) delete node[k];
  const sub = (v: unknown) => typeof v === 'object' && v !== null && withoutChecks(v as JsonSchema);
  for (const v of Object.values((node.properties ?? {}) as Record<string, unknown>)) sub(v);
  sub(node.items);
  sub(node.additionalProperties);
  for (const v of Object.values((node.patternProperties ?? {}) as Record<string, unknown>)) sub(v);
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(node[k])) (node[k] as unknown[]).forEach(sub);
  return node;
}

const serializers = new WeakMap<z.ZodType, Serializer>();

/** The compiled serializer of an answer schema (compiled on first use, once per schema). */
export function serializerOf(schema: z.ZodType): Serializer {
  let serialize = serializers.get(schema);
  if (!serialize) {
    serialize = fastJson(answerJsonSchema(schema) as unknown as Parameters<typeof fastJson>[0]) as Serializer;
    serializers.set(schema, serialize);
  }
  return serialize;
}

/** An answer that does not match the contract (a handler's bug): a 500 for the caller, logged. */
export class AnswerMismatch extends Error {
  override name = 'AnswerMismatch';
}

/**
 * The development check: the handler's result parsed by the answer schema (zod), and the JSON the
 * serializer wrote compared, byte for byte, with zod's parsed value through `JSON.stringify`.
 * Throws {@link AnswerMismatch} naming what differs.
 */
export function checkAnswer(op: AnyOperation, result: unknown, json: string): void {
  const parsed = op.answer.safeParse(result);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i: z.core.$ZodIssue) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new AnswerMismatch(`answer of ${op.id} does not match the contract: ${issues}`);
  }
  const expected = JSON.stringify(parsed.data);
  if (json !== expected) {
    let at = 0;
    while (at < json.length && json[at] === expected[at]) at++;
    throw new AnswerMismatch(`answer of ${op.id}: the serializer wrote …${json.slice(at, at + 60)}… where zod writes …${expected.slice(at, at + 60)}…`);
  }
}

/** Whether answers are checked: the option, else `SELLER_SERVER_CHECK_ANSWERS=1`. */
export const checkAnswersDefault = (): boolean => process.env.SELLER_SERVER_CHECK_ANSWERS === '1';
