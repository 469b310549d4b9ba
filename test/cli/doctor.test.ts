/**
 * `seller doctor`, the real binary: against seller-server with a seeded account it reports nothing
 * (exit 0); behind the drifting fake it lists each difference once (exit 1), as a table and as a
 * JSON report that holds no secret and no buyer data; only GETs are sent; a bad key is exit 4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations } from '../../sdk/contract/index.ts';
import { dropField, renameTopField, setFields, startDriftingFake, type DriftingFake } from '../helpers/drifting-fake.ts';
import { ensureBuilt, runSeller } from '../helpers/cli.ts';
import { seedAccount, type SeededAccount } from '../helpers/seeded-account.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** Every GET of the API table: what the doctor checks. */
const GETS = Object.values(apiOperations).filter((op) => op.method === 'GET').length;

let server: TestServer;
let account: SeededAccount;
let fake: DriftingFake;

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer();
  account = await seedAccount(server);
  fake = await startDriftingFake(server.url);
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await server?.close();
});

const doctor = (args: string[] = [], apiKey = account.apiKey, env: Record<string, string> = {}) =>
  runSeller(['doctor', ...args], { env: { SERVICE_API_KEY: apiKey, SERVICE_BASE_URL: fake.url, ...env } });

describe('seller doctor', () => {
  it('finds nothing against seller-server: exit 0, only GETs sent', async () => {
    fake.rules = [];
    fake.requests.length = 0;
    const result = await doctor();
    expect(result.stderr).toContain(`Checked ${GETS} operations`);
    expect(result.stdout).toBe('No differences from the contract.\n');
    expect(result.code).toBe(0);
    expect(fake.requests.length).toBeGreaterThan(GETS);
    expect(new Set(fake.requests.map((r) => r.method))).toEqual(new Set(['GET']));
  });

  it('lists each difference once with a count (exit 1), and the JSON report says what was checked', async () => {
    fake.rules = [
      { method: 'GET', path: '/api/v1/orders', body: setFields({ status: 'on_hold', buyerEmail: 'buyer@example.com' }) },
      { method: 'GET', path: '/api/v1/orders', body: renameTopField('nextCursor', 'next') },
      { method: 'GET', path: '/api/v1/orders/{id}', body: dropField('guaranteeDays') },
      { method: 'GET', path: '/api/v1/work-mode', status: 201 },
      { method: 'GET', path: '/api/v1/listings/{number}/stock', body: (b) => ({ ...b, sample: ['CODE-SECRET-9999'] }) },
    ];
    fake.requests.length = 0;
    const table = await doctor();
    expect(table.code).toBe(1);
    // Piped, the table is tab-separated with its header row first.
    const [header, ...lines] = table.stdout.trim().split('\n').map((line) => line.split('\t').slice(0, 5));
    expect(header).toEqual(['OPERATION', 'KIND', expect.any(String), expect.any(String), expect.any(String)]);
    expect(lines).toEqual(
      expect.arrayContaining([
        ['workMode.get', 'other status', '(answer)', '1', '201'],
        ['orders.list', 'other next page', 'next', '1', '-'],
        ['orders.list', 'unknown field', 'items[].buyerEmail', '3', 'items[0].buyerEmail'],
        ['orders.list', 'unknown value', 'items[].status', '3', 'on_hold'],
        ['orders.get', 'missing field', 'guaranteeDays', '1', 'guaranteeDays'],
        ['stock.get', 'unknown field', 'sample', '1', 'sample'],
      ]),
    );
    expect(lines).toHaveLength(6);
    expect(table.stderr).toMatch(/found 6 differences from the contract/);
    expect(new Set(fake.requests.map((r) => r.method))).toEqual(new Set(['GET']));

    const json = await doctor(['--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ tool: 'service-seller doctor', packageVersion: '0.1.0', baseUrl: fake.url });
    expect(Date.parse(report.date)).not.toBeNaN();
    expect(report.operations).toHaveLength(GETS);
    expect(report.differences).toHaveLength(6);
    // Neither buyer data nor a stock item nor the key, in either output.
    for (const out of [table.stdout + table.stderr, json.stdout + json.stderr]) {
      expect(out).not.toContain('buyer@example.com');
      expect(out).not.toContain('CODE-SECRET-9999');
      expect(out).not.toContain(account.apiKey);
    }
  });

  it('names the operations a narrow key skips, with the missing scope', async () => {
    fake.rules = [];
    const narrow = await server.newSeller({ scopes: ['catalog', 'listings'] });
    const result = await doctor(['--json'], narrow.apiKey);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    // The reason as data (issue 37, item 9): a program words it from `skip`, never from the English `reason`.
    expect(report.operations).toContainEqual({ id: 'orders.list', method: 'GET', path: '/orders', outcome: 'skipped', reason: 'missing scope orders', skip: { code: 'missing_scope', scope: 'orders' }, answers: 0 });
    expect(report.operations).toContainEqual(expect.objectContaining({ id: 'listings.list', outcome: 'checked' }));
  });

  it('a bad key is exit 4 before any report', async () => {
    const result = await doctor([], `service_test_${'Q'.repeat(40)}`);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
  });

  it('says in its help what the exit codes mean', async () => {
    const result = await runSeller(['doctor', '--help']);
    expect(result.stdout).toContain('1 differences found');
  });

  it('reports in Russian under LANG=ru_RU.UTF-8: headers, kinds, counts, skipped reasons; --json the same in both', async () => {
    const ru = { LANG: 'ru_RU.UTF-8' };
    fake.rules = [
      { method: 'GET', path: '/api/v1/orders', body: setFields({ status: 'on_hold' }) },
      { method: 'GET', path: '/api/v1/work-mode', status: 201 },
    ];
    const table = await doctor([], account.apiKey, ru);
    expect(table.code).toBe(1);
    const [header, ...lines] = table.stdout.trim().split('\n').map((line) => line.split('\t').slice(0, 5));
    expect(header).toEqual(['ОПЕРАЦИЯ', 'ВИД', 'ПУТЬ', 'РАЗ', 'ПРИМЕР']);
    expect(lines).toEqual(expect.arrayContaining([['workMode.get', 'другой статус', '(весь ответ)', '1', '201'], ['orders.list', 'неизвестное значение', 'items[].status', '3', 'on_hold']]));
    expect(table.stderr).toContain(` ${GETS} операци`);
    expect(table.stderr).toMatch(/^Проверен[оаы] \d+ операци[яий] на http:\/\/\S+ по контракту service-seller 0\.1\.0\.$/m);
    expect(table.stderr).toContain('ошибка: найдено: 2 расхождения с контрактом');
    expect(table.stderr).toContain('приложите вывод `seller doctor --json`');

    const narrow = await server.newSeller({ scopes: ['catalog', 'listings'] });
    fake.rules = [];
    const skipped = await doctor([], narrow.apiKey, ru);
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toBe('Расхождений с контрактом нет.\n');
    expect(skipped.stderr).toContain('пропущена orders.list: нет области доступа orders');
    expect(skipped.stderr).toContain('пропущена listings.get: нечего читать: список listings.list пуст');
    expect(skipped.stderr).not.toMatch(/[A-Za-z]{3,} [A-Za-z]{3,}/);

    const [english, russian] = [await doctor(['--json'], narrow.apiKey), await doctor(['--json'], narrow.apiKey, ru)];
    const stable = (text: string) => text.replace(/"date": "[^"]*"/, '"date": ""');
    expect(stable(russian.stdout)).toBe(stable(english.stdout));
  });
});
