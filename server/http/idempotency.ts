/**
 * Idempotency (gaps.md): every changing API call carries `Idempotency-Key`; records are per seller,
 * kept 24 hours on the server clock, fingerprinted by method, path and canonical body. A replay
 * answers the stored status and body with `Idempotent-Replayed: true`; another request under the
 * same key is `idempotency_mismatch`; a twin of a request still running waits for it. Records live
 * in the seller's `idempotency` section, kept in shards of their own (server/store/shards.ts), and
 * expire on the server clock.
 */
import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_PATTERN } from '../../sdk/contract/constants.ts';
import type { Sealer } from '../store/crypto.ts';
import type { IdempotencyRecord, SellerDoc } from '../store/docs.ts';
import { ApiError, badRequest } from './errors.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export function requireIdempotencyKey(value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new ApiError('idempotency_key_required', 'send an Idempotency-Key header (1–255 printable ASCII characters) with every changing call');
  }
  if (!KEY_PATTERN.test(value)) throw badRequest(['header', 'Idempotency-Key'], 'idempotency_key', '1–255 printable ASCII characters');
  return value;
}

/** JSON with object keys sorted, so that `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function fingerprint(method: string, path: string, body: unknown, raw?: Buffer): string {
  const h = createHash('sha256').update(`${method} ${path}\n`);
  if (raw) h.update(raw);
  else h.update(canonicalJson(body));
  return h.digest('hex');
}

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** An answer as the record keeps it: its status and its JSON text (the very text that was sent). */
export interface RecordedAnswer {
  status: number;
  json: string;
}

/** Finds a live record; an expired one is dropped. */
export function lookup(doc: SellerDoc, key: string, nowMs: number): IdempotencyRecord | null {
  // Own keys only: a key such as `constructor` or `__proto__` is an ordinary, unused key.
  const record = Object.hasOwn(doc.idempotency, key) ? doc.idempotency[key] : undefined;
  if (!record) return null;
  if (nowMs - record.createdAt >= IDEMPOTENCY_TTL_MS) {
    delete doc.idempotency[key];
    return null;
  }
  return record;
}

/**
 * A record keeps its answer sealed: answers can hold values shown only once (a new API key, a
 * signing secret, a revealed vault) that must never sit in a data file in the clear.
 * Records written before sealing keep a plain `body`.
 */
type SealedRecord = IdempotencyRecord & { sealed?: string };

const recordAad = (doc: SellerDoc, key: string) => `idem:${doc.sellerId}:${key}`;

export function remember(doc: SellerDoc, key: string, fp: string, answer: RecordedAnswer, nowMs: number, sealer: Sealer): void {
  const record: SealedRecord = {
    fingerprint: fp,
    status: answer.status,
    body: null,
    sealed: sealer.seal(answer.json, recordAad(doc, key)),
    createdAt: nowMs,
  };
  // defineProperty: a plain assignment to `__proto__` would set the object's prototype, not a record.
  Object.defineProperty(doc.idempotency, key, { value: record, enumerable: true, writable: true, configurable: true });
}

/** The stored answer of a record found by `lookup`. */
export function storedAnswer(doc: SellerDoc, key: string, record: IdempotencyRecord, sealer: Sealer): RecordedAnswer {
  const { sealed } = record as SealedRecord;
  const json = sealed === undefined ? JSON.stringify(record.body ?? null) : sealer.open(sealed, recordAad(doc, key));
  return { status: record.status, json };
}

/** Drops expired records (at most once a minute per seller, so the document stays small). */
export function prune(doc: SellerDoc, nowMs: number, lastPrune: Map<string, number>): void {
  if (nowMs - (lastPrune.get(doc.sellerId) ?? 0) < 60_000) return;
  lastPrune.set(doc.sellerId, nowMs);
  for (const [key, record] of Object.entries(doc.idempotency)) {
    if (nowMs - record.createdAt >= IDEMPOTENCY_TTL_MS) delete doc.idempotency[key];
  }
}

/** Requests still running, per seller and key, so a twin can wait for the first. */
export class InFlight {
  readonly #running = new Map<string, Promise<void>>();

  wait(slot: string): Promise<void> | undefined {
    return this.#running.get(slot);
  }

  start(slot: string): () => void {
    let done!: () => void;
    this.#running.set(slot, new Promise<void>((resolve) => (done = resolve)));
    return () => {
      this.#running.delete(slot);
      done();
    };
  }
}
