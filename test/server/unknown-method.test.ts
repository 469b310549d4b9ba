/**
 * What Node's HTTP parser refuses before the router runs, over a real socket (fastify's inject
 * skips the parser): a method it does not know (`FOO`) is 405 with `Allow` on a served path and
 * 404 `no route` elsewhere, in the API's envelope; other malformed requests are 400 `bad_request`;
 * the connection is closed after each, and the server goes on answering.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLine } from '../../server/http/client-errors.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `text` as it is and reads the answer until the server closes the connection. */
function raw(text: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let got = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (got += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = got.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

describe('a method Node’s parser does not know', () => {
  it.each([
    ['FOO', '/api/v1/me', 'GET, HEAD'],
    ['FOO', '/api/v1/listings/1001?x=1', 'DELETE, GET, HEAD, PATCH'],
    ['BREW', '/sandbox/v1/clock', 'GET, HEAD'],
  ])('%s %s → 405, Allow: %s', async (method, url, allow) => {
    const res = await raw(`${method} ${url} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status, res.body).toBe(405);
    expect(res.headers['allow']).toBe(allow);
    expect(res.headers['connection']).toBe('close');
    expect(res.headers['content-type']).toContain('application/json');
    const path = url.split('?')[0];
    expect(JSON.parse(res.body)).toEqual({
      error: 'method_not_allowed',
      detail: { message: `method ${method} is not allowed on ${path}; allowed: ${allow}`, allowed: allow.split(', ') },
    });
  });

  it('on an unknown path: 404 no route, as for any method', async () => {
    const res = await raw('FOO /api/v1/nope HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(res.status, res.body).toBe(404);
    expect(res.headers['allow']).toBeUndefined();
    expect(JSON.parse(res.body)).toEqual({ error: 'not_found', detail: { message: 'no route FOO /api/v1/nope', record: 'route', id: 'FOO /api/v1/nope' } });
  });

  it('a malformed header is 400 bad_request naming what is wrong; the server answers the next call', async () => {
    const res = await raw('GET /api/v1/me HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n');
    expect(res.status, res.body).toBe(400);
    const body = JSON.parse(res.body) as { error: string; detail: { message: string; issues: { code: string; message: string }[] } };
    expect(body.error).toBe('bad_request');
    expect(body.detail.issues[0]!.message).toMatch(/^malformed request: invalid header/);
    const after = await fetch(`${server.url}/api/v1/me`);
    expect(after.status).toBe(401);
  });

  it('headers beyond the size Node takes: 431, the status alone', async () => {
    const res = await raw(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body).toBe('');
  });
});

describe('requestLine', () => {
  it('reads a method and a path, without the query', () => {
    expect(requestLine(Buffer.from('FOO /a/b?c=1 HTTP/1.1\r\nHost: x\r\n'))).toEqual({ method: 'FOO', path: '/a/b' });
  });
  it.each([['not a request line'], ['FOO a/b HTTP/1.1\r\n'], ['FOO /a HTTP/2\r\n'], ['F O /a HTTP/1.1\r\n']])('refuses %j', (text) => {
    expect(requestLine(Buffer.from(text))).toBeUndefined();
  });
  it('refuses what is not bytes', () => {
    expect(requestLine(undefined)).toBeUndefined();
    expect(requestLine({ type: 'Buffer', data: [] })).toBeUndefined();
  });
});
