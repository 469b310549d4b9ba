/**
 * The waits between retries, shared by the transport (retries of one call) and `orders.watch()`
 * (polls after a failure): exponential backoff with equal jitter, and a sleep that a signal cuts short.
 */

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout that the signal cancels (rejecting with its reason). */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * The wait of backoff step `step` (0 for the first retry): between half and all of
 * `min(maxMs, baseMs * 2^step)` (equal jitter), `random` in [0, 1) choosing where.
 */
export function jitteredBackoff(step: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(step, 30));
  return ceiling / 2 + random() * (ceiling / 2);
}
