/** `seller api spec`: the OpenAPI document, offline (no key, no server, no client). */
import { describe, expect, it, vi } from 'vitest';
import { apiOperations } from '../../sdk/contract/index.ts';
import { bufferIO, fakeClient, run } from './helpers.ts';

describe('seller api spec', () => {
  it('prints the OpenAPI 3.1 document as JSON without a key or a call', async () => {
    const client = vi.fn(() => fakeClient({}));
    const result = await run(['api', 'spec'], bufferIO({ env: { SERVICE_API_KEY: undefined } }), { client });
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    const doc = JSON.parse(result.out);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/v1/orders/{id}/deliver'].post.operationId).toBe('orders.deliver');
    const count = Object.values(doc.paths as Record<string, object>).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(count).toBe(Object.keys(apiOperations).length);
    expect(doc.servers[0].url).toBe('http://127.0.0.1:8787');
    expect(client).not.toHaveBeenCalled();
  });

  it('names the configured base URL as the server', async () => {
    const result = await run(['--base-url', 'http://127.0.0.1:9999/', 'api', 'spec'], bufferIO());
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).servers[0].url).toBe('http://127.0.0.1:9999');
  });

  it('takes no path or call options; other methods still need a path', async () => {
    expect((await run(['api', 'spec', '/me'], bufferIO())).code).toBe(2);
    expect((await run(['api', 'spec', '-q', 'a=1'], bufferIO())).code).toBe(2);
    const missing = await run(['api', 'GET'], bufferIO({ env: { SERVICE_API_KEY: 'x' } }));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing PATH');
    // `spec` is a lower-case word; SPEC is an unknown method
    expect((await run(['api', 'SPEC'], bufferIO())).code).toBe(2);
  });
});
