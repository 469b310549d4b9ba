/**
 * The service's clock as its answers tell it: every answer's `Date` header is recorded per client,
 * so a check against "today" (the next charge day) uses the service's today — which the sandbox
 * moves — rather than this computer's. Read through the client's public `fetch` option, not the
 * transport's insides.
 */
import type { SellerClient } from '../../sdk/client.ts';

const seen = new WeakMap<object, { dateMs?: number }>();

/** A `fetch` that records the `Date` of each answer into `box`. */
export function dateRecordingFetch(inner: typeof fetch, box: { dateMs?: number }): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await inner(input, init);
    const ms = Date.parse(res.headers.get('date') ?? '');
    if (Number.isFinite(ms)) box.dateMs = ms;
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
