/**
 * JSON-RPC 2.0 envelopes of the tool endpoint: reading one message from a POST body, and the
 * answers. One POST carries one message (batches are refused). The codes, and the HTTP status each
 * travels with:
 *
 * | code   | meaning                                               | HTTP |
 * |--------|-------------------------------------------------------|------|
 * | -32700 | parse error: the body is not JSON                     | 400  |
 * | -32600 | invalid request: no `jsonrpc: '2.0'`, no method, bad id, a batch | 400 |
 * | -32601 | method not found                                      | 200  |
 * | -32602 | invalid params: unknown tool, non-object arguments, unknown resource URI | 200 |
 * | -32603 | internal error (the server log has the request id)    | 200  |
 * | -32001 | the API refused a resource read (`data` is the API error body plus `status`); the CLI bridge also uses it for HTTP-level refusals | 200 |
 * | -32002 | resource not found (MCP's code)                       | 200  |
 *
 * Errors of a method travel with HTTP 200 so that a Streamable HTTP client reads them as JSON-RPC
 * errors; only a message that cannot be read at all is a 400.
 */

export const JSONRPC_VERSION = '2.0';

export const RpcCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  refused: -32001,
  resourceNotFound: -32002,
} as const;
export type RpcCode = (typeof RpcCode)[keyof typeof RpcCode];

export type RpcId = string | number;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcSuccess {
  jsonrpc: '2.0';
  id: RpcId;
  result: unknown;
}

export interface RpcFailure {
  jsonrpc: '2.0';
  id: RpcId | null;
  error: RpcError;
}

export type RpcResponse = RpcSuccess | RpcFailure;

/** A method's failure, answered as a JSON-RPC error. */
export class RpcFault extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** What one POST body turned out to be. */
export type Incoming =
  | { kind: 'request'; id: RpcId; method: string; params: Record<string, unknown> }
  | { kind: 'notification'; method: string }
  /** A client's answer to a server request; this server sends none, so it is only acknowledged. */
  | { kind: 'response' }
  /** A message that cannot be served: answered at once (400, or 200 for readable but bad params). */
  | { kind: 'invalid'; status: 400 | 200; answer: RpcFailure };

export const success = (id: RpcId, result: unknown): RpcSuccess => ({ jsonrpc: JSONRPC_VERSION, id, result });

export const failure = (id: RpcId | null, code: number, message: string, data?: unknown): RpcFailure => ({
  jsonrpc: JSONRPC_VERSION,
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is RpcId => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

const invalid = (id: RpcId | null, code: number, message: string): Incoming => ({ kind: 'invalid', status: 400, answer: failure(id, code, message) });

/** Reads one JSON-RPC message from the raw body text. */
export function parseMessage(text: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid(null, RpcCode.parseError, 'parse error: the body is not valid JSON');
  }
  if (Array.isArray(value)) {
    return invalid(null, RpcCode.invalidRequest, 'batches are not accepted: send one JSON-RPC message per POST');
  }
  if (!isObject(value)) return invalid(null, RpcCode.invalidRequest, 'invalid request: expected a JSON-RPC message object');
  const id = isId(value.id) ? value.id : null;
  if (value.jsonrpc !== JSONRPC_VERSION) return invalid(id, RpcCode.invalidRequest, 'invalid request: jsonrpc must be "2.0"');
  if (!('method' in value)) {
    if ('result' in value || 'error' in value) return { kind: 'response' };
    return invalid(id, RpcCode.invalidRequest, 'invalid request: method is missing');
  }
  if (typeof value.method !== 'string' || value.method === '') {
    return invalid(id, RpcCode.invalidRequest, 'invalid request: method must be a non-empty string');
  }
  if ('id' in value && !isId(value.id)) {
    return invalid(null, RpcCode.invalidRequest, 'invalid request: id must be a string or a number');
  }
  if (value.params !== undefined && !isObject(value.params)) {
    return 'id' in value
      ? { kind: 'invalid', status: 200, answer: failure(id, RpcCode.invalidParams, 'invalid params: params must be an object') }
      : { kind: 'notification', method: value.method };
  }
  if (!('id' in value)) return { kind: 'notification', method: value.method };
  return { kind: 'request', id: value.id as RpcId, method: value.method, params: (value.params as Record<string, unknown> | undefined) ?? {} };
}
