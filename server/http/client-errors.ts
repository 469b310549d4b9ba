/**
 * Requests Node's HTTP parser refuses before fastify sees them, answered in the API's envelope
 * rather than fastify's `{"error":"Bad Request","message":"Client Error"}`:
 *
 * - a method the parser does not know at all (`FOO /api/v1/me`): llhttp knows a fixed list of
 *   methods and stops at any other, so the router never runs. The request line is read from the
 *   bytes the parser kept (`rawPacket`) and answered as a known method the path does not take:
 *   405 `method_not_allowed` with `Allow` on a served path, 404 `no route` elsewhere (the same
 *   answers as server/http/method-not-allowed.ts gives for `QUERY`);
 * - any other malformed request (a bad header, a broken chunk): 400 `bad_request`, naming what
 *   the parser found;
 * - a request that took too long to arrive (408) or whose headers are too large (431): the status
 *   alone, as the contract has no error code for them.
 *
 * The connection is closed after each: the parser cannot go on reading it.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorBody } from '../../sdk/contract/index.ts';
import { errorBody, requestError } from './errors.ts';
import type { RouteMethods } from './method-not-allowed.ts';

/** Node's parser error: `code` (`HPE_INVALID_METHOD`), `reason` (llhttp's words), `rawPacket` (the bytes read so far). */
type ParserError = Error & { code?: string; reason?: unknown; rawPacket?: unknown };

/** `FOO /path?x HTTP/1.1` → method and path (without its query), or undefined when the line is not one. */
export function requestLine(raw: unknown): { method: string; path: string } | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  const end = raw.indexOf('\r\n');
  const line = raw.subarray(0, end < 0 ? Math.min(raw.length, 8192) : end).toString('latin1');
  const found = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}) (\/\S*) HTTP\/1\.[01]$/.exec(line);
  if (!found) return undefined;
  return { method: found[1]!, path: found[2]!.split('?')[0]! };
}

function write(socket: Socket, status: number, body?: ErrorBody, headers: Record<string, string> = {}): void {
  if (socket.writable) {
    const text = body === undefined ? '' : JSON.stringify(body);
    const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, 'Connection: close', `Content-Length: ${Buffer.byteLength(text)}`];
    if (body !== undefined) head.push('Content-Type: application/json; charset=utf-8');
    for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
    socket.write(`${head.join('\r\n')}\r\n\r\n${text}`);
  }
  socket.destroy();
}

/** fastify's `clientErrorHandler`; `routes` is read when a request comes, after every route is registered. */
export function clientErrorHandler(routes: () => RouteMethods): (err: ParserError, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return write(socket, 408);
    if (err.code === 'HPE_HEADER_OVERFLOW') return write(socket, 431);
    const line = err.code === 'HPE_INVALID_METHOD' ? requestLine(err.rawPacket) : undefined;
    if (line) {
      const allowed = routes().allowed(line.path);
      if (allowed.length > 0) {
        const message = `method ${line.method} is not allowed on ${line.path}; allowed: ${allowed.join(', ')}`;
        return write(socket, 405, errorBody('method_not_allowed', message, { allowed }), { Allow: allowed.join(', ') });
      }
      const route = `${line.method} ${line.path}`;
      return write(socket, 404, errorBody('not_found', `no route ${route}`, { record: 'route', id: route }));
    }
    const why = typeof err.reason === 'string' && err.reason !== '' ? err.reason.toLowerCase() : 'not an HTTP/1.1 request';
    write(socket, 400, requestError([], 'custom', `malformed request: ${why}`));
  };
}
