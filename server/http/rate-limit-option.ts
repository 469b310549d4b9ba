/**
 * `seller-server --rate-limit off|N/min[,burst]` and `SELLER_SERVER_RATE_LIMIT` (the flag wins):
 * an integrator's test suite picks the real limit (the default, gaps.md: 600 a minute, burst 100
 * per key), another one, or none. The seller's own bucket stays twice a key's whatever is chosen
 * (server/http/rate-limit.ts `SELLER_KEYS_WORTH`). Without a burst, a key's bucket holds a sixth of
 * a minute's requests (600/min → 100), as the default does.
 */
import type { RateLimitOptions } from './rate-limit.ts';

/** The environment variable read when `--rate-limit` is not given. */
export const RATE_LIMIT_ENV = 'SELLER_SERVER_RATE_LIMIT';

/** No limit: every request passes, and answers carry no RateLimit headers. */
export const RATE_LIMIT_OFF: RateLimitOptions = { perMinute: 0, burst: 0, off: true };

/** The options a `--rate-limit` value stands for; throws an Error saying what is accepted. */
export function parseRateLimit(text: string): RateLimitOptions {
  const value = text.trim().toLowerCase();
  if (value === 'off') return RATE_LIMIT_OFF;
  const m = /^(\d{1,9})\s*\/\s*(?:min|m|minute)\s*(?:,\s*(\d{1,9}))?$/.exec(value);
  const perMinute = m ? Number(m[1]) : 0;
  const burst = m?.[2] === undefined ? Math.max(1, Math.round(perMinute / 6)) : Number(m[2]);
  if (!m || perMinute < 1 || burst < 1) {
    throw new Error(`--rate-limit takes off or N/min[,burst] with whole numbers from 1 (such as 600/min,100), got ${JSON.stringify(text)}`);
  }
  return { perMinute, burst };
}

/** A line for the start banner: what limit this server applies. */
export function describeRateLimit(opts: RateLimitOptions): string {
  return opts.off ? 'off' : `${opts.perMinute}/min, burst ${opts.burst} per key (a seller's keys together: twice that)`;
}
