/**
 * A known path asked with a method it does not serve is 405 `method_not_allowed` with `Allow`
 * naming the methods it serves (RFC 9110 §15.5.6), whatever the method: one the API uses
 * elsewhere (`DELETE /me`), one it never uses (`PROPFIND`), one fastify's router does not know
 * (`QUERY`). An unknown path stays 404 `no route`. `PUT /work-mode` with the JSON body `null` is
 * refused like any other body that is not an object.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../sdk/contract/constants.ts';
import { call, expectError, makeApp, newSeller, type SellerCreated } from './helpers.ts';

let app: FastifyInstance;
let seller: SellerCreated;

beforeAll(async () => {
  app = await makeApp();
  seller = await newSeller(app, { admission: 'complete' });
});
afterAll(async () => {
  await app.close();
});

const ask = (method: string, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${seller.apiKey}`, ...headers } });

describe('405 method_not_allowed', () => {
  it('is in the contract at 405', () => {
    expect(ERROR_STATUS.method_not_allowed).toBe(405);
  });

  it.each([
    ['DELETE', '/api/v1/me', 'GET, HEAD'],
    ['POST', '/api/v1/me', 'GET, HEAD'],
    ['PROPFIND', '/api/v1/me', 'GET, HEAD'],
    ['QUERY', '/api/v1/me', 'GET, HEAD'],
    ['QUERY', '/api/v1/me?x=1', 'GET, HEAD'],
    ['PUT', '/api/v1/listings/1001', 'DELETE, GET, HEAD, PATCH'],
    ['GET', '/api/v1/listings/1001/state', 'POST'],
    ['DELETE', '/sandbox/v1/clock', 'GET, HEAD'],
    ['POST', '/api/v1/openapi.json', 'GET, HEAD'],
    ['PATCH', '/docs', 'GET, HEAD'],
  ])('%s %s → 405, Allow: %s', async (method, url, allow) => {
    const res = await ask(method, url);
    expect(res.statusCode, res.body).toBe(405);
    expect(res.headers.allow).toBe(allow);
    const body = JSON.parse(res.body) as { error: string; detail: { message: string; allowed: string[] } };
    expect(body.error).toBe('method_not_allowed');
    expect(body.detail.message).toContain(`method ${method} is not allowed on ${url.split('?')[0]}`);
    expect(body.detail.allowed.join(', ')).toBe(res.headers.allow);
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('QUERY with a body and Content-Type is 405 too', async () => {
    const res = await ask('QUERY', '/api/v1/orders', { 'content-type': 'application/json' });
    expect(res.statusCode, res.body).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('the MCP endpoint keeps its own 405 (Allow: POST)', async () => {
    const res = await ask('GET', '/api/mcp');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it.each([
    ['GET', '/api/v1/nope'],
    ['DELETE', '/api/v1/nope/1'],
    ['QUERY', '/api/v1/nope'],
  ])('an unknown path stays 404 no route: %s %s', async (method, url) => {
    const res = await ask(method, url);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.headers.allow).toBeUndefined();
    expect(JSON.parse(res.body)).toEqual({
      error: 'not_found',
      detail: { message: `no route ${method} ${url}`, record: 'route', id: `${method} ${url}` },
    });
  });

  it('the declared methods still work', async () => {
    expect((await ask('GET', '/api/v1/me')).statusCode).toBe(200);
    expect((await ask('HEAD', '/api/v1/me')).statusCode).toBe(200);
  });
});

describe('PUT /work-mode with a body that is not an object', () => {
  it.each(['null', '[]', '"open"', '42', 'true'])('%s → 400 bad_request on body', async (raw) => {
    const res = await call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { raw, contentType: 'application/json' });
    expectError(res, 400, 'bad_request');
    expect(res.body.detail.issues[0].path).toEqual(['body']);
  });

  it('an absent body still means no change asked (all fields optional), an object works', async () => {
    expect((await call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { capacity: 3 })).status).toBe(200);
    expect((await call(app, seller.apiKey, 'PUT', '/api/v1/work-mode')).status).toBe(200);
  });
});
