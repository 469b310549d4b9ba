/**
 * `pacedFetch`: waits a 429 out exactly by its Retry-After (every call of the client, not only the
 * refused one), paces calls at the policy's rate once the budget is spent, and never waits for a
 * service that sends no rate headers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pacedFetch } from '../../sdk/pacing.ts';

const POLICY = '"key";q=600;w=60;burst=100';

/** A fetch answering from a queue of header sets; records when each call was sent. */
function scripted(answers: Array<{ status?: number; headers?: Record<string, string> }>) {
  const sent: number[] = [];
  const inner = (async () => {
    sent.push(Date.now());
    const next = answers.shift() ?? {};
    return new Response('{}', { status: next.status ?? 200, headers: next.headers });
  }) as typeof fetch;
  return { inner, sent };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => vi.useRealTimers());

/** Runs `call` while moving the fake clock until it settles. */
async function settle<T>(call: Promise<T>): Promise<T> {
  let done = false;
  const result = call.finally(() => (done = true));
  while (!done) await vi.advanceTimersByTimeAsync(10);
  return result;
}

describe('pacedFetch', () => {
  it('after a 429 with Retry-After: 2, the next calls wait exactly 2 s', async () => {
    const { inner, sent } = scripted([{ status: 429, headers: { 'retry-after': '2', 'ratelimit-policy': POLICY, ratelimit: '"key";r=0;t=10' } }, {}, {}]);
    const paced = pacedFetch(inner);
    expect((await settle(paced('http://x/a'))).status).toBe(429);
    await settle(Promise.all([paced('http://x/b'), paced('http://x/c')]));
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(2000);
    expect(sent[1]! - sent[0]!).toBeLessThan(2000 + 150);
    expect(sent[2]! - sent[0]!).toBeGreaterThanOrEqual(2000);
  });

  it('with the budget spent (r=0 at 600 a minute), the next call waits for one token: about 100 ms', async () => {
    const { inner, sent } = scripted([{ headers: { 'ratelimit-policy': POLICY, ratelimit: '"key";r=0;t=10' } }, { headers: { 'ratelimit-policy': POLICY, ratelimit: '"key";r=0;t=10' } }]);
    const paced = pacedFetch(inner);
    await settle(paced('http://x/a'));
    await settle(paced('http://x/b'));
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(100);
    expect(sent[1]! - sent[0]!).toBeLessThan(200);
  });

  it('calls left in the budget go at once; a service without rate headers is never waited for', async () => {
    const { inner, sent } = scripted([{ headers: { 'ratelimit-policy': POLICY, ratelimit: '"key";r=50;t=5' } }, {}, {}]);
    const paced = pacedFetch(inner);
    await settle(paced('http://x/a'));
    await settle(Promise.all([paced('http://x/b'), paced('http://x/c')]));
    expect(sent[2]).toBe(sent[1]);
    expect(sent[1]! - sent[0]!).toBeLessThan(20); // no wait (the clock moves in 10 ms steps here)
    const bare = scripted([{ status: 429 }, {}]);
    const unpaced = pacedFetch(bare.inner);
    await settle(unpaced('http://x/a'));
    await settle(unpaced('http://x/b'));
    expect(bare.sent[1]! - bare.sent[0]!).toBeLessThan(20);
  });

  it('a call waiting for the budget is cancelled by its signal', async () => {
    const { inner } = scripted([{ status: 429, headers: { 'retry-after': '30' } }]);
    const paced = pacedFetch(inner);
    await settle(paced('http://x/a'));
    const stop = new AbortController();
    const waiting = paced('http://x/b', { signal: stop.signal });
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});
