/**
 * The delivery ladder (gaps.md, "Delivery ladder"): attempt 1 at once, then after 10 s, 1 min,
 * 5 min, 30 min, 2 h, 6 h and 12 h; 8 attempts in all. Pure: times in, times out.
 */

/** Delay before each attempt, in seconds; index 0 is the first attempt (at once). */
export const LADDER_DELAYS_SECONDS: readonly number[] = [0, 10, 60, 5 * 60, 30 * 60, 2 * 3600, 6 * 3600, 12 * 3600];

/** Attempts a delivery gets before it gives up. */
export const MAX_ATTEMPTS = LADDER_DELAYS_SECONDS.length;

/** Failed attempts in a row (across deliveries) that pause the subscription. */
export const PAUSE_AFTER_FAILURES = 20;

/**
 * When the attempt after `attemptsMade` failed attempts is due, counted from `failedAt` (the time
 * the last attempt started), in epoch milliseconds; null when the ladder is exhausted.
 * `attemptsMade` 0 means no attempt yet: due at once.
 */
export function nextAttemptAt(attemptsMade: number, failedAt: number): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) throw new RangeError('attemptsMade must be a non-negative integer');
  const delay = LADDER_DELAYS_SECONDS[attemptsMade];
  return delay === undefined ? null : failedAt + delay * 1000;
}
