/** Rate limits (gaps.md: Rate limits; HTTP conventions for the `rate` answer). */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { Clock } from '../../server/clock.ts';
import { RateLimiter } from '../../server/http/rate-limit.ts';
import { call, expectError, makeApp, newSeller, sandbox } from './helpers.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An app whose clock stands still at T0 unless advanced, limited to 60 a minute, burst 5. */
async function limited(rate = { perMinute: 60, burst: 5 }) {
  const clock = new Clock(0, () => T0);
  app = await makeApp({ clock, rateLimit: rate });
  return { app, clock };
}

const me = (a: FastifyInstance, key: string) => call(a, key, 'GET', '/api/v1/me');

describe('token bucket per key', () => {
  it('the 6th quick request → 429 rate with Retry-After and RateLimit / RateLimit-Policy headers', async () => {
    const { app } = await limited();
    const s = await newSeller(app);
    for (let i = 0; i < 5; i++) {
      const ok = await me(app, s.apiKey);
      expect(ok.status, `request ${i + 1}`).toBe(200);
      expect(ok.headers['ratelimit-policy']).toBe('"per-key";q=60;w=60;burst=5');
      expect(ok.headers['ratelimit']).toMatch(new RegExp(`^"per-key";r=${4 - i};t=\\d+$`));
    }
    const res = await me(app, s.apiKey);
    expectError(res, 429, 'rate');
    expect(res.headers['retry-after']).toBe('1');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.headers['ratelimit-policy']).toBe('"per-key";q=60;w=60;burst=5');
    expect(res.headers['ratelimit']).toMatch(/^"per-key";r=0;t=5$/);
    expect(JSON.stringify(res.body.detail)).toMatch(/rate limit/);
  });

  it('Retry-After grows with a slower sustained rate', async () => {
    const { app } = await limited({ perMinute: 6, burst: 1 });
    const s = await newSeller(app);
    expect((await me(app, s.apiKey)).status).toBe(200);
    const res = await me(app, s.apiKey);
    expectError(res, 429, 'rate');
    expect(res.headers['retry-after']).toBe('10');
  });

  it('every operation counts, reads and changes alike', async () => {
    const { app } = await limited();
    const s = await newSeller(app);
    await call(app, s.apiKey, 'GET', '/api/v1/catalog/services');
    await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Rate one' });
    await call(app, s.apiKey, 'GET', '/api/v1/keys');
    await call(app, s.apiKey, 'GET', '/api/v1/catalog/requests');
    await me(app, s.apiKey);
    expectError(await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Rate two' }), 429, 'rate');
  });

  it('another key of the same seller has its own bucket', async () => {
    const { app } = await limited();
    const s = await newSeller(app);
    const issued = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'second', scopes: ['catalog'] });
    expect(issued.status).toBe(201);
    for (let i = 0; i < 4; i++) expect((await me(app, s.apiKey)).status).toBe(200);
    expectError(await me(app, s.apiKey), 429, 'rate');
    for (let i = 0; i < 5; i++) expect((await me(app, issued.body.key)).status, `second key, request ${i + 1}`).toBe(200);
    expectError(await me(app, issued.body.key), 429, 'rate');
  });

  it('sellers do not share buckets', async () => {
    const { app } = await limited();
    const a = await newSeller(app);
    const b = await newSeller(app);
    for (let i = 0; i < 5; i++) await me(app, a.apiKey);
    expectError(await me(app, a.apiKey), 429, 'rate');
    expect((await me(app, b.apiKey)).status).toBe(200);
  });

  it('after the clock moves on, requests pass again (one token a second at 60 a minute)', async () => {
    const { app, clock } = await limited();
    const s = await newSeller(app);
    for (let i = 0; i < 5; i++) await me(app, s.apiKey);
    expectError(await me(app, s.apiKey), 429, 'rate');
    await clock.advance(0.5);
    expectError(await me(app, s.apiKey), 429, 'rate');
    await clock.advance(0.5);
    expect((await me(app, s.apiKey)).status).toBe(200);
    expectError(await me(app, s.apiKey), 429, 'rate');
    await clock.advance(60);
    for (let i = 0; i < 5; i++) expect((await me(app, s.apiKey)).status, `after a minute, request ${i + 1}`).toBe(200);
    expectError(await me(app, s.apiKey), 429, 'rate');
  });

  it('the sandbox clock advance also refills buckets', async () => {
    const { app } = await limited();
    const s = await newSeller(app);
    for (let i = 0; i < 5; i++) await me(app, s.apiKey);
    expectError(await me(app, s.apiKey), 429, 'rate');
    expect((await sandbox(app, 'POST', '/clock/advance', { seconds: 5 })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await me(app, s.apiKey)).status).toBe(200);
  });

  it('refused requests do not consume tokens: refused, wait 1 s, exactly one passes', async () => {
    const { app, clock } = await limited();
    const s = await newSeller(app);
    for (let i = 0; i < 5; i++) await me(app, s.apiKey);
    for (let i = 0; i < 10; i++) expectError(await me(app, s.apiKey), 429, 'rate');
    await clock.advance(1);
    expect((await me(app, s.apiKey)).status).toBe(200);
  });

  it('the sandbox is not limited', async () => {
    const { app } = await limited({ perMinute: 60, burst: 1 });
    for (let i = 0; i < 20; i++) {
      const res = await sandbox(app, 'GET', '/clock');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
    for (let i = 0; i < 5; i++) expect((await sandbox(app, 'POST', '/sellers', {})).status).toBe(201);
  });

  it('authentication failures do not take tokens from any bucket', async () => {
    const { app } = await limited();
    const s = await newSeller(app);
    for (let i = 0; i < 10; i++) expectError(await me(app, 'service_live_' + 'A'.repeat(40)), 401, 'bad_key');
    for (let i = 0; i < 5; i++) expect((await me(app, s.apiKey)).status).toBe(200);
  });

  it('a rate refusal is not stored for idempotency: the same key later runs', async () => {
    const { app, clock } = await limited();
    const s = await newSeller(app);
    for (let i = 0; i < 5; i++) await me(app, s.apiKey);
    const refused = await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Later' }, { 'idempotency-key': 'rate-idem' });
    expectError(refused, 429, 'rate');
    await clock.advance(60);
    const later = await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Later' }, { 'idempotency-key': 'rate-idem' });
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a replayed request still takes a token', async () => {
    const { app } = await limited();
    const s = await newSeller(app);
    for (let i = 0; i < 5; i++) {
      const res = await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Same' }, { 'idempotency-key': 'same' });
      expect(res.status).toBe(201);
    }
    expectError(await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Same' }, { 'idempotency-key': 'same' }), 429, 'rate');
  });
});

describe('defaults and real time', () => {
  it('defaults: 600 a minute, burst 100', async () => {
    const clock = new Clock(0, () => T0);
    app = await makeApp({ clock });
    const s = await newSeller(app);
    const first = await me(app, s.apiKey);
    expect(first.headers['ratelimit-policy']).toBe('"per-key";q=600;w=60;burst=100');
    for (let i = 1; i < 100; i++) {
      const res = await me(app, s.apiKey);
      if (res.status !== 200) throw new Error(`request ${i + 1}: ${res.status}`);
    }
    const res = await me(app, s.apiKey);
    expectError(res, 429, 'rate');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('on the real clock a burst is refused until tokens come back', async () => {
    app = await makeApp({ rateLimit: { perMinute: 6, burst: 5 } });
    const s = await newSeller(app);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await me(app, s.apiKey)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('the buckets kept', () => {
  it('drop the buckets that filled up again, and never a bucket that is not full', () => {
    const limiter = new RateLimiter({ perMinute: 60, burst: 5 });
    // 3,000 keys seen once at T0 (each bucket 4 of 5), one key drained.
    for (let i = 0; i < 3000; i++) limiter.take(`key-${i}`, T0);
    for (let i = 0; i < 4; i++) limiter.take('busy', T0);
    expect(limiter.size).toBe(3001);
    // A second later every bucket is full again but `busy` (1 + 1 = 2) and the new keys (4): once
    // new keys push the count past the threshold (twice what the last sweep left), a sweep drops
    // the full ones.
    let late = 0;
    let before = limiter.size;
    while (limiter.size >= before && late < 10_000) {
      before = limiter.size;
      limiter.take(`late-${late++}`, T0 + 1_000);
    }
    expect(late).toBeLessThan(10_000);
    expect(limiter.size).toBe(1 + late); // busy and the late keys
    // busy kept its state: 2 tokens, then refused.
    limiter.take('busy', T0 + 1_000);
    limiter.take('busy', T0 + 1_000);
    expect(() => limiter.take('busy', T0 + 1_000)).toThrow(/rate limit/);
    // A dropped key starts again full, as it would have been.
    for (let i = 0; i < 5; i++) limiter.take('key-7', T0 + 1_000);
    expect(() => limiter.take('key-7', T0 + 1_000)).toThrow(/rate limit/);
  });

  it('keep every bucket below the sweep threshold, full or not', () => {
    const limiter = new RateLimiter({ perMinute: 60, burst: 5 });
    for (let i = 0; i < 1000; i++) limiter.take(`key-${i}`, T0);
    limiter.take('late', T0 + 60_000);
    expect(limiter.size).toBe(1001);
  });
});
