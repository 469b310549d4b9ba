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

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  readonly #opts: RateLimitOptions;
  readonly #buckets = new Map<string, Bucket>();
  readonly #perMs: number;
  readonly #policy: string;

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

  #refill(id: string, nowMs: number): Bucket {
    let bucket = this.#buckets.get(id);
    if (!bucket) {
      bucket = { tokens: this.#opts.burst, at: nowMs };
      this.#buckets.set(id, bucket);
    }
    const elapsed = Math.max(0, nowMs - bucket.at);
    bucket.tokens = Math.min(this.#opts.burst, bucket.tokens + elapsed * this.#perMs);
    bucket.at = nowMs;
    return bucket;
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
