/**
 * Kept `GET /orders` pages: the one cache the server keeps, because the speed target of the list
 * (≥ 0.5× a bare fastify route, docs/benchmarks.md "One schema engine") is out of reach without it:
 * serializing a 23 KB page and encoding it costs more than everything else a request does.
 *
 * A page is kept as the UTF-8 bytes of its answer, under (seller, key mode, URL), with the version
 * of the seller's orders (server/store/order-index.ts `orderVersion`) read just before its handler
 * ran. While that version is the current one, nothing the page was built from changed, so the bytes
 * are sent again without running the handler. The version moves by itself with every order change:
 * it is bumped by the order index's own upkeep (every stamp of `updatedAt` and every creation
 * reach it through `touched`/`orderCreated`), so no handler has to remember it. Auth, scope, the
 * rate limit and the query's validation still run for every call.
 *
 * Bounded: at most `maxEntries` pages and `maxBytes` bytes, the least recently used dropped first.
 */
import type { SellerDoc } from '../store/docs.ts';
import { orderVersion } from '../store/order-index.ts';

interface Entry {
  version: number;
  bytes: Buffer;
}

/** One page's slot: the kept bytes when still fresh, and where to keep newly written ones. */
export interface KeptPage {
  /** The kept bytes, when written at the current version. */
  fresh(): Buffer | undefined;
  /** Reads the version; call synchronously before the handler runs. Returns `keep(json)` for its answer. */
  begin(): (json: string) => Buffer;
}

export class KeptPages {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(
    readonly maxEntries = 1024,
    readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  /** The slot of a page of `doc`'s orders under `key` (the caller's seller, key mode and URL). */
  page(key: string, doc: SellerDoc): KeptPage {
    return {
      fresh: () => {
        const kept = this.#entries.get(key);
        if (kept === undefined || kept.version !== orderVersion(doc)) return undefined;
        this.#entries.delete(key); // most recently used last
        this.#entries.set(key, kept);
        return kept.bytes;
      },
      begin: () => {
        const version = orderVersion(doc);
        return (json) => {
          const bytes = Buffer.from(json, 'utf8');
          this.#keep(key, { version, bytes });
          return bytes;
        };
      },
    };
  }

  #keep(key: string, entry: Entry): void {
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#bytes -= old.bytes.length;
      this.#entries.delete(key);
    }
    if (entry.bytes.length > this.maxBytes) return;
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes.length;
    for (const [k, e] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= e.bytes.length;
    }
  }
}
