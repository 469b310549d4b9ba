/**
 * `runDoctor` (sdk/doctor): against a real seller-server with a seeded account it finds nothing;
 * behind the drifting fake it lists each difference once, with a count; it only ever sends GETs
 * and never shows a value that is not a code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SellerClient } from '../../sdk/client.ts';
import { apiOperations } from '../../sdk/contract/index.ts';
import { compareAnswer, runDoctor, safeExample } from '../../sdk/doctor/index.ts';
import { AuthenticationError } from '../../sdk/errors.ts';
import { dropField, renameTopField, setFields, startDriftingFake, type DriftingFake } from '../helpers/drifting-fake.ts';
import { seedAccount, type SeededAccount } from '../helpers/seeded-account.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let account: SeededAccount;
let fake: DriftingFake;

beforeAll(async () => {
  server = await startTestServer();
  account = await seedAccount(server);
  fake = await startDriftingFake(server.url);
});

afterAll(async () => {
  await fake?.close();
  await server?.close();
});

const clientOf = (baseUrl: string, apiKey = account.apiKey) => new SellerClient({ apiKey, baseUrl, maxRetries: 0 });

describe('runDoctor against seller-server', () => {
  it('checks every GET of the API table with records from the lists, and finds nothing', async () => {
    fake.rules = [];
    fake.requests.length = 0;
    const report = await runDoctor(clientOf(fake.url));
    expect(report.differences).toEqual([]);
    const gets = Object.values(apiOperations).filter((op) => op.method === 'GET');
    expect(report.operations.map((o) => o.id).sort()).toEqual(gets.map((op) => op.id).sort());
    expect(report.operations.filter((o) => o.outcome !== 'checked')).toEqual([]);
    // Lists were paged (limit 5, a second page where there is one), records were read by id.
    expect(fake.requests.some((r) => /^\/api\/v1\/listings\/\d+$/.test(r.path))).toBe(true);
    expect(fake.requests.some((r) => r.path === '/api/v1/orders' )).toBe(true);
    expect(fake.requests.some((r) => /^\/api\/v1\/orders\/ord_\w+\/handover$/.test(r.path))).toBe(true);
    // Read-only: nothing but GET, and nothing of the sandbox.
    expect(new Set(fake.requests.map((r) => r.method))).toEqual(new Set(['GET']));
    expect(fake.requests.every((r) => r.path.startsWith('/api/v1/'))).toBe(true);
    expect(report).toMatchObject({ tool: 'service-seller doctor', packageVersion: expect.any(String), baseUrl: fake.url, scopes: expect.arrayContaining(['orders', 'hooks']) });
  });

  it('pages a little of each list: `limit` records, then the next page by its cursor', async () => {
    fake.rules = [];
    fake.requests.length = 0;
    const report = await runDoctor(clientOf(fake.url), { limit: 2, pages: 2 });
    expect(report.differences).toEqual([]);
    const orders = fake.requests.filter((r) => r.path === '/api/v1/orders');
    expect(orders).toHaveLength(2);
    expect(orders[0]!.search).toBe('?limit=2');
    expect(orders[1]!.search).toMatch(/^\?limit=2&cursor=/);
    expect(report.operations.find((o) => o.id === 'orders.list')!.answers).toBe(2);
  });

  it('skips what the key may not read, naming the missing scope', async () => {
    const narrow = await server.newSeller({ scopes: ['catalog'] });
    const report = await runDoctor(clientOf(server.url, narrow.apiKey));
    expect(report.differences).toEqual([]);
    expect(report.operations.find((o) => o.id === 'orders.list')).toMatchObject({ outcome: 'skipped', reason: 'missing scope orders', answers: 0 });
    expect(report.operations.find((o) => o.id === 'catalog.get')).toMatchObject({ outcome: 'checked' });
  });

  it('ends with the authentication error on a bad key', async () => {
    await expect(runDoctor(clientOf(server.url, `service_test_${'x'.repeat(40)}`))).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('runDoctor against the drifting fake', () => {
  it('lists each difference once, grouped by operation, kind and path, with a count', async () => {
    fake.rules = [
      { method: 'GET', path: '/api/v1/orders', body: setFields({ status: 'on_hold', loyaltyPoints: 12 }) },
      { method: 'GET', path: '/api/v1/orders', body: renameTopField('nextCursor', 'next') },
      { method: 'GET', path: '/api/v1/listings/{number}', body: dropField('priceRub') },
      { method: 'GET', path: '/api/v1/hooks', status: 201 },
      { method: 'GET', path: '/api/v1/catalog/services', body: setFields({ productTypes: ['code', 'bundle'] }) },
      { method: 'GET', path: '/api/v1/me', body: (me) => ({ ...me, sellerType: 'llc', key: { ...me.key, owner: 'x@y.z' } }) },
    ];
    fake.requests.length = 0;
    const report = await runDoctor(clientOf(fake.url));
    const rows = report.differences.map((d) => [d.operation, d.kind, d.path, d.example ?? null]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['me.get', 'unknown_value', 'sellerType', 'llc'],
        ['me.get', 'unknown_field', 'key.owner', null],
        ['orders.list', 'unknown_value', 'items[].status', 'on_hold'],
        ['orders.list', 'unknown_field', 'items[].loyaltyPoints', null],
        ['orders.list', 'other_paging', 'next', null],
        ['listings.get', 'missing_field', 'priceRub', null],
        ['hooks.get', 'other_status', '', '201'],
        ['catalog.list', 'unknown_value', 'items[].productTypes[]', 'bundle'],
      ]),
    );
    expect(rows).toHaveLength(8);
    // Each listed once: three orders on one page are one row counted three times.
    const status = report.differences.find((d) => d.path === 'items[].status')!;
    expect(status).toMatchObject({ count: 3, examplePath: 'items[0].status', values: ['on_hold'] });
    expect(status.expected).toContain('awaiting_delivery');
    // Never a value that is not a code: the e-mail-like field is named, its value not shown.
    expect(JSON.stringify(report)).not.toContain('x@y.z');
    expect(new Set(fake.requests.map((r) => r.method))).toEqual(new Set(['GET']));
  });

  it('an unknown error code is a difference; the operation is reported as failed', async () => {
    fake.rules = [
      {
        method: 'GET',
        path: '/api/v1/rating',
        replace: () => ({ status: 403, headers: { 'content-type': 'application/json' }, text: '{"error":"seller_frozen","detail":"frozen"}' }),
      },
    ];
    const report = await runDoctor(clientOf(fake.url));
    expect(report.operations.find((o) => o.id === 'rating.get')).toMatchObject({ outcome: 'failed', reason: '403 seller_frozen' });
    expect(report.differences).toEqual([expect.objectContaining({ operation: 'rating.get', kind: 'unknown_error_code', example: 'seller_frozen', count: 1 })]);
  });
});

describe('compareAnswer', () => {
  const order = apiOperations['orders.get'];
  it('a value of another type, and a nullable one that is neither, are one wrong_type each', () => {
    const findings = compareAnswer(order, 200, { ...goodOrder(), number: '7', paidAt: 5 });
    expect(findings.map((f) => [f.kind, f.path, f.example, f.expected])).toEqual([
      ['wrong_type', 'number', 'string', 'integer'],
      ['wrong_type', 'paidAt', 'integer', 'string or null'],
    ]);
  });

  it('a nullable enum with an unknown value is an unknown_value, not a type error', () => {
    const me = apiOperations['me.get'];
    const findings = compareAnswer(me, 200, { sellerId: 's', nickname: null, sellerType: 'llc', mode: 'live', key: { id: 'key_a', prefix: 'p', scopes: [] }, admissionComplete: true });
    expect(findings).toEqual([expect.objectContaining({ kind: 'unknown_value', path: 'sellerType', example: 'llc' })]);
  });

  it('shows only code-like values, never secrets, e-mails or texts', () => {
    expect(safeExample('on_hold')).toBe('on_hold');
    expect(safeExample('x@y.z')).toBeUndefined();
    expect(safeExample('hello world')).toBeUndefined();
    expect(safeExample(`service_live_${'a'.repeat(40)}`)).toBeUndefined();
    expect(safeExample('whsec_abc')).toBeUndefined();
    expect(safeExample('a'.repeat(100))).toBe(`${'a'.repeat(40)}…`);
  });
});

function goodOrder() {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    id: 'ord_1', number: 1, service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 300,
    status: 'delivered', isTest: false, needsAction: false, slaMinutes: 60, deliverBy: null, guaranteeDays: 7, guaranteeUntil: null,
    nextChargeDay: null, createdAt: at, paidAt: at, updatedAt: at, messages: [],
  };
}
