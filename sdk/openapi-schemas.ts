/**
 * The contract's zod schemas as the OpenAPI document's JSON Schema (2020-12), with the shared records
 * as named components (`#/components/schemas/*`).
 */
import { z } from 'zod';
import {
  ApiKey,
  Card,
  CardCreated,
  CardUpdate,
  CatalogRequest,
  Client,
  Complaint,
  Deliver,
  DeliverAnswer,
  Delivery,
  DemandItem,
  ErrorBody,
  ErrorDetail,
  RequestIssue,
  Hooks,
  HooksSet,
  IssuedKey,
  Me,
  Message,
  NewCard,
  NewCatalogRequest,
  Order,
  OrderWithMessages,
  Papers,
  Payout,
  PayoutSet,
  Position,
  ProbeHit,
  Question,
  Rating,
  Refusal,
  Review,
  Stats,
  StockCounts,
  StockRefill,
  UsualPrice,
  Vault,
  WorkMode,
  WorkModeSet,
} from './contract/index.ts';

export type JsonSchema = { [key: string]: unknown };

/** Names of the shared component schemas: answers (converted as output). */
const OUTPUT_COMPONENTS: Record<string, z.ZodType> = {
  ErrorBody,
  ErrorDetail,
  RequestIssue,
  Refusal,
  Me,
  Payout,
  Stats,
  Client,
  Rating,
  Question,
  Review,
  Complaint,
  WorkMode,
  Papers,
  Position,
  UsualPrice,
  DemandItem,
  CatalogRequest,
  Card,
  CardCreated,
  StockCounts,
  Order,
  OrderWithMessages,
  Message,
  DeliverAnswer,
  Vault,
  ApiKey,
  IssuedKey,
  Hooks,
  Delivery,
  ProbeHit,
};

/** Request bodies shared or worth a name (converted as input). */
const INPUT_COMPONENTS: Record<string, z.ZodType> = {
  NewCard,
  CardUpdate,
  StockRefill,
  NewCatalogRequest,
  WorkModeSet,
  PayoutSet,
  Deliver,
  HooksSet,
};

/**
 * zod → JSON Schema 2020-12 with the shared records as `#/components/schemas/*` references.
 * Answers are converted as output and request parts as input, each against its own set of named
 * components, so a schema whose input and output differ never shares a name.
 */
export class SchemaConverter {
  readonly #registries = { input: z.registry<{ id: string }>(), output: z.registry<{ id: string }>() };
  readonly #components: Record<string, JsonSchema> = {};
  readonly #cache = { input: new Map<z.ZodType, JsonSchema>(), output: new Map<z.ZodType, JsonSchema>() };

  constructor() {
    for (const [id, schema] of Object.entries(OUTPUT_COMPONENTS)) this.#registries.output.add(schema, { id });
    for (const [id, schema] of Object.entries(INPUT_COMPONENTS)) this.#registries.input.add(schema, { id });
  }

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const cached = this.#cache[io].get(schema);
    if (cached) return structuredClone(cached);
    const json = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      metadata: this.#registries[io],
      // Descriptions given with `.describe()`/`.meta()` live in the global registry.
      // So do a `format` given beside a pattern (`date`, `date-time`) and `examples`.
      override: ({ zodSchema, jsonSchema }) => {
        const meta = z.globalRegistry.get(zodSchema);
        if (meta?.description && jsonSchema.description === undefined) jsonSchema.description = meta.description;
        if (typeof meta?.format === 'string' && jsonSchema.format === undefined) jsonSchema.format = meta.format;
        if (Array.isArray(meta?.examples) && jsonSchema.examples === undefined) jsonSchema.examples = meta.examples;
      },
    }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = json;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) this.#addComponent(name, clean(def));
    const result = clean(rest);
    this.#cache[io].set(schema, result);
    return structuredClone(result);
  }

  #addComponent(name: string, schema: JsonSchema): void {
    const prior = this.#components[name];
    if (prior && JSON.stringify(prior) !== JSON.stringify(schema)) {
      throw new Error(`component schema "${name}" comes out in two different shapes`);
    }
    this.#components[name] = schema;
  }

  /** The named schemas some operation referred to, sorted by name. */
  components(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.#components).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * `#/$defs/X` → `#/components/schemas/X`. Of the ±(2^53−1) bounds zod gives every integer, the lower is
 * dropped where it is the only one (the contract gives each integer its real lower bound); the upper
 * stays: it is the server's real maximum (it refuses a larger integer).
 */
function clean(node: JsonSchema): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const out: JsonSchema = {};
    for (const [key, v] of Object.entries(value as JsonSchema)) {
      if (key === '$ref' && typeof v === 'string') out[key] = v.replace(/^#\/\$defs\//, '#/components/schemas/');
      else if (key === 'minimum' && v === Number.MIN_SAFE_INTEGER) continue;
      else out[key] = walk(v);
    }
    return out;
  };
  return walk(node) as JsonSchema;
}
