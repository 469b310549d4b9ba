/** Admission papers: read, nickname, offer, status and registry (spec: Seller admission papers; gaps.md: Papers read). */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Papers } from '../../sdk/contract/index.ts';
import { validateInn } from '../../sdk/validate/bank.ts';
import { FIXTURE_ACCOUNTS, FIXTURE_BIK, FIXTURE_INNS, REGISTRY, registryName } from '../../server/seed/registry.ts';
import { call, expectError, issueKey, makeApp, newSeller, sandbox, type SellerCreated } from './helpers.ts';

let app: FastifyInstance;
let seller: SellerCreated;

beforeEach(async () => {
  app = await makeApp();
  seller = await newSeller(app, { admission: 'none' });
});
afterEach(async () => {
  await app.close();
});

const get = (key = seller.apiKey) => call(app, key, 'GET', '/api/v1/papers');
const nickname = (nick: unknown, key = seller.apiKey) => call(app, key, 'PUT', '/api/v1/papers/nickname', { nickname: nick });
const status = (sellerType: string, inn: string, key = seller.apiKey) => call(app, key, 'PUT', '/api/v1/papers/status', { sellerType, inn });
const confirm = (key = seller.apiKey) => call(app, key, 'POST', '/api/v1/papers/registry-confirm');
const offer = (key = seller.apiKey) => call(app, key, 'POST', '/api/v1/papers/offer');

/** A 12-digit INN with correct check digits after the ten given digits. */
function inn12(first10: string): string {
  const w1 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
  const w2 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
  const sum = (s: string, w: number[]) => w.reduce((acc, k, i) => acc + k * Number(s[i]), 0);
  const d11 = (sum(first10, w1) % 11) % 10;
  const with11 = first10 + d11;
  return with11 + ((sum(with11, w2) % 11) % 10);
}

function expectRefusal(res: { status: number; body: any; text: string }, kind: string): void {
  expectError(res as never, 409, 'rejected');
  expect(res.body.refusal.kind, res.text).toBe(kind);
}

describe('GET /papers', () => {
  it('a new seller: nothing filled, all five papers missing', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(Papers.parse(res.body)).toEqual({
      nickname: null,
      offerAccepted: false,
      sellerType: null,
      inn: null,
      registryName: null,
      registryConfirmed: false,
      payout: { method: null, accountTail: null, filled: false },
      complete: false,
      missing: ['nickname', 'offer', 'status', 'registry', 'payout'],
    });
  });

  it('a sandbox seller with complete admission: complete, nothing missing, only the tail of the account', async () => {
    const full = await newSeller(app, { admission: 'complete', sellerType: 'ip' });
    const res = await get(full.apiKey);
    expect(res.body).toMatchObject({ complete: true, missing: [], sellerType: 'ip', registryConfirmed: true, offerAccepted: true });
    expect(res.body.payout).toEqual({ method: 'account', accountTail: FIXTURE_ACCOUNTS.ip.slice(-4), filled: true });
  });

  it('needs the documents scope', async () => {
    const other = await issueKey(app, seller.apiKey, ['orders']);
    const res = await get(other.key);
    expectError(res, 403, 'scope');
    expect(res.body.detail).toMatchObject({ needed: 'documents' });
  });
});

describe('PUT /papers/nickname', () => {
  it('sets it; /me and /papers show it', async () => {
    const res = await nickname('Digital_Shop');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ nickname: 'Digital_Shop' });
    expect((await get()).body.nickname).toBe('Digital_Shop');
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/me')).body.nickname).toBe('Digital_Shop');
    expect((await get()).body.missing).not.toContain('nickname');
  });

  it.each([
    ['2 characters', 'ab'],
    ['33 characters', 'a'.repeat(33)],
    ['a space inside', 'my shop'],
    ['an @', 'shop@home'],
    ['not a string', 42],
  ])('%s → 400 bad_request naming the field', async (_label, value) => {
    const res = await nickname(value);
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain('nickname');
  });

  it('3 and 32 characters are fine', async () => {
    expect((await nickname('abc')).status).toBe(200);
    expect((await nickname('b'.repeat(32))).status).toBe(200);
  });

  it('unique across sellers, case-insensitively → nickname_taken', async () => {
    const other = await newSeller(app, { admission: 'none' });
    expect((await nickname('KeyStore')).status).toBe(200);
    const res = await nickname('keystore', other.apiKey);
    expectRefusal(res, 'nickname_taken');
    expect(res.body.refusal.field).toBe('nickname');
    expect((await get(other.apiKey)).body.nickname).toBeNull();
  });

  it.each([
    ['Cyrillic К, е, у, о, р', 'КеуStоrе'],
    ['Ukrainian і and Cyrillic ѕ', 'KeyЅtore'],
    ['Greek Κ and ο', 'ΚeyStοre'],
    ['full-width letters', 'ＫｅｙＳｔｏｒｅ'],
    ['mathematical letters', '𝐊𝐞𝐲𝐒𝐭𝐨𝐫𝐞'],
  ])('a look-alike of a taken nickname (%s) → nickname_taken', async (_what, twin) => {
    const other = await newSeller(app, { admission: 'none' });
    expect((await nickname('KeyStore')).status).toBe(200);
    expectRefusal(await nickname(twin, other.apiKey), 'nickname_taken');
  });

  it('a nickname in another script that only resembles a taken one in part is free (Иван is not Ivan)', async () => {
    const other = await newSeller(app, { admission: 'none' });
    expect((await nickname('Ivan')).status).toBe(200);
    expect((await nickname('Иван', other.apiKey)).status).toBe(200);
    expect((await nickname('Ivan2', other.apiKey)).status).toBe(200);
  });

  it('a phone written in other-script digits is refused as contacts', async () => {
    expectRefusal(await nickname('٨٩٩٩١٢٣٤٥٦٧'), 'contacts');
  });

  it('the same seller may set its own nickname again, in another case', async () => {
    expect((await nickname('KeyStore')).status).toBe(200);
    const res = await nickname('KEYSTORE');
    expect(res.status).toBe(200);
    expect(res.body.nickname).toBe('KEYSTORE');
  });

  it('a change releases the old nickname for others', async () => {
    const other = await newSeller(app, { admission: 'none' });
    expect((await nickname('Alpha')).status).toBe(200);
    expect((await nickname('Beta')).status).toBe(200);
    expect((await nickname('alpha', other.apiKey)).status).toBe(200);
    expectRefusal(await nickname('BETA', other.apiKey), 'nickname_taken');
  });

  it("a nickname of a sandbox seller with fixture papers is taken too", async () => {
    const full = await newSeller(app, { admission: 'complete' });
    const taken = (await get(full.apiKey)).body.nickname as string;
    expectRefusal(await nickname(taken.toUpperCase()), 'nickname_taken');
  });

  it('a phone number as a nickname → contacts', async () => {
    const res = await nickname('79991234567');
    expectRefusal(res, 'contacts');
    expect(res.body.refusal.field).toBe('nickname');
    expect((await get()).body.nickname).toBeNull();
  });
});

describe('POST /papers/offer', () => {
  it('accepts; a repeat keeps the first time', async () => {
    const first = await offer();
    expect(first.status).toBe(200);
    expect(first.body.offerAccepted).toBe(true);
    expect(first.body.acceptedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await sandbox(app, 'POST', '/clock/advance', { seconds: 3600 });
    const again = await offer();
    expect(again.status).toBe(200);
    expect(again.body.acceptedAt).toBe(first.body.acceptedAt);
    expect((await get()).body.offerAccepted).toBe(true);
  });

  it('takes no body', async () => {
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/papers/offer', { accept: true }), 400, 'bad_request');
  });
});

describe('PUT /papers/status', () => {
  it('a listed INN: the registry name, needs confirmation', async () => {
    const res = await status('ip', FIXTURE_INNS.ip);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sellerType: 'ip', inn: FIXTURE_INNS.ip, registryName: REGISTRY[FIXTURE_INNS.ip]!.name, needsConfirm: true });
    expect((await get()).body).toMatchObject({ sellerType: 'ip', inn: FIXTURE_INNS.ip, registryName: REGISTRY[FIXTURE_INNS.ip]!.name, registryConfirmed: false });
  });

  it('an unlisted valid INN: a deterministic made-up name shaped by the type', async () => {
    const inn = inn12('3809876543');
    expect(validateInn(inn, 'self_employed').ok).toBe(true);
    expect(REGISTRY[inn]).toBeUndefined();
    const a = await status('self_employed', inn);
    expect(a.status).toBe(200);
    expect(a.body.registryName).toBe(registryName(inn, 'self_employed'));
    const b = await status('ip', inn);
    expect(b.body.registryName).toMatch(/^ИП /);
  });

  it.each([
    ['check digit broken', 'ip', `${FIXTURE_INNS.ip.slice(0, 11)}${(Number(FIXTURE_INNS.ip[11]) + 1) % 10}`, 'check digit'],
    ['10 digits for a sole trader', 'ip', FIXTURE_INNS.company, '12 digits'],
    ['12 digits for a company', 'company', FIXTURE_INNS.ip, '10 digits'],
    ['letters', 'self_employed', '16551234563X', 'digits only'],
    ['too short', 'company', '77012', '10 digits'],
  ])('%s → inn_bad with the reason', async (_label, sellerType, inn, reason) => {
    const res = await status(sellerType, inn);
    expectRefusal(res, 'inn_bad');
    expect(res.body.refusal.field).toBe('inn');
    expect(res.body.detail).toContain(reason);
    expect((await get()).body.sellerType).toBeNull();
  });

  it('an unknown seller type → 400 bad_request', async () => {
    expectError(await status('llc', FIXTURE_INNS.company), 400, 'bad_request');
  });
});

describe('POST /papers/registry-confirm', () => {
  it('without a status → no_status', async () => {
    const res = await confirm();
    expectRefusal(res, 'no_status');
    expect((await get()).body.registryConfirmed).toBe(false);
  });

  it('confirms once; a repeat answers already', async () => {
    await status('company', FIXTURE_INNS.company);
    expect((await confirm()).body).toEqual({ confirmed: true, already: false });
    expect((await confirm()).body).toEqual({ confirmed: true, already: true });
    expect((await get()).body.registryConfirmed).toBe(true);
  });

  it('setting the same status keeps the confirmation; a changed one needs it again', async () => {
    await status('ip', FIXTURE_INNS.ip);
    await confirm();
    const same = await status('ip', FIXTURE_INNS.ip);
    expect(same.body.needsConfirm).toBe(false);
    expect((await get()).body.registryConfirmed).toBe(true);
    const changed = await status('self_employed', FIXTURE_INNS.self_employed);
    expect(changed.body.needsConfirm).toBe(true);
    expect((await get()).body.registryConfirmed).toBe(false);
    expect((await confirm()).body).toEqual({ confirmed: true, already: false });
  });
});

describe('admission', () => {
  it('nickname + offer + status + confirm + payout → complete; /me says admissionComplete', async () => {
    const me = async () => (await call(app, seller.apiKey, 'GET', '/api/v1/me')).body.admissionComplete;
    expect(await me()).toBe(false);
    await nickname('complete-seller');
    await offer();
    await status('ip', FIXTURE_INNS.ip);
    expect((await get()).body.missing).toEqual(['registry', 'payout']);
    await confirm();
    expect((await get()).body).toMatchObject({ complete: false, missing: ['payout'] });
    expect(await me()).toBe(false);
    const payout = await call(app, seller.apiKey, 'PUT', '/api/v1/papers/payout', {
      method: 'account',
      account: FIXTURE_ACCOUNTS.ip,
      bik: FIXTURE_BIK,
      name: REGISTRY[FIXTURE_INNS.ip]!.name,
    });
    expect(payout.body).toEqual({ method: 'account', accountTail: FIXTURE_ACCOUNTS.ip.slice(-4), filled: true });
    expect((await get()).body).toMatchObject({ complete: true, missing: [] });
    expect(await me()).toBe(true);
  });

  it('a card made before admission is a test card; it can be turned real only once the papers are complete', async () => {
    const card = { service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 300, slaMinutes: 60, guaranteeDays: 7 };
    const created = await call(app, seller.apiKey, 'POST', '/api/v1/listings', card);
    expect(created.status, created.text).toBe(201);
    expect(created.body.isTest).toBe(true);
    const toReal = () => call(app, seller.apiKey, 'POST', `/api/v1/listings/${created.body.number}/test`, { isTest: false });
    expectRefusal(await toReal(), 'test_to_real_needs_papers');
    await nickname('now-real');
    await offer();
    await status('ip', FIXTURE_INNS.ip);
    await confirm();
    expectRefusal(await toReal(), 'test_to_real_needs_papers');
    await call(app, seller.apiKey, 'PUT', '/api/v1/papers/payout', { method: 'account', account: FIXTURE_ACCOUNTS.ip, bik: FIXTURE_BIK, name: 'ИП Петров' });
    const real = await toReal();
    expect(real.status, real.text).toBe(200);
    expect(real.body.isTest).toBe(false);
  });

  it('turning into a company without a KPP makes the payout details insufficient again', async () => {
    const full = await newSeller(app, { admission: 'complete', sellerType: 'ip' });
    await status('company', FIXTURE_INNS.company, full.apiKey);
    const papers = (await get(full.apiKey)).body;
    expect(papers.complete).toBe(false);
    expect(papers.missing).toEqual(['registry', 'payout']);
    expect(papers.payout.filled).toBe(false);
  });
});
