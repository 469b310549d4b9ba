/**
 * `tools/call`: a tool's arguments become the operation's path parameters, query and body, the call
 * runs through the HTTP pipeline, and the answer becomes a tool result.
 *
 * - unknown tool, or `arguments` not an object → JSON-RPC error -32602;
 * - arguments the schema refuses, rule refusals, scope, not found, idempotency mismatch → a result
 *   with `isError: true` whose text is the API error body (`bad_request` details name the argument
 *   as `arguments.<name>`), so that an agent can correct itself;
 * - success → the answer as JSON text and as `structuredContent` (it matches the outputSchema);
 *   an error result carries no `structuredContent`, since clients check it against the outputSchema.
 */
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_PATTERN, type ErrorBody } from '../../sdk/contract/index.ts';
import { requireScope } from '../auth.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { Exchange, type OpInput } from './exchange.ts';
import { RpcCode, RpcFault } from './jsonrpc.ts';
import { IDEMPOTENCY_ARGUMENT, IMAGE_DATA_ARGUMENT, IMAGE_TYPE_ARGUMENT, toolCatalogue, type ToolDef } from './tools.ts';

export interface CallToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError: boolean;
  _meta?: Record<string, unknown>;
}

/** `_meta` key set on a result that was replayed for a repeated idempotency key. */
export const REPLAYED_META = 'service/idempotentReplayed';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const errorResult = (body: ErrorBody): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(body) }], isError: true });

/** Validation details name the tool's arguments, not HTTP locations. */
function forAgents(body: ErrorBody): ErrorBody {
  if (body.error !== 'bad_request' || typeof body.detail !== 'object') return body;
  const { message, issues } = body.detail;
  const detail = { ...body.detail, message: message.replace(/\b(?:body|query|path)(?=[.:])/g, 'arguments') };
  if (issues) detail.issues = issues.map((issue) => ({ ...issue, path: issue.path.map((p, i) => (i === 0 && (p === 'body' || p === 'query' || p === 'path') ? 'arguments' : p)) }));
  return { ...body, detail };
}

export async function callTool(ex: Exchange, params: Record<string, unknown>): Promise<CallToolResult> {
  const { name } = params;
  const def = typeof name === 'string' ? toolCatalogue().get(name) : undefined;
  if (!def || !ex.serves(def.op.id)) {
    ex.charge();
    throw new RpcFault(RpcCode.invalidParams, typeof name === 'string' ? `unknown tool: ${name}` : 'invalid params: name must be a string');
  }
  const args = params.arguments ?? {};
  if (!isObject(args)) {
    ex.charge();
    throw new RpcFault(RpcCode.invalidParams, 'invalid params: arguments must be an object');
  }
  try {
    requireScope(ex.caller.key, def.op.scope);
  } catch (err) {
    // As over HTTP, a scope refusal costs no token.
    if (err instanceof ApiError) return errorResult(err.toBody());
    throw err;
  }
  let input: OpInput;
  try {
    input = splitArguments(def, args);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    ex.charge();
    return errorResult(err.toBody());
  }
  const answer = await ex.run(def.op, input);
  if (answer.status >= 400) return errorResult(forAgents(answer.body as ErrorBody));
  const result: CallToolResult = {
    content: [{ type: 'text', text: JSON.stringify(answer.body) }],
    structuredContent: answer.body as Record<string, unknown>,
    isError: false,
  };
  if (answer.replayed) result._meta = { [REPLAYED_META]: true };
  return result;
}

/** Flat arguments → path parameters, query, body (or image bytes), and the idempotency key. */
export function splitArguments(def: ToolDef, args: Record<string, unknown>): OpInput {
  const unknown = Object.keys(args).filter((k) => !def.argumentNames.has(k));
  if (unknown.length > 0) {
    const message = `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`;
    throw new ApiError('bad_request', `arguments: ${message}`, { issues: [{ path: ['arguments'], code: 'unrecognized_keys', keys: unknown, message }] });
  }
  const { op } = def;
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (key === IDEMPOTENCY_ARGUMENT) continue;
    if (def.pathParams.includes(key)) params[key] = value;
    else if (def.queryFields.includes(key)) query[key] = value;
    else rest[key] = value;
  }
  const input: OpInput = { params, query };
  if (op.changes) input.idempotencyKey = idempotencyKeyOf(args[IDEMPOTENCY_ARGUMENT]);
  if (op.bodyType === 'json') input.body = rest;
  if (op.bodyType === 'binary') Object.assign(input, imageOf(rest));
  return input;
}

const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

function idempotencyKeyOf(value: unknown): string {
  if (value === undefined) return randomUUID();
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw badRequest(['arguments', IDEMPOTENCY_ARGUMENT], 'idempotency_key', 'a string of 1–255 printable ASCII characters');
  }
  return value;
}

function imageOf(rest: Record<string, unknown>): { raw: Buffer; contentType: string } {
  const data = rest[IMAGE_DATA_ARGUMENT];
  const contentType = rest[IMAGE_TYPE_ARGUMENT];
  if (typeof data !== 'string' || data.length % 4 !== 0 || !BASE64.test(data)) {
    throw badRequest(['arguments', IMAGE_DATA_ARGUMENT], 'invalid_format', 'the image bytes in base64');
  }
  if (typeof contentType !== 'string') {
    throw badRequest(['arguments', IMAGE_TYPE_ARGUMENT], 'invalid_value', 'image/png, image/jpeg or image/webp');
  }
  return { raw: Buffer.from(data, 'base64'), contentType };
}
