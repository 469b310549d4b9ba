/**
 * Secrets at rest: AES-256-GCM with a random 96-bit nonce and the record's identity as AAD
 * (so a sealed value cannot be moved to another record), and keyed hashes (HMAC-SHA256) for
 * finding duplicates without decrypting. The master key comes from `SERVICE_STORE_KEY`
 * (64 hex characters or base64 of 32 bytes) or a key file (mode 0600) beside the data, created on
 * first start. An in-memory store gets a random key per process.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StoreError } from './store.ts';

export const KEY_FILE = 'store.key';

export class Sealer {
  readonly #enc: Buffer;
  readonly #mac: Buffer;

  constructor(master: Buffer) {
    if (master.length !== 32) throw new StoreError('the store master key must be 32 bytes');
    this.#enc = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'service-seller/seal/v1', 32));
    this.#mac = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'service-seller/hash/v1', 32));
  }

  /** `v1.<nonce>.<ciphertext+tag>` (base64url); `aad` names the record (e.g. `stock:1001:itm_x`). */
  seal(plaintext: string, aad: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#enc, nonce);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${nonce.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: string, aad: string): string {
    const [version, nonce, body] = sealed.split('.');
    if (version !== 'v1' || !nonce || !body) throw new StoreError('a sealed value has an unknown format');
    const data = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#enc, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - 16));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
  }

  /** A keyed hash of `text` within `scope` (e.g. a card), to compare secrets without opening them. */
  hash(text: string, scope: string): string {
    return createHmac('sha256', this.#mac).update(scope).update('\u0000').update(text, 'utf8').digest('base64url');
  }
}

function parseKey(text: string, origin: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new StoreError(`${origin} must hold 32 bytes as 64 hex characters or base64`);
  return key;
}

/** Loads or creates the master key. */
export async function loadMasterKey(dataDir: string | null, env = process.env): Promise<Buffer> {
  if (env.SERVICE_STORE_KEY) return parseKey(env.SERVICE_STORE_KEY, 'SERVICE_STORE_KEY');
  if (!dataDir) return randomBytes(32);
  const file = path.join(dataDir, KEY_FILE);
  try {
    const info = await stat(file);
    if ((info.mode & 0o077) !== 0) await chmod(file, 0o600);
    return parseKey(await readFile(file, 'utf8'), `key file ${file}`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      if (err instanceof StoreError) throw err;
      throw new StoreError(`cannot read key file ${file}: ${(err as Error).message}`);
    }
  }
  const key = randomBytes(32);
  await writeFile(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
