/**
 * Spec rules that had no test breaking them (review of seller-api.md + gaps.md, rule by rule):
 *
 * - gaps.md "Scopes of every endpoint": every operation refuses a key lacking exactly the scope the
 *   table assigns (403 scope, detail.needed), and a key with only that scope passes the scope check;
 *   Authentication 4: GET /me works with a key of any single scope.
 * - Authentication 8 / gaps.md Idempotency: EVERY POST, PUT, PATCH and DELETE under /api/v1 refuses a
 *   call without Idempotency-Key (400 idempotency_key_required); no read ever asks for one.
 * - The spec's rule-refusal table: each (endpoint, kind) row is a refusal kind of that operation in
 *   the contract; the `bad_request` rows are the 400 code, never a 409 kind.
 * - Rule 1 (the catalogue is read-only) and rule 8 (no buyer side in the seller API): no way to
 *   change the catalogue and no buyer or marketplace action under /api/v1.
 * - gaps.md "The reference server's command line": `--host`, `SERVICE_ADMIN_TOKEN` and
 *   `--allow-local-hooks` through the real binary.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyOperation, apiOperations, BASE_PATH, SCOPES, sandboxOperations } from '../../sdk/contract/index.ts';
import { Clock } from '../../server/clock.ts';
import { webhooksIdle } from '../../server/webhooks/outbox.ts';
import { bundleServerMain } from '../helpers/bundle.ts';
import { ADMIN, call, expectError, makeApp, type Method, newSeller, sandbox, type SellerCreated } from './helpers.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
/** The spec's tables as data (test/data/spec-endpoints.json, from scripts/spec-data.mjs): a user's clone has no spec beside it. */
const specData = JSON.parse(readFileSync(path.resolve(repoRoot, 'test/data/spec-endpoints.json'), 'utf8')) as {
  ruleRefusals: Array<[string, string]>;
};

/** Many calls per key; the rate limit is tested elsewhere. */
const RATE = { rateLimit: NO_RATE_LIMIT };

const ops = Object.values(apiOperations) as AnyOperation[];

/** The scope gaps.md's table gives a path (relative to /api/v1), written down independently of the contract. */
function tableScope(p: string): string | null {
  if (p === '/me') return null;
  if (p.startsWith('/catalog/')) return 'catalog';
  if (/^\/listings\/\{[^}]+\}\/stock$/.test(p)) return 'stock';
  if (p === '/listings' || p.startsWith('/listings/')) return 'listings';
  if (/^\/(orders|questions|reviews)(\/|$)/.test(p) || p === '/complaints' || p === '/work-mode') return 'orders';
  if (p === '/payouts') return 'payouts';
  if (p === '/stats' || p === '/clients' || p === '/rating') return 'stats';
  if (p.startsWith('/papers/') || p === '/papers') return 'documents';
  if (p.startsWith('/keys')) return 'keys';
  if (p.startsWith('/hooks')) return 'hooks';
  throw new Error(`no scope row in gaps.md for ${p}`);
}

/** A concrete URL of an operation, path parameters filled with plausible values. */
function urlOf(op: AnyOperation, base = BASE_PATH.api): string {
  return (
    base +
    op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      if (name === 'number') return '1001';
      if (name === 'slug') return 'spotify';
      if (name === 'sellerId') return 'sel_nope';
      return 'x_nope';
    })
  );
}

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp(RATE);
});
afterAll(async () => {
  await app.close();
});

describe('gaps.md "Scopes of every endpoint": each operation needs exactly its scope', () => {
  const allBut = new Map<string, SellerCreated>();
  const only = new Map<string, SellerCreated>();
  beforeAll(async () => {
    for (const scope of SCOPES) {
      allBut.set(scope, await newSeller(app, { admission: 'complete', scopes: SCOPES.filter((s) => s !== scope) }));
      only.set(scope, await newSeller(app, { admission: 'complete', scopes: [scope] }));
    }
  });

  it('the contract assigns every operation the scope of the table', () => {
    for (const op of ops) expect(op.scope, `${op.method} ${op.path}`).toBe(tableScope(op.path));
  });

  it.each(ops.filter((op) => tableScope(op.path) !== null).map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: a key with every scope but the needed one → 403 scope naming it; only that scope passes',
    async (_name, op) => {
      const needed = tableScope(op.path)!;
      const refused = await call(app, allBut.get(needed)!.apiKey, op.method as Method, urlOf(op));
      expectError(refused, 403, 'scope');
      expect(refused.body.detail).toMatchObject({ needed });
      const passed = await call(app, only.get(needed)!.apiKey, op.method as Method, urlOf(op));
      expect(passed.body?.error, `${op.id}: ${passed.text}`).not.toBe('scope');
      expect(passed.status, passed.text).not.toBe(403);
    },
  );

  it.each([...SCOPES])('GET /me works with a key having only %s', async (scope) => {
    const s = only.get(scope)!;
    const me = await call(app, s.apiKey, 'GET', '/api/v1/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body.key).toMatchObject({ id: s.keyId, scopes: [scope] });
  });
});

describe('Authentication 8: every changing call needs an Idempotency-Key', () => {
  let seller: SellerCreated;
  beforeAll(async () => {
    seller = await newSeller(app, { admission: 'complete' });
  });

  it('every POST, PUT, PATCH and DELETE of the table is a changing operation; every GET is not', () => {
    for (const op of ops) expect(op.changes, op.id).toBe(op.method !== 'GET');
  });

  it.each(ops.filter((op) => op.method !== 'GET').map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s without Idempotency-Key → 400 idempotency_key_required',
    async (_name, op) => {
      const res = await call(app, seller.apiKey, op.method as Method, urlOf(op), undefined, { 'idempotency-key': null });
      expectError(res, 400, 'idempotency_key_required');
    },
  );

  it('no read asks for one', async () => {
    for (const op of ops.filter((o) => o.method === 'GET')) {
      const res = await call(app, seller.apiKey, 'GET', urlOf(op));
      expect(res.body?.error, `${op.id}: ${res.text}`).not.toBe('idempotency_key_required');
      expect(res.headers['idempotent-replayed'], op.id).toBeUndefined();
    }
  });
});

describe('the spec’s rule-refusal table against the contract', () => {
  const ENDPOINT: Record<string, keyof typeof apiOperations> = {
    deliver: 'orders.deliver',
    'card update': 'listings.update',
    'set hooks': 'hooks.set',
    payout: 'papers.setPayout',
    'mark test': 'listings.setTest',
    'usual price': 'catalog.usualPrice',
  };
  const rows = specData.ruleRefusals;

  it('the table is read (every endpoint label is known)', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
    for (const [endpoint] of rows) expect(ENDPOINT[endpoint], endpoint).toBeDefined();
  });

  it('each (endpoint, kind) is a refusal kind of the operation; bad_request rows are the 400 code, not a kind', () => {
    for (const [endpoint, kind] of rows) {
      const op = apiOperations[ENDPOINT[endpoint]!] as AnyOperation;
      if (kind === 'bad_request') expect(op.refusals as readonly string[], `${endpoint} ${kind}`).not.toContain(kind);
      else expect(op.refusals as readonly string[], `${endpoint} ${kind}`).toContain(kind);
    }
  });

  it('the PATCH refusals listed under Cards are the card update kinds', () => {
    expect([...apiOperations['listings.update'].refusals].sort()).toEqual(['complaint', 'contacts', 'not_found', 'self_employed_forbidden', 'type_not_available']);
  });
});

describe('rule 1: the catalogue is read-only for sellers', () => {
  it.each([
    ['POST', '/api/v1/catalog/services'],
    ['PUT', '/api/v1/catalog/services/spotify'],
    ['PATCH', '/api/v1/catalog/services/spotify'],
    ['DELETE', '/api/v1/catalog/services/spotify'],
    ['POST', '/api/v1/catalog/usual-price'],
    ['POST', '/api/v1/catalog/demand'],
    ['PUT', '/api/v1/catalog/requests'],
  ] as const)('%s %s → 405 method_not_allowed (the path is read only), the position unchanged', async (method, url) => {
    const s = await newSeller(app, { admission: 'complete' });
    const before = await call(app, s.apiKey, 'GET', '/api/v1/catalog/services/spotify');
    const res = await call(app, s.apiKey, method, url, { title: 'Mine', slaChoices: [1] });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).not.toMatch(new RegExp(`\\b${method}\\b`));
    expect((await call(app, s.apiKey, 'GET', '/api/v1/catalog/services/spotify')).body).toEqual(before.body);
  });

  it('a missing position goes through a catalogue request that stays pending until the marketplace decides', async () => {
    const s = await newSeller(app, { admission: 'complete' });
    const req = await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'Brand-new service' });
    expect(req.status, req.text).toBe(201);
    expect(req.body.status).toBe('pending');
    const list = await call(app, s.apiKey, 'GET', '/api/v1/catalog/services?q=Brand-new');
    expect(list.body.items).toEqual([]);
  });
});

describe('rule 8: the buyer side and the marketplace are not part of the seller API', () => {
  const sandboxOnly = (Object.values(sandboxOperations) as AnyOperation[]).filter(
    (sop) => !ops.some((op) => op.method === sop.method && op.path === sop.path),
  );

  it.each(sandboxOnly.map((op) => [`${op.method} ${op.path}`, op] as const))('%s under /api/v1 → not served (404, or 405 where the API has the path with other methods), even with a full key', async (_name, op) => {
    const s = await newSeller(app, { admission: 'complete' });
    const res = await call(app, s.apiKey, op.method as Method, urlOf(op), op.method === 'GET' ? undefined : {});
    const pathServed = ops.some((o) => o.path === op.path);
    if (pathServed) {
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.allow).not.toMatch(new RegExp(`\\b${op.method}\\b`));
    } else {
      expectError(res, 404, 'not_found');
    }
  });

  it('the admin token opens nothing under /api/v1', async () => {
    const res = await call(app, ADMIN, 'GET', '/api/v1/me');
    expectError(res, 401, 'bad_key');
  });
});

describe('gaps.md HTTP conventions: identifiers and timestamps of every kind of record', () => {
  it('cards are integers from 1001; other records carry their prefix; timestamps are ISO 8601 UTC with milliseconds', async () => {
    const a = await makeApp({ ...RATE, clock: new Clock(0, () => Date.parse('2026-03-02T10:00:00.000Z')) });
    try {
      const s = await newSeller(a, { admission: 'complete' });
      const api = async (method: Method, url: string, body?: unknown, status = method === 'GET' ? 200 : undefined) => {
        const res = await call(a, s.apiKey, method, `/api/v1${url}`, body);
        if (status !== undefined) expect(res.status, `${method} ${url}: ${res.text}`).toBe(status);
        else expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
        return res.body;
      };
      const sb = async (method: Method, url: string, body?: unknown) => {
        const res = await sandbox(a, method, url, body);
        expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
        return res.body;
      };
      const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

      const card = { service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 300, slaMinutes: 60, guaranteeDays: 7 };
      const { number } = await api('POST', '/listings', card);
      expect(Number.isInteger(number) && number >= 1001).toBe(true);
      await api('POST', `/listings/${number}/state`, { active: true });
      const read = await api('GET', `/listings/${number}`);
      expect(read.createdAt).toMatch(ISO);
      expect(read.updatedAt).toMatch(ISO);

      const order = await sb('POST', '/orders', { number });
      expect(order.id).toMatch(/^ord_/);
      await sb('POST', `/orders/${order.id}/pay`);
      const msg = await api('POST', `/orders/${order.id}/messages`, { text: 'Here is your code soon' });
      expect(msg.id).toMatch(/^msg_/);
      expect(msg.at).toMatch(ISO);
      await api('POST', `/orders/${order.id}/deliver`, {});
      await sb('POST', `/orders/${order.id}/accept`);
      const got = await api('GET', `/orders/${order.id}`);
      for (const f of ['createdAt', 'paidAt', 'updatedAt', 'guaranteeUntil']) expect(got[f], f).toMatch(ISO);

      await sb('POST', `/orders/${order.id}/review`, { stars: 5, text: 'Fine' });
      expect((await api('GET', '/reviews')).items[0].id).toMatch(/^rev_/);
      await sb('POST', '/questions', { number, text: 'Works in Kazakhstan?' });
      expect((await api('GET', '/questions')).items[0].id).toMatch(/^q_/);
      expect((await api('POST', '/complaints', { order: order.id, reason: 'other', text: 'Rude messages' })).id).toMatch(/^cmp_/);
      expect((await api('POST', '/catalog/requests', { title: 'Something new' })).id).toMatch(/^req_/);
      expect((await api('POST', '/keys', { name: 'ci', scopes: ['orders'] })).id).toMatch(/^key_/);

      const { url } = await api('POST', '/hooks/probe');
      await api('PUT', '/hooks', { url, events: ['order.paid'] });
      const sent = await api('POST', '/hooks/test', {});
      expect(sent.delivery).toMatch(/^dlv_/);

      // the guarantee ends, the money is released: a payout record
      await sb('POST', '/clock/advance', { seconds: 8 * 86_400 });
      const payouts = (await api('GET', '/payouts')).items;
      expect(payouts.length).toBeGreaterThan(0);
      for (const p of payouts) {
        expect(p.id).toMatch(/^pay_/);
        expect(p.createdAt).toMatch(ISO);
      }
    } finally {
      await a.close();
    }
  });
});

describe('gaps.md: GET /hooks/probe answers what the receiver got, newest first', () => {
  it('two test events: the later one first, each the raw signed body', async () => {
    let now = Date.parse('2026-03-01T10:00:00.000Z');
    const a = await makeApp({ ...RATE, clock: new Clock(0, () => now) });
    try {
      const s = await newSeller(a, { admission: 'complete' });
      const { url } = (await call(a, s.apiKey, 'POST', '/api/v1/hooks/probe')).body;
      expect((await call(a, s.apiKey, 'PUT', '/api/v1/hooks', { url, events: ['order.paid'] })).status).toBe(200);
      const first = await call(a, s.apiKey, 'POST', '/api/v1/hooks/test', { event: 'order.paid' });
      await webhooksIdle(a.service);
      now += 5_000;
      const second = await call(a, s.apiKey, 'POST', '/api/v1/hooks/test', { event: 'stock.out' });
      await webhooksIdle(a.service);
      const probe = await call(a, s.apiKey, 'GET', '/api/v1/hooks/probe');
      expect(probe.status, probe.text).toBe(200);
      expect(probe.body.items.map((i: { headers: Record<string, string> }) => i.headers['x-service-delivery'])).toEqual([second.body.delivery, first.body.delivery]);
      expect(probe.body.items[0].receivedAt > probe.body.items[1].receivedAt).toBe(true);
      expect(JSON.parse(probe.body.items[0].body)).toMatchObject({ event: 'stock.out', test: true });
    } finally {
      await a.close();
    }
  });
});

describe('card states: a switched-on card stays on through an update', () => {
  it('PATCH of a live card answers isActive true and the new price is the offer at once', async () => {
    const s = await newSeller(app, { admission: 'complete' });
    const body = { service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 300, slaMinutes: 60, guaranteeDays: 7 };
    const { number } = (await call(app, s.apiKey, 'POST', '/api/v1/listings', body)).body;
    await call(app, s.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active: true });
    const { service: _s, tariff: _t, ...update } = body;
    const res = await call(app, s.apiKey, 'PATCH', `/api/v1/listings/${number}`, { ...update, priceRub: 350 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ number, isActive: true });
    const order = await sandbox(app, 'POST', '/orders', { number });
    expect(order.status, order.text).toBe(201);
    expect(order.body.priceRub).toBe(350);
  });
});

describe('gaps.md: the reference server’s command line', () => {
  let outDir: string;
  let mainJs: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    outDir = await mkdtemp(path.join(repoRoot, '.vitest-spec-rules-build-'));
    mainJs = await bundleServerMain(outDir);
  }, 60_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await rm(outDir, { recursive: true, force: true });
  });

  function start(args: string[], env: Record<string, string> = {}) {
    const base = { ...process.env };
    for (const k of Object.keys(base)) if (k.startsWith('SERVICE_')) delete base[k];
    const child = spawn(process.execPath, [mainJs, ...args], { cwd: repoRoot, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const listening = async (): Promise<string> => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const m = /^listening on (http:\/\/\S+)$/m.exec(out);
        if (m) return m[1]!;
        if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${err}`);
        if (Date.now() > deadline) throw new Error(`no listening line; stdout ${out} stderr ${err}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    const stop = async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    };
    return { stdout: () => out, listening, stop };
  }

  async function sellerAt(url: string, token: string): Promise<string> {
    const res = await fetch(`${url}/sandbox/v1/sellers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ admission: 'complete' }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { apiKey: string }).apiKey;
  }

  const putHooks = (url: string, key: string, hookUrl: string) =>
    fetch(`${url}/api/v1/hooks`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `h-${hookUrl}` },
      body: JSON.stringify({ url: hookUrl, events: ['order.paid'] }),
    });

  it('--host binds that address and the listening line names it', async () => {
    const r = start(['--host', '127.0.0.2', '--port', '0', '--memory', '--no-demo', '--admin-token', 'T']);
    const url = await r.listening();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    expect((await fetch(`${url}/sandbox/v1/clock`, { headers: { authorization: 'Bearer T' } })).status).toBe(200);
    expect(await r.stop()).toBe(0);
  });

  it('SERVICE_ADMIN_TOKEN is the admin token when --admin-token is not given; another token is refused', async () => {
    const r = start(['--port', '0', '--memory', '--no-demo'], { SERVICE_ADMIN_TOKEN: 'env-admin-token' });
    const url = await r.listening();
    expect((await fetch(`${url}/sandbox/v1/clock`, { headers: { authorization: 'Bearer env-admin-token' } })).status).toBe(200);
    const wrong = await fetch(`${url}/sandbox/v1/clock`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe('bad_key');
    expect(await r.stop()).toBe(0);
  });

  it('without --allow-local-hooks an http loopback address is refused (url); with it, it is accepted', async () => {
    const strict = start(['--port', '0', '--memory', '--no-demo', '--admin-token', 'T']);
    const strictUrl = await strict.listening();
    const refused = await putHooks(strictUrl, await sellerAt(strictUrl, 'T'), 'http://127.0.0.1:9/in');
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: 'rejected', refusal: { kind: 'url', field: 'url', reason: 'public_host_only' } });
    await strict.stop();

    const local = start(['--port', '0', '--memory', '--no-demo', '--admin-token', 'T', '--allow-local-hooks']);
    const localUrl = await local.listening();
    expect(local.stdout()).toMatch(/warning: .*loopback/);
    const key = await sellerAt(localUrl, 'T');
    const accepted = await putHooks(localUrl, key, 'http://127.0.0.1:9/in');
    expect(accepted.status).toBe(200);
    // nothing else is relaxed
    const privateAddr = await putHooks(localUrl, key, 'http://10.0.0.1/in');
    expect(await privateAddr.json()).toMatchObject({ error: 'rejected', refusal: { kind: 'url', reason: 'public_host_only' } });
    await local.stop();
  });
});
