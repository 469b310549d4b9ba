/**
 * Token bucket per API key (gaps.md: 600 a minute, burst 100), on the server clock.
 * Answers carry `RateLimit-Policy` and `RateLimit` (IETF httpapi draft) and, when refused, `Retry-After`.
 */
import { ApiError } from './errors.ts';

export interface RateLimitOptions {
  /** Sustained requests per minute. @default 600 */
  perMinute: number;
  /** Bucket size: how many requests may come at once. @default 100 */
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { perMinute: 600, burst: 100 };

/** Below this many buckets none is ever dropped. */
const SWEEP_MIN = 1024;

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  readonly #opts: RateLimitOptions;
  readonly #buckets = new Map<string, Bucket>();
  readonly #perMs: number;
  readonly #policy: string;
  #sweepAt = SWEEP_MIN;

  constructor(opts: RateLimitOptions = DEFAULT_RATE_LIMIT) {
    this.#opts = opts;
    this.#perMs = opts.perMinute / 60_000;
    this.#policy = `"per-key";q=${opts.perMinute};w=60;burst=${opts.burst}`;
  }

  get policy(): string {
    return this.#policy;
  }

  /** Takes one token for `id`; returns the headers to send, or throws `rate` with Retry-After. */
  take(id: string, nowMs: number): Record<string, string> {
    const bucket = this.#refill(id, nowMs);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return this.#headers(bucket);
    }
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.#perMs / 1000));
    throw new ApiError('rate', `rate limit of ${this.#opts.perMinute} requests a minute (burst ${this.#opts.burst}) exceeded; retry in ${retryAfter} s`, {
      ...this.#headers(bucket),
      'retry-after': String(retryAfter),
    });
  }

  /** Buckets kept now (a full one is dropped by the next sweep: it is the same as none). */
  get size(): number {
    return this.#buckets.size;
  }

  #refill(id: string, nowMs: number): Bucket {
    let bucket = this.#buckets.get(id);
    if (!bucket) {
      if (this.#buckets.size >= this.#sweepAt) this.#sweep(nowMs);
      bucket = { tokens: this.#opts.burst, at: nowMs };
      this.#buckets.set(id, bucket);
    }
    const elapsed = Math.max(0, nowMs - bucket.at);
    bucket.tokens = Math.min(this.#opts.burst, bucket.tokens + elapsed * this.#perMs);
    bucket.at = nowMs;
    return bucket;
  }

  /**
   * Drops the buckets that have filled up again (a key unused for a while, a revoked one): the map
   * then holds only keys used within the last refill time. Runs when a new bucket would pass twice
   * the count the last sweep left (at least `SWEEP_MIN`), so its cost is spread over the creations.
   */
  #sweep(nowMs: number): void {
    for (const [id, bucket] of this.#buckets) {
      if (bucket.tokens + Math.max(0, nowMs - bucket.at) * this.#perMs >= this.#opts.burst) this.#buckets.delete(id);
    }
    this.#sweepAt = Math.max(SWEEP_MIN, 2 * this.#buckets.size);
  }

  #headers(bucket: Bucket): Record<string, string> {
    const remaining = Math.floor(bucket.tokens);
    const untilFull = Math.ceil((this.#opts.burst - bucket.tokens) / this.#perMs / 1000);
    return {
      'ratelimit-policy': this.#policy,
      ratelimit: `"per-key";r=${remaining};t=${Math.max(0, untilFull)}`,
    };
  }
}
