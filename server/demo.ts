/**
 * The demo seller of `seller-server` (unless `--no-demo`): admission complete, all scopes.
 * With a data directory its key is kept in `demo.key` (mode 0600) beside the data so a restart
 * can print it again; only its hash is in the store. The generated sandbox admin token is kept the
 * same way in `admin.token` ({@link keptAdminToken}), so a restart of `npm start` keeps both.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hashKey } from './auth.ts';
import { UnitOfWork, type ServerContext } from './context.ts';
import { createSeller } from './sandbox/sellers.ts';

export interface DemoSeller {
  sellerId: string;
  apiKey: string;
}

export async function ensureDemoSeller(svc: ServerContext): Promise<DemoSeller> {
  const file = svc.store.dataDir ? path.join(svc.store.dataDir, 'demo.key') : null;
  const existing = await reuse(svc, file);
  if (existing) return existing;
  const tx = new UnitOfWork(svc);
  const created = await createSeller(svc, tx, { admission: 'complete', sellerType: 'ip', keyName: 'demo' }, svc.clock.now());
  tx.shared().demo = { sellerId: created.sellerId };
  await tx.commit();
  if (file) await writeFile(file, `${created.apiKey}\n`, { mode: 0o600 });
  return { sellerId: created.sellerId, apiKey: created.apiKey };
}

async function reuse(svc: ServerContext, file: string | null): Promise<DemoSeller | null> {
  const demo = svc.store.shared.demo;
  if (!demo || !file) return null;
  const apiKey = (await readFile(file, 'utf8').catch(() => '')).trim();
  const entry = apiKey ? svc.store.shared.keyIndex[hashKey(apiKey)] : undefined;
  if (!entry || entry.sellerId !== demo.sellerId) return null;
  const keys = (await svc.store.seller(demo.sellerId)).keys;
  const key = Object.hasOwn(keys, entry.keyId) ? keys[entry.keyId] : undefined;
  return key && !key.revoked ? { sellerId: demo.sellerId, apiKey } : null;
}

/** The file beside the data that keeps the generated sandbox admin token. */
export const ADMIN_TOKEN_FILE = 'admin.token';

/**
 * The sandbox admin token kept in `<dataDir>/admin.token` (mode 0600): read when it is there, else
 * generated (`adm_` and 32 base62-like characters) and written, so a restart prints the same token.
 * Only for a generated token: a token given by `--admin-token` or `SERVICE_ADMIN_TOKEN` is never written.
 */
export async function keptAdminToken(dataDir: string): Promise<string> {
  const file = path.join(dataDir, ADMIN_TOKEN_FILE);
  const kept = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (kept) return kept;
  await mkdir(dataDir, { recursive: true });
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const token = `adm_${[...randomBytes(32)].map((b) => alphabet[b % 62]).join('')}`;
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  return token;
}
