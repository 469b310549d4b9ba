/**
 * Random identifiers: prefixed record ids, base62 secrets and request ids. Inside
 * {@link withIdSeed} (the msw mock's `idSeed`) they come from a seeded stream instead, so the same
 * calls in the same order make the same ids.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A source of bytes: `n` bytes each call. */
export type ByteSource = (n: number) => Uint8Array;

const seeded = new AsyncLocalStorage<ByteSource>();

/** A reproducible byte stream: SHA-256 of the seed and a counter, block after block. */
function seedStream(seed: string): ByteSource {
  let counter = 0;
  let block = Buffer.alloc(0);
  return (n) => {
    const out = Buffer.alloc(n);
    for (let filled = 0; filled < n; ) {
      if (block.length === 0) block = createHash('sha256').update(`${seed}\u0000${counter++}`).digest();
      const take = Math.min(block.length, n - filled);
      block.copy(out, filled, 0, take);
      block = block.subarray(take);
      filled += take;
    }
    return out;
  };
}

/** Runs `fn` (and everything it starts) with ids drawn from `stream` (made by {@link idStream}); without one, as it is. */
export const withIdSeed = <T>(stream: ByteSource | undefined, fn: () => T): T => (stream ? seeded.run(stream, fn) : fn());

/** The stream of ids of a seed: give the same one to every {@link withIdSeed} of one mock. */
export const idStream = (seed: string | number): ByteSource => seedStream(String(seed));

const bytes = (n: number): Uint8Array => seeded.getStore()?.(n) ?? randomBytes(n);

/** `length` uniformly random base62 characters (rejection sampling, no modulo bias). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of bytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A record id such as `ord_3kT9…` (gaps.md: prefixed strings). */
export const newId = (prefix: string, length = 16): string => `${prefix}_${base62(length)}`;

/** A request id (`x-request-id`): a random UUID, or one of the seeded stream's. */
export function requestId(): string {
  const stream = seeded.getStore();
  if (!stream) return randomUUID();
  const b = Buffer.from(stream(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
