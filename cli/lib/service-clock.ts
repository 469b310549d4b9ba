/**
 * The service's clock as its answers tell it: every answer's `Date` header is recorded per client,
 * so a check against "today" (the next charge day) uses the service's today — which the sandbox
 * moves — rather than this computer's. Read through the client's public `fetch` option, not the
 * transport's insides.
 */
import type { SellerClient } from '../../sdk/client.ts';

const seen = new WeakMap<object, { dateMs?: number }>();

/** How far the service's clock is ahead of this computer's (ms), from the last answer with a `Date`. */
let offsetMs: number | undefined;

/**
 * Now by the service's clock, as far as this run knows it: this computer's time moved by the offset
 * seen on the last answer (the sandbox's clock may be days ahead); this computer's time before any.
 * Relative times ("через 12 мин.", "3 мин. назад") count from here, so they say what the service would.
 */
export function serviceClockNow(): number {
  return Date.now() + (offsetMs ?? 0);
}

/** Whether any answer of this run has told the service's time yet. */
export function serviceClockKnown(): boolean {
  return offsetMs !== undefined;
}

/** A `fetch` that records the `Date` of each answer into `box`. */
export function dateRecordingFetch(inner: typeof fetch, box: { dateMs?: number }): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await inner(input, init);
    const ms = Date.parse(res.headers.get('date') ?? '');
    if (Number.isFinite(ms)) {
      box.dateMs = ms;
      // `Date` has whole seconds: an offset under a second is this computer's own rounding, not a clock move.
      const ahead = ms - Date.now();
      offsetMs = Math.abs(ahead) < 2000 ? 0 : ahead;
    }
    return res;
  }) as typeof fetch;
}

/** Links a client to the box its fetch records into. */
export function trackServiceClock(client: SellerClient, box: { dateMs?: number }): SellerClient {
  seen.set(client, box);
  return client;
}

/** The service's time from the last answer `client` received; `undefined` before any or without a `Date`. */
export function serviceNowMs(client: SellerClient): number | undefined {
  return seen.get(client)?.dateMs;
}
