/**
 * The OpenAPI 3.1 document of the seller API, generated from the operation table — a pure function
 * of the table, so the reference server serves it (`GET /api/v1/openapi.json`, `GET /docs`) and the
 * CLI prints it offline (`seller api spec`) from the same code.
 *
 * Not exported from the SDK entry (`service-seller`): it is reached through `service-seller/server`
 * and the CLI, so the SDK stays light.
 *
 * What the document holds:
 * - every seller-API operation: `operationId` = the op id, one tag per section (the id's prefix),
 *   bearer security with the scope named in `x-scope` and the description, path and query
 *   parameters and the JSON body from the contract's zod schemas (JSON Schema 2020-12, OpenAPI 3.1's
 *   own dialect), `Idempotency-Key` on every changing call, the raw image upload, the success answer
 *   and every error answer with the shared `ErrorBody` (409 lists the op's refusal kinds);
 * - the webhook deliveries as top-level `webhooks`, one per event kind;
 * - shared component schemas for the records (`Order`, `Card`, `Position`, …).
 *
 * The sandbox (`/sandbox/v1`) is left out on purpose: it is the reference server's simulation of
 * the marketplace and the buyer, not part of the seller API. Operations of the sandbox surface
 * passed in are skipped.
 */
import { z } from 'zod';
import pkg from '../package.json' with { type: 'json' };
import {
  BASE_PATH,
  ERROR_STATUS,
  IDEMPOTENCY_KEY_PATTERN,
  REFUSAL_REASONS,
  ErrorBody,
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  pathParamNames,
  WEBHOOK_HEADERS,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookEvent,
  type AnyOperation,
  type ErrorCode,
} from './contract/index.ts';
import { DEFAULT_BASE_URL } from './defaults.ts';
import { SchemaConverter, type JsonSchema } from './openapi-schemas.ts';
import { exampleOf } from './openapi-examples.ts';
import { EVENT_TEXT, INFO_DESCRIPTION, paramText, SECTIONS, sectionName, sectionOf, SUCCESS_TEXT } from './openapi-text.ts';

export type { JsonSchema };

/** The document as plain JSON data. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string; 'x-displayName': string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  webhooks: Record<string, { post: OpenApiOperation }>;
  components: {
    securitySchemes: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    schemas: Record<string, JsonSchema>;
  };
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security: Record<string, string[]>[];
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  /** The scope the key needs; `null`: any key with at least one scope. */
  'x-scope'?: string | null;
  /** The rule-refusal kinds (409 `rejected`) of the operation. */
  'x-refusal-kinds'?: string[];
  [extension: `x-${string}`]: unknown;
}

export interface OpenApiOptions {
  /** The `servers` entry, e.g. `https://seller.example`. @default DEFAULT_BASE_URL (sdk/defaults.ts) */
  serverUrl?: string;
  /** `info.version`. @default the package version */
  version?: string;
}

const WEBHOOK_TAG = 'webhooks';

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Codes answered with `status`, from the contract's table. */
const codesOf = (status: number): ErrorCode[] =>
  (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).filter(([, s]) => s === status).map(([code]) => code);

const codeList = (codes: readonly string[]) => codes.map((c) => `\`${c}\``).join(', ');

/** The document for `operations` (normally `Object.values(apiOperations)`). */
export function buildOpenApi(operations: readonly AnyOperation[], options: OpenApiOptions = {}): OpenApiDocument {
  const schemas = new SchemaConverter();
  schemas.convert(ErrorBody, 'output'); // every error answer refers to it
  const api = operations.filter((op) => op.surface === 'api');

  const paths: OpenApiDocument['paths'] = {};
  const sections: string[] = [];
  for (const op of api) {
    const section = sectionOf(op);
    if (!sections.includes(section)) sections.push(section);
    const path = BASE_PATH.api + op.path;
    const item = (paths[path] ??= {});
    const method = op.method.toLowerCase();
    if (item[method]) throw new Error(`${op.id}: ${op.method} ${path} is declared twice`);
    item[method] = operationOf(op, section, schemas);
  }

  const webhooks: OpenApiDocument['webhooks'] = {};
  for (const variant of WebhookEvent.options as unknown as z.ZodObject[]) {
    const kind = (variant.shape.event as z.ZodLiteral<string>).value;
    webhooks[kind] = { post: webhookOf(kind, schemas.convert(variant, 'output')) };
  }

  const tags: OpenApiDocument['tags'] = sections.map((name) => ({
    name,
    'x-displayName': sectionName(name),
    description: SECTIONS[name]?.[1] ?? `Operations of the \`${name}\` section.`,
  }));
  tags.push({
    name: WEBHOOK_TAG,
    'x-displayName': 'Webhook events',
    description: `What the service POSTs to your subscribed address (see the \`hooks\` section), one delivery per event. Each is signed: \`${WEBHOOK_HEADERS.signature}\` is \`sha256=\` and the lowercase hex HMAC-SHA256, keyed with the signing secret, of \`<${WEBHOOK_HEADERS.timestamp}>.<raw body>\`. Compare in constant time and refuse a timestamp ${WEBHOOK_TOLERANCE_SECONDS} seconds or more away from now.`,
  });

  const serverUrl = (options.serverUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Seller API',
      version: options.version ?? pkg.version ?? '1.0.0',
      description: INFO_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl, description: options.serverUrl ? 'This server' : 'The reference server on its default address' }],
    tags,
    paths,
    webhooks,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'service_live_… or service_test_… API key',
          description:
            'An API key in `Authorization: Bearer <key>`. A key carries scopes (`catalog`, `listings`, `stock`, `stats`, `orders`, `payouts`, `documents`, `keys`, `hooks`) and can do only what they allow; each operation names the scope it needs in `x-scope`.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description:
            'Required on every changing call (1–255 printable ASCII characters, not beginning or ending with a space: HTTP strips those). The same key with the same request replays the first answer (with `Idempotent-Replayed: true`) instead of acting twice; the same key with another request is 422 `idempotency_mismatch`. Kept 24 hours per seller. Use a fresh key for each new request.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
        },
      },
      headers: HEADERS,
      responses: sharedResponses(),
      schemas: schemas.components(),
    },
  };
}

const HEADERS: Record<string, JsonSchema> = {
  RequestId: {
    description: 'Identifies the request in the server log; quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of the key\'s (or, when closer to empty, the seller\'s) token bucket (IETF RateLimit header draft), e.g. `"per-key";r=99;t=0`.',
    schema: { type: 'string' },
  },
  RateLimitPolicy: {
    description: 'The bucket `RateLimit` reports on, the key\'s or the seller\'s (IETF RateLimit header draft), e.g. `"per-key";q=600;w=60;burst=100` or `"per-seller";q=1200;w=60;burst=200`.',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds to wait before the next call.',
    schema: { type: 'integer', minimum: 0 },
  },
  IdempotentReplayed: {
    description: '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
  WwwAuthenticate: {
    description: 'The authentication scheme to use: `Bearer`.',
    schema: { type: 'string' },
  },
};

const commonHeaders = (limited: boolean) => ({
  'X-Request-Id': ref('headers', 'RequestId'),
  ...(limited ? { RateLimit: ref('headers', 'RateLimit'), 'RateLimit-Policy': ref('headers', 'RateLimitPolicy') } : {}),
});

function errorResponse(description: string, example: ErrorBody, headers: JsonSchema = commonHeaders(true), schema: JsonSchema = ref('schemas', 'ErrorBody')): JsonSchema {
  return { description, headers, content: { 'application/json': { schema, example } } };
}

/** Error answers that read the same for every operation. */
function sharedResponses(): Record<string, JsonSchema> {
  return {
    Unauthorized: errorResponse(
      `No usable key: ${codeList(codesOf(401))} (no key sent, an unknown key, a revoked key).`,
      { error: 'bad_key', detail: { message: 'the key is not recognised', credential: 'api_key' } },
      { ...commonHeaders(false), 'WWW-Authenticate': ref('headers', 'WwwAuthenticate') },
    ),
    NotFound: errorResponse(
      'No such record: `not_found`. An absent record and another seller\'s record look the same.',
      { error: 'not_found', detail: { message: 'no order ord_1', record: 'order', id: 'ord_1' } },
    ),
    IdempotencyMismatch: errorResponse(
      'This `Idempotency-Key` was used with a different request: `idempotency_mismatch`. Use a new key for a new request.',
      { error: 'idempotency_mismatch', detail: { message: 'this Idempotency-Key was used with a different request' } },
    ),
    RateLimited: errorResponse(
      'Too many calls with this key: `rate`. Wait `Retry-After` seconds.',
      { error: 'rate', detail: { message: 'rate limit exceeded', retryAfter: 3 } },
      { ...commonHeaders(true), 'Retry-After': ref('headers', 'RetryAfter') },
    ),
    Internal: errorResponse(
      'An unexpected server error: `internal`. The `X-Request-Id` identifies it in the server log. A changing call may be retried with the same `Idempotency-Key`.',
      { error: 'internal', detail: { message: 'internal error' } },
      commonHeaders(false),
    ),
    Unavailable: errorResponse(
      'The service is down for a while: `unavailable`. Nothing was done; retry later (a changing call with the same `Idempotency-Key`).',
      { error: 'unavailable', detail: { message: 'service unavailable; nothing was done, retry later' } },
      commonHeaders(false),
    ),
  };
}

function operationOf(op: AnyOperation, section: string, schemas: SchemaConverter): OpenApiOperation {
  const scopeText = op.scope ? `Scope: \`${op.scope}\`.` : 'Scope: any key with at least one scope.';
  const notes = [scopeText];
  if (op.changes) notes.push('Changing call: send an `Idempotency-Key`.');
  if (op.paging === 'cursor') notes.push('Pages with `limit` and `cursor`: pass the answer\'s `nextCursor` until it is null.');
  if (op.paging === 'skip') notes.push('Pages with `limit` and `skip`; the answer carries `total`.');
  if (op.refusals.length > 0) notes.push(`Rule refusals (409 \`rejected\`, \`refusal.kind\`): ${codeList(op.refusals)}.`);

  const operation: OpenApiOperation = {
    operationId: op.id,
    tags: [section],
    summary: summaryOf(op),
    description: [op.summary, '', notes.join(' ')].join('\n'),
    security: [{ bearer: [] }],
    'x-scope': op.scope,
    ...(op.refusals.length > 0 ? { 'x-refusal-kinds': [...op.refusals] } : {}),
    ...(op.paging ? { 'x-paging': op.paging } : {}),
    responses: {},
  };

  const parameters = [...pathParameters(op, schemas), ...queryParameters(op, schemas)];
  if (op.changes) parameters.push(ref('parameters', 'IdempotencyKey'));
  if (parameters.length > 0) operation.parameters = parameters;

  if (op.bodyType === 'json') {
    const schema = schemas.convert(op.body, 'input');
    const example = exampleOf(schema, schemas.components());
    operation.requestBody = {
      required: op.body.safeParse({}).success !== true,
      content: { 'application/json': { schema, example } },
    };
  } else if (op.bodyType === 'binary') {
    operation.requestBody = {
      required: true,
      description: `The raw image bytes (PNG, JPEG or WebP; at most ${IMAGE_MAX_BYTES / 1024 / 1024} MiB). The content is checked by its magic bytes, not only by \`Content-Type\`.`,
      content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
    };
  }

  operation.responses = responsesOf(op, schemas);
  return operation;
}

/** The first sentence of the contract's summary, without its final period (a title for lists). */
function summaryOf(op: AnyOperation): string {
  const first = op.summary.split(/(?<=[.;:])\s/)[0] ?? op.summary;
  return first.replace(/[.;:]$/, '');
}

function pathParameters(op: AnyOperation, schemas: SchemaConverter): JsonSchema[] {
  const names = pathParamNames(op.path);
  if (names.length === 0) return [];
  if (!op.params) throw new Error(`${op.id}: the path has parameters but the operation no params schema`);
  const props = paramProperties(op, op.params, schemas, 'path');
  return names.map((name) => {
    const schema = props.get(name);
    if (!schema) throw new Error(`${op.id}: path parameter "${name}" is not in the params schema`);
    return { name, in: 'path', required: true, ...paramText(name, op), schema };
  });
}

function queryParameters(op: AnyOperation, schemas: SchemaConverter): JsonSchema[] {
  if (!op.query) return [];
  const required = new Set((schemas.convert(op.query, 'input').required as string[] | undefined) ?? []);
  return [...paramProperties(op, op.query, schemas, 'query')].map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...paramText(name, op),
    schema,
  }));
}

/**
 * The schema of each property of a params/query object. A URL carries strings, so the contract
 * accepts `"5"` beside `5`; the document shows the decoded value (`integer` with its bounds) where
 * it can be written down, else the input side without its string spelling (`"true"` for a boolean).
 */
function paramProperties(op: AnyOperation, schema: z.ZodType, schemas: SchemaConverter, where: string): Map<string, JsonSchema> {
  const input = schemas.convert(schema, 'input');
  const output = schemas.convert(schema, 'output');
  const inProps = input.properties as Record<string, JsonSchema> | undefined;
  const outProps = (output.properties ?? {}) as Record<string, JsonSchema>;
  if (input.type !== 'object' || !inProps) throw new Error(`${op.id}: the ${where} schema is not a plain object`);
  const result = new Map<string, JsonSchema>();
  for (const [name, inSchema] of Object.entries(inProps)) {
    const outSchema = outProps[name];
    if (outSchema && Object.keys(outSchema).length > 0 && !('$ref' in outSchema)) {
      result.set(name, outSchema);
    } else if (Array.isArray(inSchema.anyOf)) {
      const typed = (inSchema.anyOf as JsonSchema[]).find((s) => s.type !== 'string');
      result.set(name, typed ?? inSchema);
    } else {
      result.set(name, inSchema);
    }
  }
  return result;
}

function responsesOf(op: AnyOperation, schemas: SchemaConverter): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  const headers: JsonSchema = { ...commonHeaders(true), ...(op.changes ? { 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') } : {}) };
  const schema = schemas.convert(op.answer, 'output');
  const example = exampleOf(schema, schemas.components());
  responses[String(op.status)] = {
    description: successText(op),
    headers,
    content: { 'application/json': { schema, example } },
  };

  const hasInput = op.changes || op.params !== undefined || op.query !== undefined || op.bodyType !== 'none';
  if (hasInput) {
    const codes = op.changes ? codeList(['bad_request', 'idempotency_key_required']) : '`bad_request`';
    responses['400'] = errorResponse(
      `Malformed request: ${codes}. \`detail.issues\` names each field (\`path\`), what is wrong with it (\`code\`) and the values that code needs; \`detail.message\` says it in English for developers.`,
      {
        error: 'bad_request',
        detail: {
          message: 'body.priceRub: Invalid input: expected int, received string',
          issues: [{ path: ['body', 'priceRub'], code: 'invalid_type', expected: 'int', message: 'Invalid input: expected int, received string' }],
        },
      },
      commonHeaders(false),
    );
  }
  responses['401'] = ref('responses', 'Unauthorized');
  responses['403'] = errorResponse(
    op.scope
      ? `The key may not do this: \`scope\` (it lacks \`${op.scope}\`; \`detail.needed\` names it), \`not_seller\` or \`seller_blocked\`.`
      : 'The key may not be used: `scope` (it has no scope at all), `not_seller` or `seller_blocked`.',
    op.scope
      ? { error: 'scope', detail: { message: `the key lacks the "${op.scope}" scope`, needed: op.scope } }
      : { error: 'seller_blocked', detail: { message: 'the seller is blocked' } },
    commonHeaders(false),
  );
  if (op.notFound && !op.refusals.includes('not_found')) responses['404'] = ref('responses', 'NotFound');
  if (op.refusals.length > 0) responses['409'] = rejectedResponse(op);
  if (op.changes) responses['422'] = ref('responses', 'IdempotencyMismatch');
  responses['429'] = ref('responses', 'RateLimited');
  responses['500'] = ref('responses', 'Internal');
  responses['503'] = ref('responses', 'Unavailable');
  return responses;
}

function successText(op: AnyOperation): string {
  const base = SUCCESS_TEXT[op.status] ?? 'Success';
  if (op.paging === 'cursor') return `${base}: one page (\`items\`, \`nextCursor\`).`;
  if (op.paging === 'skip') return `${base}: one page (\`items\`, \`total\`).`;
  return `${base}.`;
}

/** 409 `rejected`, with the op's refusal kinds as the enum of `refusal.kind` and one example each. */
function rejectedResponse(op: AnyOperation): JsonSchema {
  const kinds = [...op.refusals];
  const reasonsOf = (kind: string): readonly string[] => (Object.hasOwn(REFUSAL_REASONS, kind) ? REFUSAL_REASONS[kind as keyof typeof REFUSAL_REASONS] : []);
  const reasons = [...new Set(kinds.flatMap(reasonsOf))];
  const schema = {
    allOf: [
      ref('schemas', 'ErrorBody'),
      {
        type: 'object',
        required: ['error', 'refusal'],
        properties: {
          error: { const: 'rejected' },
          refusal: {
            type: 'object',
            required: ['kind'],
            properties: { kind: { type: 'string', enum: kinds }, ...(reasons.length > 0 ? { reason: { type: 'string', enum: reasons } } : {}) },
          },
        },
      },
    ],
  };
  return {
    description: `A rule refusal: \`rejected\` with \`refusal.kind\` one of ${codeList(kinds)} and, where it helps, the \`reason\` (one of the kind's declared reasons), the \`field\` and the values it needs (\`allowed\`, \`length\`, \`max\`…); \`detail\` is an English sentence for developers. Stored for idempotent replay like a success.`,
    headers: commonHeaders(true),
    content: {
      'application/json': {
        schema,
        examples: Object.fromEntries(
          kinds.map((kind) => {
            const reason = reasonsOf(kind)[0];
            return [kind, { summary: kind, value: { error: 'rejected', refusal: reason === undefined ? { kind } : { kind, reason } } }];
          }),
        ),
      },
    },
  };
}

function webhookOf(kind: string, body: JsonSchema): OpenApiOperation {
  const header = (name: string, description: string, schema: JsonSchema) => ({ name, in: 'header', required: true, description, schema });
  return {
    operationId: `event.${kind}`,
    tags: [WEBHOOK_TAG],
    summary: `Event ${kind}`,
    description: `Delivered when ${EVENT_TEXT[kind] ?? `a \`${kind}\` event happens`}. Answer at once with a 2xx status and do the work afterwards; any other answer or a timeout is retried on a ladder, and many failures in a row pause the subscription.`,
    security: [],
    parameters: [
      header(WEBHOOK_HEADERS.event, 'The event kind.', { type: 'string', const: kind }),
      header(WEBHOOK_HEADERS.delivery, 'The delivery id (the same as `delivery` in the body); the same for every attempt.', { type: 'string', pattern: '^dlv_[A-Za-z0-9]{1,64}$' }),
      header(WEBHOOK_HEADERS.timestamp, 'Unix time in seconds; part of the signed text.', { type: 'string', pattern: '^\\d+$' }),
      header(WEBHOOK_HEADERS.attempt, 'The attempt number, from 1.', { type: 'string', pattern: '^[1-9]\\d*$' }),
      header(WEBHOOK_HEADERS.signature, '`sha256=` and the lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>`, keyed with the signing secret.', {
        type: 'string',
        pattern: '^sha256=[0-9a-f]{64}$',
      }),
    ],
    requestBody: { required: true, content: { 'application/json': { schema: body } } },
    responses: {
      '2XX': { description: 'Received. The body of the answer is ignored.' },
      default: { description: 'Not received: the delivery is retried later.' },
    },
  };
}

