/**
 * The tool catalogue, derived from the operation table: one tool per API operation, named by
 * names.ts, with the contract's schemas as JSON Schema (zod 4 `z.toJSONSchema`, draft-07, the
 * dialect the official client validates with) and agent-oriented descriptions.
 *
 * Input: the op's path parameters, query fields and JSON body fields flattened into one object
 * (the names never collide; building the catalogue checks it). Changing tools also take an
 * optional `idempotencyKey`. The binary image upload takes `data` (base64) and `contentType`.
 */
import { z } from 'zod';
import {
  apiOperations,
  IDEMPOTENCY_KEY_PATTERN,
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  pathParamNames,
  type AnyOperation,
  type ApiOperationId,
  type Scope,
} from '../../sdk/contract/index.ts';
import { tool, TOOL_NAMES, toolTitle } from './names.ts';

export type JsonSchema = Record<string, unknown> & { type?: string; properties?: Record<string, JsonSchema>; required?: string[] };

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
}

/** What `tools/list` shows of a tool. */
export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
}

export interface ToolDef extends ToolListing {
  op: AnyOperation;
  /** Argument names that fill the path. */
  pathParams: string[];
  /** Argument names that go to the query string. */
  queryFields: string[];
  /** Every argument name the input schema allows. */
  argumentNames: ReadonlySet<string>;
}

/** Argument of every changing tool. */
export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';
/** Arguments of the image upload tool. */
export const IMAGE_DATA_ARGUMENT = 'data';
export const IMAGE_TYPE_ARGUMENT = 'contentType';

/** Changing operations that remove or irrecoverably replace something (besides every DELETE). */
const DESTRUCTIVE = new Set<string>(['orders.decline', 'hooks.rotateSecret']);

/** What an agent should do about a refusal kind. */
const REFUSAL_HINTS: Record<string, string> = {
  not_found: 'no such record for this seller: check the id or number',
  state_moved: `the order moved on (cancelled, deadline passed): re-read it with ${tool('orders.get')} before anything else`,
  need_next_charge: 'a subscription or an account with a subscription needs nextChargeDay (YYYY-MM-DD): add it and call again',
  complaint: 'a value breaks the catalogue position rules: use a value from refusal.allowed for refusal.field',
  contacts: 'the text holds an e-mail, a phone number or a messenger link: remove it and call again',
  type_not_available: `the position does not offer this product type: read it with ${tool('catalog.get')}`,
  self_employed_forbidden: 'a self-employed seller may sell only subscriptions on the buyer’s own account or by invite',
  stock_empty: `auto-delivery needs free stock: refill it with ${tool('stock.refill')} first`,
  test_to_real_needs_papers: `admission is incomplete: see ${tool('papers.get')} (missing)`,
  scope_escalation: 'a key cannot get scopes its issuer lacks: refusal.allowed lists the ones you may give',
  already_opened: 'the buyer’s vault can be read only once and already was',
  not_disputed: 'the order has no open dispute',
  url: 'the address must be https on a public host without credentials; refusal.reason says which rule failed',
  no_events: 'give at least one known event kind',
  vault_off: 'secret storage is not configured on the service side; try later',
  nickname_taken: 'choose another nickname',
  inn_bad: 'the tax number fails its check digits or does not fit the seller type',
  no_status: `set the seller type and tax number with ${tool('papers.setStatus')} first`,
  image_type: 'send PNG, JPEG or WebP',
  image_size: 'the image must be at most 2 MiB',
};

/** Extra advice for a few operations, beside the contract's summary. */
const EXTRA: Partial<Record<ApiOperationId, string>> = {
  'listings.create': `Switch the new card on with ${tool('listings.setState')} as a separate step. Read the position first (${tool('catalog.get')}) for allowed product types, delivery methods, slaChoices and guaranteeChoices.`,
  'listings.setState': `Auto-delivery (autoIssue) can be on only while the free stock is not empty (${tool('stock.refill')}).`,
  'stock.refill': 'The units are secrets: they are never shown again, not even to you; reads show counts only.',
  'orders.list': 'needsAction true lists what waits for you. Polling with updatedSince (the updatedAt of the last order seen) is the reliable way to follow orders; webhooks are only a convenience.',
  'orders.deliver': `If noteRejected is not null the note failed the contact filter and the buyer did not get it: rewrite it without contacts and send it with ${tool('orders.message')}.`,
  'orders.reveal': 'This works exactly once; keep what it answers.',
  'keys.create': 'The key value is in this answer only; it cannot be read again.',
  'hooks.set': 'The signing secret is in the answer only when the subscription is created.',
  'listings.setImage': 'Arguments: data (the image bytes in base64) and contentType (image/png, image/jpeg or image/webp).',
};

/** JSON Schema of a zod schema, without `$schema` (the tool listing is one document). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-07', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const idempotencySchema: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: IDEMPOTENCY_KEY_PATTERN,
  description: 'Makes a retry safe: the same key with the same arguments replays the first answer instead of acting twice. Default: a fresh key per call.',
};

const imageSchemas: Record<string, JsonSchema> = {
  [IMAGE_DATA_ARGUMENT]: {
    type: 'string',
    contentEncoding: 'base64',
    maxLength: Math.ceil(IMAGE_MAX_BYTES / 3) * 4,
    description: 'The image bytes, base64-encoded (at most 2 MiB decoded).',
  },
  [IMAGE_TYPE_ARGUMENT]: { type: 'string', enum: [...IMAGE_TYPES] },
};

/** Merges the op's params, query and body into one input object schema. */
function inputOf(op: AnyOperation): { schema: JsonSchema; queryFields: string[] } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  let queryFields: string[] = [];
  const add = (part: JsonSchema, where: string): string[] => {
    if (part.type !== 'object' || !part.properties) throw new Error(`${op.id}: the ${where} schema is not a plain object`);
    for (const [name, prop] of Object.entries(part.properties)) {
      if (name in properties) throw new Error(`${op.id}: argument "${name}" appears twice (${where})`);
      properties[name] = prop;
    }
    required.push(...(part.required ?? []));
    return Object.keys(part.properties);
  };
  if (op.params) add(jsonSchema(op.params, 'input'), 'path');
  if (op.query) queryFields = add(jsonSchema(op.query, 'input'), 'query');
  if (op.bodyType === 'json') add(jsonSchema(op.body, 'input'), 'body');
  if (op.bodyType === 'binary') {
    add({ type: 'object', properties: imageSchemas, required: [IMAGE_DATA_ARGUMENT, IMAGE_TYPE_ARGUMENT] }, 'binary body');
  }
  if (op.changes) add({ type: 'object', properties: { [IDEMPOTENCY_ARGUMENT]: idempotencySchema } }, 'idempotency');
  const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = [...new Set(required)];
  return { schema, queryFields };
}

function describe(op: AnyOperation): string {
  const lines = [op.summary];
  const extra = EXTRA[op.id as ApiOperationId];
  if (extra) lines.push(extra);
  lines.push(`Scope: ${op.scope ?? 'any key'}.`);
  if (op.paging === 'cursor') lines.push('Answers {items, nextCursor}: pass nextCursor back as cursor while it is not null.');
  if (op.paging === 'skip') lines.push('Answers {items, total}: page with limit and skip.');
  if (op.changes) lines.push('Changes data; pass idempotencyKey to make a retry safe.');
  if (op.refusals.length > 0) {
    lines.push('May be refused (isError true, refusal.kind):');
    for (const kind of op.refusals) lines.push(`- ${kind}${REFUSAL_HINTS[kind] ? `: ${REFUSAL_HINTS[kind]}` : ''}`);
  }
  return lines.join('\n');
}

function annotationsOf(op: AnyOperation, title: string): ToolAnnotations {
  return {
    title,
    readOnlyHint: !op.changes,
    destructiveHint: op.changes && (op.method === 'DELETE' || DESTRUCTIVE.has(op.id)),
    // GET, PUT and DELETE are idempotent by method; PATCH here replaces the whole card. POST acts
    // anew on each call unless the same idempotencyKey is passed.
    idempotentHint: op.method !== 'POST',
  };
}

function buildTool(op: AnyOperation): ToolDef {
  const name = TOOL_NAMES[op.id as ApiOperationId];
  const title = toolTitle(op.id);
  const { schema, queryFields } = inputOf(op);
  const outputSchema = jsonSchema(op.answer, 'output');
  if (outputSchema.type !== 'object') throw new Error(`${op.id}: the answer schema is not an object`);
  return {
    name,
    title,
    description: describe(op),
    inputSchema: schema,
    outputSchema,
    annotations: annotationsOf(op, title),
    op,
    pathParams: pathParamNames(op.path),
    queryFields,
    argumentNames: new Set(Object.keys(schema.properties ?? {})),
  };
}

let catalogue: Map<string, ToolDef> | undefined;

/** Every tool, by name (built once). */
export function toolCatalogue(): ReadonlyMap<string, ToolDef> {
  catalogue ??= new Map(Object.values(apiOperations).map((op) => {
    const def = buildTool(op as AnyOperation);
    return [def.name, def] as const;
  }));
  return catalogue;
}

/** Whether a key with these scopes may use an operation (`null` scope: any key with a scope). */
export const scopeAllows = (scopes: readonly Scope[], scope: Scope | null): boolean =>
  scope === null ? scopes.length > 0 : scopes.includes(scope);

/** The listing of one tool (no internals). */
export function listing(def: ToolDef): ToolListing {
  const { name, title, description, inputSchema, outputSchema, annotations } = def;
  return { name, title, description, inputSchema, outputSchema, annotations };
}

/** The tools a key sees: its scopes allow the operation and this server serves it. */
export function toolsFor(scopes: readonly Scope[], served: (opId: string) => boolean): ToolListing[] {
  return [...toolCatalogue().values()].filter((def) => served(def.op.id) && scopeAllows(scopes, def.op.scope)).map(listing);
}
