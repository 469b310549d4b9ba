/**
 * Token buckets on the server clock (docs/decisions.md, "Rate limit per seller"): one per API key
 * (gaps.md: 600 a minute, burst 100) and one per seller over all its keys (twice a key's: 1,200 a
 * minute, burst 200), so a seller cannot multiply its share by minting keys, and one busy key
 * leaves the seller's other keys at least what a key gets alone. A request takes a token from
 * both, or from neither when either is empty. HTTP and MCP share the buckets.
 * Answers carry `RateLimit-Policy` and `RateLimit` (IETF httpapi draft) of the bucket closer to
 * empty (the per-key one while it is) and, when refused, `Retry-After` (until both have a token).
 */
import { ApiError } from './errors.ts';

export interface RateLimitOptions {
  /** Sustained requests per minute of one key. @default 600 */
  perMinute: number;
  /** A key's bucket size: how many requests may come at once. @default 100 */
  burst: number;
  /** Sustained requests per minute of one seller, all its keys together. @default 2 × perMinute */
  sellerPerMinute?: number;
  /** A seller's bucket size, all its keys together. @default 2 × burst */
  sellerBurst?: number;
  /** No limit at all (`seller-server --rate-limit off`, server/http/rate-limit-option.ts). */
  off?: boolean;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { perMinute: 600, burst: 100 };

/** A seller's budget, in keys' worth (when the options do not name it). */
export const SELLER_KEYS_WORTH = 2;

/** Below this many buckets none is ever dropped. */
const SWEEP_MIN = 1024;

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets of one kind (per key, per seller), with their policy. */
class Buckets {
  readonly #map = new Map<string, Bucket>();
  readonly perMs: number;
  readonly policy: string;
  #sweepAt = SWEEP_MIN;

  constructor(
    readonly name: string,
    readonly perMinute: number,
    readonly burst: number,
  ) {
    this.perMs = perMinute / 60_000;
    this.policy = `"${name}";q=${perMinute};w=60;burst=${burst}`;
  }

  get size(): number {
    return this.#map.size;
  }

  refill(id: string, nowMs: number): Bucket {
    let bucket = this.#map.get(id);
    if (!bucket) {
      if (this.#map.size >= this.#sweepAt) this.#sweep(nowMs);
      bucket = { tokens: this.burst, at: nowMs };
      this.#map.set(id, bucket);
    }
    const elapsed = Math.max(0, nowMs - bucket.at);
    bucket.tokens = Math.min(this.burst, bucket.tokens + elapsed * this.perMs);
    bucket.at = nowMs;
    return bucket;
  }

  /** Seconds until the bucket holds a token. */
  wait(bucket: Bucket): number {
    return bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000));
  }

  headers(bucket: Bucket): Record<string, string> {
    const remaining = Math.floor(bucket.tokens);
    const untilFull = Math.ceil((this.burst - bucket.tokens) / this.perMs / 1000);
    return { 'ratelimit-policy': this.policy, ratelimit: `"${this.name}";r=${remaining};t=${Math.max(0, untilFull)}` };
  }

  /**
   * Drops the buckets that have filled up again (a key unused for a while, a revoked one): the map
   * then holds only ids used within the last refill time. Runs when a new bucket would pass twice
   * the count the last sweep left (at least `SWEEP_MIN`), so its cost is spread over the creations.
   */
  #sweep(nowMs: number): void {
    for (const [id, bucket] of this.#map) {
      if (bucket.tokens + Math.max(0, nowMs - bucket.at) * this.perMs >= this.burst) this.#map.delete(id);
    }
    this.#sweepAt = Math.max(SWEEP_MIN, 2 * this.#map.size);
  }
}

export class RateLimiter {
  readonly #keys: Buckets;
  readonly #sellers: Buckets;
  readonly #off: boolean;

  constructor(opts: RateLimitOptions = DEFAULT_RATE_LIMIT) {
    this.#off = opts.off === true;
    this.#keys = new Buckets('per-key', opts.perMinute, opts.burst);
    this.#sellers = new Buckets('per-seller', opts.sellerPerMinute ?? SELLER_KEYS_WORTH * opts.perMinute, opts.sellerBurst ?? SELLER_KEYS_WORTH * opts.burst);
  }

  /** The per-key policy. */
  get policy(): string {
    return this.#keys.policy;
  }

  /**
   * Takes one token for the key `keyId` and, when given, one of its seller `sellerId`; returns the
   * headers to send, or throws `rate` with Retry-After (and takes nothing).
   */
  take(keyId: string, nowMs: number, sellerId?: string): Record<string, string> {
    if (this.#off) return {};
    const key = this.#keys.refill(keyId, nowMs);
    const seller = sellerId === undefined ? null : this.#sellers.refill(sellerId, nowMs);
    // The bucket to report: the one closer to empty (relative to its size), the key's on a tie.
    const sellerTighter = seller !== null && seller.tokens / this.#sellers.burst < key.tokens / this.#keys.burst;
    if (key.tokens >= 1 && (seller === null || seller.tokens >= 1)) {
      key.tokens -= 1;
      if (seller) seller.tokens -= 1;
      return sellerTighter ? this.#sellers.headers(seller!) : this.#keys.headers(key);
    }
    const retryAfter = Math.max(this.#keys.wait(key), seller ? this.#sellers.wait(seller) : 0);
    const sellerEmpty = seller !== null && seller.tokens < 1 && key.tokens >= 1;
    const [buckets, bucket] = sellerEmpty ? [this.#sellers, seller!] : [this.#keys, key];
    const what = sellerEmpty ? "the seller's rate limit (all its keys together)" : 'rate limit';
    throw new ApiError('rate', `${what} of ${buckets.perMinute} requests a minute (burst ${buckets.burst}) exceeded; retry in ${retryAfter} s`, { retryAfter }, {
      ...buckets.headers(bucket),
      'retry-after': String(retryAfter),
    });
  }

  /** Key buckets kept now (a full one is dropped by the next sweep: it is the same as none). */
  get size(): number {
    return this.#keys.size;
  }

  /** Seller buckets kept now. */
  get sellerBuckets(): number {
    return this.#sellers.size;
  }
}
