/**
 * API keys: issued as `service_<mode>_` + 40 base62 characters, stored only as a SHA-256 hash.
 * `authenticate` answers exactly one of the spec's refusal codes or the caller's identity.
 */
import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { KEY_PREFIX_LENGTH, type KeyMode, type Scope } from '../sdk/contract/index.ts';
import { ApiError } from './http/errors.ts';
import { base62, newId } from './ids.ts';
import type { KeyRecord, SellerDoc, SellerEntry } from './store/docs.ts';
import { rawOf } from './store/shards.ts';
import type { Store } from './store/store.ts';

/** SHA-256 of a key, hex (one-shot `crypto.hash`: half the cost of a Hash object, on every request). */
export const hashKey = (key: string): string => hash('sha256', key, 'hex');

/** A key as a request reads it: never changed through the caller (see {@link authenticate}). */
export type KeyView = Readonly<Omit<KeyRecord, 'scopes'>> & { readonly scopes: readonly Scope[] };

export interface Caller {
  seller: SellerEntry;
  key: KeyView;
  doc: SellerDoc;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const unauthorized = (code: 'no_key' | 'bad_key' | 'revoked', message: string) =>
  new ApiError(code, message, { credential: 'api_key' }, { 'www-authenticate': `Bearer realm="service", error="invalid_token"` });

/** Reads `Authorization: Bearer <key>`; throws the spec's code when it cannot be used. */
export async function authenticate(store: Store, authorization: string | undefined, now: Date): Promise<Caller> {
  const match = authorization ? BEARER.exec(authorization) : null;
  if (!match) {
    throw new ApiError('no_key', 'send Authorization: Bearer <API key>', { credential: 'api_key' }, { 'www-authenticate': 'Bearer realm="service"' });
  }
  const entry = store.shared.keyIndex[hashKey(match[1]!)];
  if (!entry) throw unauthorized('bad_key', 'the key is not recognised');
  const seller = store.shared.sellers[entry.sellerId];
  const doc = await store.seller(entry.sellerId);
  // Read past the keys section's tracking proxies (server/store/shards.ts: a trap and WeakMap
  // lookups for every property, on every request): the caller only reads its key. The one write,
  // the stamp below, goes through them, so that it marks the key's shard to be written.
  const keys = rawOf(doc.keys);
  const key = Object.hasOwn(keys, entry.keyId) ? keys[entry.keyId] : undefined;
  if (!seller || !key) throw unauthorized('bad_key', 'the key is not recognised');
  if (key.revoked) throw unauthorized('revoked', 'the key was revoked; issue a new one');
  if (seller.status === 'not_seller') throw new ApiError('not_seller', "the key's owner is not a seller");
  if (seller.status === 'blocked') throw new ApiError('seller_blocked', 'the seller is blocked');
  const stamp = isoStamp(now);
  if (key.lastUsedAt !== stamp) doc.keys[entry.keyId]!.lastUsedAt = stamp;
  return { seller, key, doc };
}

/** `now.toISOString()`, formatted once per millisecond (calls under load share their stamps). */
let stampMs = Number.NaN;
let stampText = '';
function isoStamp(now: Date): string {
  const ms = now.getTime();
  if (ms !== stampMs) {
    stampText = now.toISOString();
    stampMs = ms;
  }
  return stampText;
}

/** `null` scope means any key having at least one scope (only `GET /me`). */
export function requireScope(key: KeyView, scope: Scope | null): void {
  if (scope === null ? key.scopes.length > 0 : key.scopes.includes(scope)) return;
  const needed = scope ?? 'any';
  throw new ApiError('scope', `the key lacks the "${needed}" scope`, { needed });
}

/**
 * Creates a key record and registers its hash in the key index (in memory: the index is derived from
 * the seller documents at start, so only the seller's document needs writing); the value is returned
 * once and never stored.
 */
export function issueKey(
  store: Store,
  doc: SellerDoc,
  opts: { name: string; scopes: readonly Scope[]; mode: KeyMode; now: Date; same?: { id: string; key: string } },
): { record: KeyRecord; key: string } {
  const key = opts.same?.key ?? `service_${opts.mode}_${base62(40)}`;
  const record: KeyRecord = {
    id: opts.same?.id ?? newId('key'),
    name: opts.name,
    hash: hashKey(key),
    prefix: key.slice(0, KEY_PREFIX_LENGTH),
    scopes: [...new Set(opts.scopes)],
    mode: opts.mode,
    createdAt: opts.now.toISOString(),
    lastUsedAt: null,
    revoked: false,
    revokedAt: null,
  };
  doc.keys[record.id] = record;
  store.shared.keyIndex[record.hash] = { sellerId: doc.sellerId, keyId: record.id };
  return { record, key };
}

/** Constant-time comparison of two secrets (for the sandbox's admin token). */
export function sameSecret(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}
