/**
 * Registers one fastify route per operation that has a handler, straight from the operation table.
 * The route only adapts HTTP to the transport-neutral `execute` pipeline.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BASE_PATH, IMAGE_MAX_BYTES, type AnyOperation } from '../../sdk/contract/index.ts';
import { requestError } from './errors.ts';
import type { ServerContext } from '../context.ts';
import { authBeforeBody, readsBody } from './auth-gate.ts';
import { execute } from './execute.ts';
import { header } from './header.ts';

export const JSON_BODY_LIMIT = 16 * 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';

function bodyOf(op: AnyOperation, req: FastifyRequest): { body: unknown; raw?: Buffer } {
  const body = req.body;
  if (op.bodyType === 'binary') return { body: undefined, raw: Buffer.isBuffer(body) ? body : Buffer.alloc(0) };
  if (Buffer.isBuffer(body)) {
    if (body.length === 0) return { body: undefined };
    return { body: Symbol.for('not-json') };
  }
  return { body };
}

/** A sandbox fault's dropped connection: nothing is answered, the socket is destroyed. */
function dropConnection(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.hijack();
  req.raw.socket.destroy();
  return reply;
}

export function registerOperations(app: FastifyInstance, svc: ServerContext, handlers: Record<string, unknown>, ops: Iterable<AnyOperation>): number {
  let served = 0;
  for (const op of ops) {
    const handler = handlers[op.id] as Parameters<typeof execute>[1] | undefined;
    if (!handler) continue;
    served++;
    app.route({
      method: op.method,
      url: BASE_PATH[op.surface] + op.path.replace(/\{(\w+)\}/g, ':$1'),
      bodyLimit: op.bodyType === 'binary' ? IMAGE_MAX_BYTES * 4 : JSON_BODY_LIMIT,
      // API routes with a body: the key is checked before the body is read (auth-gate.ts).
      ...(op.surface === 'api' && readsBody(op.method) ? { onRequest: authBeforeBody(svc) } : {}),
      handler: async (req, reply) => {
        const { body, raw } = bodyOf(op, req);
        if (body === Symbol.for('not-json')) {
          return reply.code(400).send(requestError(['body'], 'content_type', 'send Content-Type: application/json'));
        }
        const q = req.url.indexOf('?');
        const result = await execute(svc, handler, {
          op,
          path: q < 0 ? req.url : req.url.slice(0, q),
          url: req.url,
          authorization: header(req, 'authorization'),
          idempotencyKey: header(req, 'idempotency-key'),
          params: req.params,
          query: req.query,
          body,
          raw,
          contentType: header(req, 'content-type'),
          faults: op.surface === 'api',
        });
        if (result.drop) return dropConnection(req, reply);
        if (result.error) req.log.error({ err: result.error, op: op.id }, 'unexpected error');
        reply.code(result.status).headers(result.headers);
        // A success answer is already JSON, written through the answer schema.
        if (result.json !== undefined) return reply.header('content-type', JSON_TYPE).send(result.json);
        return reply.send(result.body);
      },
    });
  }
  return served;
}
