/**
 * `seller api` with a method the path does not take: the server answers 405 `method_not_allowed`
 * with `Allow`; the SDK throws `MethodNotAllowedError` carrying the methods; the CLI names them in
 * a hint (both languages), exit 1, and `--json` reports the code. In-process against a real server.
 */
import { describe, expect, it } from 'vitest';
import { MethodNotAllowedError, SellerClient } from '../../sdk/index.ts';
import { useCliServer } from './helpers.ts';

describe('a method the path does not take', () => {
  const world = useCliServer();
  const { cli } = world;

  it('the SDK throws MethodNotAllowedError with the allowed methods', async () => {
    const client = new SellerClient({ apiKey: world.apiKey, baseUrl: world.server.url, maxRetries: 0 });
    const err = await client.request({ method: 'DELETE', path: '/api/v1/me' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(MethodNotAllowedError);
    expect((err as MethodNotAllowedError).code).toBe('method_not_allowed');
    expect((err as MethodNotAllowedError).status).toBe(405);
    expect((err as MethodNotAllowedError).allowed).toEqual(['GET', 'HEAD']);
  });

  it('the same for a method Node’s HTTP parser does not know (FOO), not a bare 400', async () => {
    const client = new SellerClient({ apiKey: world.apiKey, baseUrl: world.server.url, maxRetries: 0 });
    const err = await client.request({ method: 'FOO', path: '/api/v1/me' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(MethodNotAllowedError);
    expect((err as MethodNotAllowedError).allowed).toEqual(['GET', 'HEAD']);
  });

  it('seller api DELETE /me: the code, the detail and a hint naming GET; exit 1', async () => {
    const { code, err } = await cli(['api', 'DELETE', '/me']);
    expect(code).toBe(1);
    expect(err).toMatch(/^error: method_not_allowed: this path does not take this method\nthis path takes only GET: check the method of the call\n/);
    expect(err).not.toMatch(/no such API path/);
  });

  it('in Russian, the same code, the hint in Russian', async () => {
    const { code, err } = await cli(['api', 'PUT', '/listings/1001'], { LANG: 'ru_RU.UTF-8' });
    expect(code).toBe(1);
    expect(err).toMatch(/^ошибка: method_not_allowed: этот путь не принимает такой метод\nэтот путь принимает только DELETE, GET, PATCH: проверьте метод вызова\n/);
  });

  it('--json: the code on stderr as JSON', async () => {
    const { code, err } = await cli(['api', 'POST', '/me', '--json']);
    expect(code).toBe(1);
    const line = err.trim().split('\n').find((l) => l.startsWith('{'));
    expect(JSON.parse(line!)).toMatchObject({ error: 'method_not_allowed' });
  });
});
