/**
 * The bytes of list answers, kept for reuse: a client polling a page that did not change gets the
 * bytes written the last time, without writing (checking, serialising, encoding) them again.
 *
 * Never stale by construction: the handler still runs on every call, and its result is compared
 * with the leaves the kept bytes were written from (`CompiledAnswer.same`: every primitive, array
 * length, null and absent property the writer read, in order). Only when all are equal, which
 * means the writer would write the same bytes, are the kept bytes sent; otherwise the answer is
 * written and kept anew. The key (seller, URL) only decides which answer is compared against.
 *
 * Versioned lists skip the handler too: for an operation whose answer depends only on data with a
 * version (`GET /orders`: the seller's order version, server/store/order-index.ts `orderVersion`,
 * which every order change bumps), the entry also holds the version read just before the handler
 * ran, synchronously with it. While that version is still the current one, nothing the answer was
 * built from has changed, so {@link AnswerMemo.fresh} hands out the kept bytes without running the
 * handler. The caller's key must then hold every other input of the answer (the seller, the key's
 * mode, the URL with its query).
 *
 * Bounded: at most `maxEntries` answers and `maxBytes` bytes, the least recently used dropped first.
 */
import type { CompiledAnswer } from './answer-writer.ts';

interface Entry {
  leaves: unknown[];
  /** The data version the bytes were written at (versioned lists), else undefined. */
  version: number | undefined;
  bytes: Buffer;
  size: number;
}

export class AnswerMemo {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxEntries = 1024, maxBytes = 16 * 1024 * 1024) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  /**
   * The UTF-8 bytes of `result` written by `compiled`: the kept ones when `result` holds the same
   * leaves, else freshly written (and kept). `undefined` when the writer does not accept `result`
   * or cannot be compared (the caller then writes through `answerJson`, where zod decides).
   */
  bytes(key: string, compiled: CompiledAnswer, result: unknown, version?: number): Buffer | undefined {
    if (!compiled.same) return undefined;
    const kept = this.#entries.get(key);
    if (kept !== undefined && compiled.same(result, kept.leaves)) {
      // The same bytes, now known to hold for `version` too.
      kept.version = version;
      this.#touch(key, kept);
      return kept.bytes;
    }
    const leaves: unknown[] = [];
    const json = compiled.write(result, leaves);
    if (json === undefined) return undefined;
    const bytes = Buffer.from(json, 'utf8');
    this.#keep(key, { leaves, bytes, version, size: bytes.length + 16 * leaves.length });
    return bytes;
  }

  /**
   * The kept bytes under `key` when they were written at `version` (the current version of the data
   * the answer is built from), else undefined: the handler must run.
   */
  fresh(key: string, version: number): Buffer | undefined {
    const kept = this.#entries.get(key);
    if (kept === undefined || kept.version !== version) return undefined;
    this.#touch(key, kept);
    return kept.bytes;
  }

  /** Most recently used last. */
  #touch(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  #keep(key: string, entry: Entry): void {
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#bytes -= old.size;
      this.#entries.delete(key);
    }
    if (entry.size > this.#maxBytes) return;
    this.#entries.set(key, entry);
    this.#bytes += entry.size;
    for (const [k, e] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= e.size;
    }
  }
}
