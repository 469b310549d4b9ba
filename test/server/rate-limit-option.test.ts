/**
 * `seller-server --rate-limit off|N/min[,burst]` and `SELLER_SERVER_RATE_LIMIT` (the flag wins): the
 * real server started with each, over HTTP; the default stays the real limit (600/min, burst 100);
 * a seller's bucket stays twice a key's. A bad value stops the start with exit 2, naming the form.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseRateLimit, RATE_LIMIT_OFF } from '../../server/http/rate-limit-option.ts';
import { RateLimiter } from '../../server/http/rate-limit.ts';
import { ensureBuilt, ROOT } from '../helpers/cli.ts';

interface Running {
  child: ChildProcess;
  url: string;
  key: string;
  out: string;
}

const children: ChildProcess[] = [];

function start(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, ['bin/seller-server.js', '--port', '0', '--memory', '--admin-token', 'adm_rate_limit_test', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SELLER_SERVER_RATE_LIMIT: '', ...env },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const key = /demo key: (\S+)/.exec(out)?.[1];
      if (url && key) resolve({ child, url, key, out });
    });
    child.once('exit', (code) => reject(Object.assign(new Error(`seller-server exited with ${code}: ${err}`), { code, err })));
  });
}

const me = (s: Running) => fetch(`${s.url}/api/v1/me`, { headers: { authorization: `Bearer ${s.key}` } });

beforeAll(async () => {
  await ensureBuilt();
}, 300_000);
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('parseRateLimit', () => {
  it.each([
    ['off', RATE_LIMIT_OFF],
    ['OFF', RATE_LIMIT_OFF],
    ['600/min,100', { perMinute: 600, burst: 100 }],
    ['60/min', { perMinute: 60, burst: 10 }],
    ['5/min', { perMinute: 5, burst: 1 }],
    [' 6000 / min , 1000 ', { perMinute: 6000, burst: 1000 }],
  ])('%j', (text, expected) => {
    expect(parseRateLimit(text)).toEqual(expected);
  });

  it.each(['', 'none', '0/min', '10/min,0', '10/s', '-1/min', '10', '10/min,5,6'])('refuses %j', (text) => {
    expect(() => parseRateLimit(text)).toThrow(/off or N\/min\[,burst\]/);
  });

  it('a seller’s bucket stays twice a key’s', () => {
    const limiter = new RateLimiter(parseRateLimit('60/min,2'));
    const t = 1_000_000;
    for (const key of ['a', 'b']) for (let i = 0; i < 2; i++) limiter.take(key, t, 'seller');
    expect(() => limiter.take('a', t, 'seller')).toThrow(/rate limit/); // the key's bucket
    expect(() => limiter.take('c', t, 'seller')).toThrow(/seller's rate limit \(all its keys together\) of 120 requests a minute \(burst 4\)/);
    expect(limiter.take('d', t, 'other')).toMatchObject({ 'ratelimit-policy': '"per-key";q=60;w=60;burst=2' });
  });

  it('off takes nothing and sends no RateLimit headers', () => {
    const limiter = new RateLimiter(RATE_LIMIT_OFF);
    for (let i = 0; i < 10_000; i++) expect(limiter.take('a', 0, 's')).toEqual({});
  });
});

describe('seller-server --rate-limit', () => {
  it('by default the real limit: 600/min, burst 100 per key', async () => {
    const s = await start([]);
    expect(s.out).not.toMatch(/rate limit:/);
    const res = await me(s);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"per-key";q=600;w=60;burst=100');
  }, 60_000);

  it('--rate-limit 6/min,2: the third call at once is 429 with Retry-After', async () => {
    const s = await start(['--rate-limit', '6/min,2']);
    expect(s.out).toContain('rate limit: 6/min, burst 2 per key');
    expect((await me(s)).status).toBe(200);
    const second = await me(s);
    expect(second.headers.get('ratelimit-policy')).toBe('"per-key";q=6;w=60;burst=2');
    const third = await me(s);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);

  it('SELLER_SERVER_RATE_LIMIT=off: 300 calls at once all answered, no RateLimit headers; the flag wins over it', async () => {
    const s = await start([], { SELLER_SERVER_RATE_LIMIT: 'off' });
    expect(s.out).toContain('rate limit: off');
    const answers = await Promise.all(Array.from({ length: 300 }, () => me(s)));
    expect(answers.map((r) => r.status).filter((st) => st !== 200)).toEqual([]);
    expect(answers[0]!.headers.get('ratelimit')).toBeNull();
    const flagged = await start(['--rate-limit', '6/min,1'], { SELLER_SERVER_RATE_LIMIT: 'off' });
    expect((await me(flagged)).status).toBe(200);
    expect((await me(flagged)).status).toBe(429);
  }, 60_000);

  it('a bad value stops the start: exit 2, naming the form (and the variable it came from)', async () => {
    const bad = await start(['--rate-limit', 'lots']).then(() => null, (e: { code: number; err: string }) => e);
    expect(bad?.code).toBe(2);
    expect(bad?.err).toMatch(/--rate-limit takes off or N\/min\[,burst\]/);
    const env = await start([], { SELLER_SERVER_RATE_LIMIT: '10/hour' }).then(() => null, (e: { code: number; err: string }) => e);
    expect(env?.code).toBe(2);
    expect(env?.err).toContain('(from SELLER_SERVER_RATE_LIMIT)');
  }, 60_000);
});
