/** Random record ids (`ord_…`) for fakes, from Web Crypto (any runtime). */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `<prefix>_` and 16 random base62 characters. */
export function fakeId(prefix: string): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let id = '';
  for (const b of bytes) id += ALPHABET[b % 62];
  return `${prefix}_${id}`;
}
