/**
 * Authentication before the body is read. fastify reads and parses a request's body (JSON up to
 * 16 MiB) before the route handler runs, and the pipeline (server/http/execute.ts) authenticates
 * in the handler: a request with no key, a wrong or a revoked key would cost its whole body in
 * memory and parse time before its 401. This `onRequest` hook, on every API and MCP route that can
 * carry a body (any method but GET and HEAD, whose bodies fastify never reads), authenticates the
 * request from its headers alone and answers a key that cannot be used (no_key, bad_key, revoked,
 * not_seller, seller_blocked) at once, in the API's envelope, with the body unread.
 *
 * The pipeline authenticates again when the handler runs (a lookup by the key's hash, about a
 * microsecond): the answer follows the key as it is then, so a key revoked while its body was
 * still uploading is refused as before, and the pipeline stays the one place that decides.
 * An authenticated caller keeps the route's body limit.
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { authenticate } from '../auth.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from './errors.ts';
import { header } from './header.ts';

/** Whether fastify reads a body for this method (it never does for GET and HEAD). */
export const readsBody = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

/** The `onRequest` hook that refuses an unusable key before the body is read. */
export function authBeforeBody(svc: ServerContext): onRequestAsyncHookHandler {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      await authenticate(svc.store, header(req, 'authorization'), svc.clock.now());
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // Node discards the unread rest of the body (chunk by chunk, never held) to keep the connection.
      return reply.code(err.status).headers(err.headers).send(err.toBody());
    }
  };
}
