/**
 * Secrets never leave the server (DESIGN.md "Secrets stay secret"): one sweep over a file-backed
 * server with fastify's logger on, exercising every place a secret passes (stock refill, vaults and
 * reveal, payout details, webhook subscription and rotation, deliveries to the probe, API key issue,
 * the sandbox admin token), then checking every answer, every log line, every file in the data
 * directory, the OpenAPI document and docs page, and MCP tool results. A secret may appear only in
 * the one answer that shows it once (a new key, a new signing secret, the revealed buyer vault);
 * an idempotent replay of that answer is the same answer, and it is sealed on disk.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { KEY_FILE } from '../../server/store/crypto.ts';
import { FIXTURE_BIK, FIXTURE_INNS } from '../../server/seed/registry.ts';
import { webhooksIdle } from '../../server/webhooks/outbox.ts';
import { TOOL_NAMES } from '../../server/mcp/names.ts';
import { CODE_CARD, NO_RATE_LIMIT } from '../helpers/fixtures.ts';

const ADMIN = `adm_secret_${randomUUID().replace(/-/g, '')}`;
const tag = randomUUID().slice(0, 8);

/** Every secret the sweep sends or receives, by name; filled as the sweep goes. */
const secrets = new Map<string, string>();
/** Where each secret may appear: the answers allowed to carry it (by label). */
const allowedIn = new Map<string, Set<string>>();
const answers: { label: string; text: string }[] = [];
const logs: string[] = [];

let app: FastifyInstance;
let dataDir: string;
let apiKey = '';

function secret(name: string, value: string, ...allowed: string[]): string {
  secrets.set(name, value);
  allowedIn.set(name, new Set(allowed));
  return value;
}

interface Res {
  status: number;
  text: string;
  body: any;
}

async function send(label: string, method: string, url: string, auth: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const h: Record<string, string> = { ...headers };
  if (auth !== null) h.authorization = `Bearer ${auth}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  if (method !== 'GET' && url.startsWith('/api/v1') && !('idempotency-key' in h)) h['idempotency-key'] = randomUUID();
  const res = await app.inject({ method: method as 'GET', url, headers: h, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
  answers.push({ label, text: `${JSON.stringify(res.headers)}\n${res.body}` });
  let parsed: unknown;
  try {
    parsed = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, text: res.body, body: parsed };
}

const api = (label: string, method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  send(label, method, `/api/v1${url}`, apiKey, body, headers);
const sb = (label: string, method: string, url: string, body?: unknown) => send(label, method, `/sandbox/v1${url}`, ADMIN, body);

/** A success answer (`status` when given, else any 2xx). */
async function ok(res: Promise<Res>, status?: number): Promise<any> {
  const r = await res;
  if (status === undefined) expect(r.status, r.text).toBeGreaterThanOrEqual(200), expect(r.status, r.text).toBeLessThan(300);
  else expect(r.status, r.text).toBe(status);
  return r.body;
}

let rpcId = 1;
async function tool(label: string, name: string | undefined, args: Record<string, unknown> = {}): Promise<any> {
  const res = await send(label, 'POST', '/api/mcp', apiKey, { jsonrpc: '2.0', id: rpcId++, method: 'tools/call', params: { name, arguments: args } }, {
    accept: 'application/json, text/event-stream',
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

/** Routes pino's output (fastify's logger, every request's child logger) into `logs`. */
function captureLogs(target: FastifyInstance): void {
  const log = target.log as unknown as Record<symbol, { write: (chunk: string) => boolean }>;
  const sym = Object.getOwnPropertySymbols(log).find((s) => s.description === 'pino.stream');
  if (!sym) throw new Error('pino stream symbol not found: cannot capture the log');
  log[sym]!.write = (chunk: string) => {
    logs.push(String(chunk));
    return true;
  };
}

const SUBSCRIPTION_CARD = { ...CODE_CARD, productType: 'subscription', deliveryMethod: 'own_account', slaMinutes: 30, guaranteeDays: 30 };
const ACCOUNT = '40702810200000012345'; // valid at FIXTURE_BIK (044525225)
const PHONE = '79161234567';

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sec-secrets-'));
  app = await buildApp({ dataDir, adminToken: ADMIN, logger: true, rateLimit: NO_RATE_LIMIT });
  captureLogs(app);
  secret('admin token', ADMIN);

  // ---- a seller and its keys --------------------------------------------------------------
  const created = await ok(sb('sandbox.createSeller', 'POST', '/sellers', { admission: 'complete' }), 201);
  apiKey = secret('first api key', created.apiKey, 'sandbox.createSeller');
  const keyIdem = randomUUID();
  const issued = await ok(api('keys.create', 'POST', '/keys', { name: 'ci', scopes: ['listings', 'stock'] }, { 'idempotency-key': keyIdem }), 201);
  secret('issued api key', issued.key, 'keys.create', 'keys.create replay');
  // the replay of the issuing call answers the same key (one call, one answer), from a sealed record
  const replay = await ok(api('keys.create replay', 'POST', '/keys', { name: 'ci', scopes: ['listings', 'stock'] }, { 'idempotency-key': keyIdem }), 201);
  expect(replay.key).toBe(issued.key);
  await ok(api('keys.list', 'GET', '/keys'));
  await ok(api('me', 'GET', '/me'));

  // ---- stock: refill, duplicates, a refused item, auto-delivery ----------------------------------
  const number: number = (await ok(api('listings.create', 'POST', '/listings', CODE_CARD), 201)).number;
  const units = [1, 2, 3].map((i) => secret(`stock unit ${i}`, `STOCK-${tag}-UNIT-${i}-Zq9`));
  await ok(api('stock.refill', 'POST', `/listings/${number}/stock`, { items: units }), 201);
  await ok(api('stock.refill duplicates', 'POST', `/listings/${number}/stock`, { items: [units[0], units[1]] }), 201);
  const tooLong = secret('refused stock unit', `STOCK-${tag}-LONG-${'x'.repeat(5000)}`);
  expect((await api('stock.refill refused', 'POST', `/listings/${number}/stock`, { items: [tooLong] })).status).toBe(400);
  await ok(api('stock.get', 'GET', `/listings/${number}/stock`));
  await ok(api('listings.setState', 'POST', `/listings/${number}/state`, { active: true, autoIssue: true }));
  const auto: string = (await ok(sb('sandbox.createOrder auto', 'POST', '/orders', { number }), 201)).id;
  expect((await ok(sb('sandbox.pay auto', 'POST', `/orders/${auto}/pay`))).status).toBe('delivered');
  await ok(api('orders.get auto', 'GET', `/orders/${auto}`));
  await ok(api('orders.vaults auto', 'GET', `/orders/${auto}/handover`));

  // ---- vaults: the seller's put, the buyer's put and the one reveal -----------------------------
  const sub: number = (await ok(api('listings.create sub', 'POST', '/listings', SUBSCRIPTION_CARD), 201)).number;
  await ok(api('listings.setState sub', 'POST', `/listings/${sub}/state`, { active: true }));
  const order: string = (await ok(sb('sandbox.createOrder sub', 'POST', '/orders', { number: sub }), 201)).id;
  await ok(sb('sandbox.pay sub', 'POST', `/orders/${order}/pay`));
  const own = secret('seller vault', `login: seller-${tag} / pass: Vault!${tag}`);
  await ok(api('orders.handover', 'POST', `/orders/${order}/handover`, { secret: own }), 201);
  const buyer = secret('buyer vault', `buyer-${tag}@mail.example / pw-${tag}`, 'orders.reveal');
  await ok(sb('sandbox.vault', 'POST', `/orders/${order}/vault`, { secret: buyer }));
  expect((await ok(api('orders.reveal', 'POST', `/orders/${order}/handover/reveal`))).secret).toBe(buyer);
  expect((await api('orders.reveal again', 'POST', `/orders/${order}/handover/reveal`)).status).toBe(409);
  await ok(api('orders.vaults', 'GET', `/orders/${order}/handover`));
  await ok(api('orders.get', 'GET', `/orders/${order}`));
  await ok(api('orders.list', 'GET', '/orders'));

  // ---- payout details: account (ip) and SBP phone (self-employed) --------------------------------
  secret('payout account', ACCOUNT);
  await ok(api('papers.setPayout account', 'PUT', '/papers/payout', { method: 'account', account: ACCOUNT, bik: FIXTURE_BIK, name: 'ИП Петров Иван Сергеевич' }));
  const broken = secret('broken payout account', '40702810300000098765');
  expect((await api('papers.setPayout broken', 'PUT', '/papers/payout', { method: 'account', account: broken, bik: FIXTURE_BIK, name: 'ИП Петров' })).status).toBe(409);
  await ok(api('papers.get', 'GET', '/papers'));
  const selfKey: string = (await ok(sb('sandbox.createSeller self', 'POST', '/sellers', { admission: 'none' }), 201)).apiKey;
  secret('second seller api key', selfKey, 'sandbox.createSeller self');
  const asSelf = (label: string, method: string, url: string, body?: unknown) => send(label, method, `/api/v1${url}`, selfKey, body);
  await ok(asSelf('papers.setStatus self', 'PUT', '/papers/status', { sellerType: 'self_employed', inn: FIXTURE_INNS.self_employed }));
  secret('payout phone', PHONE);
  await ok(asSelf('papers.setPayout sbp', 'PUT', '/papers/payout', { method: 'sbp', phone: PHONE, name: 'Смирнова Анна Викторовна' }));
  await ok(asSelf('papers.get self', 'GET', '/papers'));

  // ---- webhooks: subscribe to the probe, rotate, deliver, read the log and the probe ------------
  const probeUrl: string = (await ok(api('hooks.createProbe', 'POST', '/hooks/probe'))).url;
  const set = await ok(api('hooks.set', 'PUT', '/hooks', { url: probeUrl, events: ['order.paid', 'order.message'] }));
  secret('hook secret', set.secret, 'hooks.set');
  expect((await ok(api('hooks.set again', 'PUT', '/hooks', { url: probeUrl, events: ['order.paid'] }))).secret).toBeNull();
  const rotated = await ok(api('hooks.rotateSecret', 'POST', '/hooks/secret'));
  secret('rotated hook secret', rotated.secret, 'hooks.rotateSecret');
  await ok(api('hooks.test', 'POST', '/hooks/test', { event: 'order.paid' }), 202);
  const o2: string = (await ok(sb('sandbox.createOrder hook', 'POST', '/orders', { number: sub }), 201)).id;
  await ok(sb('sandbox.pay hook', 'POST', `/orders/${o2}/pay`));
  await webhooksIdle(app.service);
  await ok(api('hooks.get', 'GET', '/hooks'));
  const deliveries = await ok(api('hooks.deliveries', 'GET', '/hooks/deliveries'));
  expect(deliveries.items.length).toBeGreaterThan(0);
  const probe = await ok(api('hooks.probe', 'GET', '/hooks/probe'));
  expect(probe.items.length).toBeGreaterThan(0);
  expect(probe.items[0].headers['x-service-signature']).toMatch(/^sha256=/);

  // ---- MCP tools over the same records ----------------------------------------------------------
  await tool('mcp tools/call hooks', TOOL_NAMES['hooks.get']);
  await tool('mcp tools/call keys', TOOL_NAMES['keys.list']);
  await tool('mcp tools/call papers', TOOL_NAMES['papers.get']);
  await tool('mcp tools/call order', TOOL_NAMES['orders.get'], { id: order });
  await tool('mcp tools/call stock', TOOL_NAMES['stock.get'], { number });
  await tool('mcp tools/call refill refused', TOOL_NAMES['stock.refill'], { number, items: [tooLong] });
  const mcpKey = await tool('mcp keys.create', TOOL_NAMES['keys.create'], { name: 'mcp', scopes: ['stats'] });
  const mcpIssued = mcpKey.result?.structuredContent?.key as string | undefined;
  expect(mcpIssued, JSON.stringify(mcpKey)).toMatch(/^service_/);
  secret('mcp-issued api key', mcpIssued!, 'mcp keys.create');

  // ---- docs ---------------------------------------------------------------------------------------
  await ok(send('openapi', 'GET', '/api/v1/openapi.json', null));
  expect((await send('docs', 'GET', '/docs', null)).status).toBe(200);

  // ---- errors that reach the log: a 500 from a hostile body --------------------------------------
  await send('unknown route with key', 'GET', `/api/v1/nothing-here`, apiKey);
});

afterAll(async () => {
  await app?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const leaks = (text: string, except: (name: string) => boolean = () => false) =>
  [...secrets].filter(([name, value]) => !except(name) && text.includes(value)).map(([name]) => name);

describe('secrets never leave', () => {
  it('the sweep ran: every secret is known and the log captured request lines', () => {
    expect(secrets.size).toBeGreaterThanOrEqual(14);
    expect(logs.some((l) => l.includes('incoming request'))).toBe(true);
  });

  it('no answer carries a secret, except the one answer that shows it once', () => {
    const found: string[] = [];
    for (const { label, text } of answers) {
      for (const name of leaks(text, (n) => allowedIn.get(n)!.has(label))) found.push(`${name} in ${label}`);
    }
    expect(found).toEqual([]);
  });

  it('(the check bites) each one-time answer does carry its secret', () => {
    for (const [name, labels] of allowedIn) {
      for (const label of labels) {
        const answer = answers.find((a) => a.label === label);
        expect(answer?.text.includes(secrets.get(name)!), `${name} in ${label}`).toBe(true);
      }
    }
  });

  it('no log line carries a secret (the log holds URLs, never a header or a body)', () => {
    const text = logs.join('');
    expect(leaks(text)).toEqual([]);
    expect(text).not.toMatch(/authorization|bearer/i);
  });

  it('no file in the data directory holds a secret in clear (idempotency records are sealed)', async () => {
    await app.close();
    const found: string[] = [];
    for (const file of await filesUnder(dataDir)) {
      if (path.basename(file) === KEY_FILE) continue;
      const text = await readFile(file, 'utf8');
      for (const name of leaks(text)) found.push(`${name} in ${path.relative(dataDir, file)}`);
      // stored keys are hashes and prefixes only
      expect(text).not.toMatch(/service_(live|test)_[0-9A-Za-z]{40}/);
      expect(text).not.toMatch(/whsec_[0-9A-Za-z]{32}/);
    }
    expect(found).toEqual([]);
  });
});
