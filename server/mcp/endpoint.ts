/**
 * `POST /api/mcp`: the JSON-RPC 2.0 tool endpoint (MCP over Streamable HTTP, stateless).
 *
 * - Every POST carries one message and `Authorization: Bearer <API key>`, the same keys as HTTP. A
 *   key that cannot be used (no_key, bad_key, revoked, not_seller, seller_blocked) is refused for the
 *   whole POST with the HTTP status and error body of the API (401/403); so is an exhausted bucket
 *   (429 `rate`, with Retry-After). Each authenticated message costs one token of the key's bucket and of its seller's.
 * - Requests are answered with `application/json` (never an event stream); notifications and client
 *   answers with 202 and no body. No session is created; `Mcp-Session-Id` and
 *   `MCP-Protocol-Version` headers are accepted and ignored.
 * - GET, DELETE, PUT, PATCH → 405 with `Allow: POST` (there is no server-to-client stream).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth.ts';
import type { ServerContext } from '../context.ts';
import { authBeforeBody } from '../http/auth-gate.ts';
import { ApiError } from '../http/errors.ts';
import { JSON_BODY_LIMIT } from '../http/routes.ts';
import { callTool } from './call.ts';
import { Exchange, TransportRefusal } from './exchange.ts';
import { INSTRUCTIONS } from './instructions.ts';
import { failure, parseMessage, RpcCode, RpcFault, success, type RpcId, type RpcResponse } from './jsonrpc.ts';
import { listResources, listTemplates, readResource } from './resources.ts';
import { toolsFor } from './tools.ts';
import { header } from '../http/header.ts';

export const MCP_PATH = '/api/mcp';
export const MCP_PROTOCOL_VERSION = '2025-06-18';
export const MCP_SERVER_INFO = { name: 'service-seller', version: '1.0.0' } as const;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Registers the tool endpoint (in its own encapsulated context: it reads its body raw). */
export function registerMcp(app: FastifyInstance, svc: ServerContext, handlers: Record<string, unknown>): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: JSON_BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.route({
      method: 'POST',
      url: MCP_PATH,
      bodyLimit: JSON_BODY_LIMIT,
      onRequest: authBeforeBody(svc), // the key is checked before the body is read (http/auth-gate.ts)
      handler: (req, reply) => handlePost(svc, handlers, req, reply),
    });
    scope.route({
      method: ['GET', 'DELETE', 'PUT', 'PATCH'],
      url: MCP_PATH,
      config: { refusesMethod: true }, // not counted as served (server/http/method-not-allowed.ts)
      handler: async (_req, reply) =>
        reply.code(405).header('allow', 'POST').send(failure(null, RpcCode.invalidRequest, 'method not allowed: send JSON-RPC messages with POST')),
    });
  });
}

async function handlePost(svc: ServerContext, handlers: Record<string, unknown>, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const authorization = header(req, 'authorization');
  let ex: Exchange;
  try {
    ex = new Exchange(svc, handlers, await authenticate(svc.store, authorization, svc.clock.now()), authorization, req.log);
  } catch (err) {
    if (err instanceof ApiError) return sendRefusal(reply, TransportRefusal.from(err));
    throw err;
  }
  try {
    const { status, answer } = await answerBody(ex, header(req, 'content-type'), req.body);
    reply.code(status).headers(ex.headers);
    return answer === undefined ? reply.send() : reply.type('application/json; charset=utf-8').send(JSON.stringify(answer));
  } catch (err) {
    if (err instanceof TransportRefusal) return sendRefusal(reply, err);
    throw err;
  }
}

function sendRefusal(reply: FastifyReply, refusal: TransportRefusal): FastifyReply {
  return reply.code(refusal.status).headers(refusal.headers).send(refusal.body);
}

/** The HTTP status and JSON-RPC answer (none for a notification) of one POST body. */
async function answerBody(ex: Exchange, contentType: string | undefined, body: unknown): Promise<{ status: number; answer?: RpcResponse }> {
  if (!contentType || !JSON_TYPE.test(contentType)) {
    ex.charge();
    return { status: 415, answer: failure(null, RpcCode.invalidRequest, 'send the JSON-RPC message with Content-Type: application/json') };
  }
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : '';
  const message = parseMessage(text);
  switch (message.kind) {
    case 'invalid':
      ex.charge();
      return { status: message.status, answer: message.answer };
    case 'notification':
    case 'response':
      ex.charge();
      return { status: 202 };
    case 'request':
      return { status: 200, answer: await answerRequest(ex, message.id, message.method, message.params) };
  }
}

async function answerRequest(ex: Exchange, id: RpcId, method: string, params: Record<string, unknown>): Promise<RpcResponse> {
  try {
    return success(id, await dispatch(ex, method, params));
  } catch (err) {
    if (err instanceof RpcFault) return failure(id, err.code, err.message, err.data);
    throw err;
  }
}

async function dispatch(ex: Exchange, method: string, params: Record<string, unknown>): Promise<unknown> {
  switch (method) {
    case 'tools/call':
      return callTool(ex, params);
    case 'resources/list':
      return listResources(ex, params);
    case 'resources/read':
      return readResource(ex, params);
    case 'resources/templates/list':
      return listTemplates(ex);
  }
  ex.charge();
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: MCP_PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: false }, resources: {} },
        serverInfo: MCP_SERVER_INFO,
        instructions: INSTRUCTIONS,
      };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: toolsFor(ex.caller.key.scopes, (id) => ex.serves(id)) };
    default:
      throw new RpcFault(RpcCode.methodNotFound, `method not found: ${method}`);
  }
}
