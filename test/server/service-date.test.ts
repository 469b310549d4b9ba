/**
 * The server's `Date` answer header is its own clock, so clients that compare with "today" (the
 * CLI's next-charge check) follow the sandbox when it moves time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ADMIN, makeApp } from './helpers.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp();
});
afterAll(async () => app.close());

describe('Date header', () => {
  it('follows the sandbox clock when it moves forward', async () => {
    const before = await app.inject({ method: 'GET', url: '/' });
    expect(Math.abs(Date.parse(String(before.headers['date'])) - Date.now())).toBeLessThan(5_000);
    const moved = await app.inject({ method: 'POST', url: '/sandbox/v1/clock/advance', headers: { authorization: `Bearer ${ADMIN}` }, payload: { seconds: 40 * 86_400 } });
    expect(moved.statusCode).toBe(200);
    const after = await app.inject({ method: 'GET', url: '/api/v1/me' });
    expect(after.statusCode).toBe(401);
    expect(Date.parse(String(after.headers['date'])) - Date.now()).toBeGreaterThan(39 * 86_400_000);
  });
});
