/**
 * The seller's budget over all its keys (docs/decisions.md, "Rate limit per seller"): minting keys
 * does not multiply a seller's requests; another seller is unaffected; MCP and HTTP take from the
 * same buckets.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { Clock } from '../../server/clock.ts';
import { RateLimiter } from '../../server/http/rate-limit.ts';
import { call, expectError, issueKey, makeApp, newSeller } from './helpers.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const me = (a: FastifyInstance, key: string) => call(a, key, 'GET', '/api/v1/me');

/** Sends `me` with each key in turn until `total` were sent; answers how many passed. */
async function spread(a: FastifyInstance, keys: string[], total: number): Promise<number> {
  let passed = 0;
  for (let i = 0; i < total; i++) if ((await me(a, keys[i % keys.length]!)).status === 200) passed++;
  return passed;
}

describe('rate limit per seller', () => {
  it('30 keys of one seller get the seller budget (twice a key burst), not 30 bursts; another seller is unaffected', async () => {
    // A key: 60 a minute, burst 5; a seller: 120 a minute, burst 10. The clock stands still.
    app = await makeApp({ clock: new Clock(0, () => T0), rateLimit: { perMinute: 60, burst: 5 } });
    const a = await newSeller(app);
    const keys = [a.apiKey];
    // Minting keys costs requests too (29 × POST /keys): mint first on a moving clock, then stand still.
    app.service.limiter = new RateLimiter({ perMinute: 1e6, burst: 1e6 });
    for (let i = 1; i < 30; i++) keys.push((await issueKey(app, a.apiKey, ['catalog'], `k${i}`)).key);
    app.service.limiter = new RateLimiter({ perMinute: 60, burst: 5 });

    const passed = await spread(app, keys, 30 * 5);
    expect(passed).toBe(10);
    // the refusal names the seller's budget and its policy
    const refused = await me(app, keys[17]!);
    expectError(refused, 429, 'rate');
    expect(refused.headers['ratelimit-policy']).toBe('"per-seller";q=120;w=60;burst=10');
    expect(refused.headers['ratelimit']).toMatch(/^"per-seller";r=0;t=\d+$/);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.stringify(refused.body.detail)).toMatch(/all its keys together/);

    // another seller has its whole budget
    const b = await newSeller(app);
    const ok = await me(app, b.apiKey);
    expect(ok.status).toBe(200);
    expect(ok.headers['ratelimit-policy']).toBe('"per-key";q=60;w=60;burst=5');
    expect(await spread(app, [b.apiKey], 10)).toBe(4);
  });

  it('one busy key leaves the seller\u2019s other keys what a key gets alone', async () => {
    app = await makeApp({ clock: new Clock(0, () => T0), rateLimit: { perMinute: 60, burst: 5 } });
    const s = await newSeller(app);
    const second = (await issueKey(app, s.apiKey, ['catalog'])).key;
    // the first key: 1 call to mint, then drains its own bucket
    expect(await spread(app, [s.apiKey], 20)).toBe(4);
    expect(await spread(app, [second], 20)).toBe(5);
  });

  it('a sustained rate over many keys is the seller\u2019s rate', async () => {
    const clock = new Clock(0, () => T0);
    app = await makeApp({ clock, rateLimit: { perMinute: 60, burst: 5 } });
    const s = await newSeller(app);
    app.service.limiter = new RateLimiter({ perMinute: 1e6, burst: 1e6 });
    const keys = [s.apiKey];
    for (let i = 1; i < 10; i++) keys.push((await issueKey(app, s.apiKey, ['catalog'], `k${i}`)).key);
    app.service.limiter = new RateLimiter({ perMinute: 60, burst: 5 });
    let passed = await spread(app, keys, 100);
    expect(passed).toBe(10);
    // 10 seconds later: 20 more seller tokens (2 a second), whatever the number of keys
    await clock.advance(10);
    passed = await spread(app, keys, 100);
    expect(passed).toBe(10); // capped by the seller's burst
    await clock.advance(3);
    expect(await spread(app, keys, 100)).toBe(6);
  });

  it('MCP and HTTP take from the same buckets', async () => {
    app = await makeApp({ clock: new Clock(0, () => T0), rateLimit: { perMinute: 60, burst: 5 } });
    const s = await newSeller(app);
    const mcp = () =>
      app!.inject({
        method: 'POST',
        url: '/api/mcp',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${s.apiKey}` },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'service_me' } }),
      });
    for (let i = 0; i < 3; i++) expect((await me(app, s.apiKey)).status).toBe(200);
    expect((await mcp()).statusCode).toBe(200);
    expect((await mcp()).statusCode).toBe(200);
    expectError(await me(app, s.apiKey), 429, 'rate');
    const refused = await mcp();
    expect(refused.statusCode).toBe(429);
  });
});

describe('RateLimiter', () => {
  it('takes from neither bucket when one is empty', () => {
    const limiter = new RateLimiter({ perMinute: 60, burst: 3, sellerPerMinute: 60, sellerBurst: 4 });
    for (let i = 0; i < 3; i++) limiter.take('k1', T0, 's');
    expect(() => limiter.take('k1', T0, 's')).toThrow(/rate limit/);
    // k1's refusals took nothing from the seller: k2 still has the seller's last token
    limiter.take('k2', T0, 's');
    expect(() => limiter.take('k3', T0, 's')).toThrow(/all its keys together/);
    expect(limiter.sellerBuckets).toBe(1);
  });
});
