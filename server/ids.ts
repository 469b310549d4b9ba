/** Random identifiers: prefixed record ids and base62 secrets. */
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` uniformly random base62 characters (rejection sampling, no modulo bias). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A record id such as `ord_3kT9…` (gaps.md: prefixed strings). */
export const newId = (prefix: string, length = 16): string => `${prefix}_${base62(length)}`;
