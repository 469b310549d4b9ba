/**
 * Payout details (spec: Payout request fields, payout refusals; gaps.md: Payout checks): every refusal
 * kind, known-valid vectors, and the account number never leaving the server or resting in clear.
 *
 * Vectors: the fixture accounts of server/seed/registry.ts (valid at FIXTURE_BIK), a real bank's
 * details (BIK 044525225, KPP 773601001) and accounts computed independently in test/sdk/validate.test.ts.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFUSAL_REASONS } from '../../sdk/contract/index.ts';
import { FIXTURE_ACCOUNTS, FIXTURE_BIK, FIXTURE_INNS, FIXTURE_KPP } from '../../server/seed/registry.ts';
import { call, expectError, makeApp, newSeller, sandbox, type Answer, type SellerCreated } from './helpers.ts';

const SBER_BIK = '044525225';
const SBER_ACCOUNT = '40702810200000012345';
const SBER_ACCOUNT_BROKEN = '40702810300000012345';
const RKC_BIK = '044525000';
const RKC_ACCOUNT = '40101810800000010041';
const RKC_ACCOUNT_NAIVE = '40101810700000010041';
const PHONE = '79161234567';

let app: FastifyInstance;

beforeEach(async () => {
  app = await makeApp();
});
afterEach(async () => {
  await app.close();
});

/** A seller with the given status set (admission otherwise incomplete). */
async function sellerOf(sellerType: 'ip' | 'company' | 'self_employed' | null): Promise<SellerCreated> {
  const s = await newSeller(app, { admission: 'none' });
  if (sellerType) {
    const res = await call(app, s.apiKey, 'PUT', '/api/v1/papers/status', { sellerType, inn: FIXTURE_INNS[sellerType] });
    expect(res.status, res.text).toBe(200);
  }
  return s;
}

const setPayout = (s: SellerCreated, body: unknown, headers = {}) => call(app, s.apiKey, 'PUT', '/api/v1/papers/payout', body, headers);
const papers = async (s: SellerCreated) => (await call(app, s.apiKey, 'GET', '/api/v1/papers')).body;

function expectRefusal(res: Answer, kind: string, field: string): void {
  expectError(res, 409, 'rejected');
  expect(res.body.refusal, res.text).toMatchObject({ kind, field });
  // Its reason, when it has one, is one the contract declares for its kind.
  const { reason } = res.body.refusal as { reason?: string };
  if (reason !== undefined) expect(REFUSAL_REASONS[kind as keyof typeof REFUSAL_REASONS] as readonly string[]).toContain(reason);
  expect(typeof res.body.detail).toBe('string');
}

const account = (over: Record<string, unknown> = {}) => ({ method: 'account', account: FIXTURE_ACCOUNTS.ip, bik: FIXTURE_BIK, name: 'ИП Петров Иван Сергеевич', ...over });
const sbp = (over: Record<string, unknown> = {}) => ({ method: 'sbp', phone: PHONE, name: 'Смирнова Анна Викторовна', ...over });

describe('valid details', () => {
  it.each([
    ['ip, fixture account', 'ip', FIXTURE_ACCOUNTS.ip, FIXTURE_BIK],
    ['self-employed, fixture account', 'self_employed', FIXTURE_ACCOUNTS.self_employed, FIXTURE_BIK],
    ['ip, a real bank account', 'ip', SBER_ACCOUNT, SBER_BIK],
    ['ip, an account at a settlement centre', 'ip', RKC_ACCOUNT, RKC_BIK],
  ] as const)('%s → method, tail, filled', async (_label, type, acc, bik) => {
    const s = await sellerOf(type);
    const res = await setPayout(s, account({ account: acc, bik }));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ method: 'account', accountTail: acc.slice(-4), filled: true });
    expect((await papers(s)).payout).toEqual({ method: 'account', accountTail: acc.slice(-4), filled: true });
  });

  it('a company with a valid KPP', async () => {
    const s = await sellerOf('company');
    const res = await setPayout(s, account({ account: FIXTURE_ACCOUNTS.company, kpp: FIXTURE_KPP, name: 'ООО «Цифровые Подписки»' }));
    expect(res.body).toEqual({ method: 'account', accountTail: FIXTURE_ACCOUNTS.company.slice(-4), filled: true });
  });

  it('SBP for a self-employed seller: no account tail, filled', async () => {
    const s = await sellerOf('self_employed');
    const res = await setPayout(s, sbp());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ method: 'sbp', accountTail: null, filled: true });
  });

  it('new details replace the old ones', async () => {
    const s = await sellerOf('self_employed');
    await setPayout(s, sbp());
    const res = await setPayout(s, account({ account: FIXTURE_ACCOUNTS.self_employed }));
    expect(res.body).toEqual({ method: 'account', accountTail: FIXTURE_ACCOUNTS.self_employed.slice(-4), filled: true });
  });

  it('a replay under the same Idempotency-Key answers the same', async () => {
    const s = await sellerOf('ip');
    const first = await setPayout(s, account(), { 'idempotency-key': 'payout-1' });
    const again = await setPayout(s, account(), { 'idempotency-key': 'payout-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('needs the documents scope and an Idempotency-Key', async () => {
    const s = await sellerOf('ip');
    expectError(await setPayout(s, account(), { 'idempotency-key': null }), 400, 'idempotency_key_required');
    const sub = await call(app, s.apiKey, 'POST', '/api/v1/keys', { name: 'orders only', scopes: ['orders'] });
    const res = await call(app, sub.body.key, 'PUT', '/api/v1/papers/payout', account());
    expectError(res, 403, 'scope');
    expect(res.body.detail).toMatchObject({ needed: 'documents' });
  });
});

describe('refusals', () => {
  it('sbp_only_self: SBP for a sole trader, a company, or a seller without a status', async () => {
    for (const type of ['ip', 'company', null] as const) {
      const s = await sellerOf(type);
      expectRefusal(await setPayout(s, sbp()), 'sbp_only_self', 'method');
      expect((await papers(s)).payout).toEqual({ method: null, accountTail: null, filled: false });
    }
  });

  it.each([
    ['a plus sign', '+79161234567'],
    ['the trunk prefix 8', '89161234567'],
    ['10 digits', '7916123456'],
    ['12 digits', '791612345678'],
    ['spaces', '7 916 123 45 67'],
  ])('phone_format: %s', async (_label, phone) => {
    const s = await sellerOf('self_employed');
    expectRefusal(await setPayout(s, sbp({ phone })), 'phone_format', 'phone');
  });

  it('phone_format: SBP without a phone', async () => {
    const s = await sellerOf('self_employed');
    expectRefusal(await setPayout(s, { method: 'sbp', name: 'Смирнова Анна Викторовна' }), 'phone_format', 'phone');
  });

  it.each([
    ['8 digits', '04452522'],
    ['not beginning with 04', '054525225'],
    ['letters', '04452522A'],
    ['missing', undefined],
  ])('bik_bad: %s', async (_label, bik) => {
    const s = await sellerOf('ip');
    expectRefusal(await setPayout(s, account({ bik })), 'bik_bad', 'bik');
  });

  it.each([
    ['control digit broken', SBER_ACCOUNT_BROKEN, SBER_BIK],
    ['a valid account at another bank', SBER_ACCOUNT, '044525593'],
    ['the naive settlement-centre key', RKC_ACCOUNT_NAIVE, RKC_BIK],
    ['19 digits', FIXTURE_ACCOUNTS.ip.slice(1), FIXTURE_BIK],
    ['missing', undefined, FIXTURE_BIK],
  ])('account_bad: %s', async (_label, acc, bik) => {
    const s = await sellerOf('ip');
    const res = await setPayout(s, account({ account: acc, bik }));
    expectRefusal(res, 'account_bad', 'account');
    if (acc && acc.length === 20) expect(res.text).not.toContain(acc);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('name_needed: %s', async (_label, name) => {
    const s = await sellerOf('ip');
    expectRefusal(await setPayout(s, account({ name })), 'name_needed', 'name');
  });

  it.each([
    ['missing', undefined],
    ['8 digits', '77360100'],
    ['lower-case letters', '7736ab001'],
  ])('kpp_bad: a company with the KPP %s', async (_label, kpp) => {
    const s = await sellerOf('company');
    expectRefusal(await setPayout(s, account({ account: FIXTURE_ACCOUNTS.company, kpp })), 'kpp_bad', 'kpp');
  });

  it('a sole trader needs no KPP; one sent is not kept', async () => {
    const s = await sellerOf('ip');
    expect((await setPayout(s, account({ kpp: 'junk' }))).body.filled).toBe(true);
    const doc = await app.service.store.seller(s.sellerId);
    expect(doc.papers.payout?.kpp).toBeNull();
  });

  it('a refused change keeps the details before it', async () => {
    const s = await sellerOf('ip');
    await setPayout(s, account());
    expectRefusal(await setPayout(s, account({ account: SBER_ACCOUNT_BROKEN, bik: SBER_BIK })), 'account_bad', 'account');
    expect((await papers(s)).payout).toEqual({ method: 'account', accountTail: FIXTURE_ACCOUNTS.ip.slice(-4), filled: true });
  });

  it('an unknown method or field → 400 bad_request', async () => {
    const s = await sellerOf('ip');
    expectError(await setPayout(s, account({ method: 'card' })), 400, 'bad_request');
    expectError(await setPayout(s, account({ iban: 'x' })), 400, 'bad_request');
  });
});

describe('the account stays secret', () => {
  let dir: string;
  let fileApp: FastifyInstance;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'payout-'));
    fileApp = await makeApp({ dataDir: dir, memory: false });
  });
  afterEach(async () => {
    await fileApp.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function filesUnder(root: string): Promise<string[]> {
    const out: string[] = [];
    for (const entry of await readdir(root, { withFileTypes: true })) {
      const full = path.join(root, entry.name);
      if (entry.isDirectory()) out.push(...(await filesUnder(full)));
      else out.push(full);
    }
    return out;
  }

  it('no answer and no data file holds the full account or phone; the sealed value opens only for its seller', async () => {
    const texts: string[] = [];
    const api = async (key: string, method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) => {
      const res = await call(fileApp, key, method, url, body);
      texts.push(res.text);
      return res;
    };
    const ip = (await sandbox(fileApp, 'POST', '/sellers', { admission: 'none' })).body as SellerCreated;
    const self = (await sandbox(fileApp, 'POST', '/sellers', { admission: 'none' })).body as SellerCreated;
    await api(ip.apiKey, 'PUT', '/api/v1/papers/status', { sellerType: 'ip', inn: FIXTURE_INNS.ip });
    await api(self.apiKey, 'PUT', '/api/v1/papers/status', { sellerType: 'self_employed', inn: FIXTURE_INNS.self_employed });
    // refusals, successes, reads
    await api(ip.apiKey, 'PUT', '/api/v1/papers/payout', { method: 'account', account: SBER_ACCOUNT, bik: '044525593', name: 'ИП Петров' });
    await api(ip.apiKey, 'PUT', '/api/v1/papers/payout', { method: 'account', account: SBER_ACCOUNT, name: '' });
    expect((await api(ip.apiKey, 'PUT', '/api/v1/papers/payout', { method: 'account', account: SBER_ACCOUNT, bik: SBER_BIK, name: 'ИП Петров' })).status).toBe(200);
    await api(self.apiKey, 'PUT', '/api/v1/papers/payout', { method: 'sbp', phone: PHONE, name: '' });
    expect((await api(self.apiKey, 'PUT', '/api/v1/papers/payout', { method: 'sbp', phone: PHONE, name: 'Смирнова' })).status).toBe(200);
    await api(ip.apiKey, 'GET', '/api/v1/papers');
    await api(self.apiKey, 'GET', '/api/v1/papers');
    await api(ip.apiKey, 'GET', '/api/v1/me');
    await api(ip.apiKey, 'GET', '/api/v1/payouts');

    for (const text of texts) {
      expect(text).not.toContain(SBER_ACCOUNT);
      expect(text).not.toContain(PHONE);
    }
    expect(texts.join('\n')).toContain(SBER_ACCOUNT.slice(-4));

    const files = await filesUnder(dir);
    expect(files.some((f) => f.includes(ip.sellerId))).toBe(true);
    for (const file of files) {
      const content = await readFile(file, 'utf8');
      expect(content, file).not.toContain(SBER_ACCOUNT);
      expect(content, file).not.toContain(PHONE);
    }

    const sealer = fileApp.service.sealer;
    const ipDoc = await fileApp.service.store.seller(ip.sellerId);
    const selfDoc = await fileApp.service.store.seller(self.sellerId);
    expect(ipDoc.papers.payout?.sealed).toMatch(/^v1\./);
    expect(sealer.open(ipDoc.papers.payout!.sealed!, `payout:${ip.sellerId}`)).toBe(SBER_ACCOUNT);
    expect(sealer.open(selfDoc.papers.payout!.sealed!, `payout:${self.sellerId}`)).toBe(PHONE);
    // bound to its seller: moved to another seller's papers it does not open
    expect(() => sealer.open(ipDoc.papers.payout!.sealed!, `payout:${self.sellerId}`)).toThrow();
  });
});
