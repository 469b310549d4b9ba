import { describe, expect, it, vi } from 'vitest';
import { apiPath, parseQuery } from '../../cli/commands/api.ts';
import { apiError, bufferIO, fakeClient, LIVE_KEY, run } from './helpers.ts';

const env = { SERVICE_API_KEY: LIVE_KEY };

function requestClient(answer: Partial<{ status: number; body: unknown; replayed: boolean }> = {}) {
  const request = vi.fn(async () => ({ status: 200, headers: new Headers(), body: { ok: true }, requestId: 'req_1', replayed: false, ...answer }));
  return { request, client: () => fakeClient({ request }) };
}

describe('seller api', () => {
  it('adds the /api/v1 prefix when missing and keeps full paths', () => {
    expect(apiPath('/me')).toBe('/api/v1/me');
    expect(apiPath('me')).toBe('/api/v1/me');
    expect(apiPath('/api/v1/me')).toBe('/api/v1/me');
    expect(apiPath('/sandbox/v1/clock')).toBe('/sandbox/v1/clock');
    expect(apiPath('/orders?limit=5')).toBe('/api/v1/orders?limit=5');
    expect(() => apiPath('https://evil.test/api/v1/me')).toThrow(/relative/);
  });

  it('parses repeated query pairs', () => {
    expect(parseQuery(['a=1', 'b=x', 'b=y', 'c=', 'd=e=f'])).toEqual({ a: '1', b: ['x', 'y'], c: '', d: 'e=f' });
    expect(() => parseQuery(['nope'])).toThrow(/key=value/);
  });

  it('sends the call and prints the JSON answer', async () => {
    const { request, client } = requestClient({ body: { sellerId: 's' } });
    const result = await run(['api', 'get', '/me', '-q', 'x=1'], bufferIO({ env }), { client });
    expect(result.code).toBe(0);
    expect(request).toHaveBeenCalledWith({ method: 'GET', path: '/api/v1/me', query: { x: '1' }, body: undefined, idempotencyKey: undefined });
    expect(JSON.parse(result.out)).toEqual({ sellerId: 's' });
  });

  it('reads --data - from stdin and passes the idempotency key', async () => {
    const { request, client } = requestClient({ replayed: true });
    const io = bufferIO({ env, stdin: '{"active": false}' });
    const result = await run(['api', 'POST', '/listings/1001/state', '--data', '-', '--idempotency-key', 'k1'], io, { client });
    expect(result.code).toBe(0);
    expect(request).toHaveBeenCalledWith({ method: 'POST', path: '/api/v1/listings/1001/state', query: {}, body: { active: false }, idempotencyKey: 'k1' });
    expect(result.err).toContain('replayed');
  });

  it('refuses bad input with exit 2', async () => {
    const { request, client } = requestClient();
    expect((await run(['api', 'POST', '/x', '--data', '{nope'], bufferIO({ env }), { client })).code).toBe(2);
    expect((await run(['api', 'GET', '/x', '--data', '{}'], bufferIO({ env }), { client })).code).toBe(2);
    expect((await run(['api', 'TRACE', '/x'], bufferIO({ env }), { client })).code).toBe(2);
    expect(request).not.toHaveBeenCalled();
  });

  it('reports a non-2xx answer like any error', async () => {
    const request = vi.fn(() => Promise.reject(apiError(403, { error: 'scope', detail: { needed: 'hooks' } })));
    const result = await run(['api', 'GET', '/hooks'], bufferIO({ env }), { client: () => fakeClient({ request }) });
    expect(result.code).toBe(4);
    expect(result.out).toBe('');
    expect(result.err).toContain('seller keys issue --scope hooks');
  });
});
