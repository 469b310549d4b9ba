/**
 * `pacedFetch(fetch)`: a `fetch` for `SellerClient`'s `fetch` option that keeps a client within its
 * key's rate budget instead of spending calls on 429 answers. It reads what the service says in
 * every answer — `RateLimit-Policy` (`"key";q=600;w=60;burst=100`), `RateLimit` (`"key";r=12;t=9`:
 * calls left) and, on a 429, `Retry-After` — and before each call waits, if need be, until the
 * budget holds a call: exactly the `Retry-After` of a 429 (every call of the client waits it out,
 * not only the refused one), else the time the next token takes at the policy's rate. A service
 * that sends none of these headers is never waited for.
 *
 * @example
 * const client = new SellerClient({ fetch: pacedFetch(globalThis.fetch) });
 */
import { abortableSleep } from './backoff.ts';
import { parseRetryAfter } from './errors.ts';

interface Budget {
  /** Calls left as of `at` (the service's last word less the calls sent since); undefined: unknown. */
  tokens: number | undefined;
  at: number;
  /** Tokens a millisecond, from the policy. */
  perMs: number;
  burst: number;
  /** No call before this time (a 429's Retry-After). */
  gateUntil: number;
  /** Calls sent and not yet answered. */
  inFlight: number;
}

const POLICY = /;\s*q=(\d+(?:\.\d+)?)\s*;\s*w=(\d+(?:\.\d+)?)(?:\s*;\s*burst=(\d+))?/;
const REMAINING = /;\s*r=(\d+)/;

/** Waits `ms`, or rejects with the signal's reason when it aborts. */
const wait = (ms: number, signal: AbortSignal | null | undefined): Promise<void> => abortableSleep(ms, signal ?? undefined);

/** A `fetch` that waits for the key's budget before each call (see the module comment). */
export function pacedFetch(inner: typeof fetch, now: () => number = Date.now): typeof fetch {
  const budget: Budget = { tokens: undefined, at: 0, perMs: 0, burst: Infinity, gateUntil: 0, inFlight: 0 };

  /** Waits until a call may go, and takes its token. */
  async function admit(signal: AbortSignal | null | undefined): Promise<void> {
    for (;;) {
      const t = now();
      if (budget.gateUntil > t) {
        await wait(budget.gateUntil - t, signal);
        continue;
      }
      if (budget.tokens === undefined || budget.perMs <= 0) return;
      const available = Math.min(budget.burst, budget.tokens + (t - budget.at) * budget.perMs);
      if (available < 1) {
        await wait(Math.ceil((1 - available) / budget.perMs), signal);
        continue;
      }
      budget.tokens = available - 1;
      budget.at = t;
      return;
    }
  }

  /** Learns from an answer's headers. */
  function learn(res: Response): void {
    const t = now();
    const policy = POLICY.exec(res.headers.get('ratelimit-policy') ?? '');
    if (policy) {
      budget.perMs = Number(policy[1]) / (Number(policy[2]) * 1000);
      if (policy[3] !== undefined) budget.burst = Number(policy[3]);
    }
    const left = REMAINING.exec(res.headers.get('ratelimit') ?? '');
    if (res.status === 429) {
      const seconds = parseRetryAfter(res.headers.get('retry-after'), t);
      if (seconds !== undefined) budget.gateUntil = Math.max(budget.gateUntil, t + seconds * 1000);
      budget.tokens = 0 - budget.inFlight;
      budget.at = t;
    } else if (left) {
      // The service counted every call it answered; the ones still on their way are not in it yet.
      budget.tokens = Number(left[1]) - budget.inFlight;
      budget.at = t;
    }
  }

  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    await admit(init?.signal);
    budget.inFlight++;
    let res: Response;
    try {
      res = await inner(input, init);
    } finally {
      budget.inFlight--;
    }
    learn(res);
    return res;
  }) as typeof fetch;
}
