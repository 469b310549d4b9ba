/**
 * The words of `seller sandbox run` about a scenario name the scenario's keys, in the seller's
 * language (issue 37, items 5 and 8), against a real seller-server:
 * - a refusal inside a run hints the step's key: `need_next_charge` says `nextChargeDay`, never the
 *   CLI's `--next-charge`;
 * - a card's catalogue choices are checked before the run when the profile's key (here
 *   SERVICE_API_KEY) can read the catalogue: `not_in_catalog` / `unknown_service` naming the step,
 *   field, value and allowed values, exit 2, nothing made; without a key the run goes on;
 * - a `fault:` step's problems say what is wrong under LANG=ru_RU.UTF-8 (the status out of range,
 *   retryAfter without a status), not zod's generic «Неверные входные данные».
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runSeller } from '../helpers/cli.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let env: Record<string, string>;
const RU = () => ({ ...env, LANG: 'ru_RU.UTF-8' });
const sellers = () => Object.keys(server.app.service.store.shared.sellers).length;

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer({ rateLimit: NO_RATE_LIMIT });
  env = { SERVICE_BASE_URL: server.url, SERVICE_ADMIN_TOKEN: server.adminToken };
}, 180_000);

afterAll(async () => {
  const closing = server?.close();
  server?.app.server.closeAllConnections();
  await closing;
});

/** Lines of a Russian output with three English words in a row (keys, paths, values and codes are single words or listed with commas). */
const englishSentences = (text: string) => text.split('\n').filter((line) => /\b[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}\b/.test(line));

describe('a refusal inside a scenario hints the scenario\'s key', () => {
  const NO_NEXT_CHARGE = `name: an account delivered without its next charge day
steps:
  - seller: { as: shop }
  - card: { as: acc, seller: shop, service: music-premium, tariff: individual, productType: account,
            deliveryMethod: credentials, priceRub: 199, slaMinutes: 60, guaranteeDays: 7, active: true }
  - stock: { card: acc, count: 1 }
  - buy: { as: o1, card: acc }
  - pay: { order: o1 }
  - deliver: { order: o1, note: "Sign in with the login and password in the vault" }
`;

  it('need_next_charge names nextChargeDay of the deliver step, not --next-charge (English)', async () => {
    const run = await runSeller(['sandbox', 'run', '-'], { env, input: NO_NEXT_CHARGE, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('step 6 (steps[5], line 9, deliver): rejected (need_next_charge): this order is delivered with the next charge day at the vendor: give the deliver step nextChargeDay: YYYY-MM-DD');
    expect(run.stderr).not.toContain('--next-charge');
  }, 60_000);

  it('and in Russian, with no English sentence', async () => {
    const run = await runSeller(['sandbox', 'run', '-'], { env: RU(), input: NO_NEXT_CHARGE, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('укажите в шаге deliver nextChargeDay: ГГГГ-ММ-ДД');
    expect(run.stderr).not.toContain('--next-charge');
    expect(englishSentences(run.stderr)).toEqual([]);
    expect(run.stdout).toMatch(/^заказ\to1\tord_\w+\tкарточка acc, ждёт выдачи$/m);
  }, 60_000);
});

describe('the catalogue choices are checked before the run', () => {
  // The seeded spotify position: tariffs individual, duo, family; SLA 30, 60, 180 or 720 minutes.
  const WRONG = `steps:
  - seller: { as: shop }
  - card: { as: c, seller: shop, service: spotify, tariff: solo, productType: code, deliveryMethod: code,
            priceRub: 300, slaMinutes: 45, guaranteeDays: 7 }
  - card: { as: d, seller: shop, service: spotfy, tariff: individual, productType: code, deliveryMethod: code,
            priceRub: 300, slaMinutes: 60, guaranteeDays: 7 }
`;

  it('with SERVICE_API_KEY: every wrong choice named by step, field (its own line), value and allowed values; exit 2, nothing made', async () => {
    const { apiKey } = await server.newSeller();
    const before = sellers();
    const run = await runSeller(['sandbox', 'run', '-'], { env: { ...env, SERVICE_API_KEY: apiKey }, input: WRONG });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('(stdin):3: steps[1].card.tariff: solo is not offered by spotify for tariff; allowed: individual, duo, family');
    expect(run.stderr).toContain('(stdin):4: steps[1].card.slaMinutes: 45 is not offered by spotify for slaMinutes; allowed: 30, 60, 180, 720');
    expect(run.stderr).toContain('(stdin):5: steps[2].card.service: spotfy is not a service of the catalogue; did you mean spotify?');
    expect(run.stderr).toMatch(/not a valid scenario: 3 problems/);
    expect(sellers()).toBe(before);

    const json = await runSeller(['sandbox', 'run', '-', '--json'], { env: { ...env, SERVICE_API_KEY: apiKey }, input: WRONG });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).issues[1]).toMatchObject({ path: 'steps[1].card.slaMinutes', code: 'not_in_catalog', params: { field: 'slaMinutes', value: '45', allowed: '30, 60, 180, 720' } });
  });

  it('says them in Russian under LANG=ru_RU.UTF-8', async () => {
    const { apiKey } = await server.newSeller();
    const run = await runSeller(['sandbox', 'run', '-'], { env: { ...RU(), SERVICE_API_KEY: apiKey }, input: WRONG });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('(stdin):4: steps[1].card.slaMinutes: spotify не предлагает 45 для slaMinutes; допустимо: 30, 60, 180, 720');
    expect(run.stderr).toContain('(stdin):5: steps[2].card.service: в каталоге нет сервиса spotfy; может быть, spotify?');
    expect(englishSentences(run.stderr)).toEqual([]);
  });

  it('without a key the check is skipped: the run goes on and the server refuses the card at its step', async () => {
    const run = await runSeller(['sandbox', 'run', '-'], { env, input: WRONG });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/step 2 \(steps\[1\], line 3, card\): rejected \(complaint\)/);
  });
});

describe('a fault: step\'s problems under LANG=ru_RU.UTF-8', () => {
  const FAULTS = `steps:
  - seller: { as: shop }
  - fault: { seller: shop, op: orders.deliver, status: 418 }
  - fault: { seller: shop, op: orders.delivr, retryAfter: 5s, latency: 2s }
  - fault: { op: orders.deliver, status: 503, every: 1, for: soon }
`;

  it('say what is wrong: the status out of range, retryAfter without a status, the operation, every, the duration', async () => {
    const run = await runSeller(['sandbox', 'run', '-'], { env: RU(), input: FAULTS });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('(stdin):3: steps[1].fault.status: одно из 429, 500, 502, 503');
    expect(run.stderr).toContain('(stdin):4: steps[2].fault.retryAfter: retryAfter указывают только вместе со status');
    expect(run.stderr).toContain('(stdin):4: steps[2].fault.op: orders.delivr — не операция API продавца; может быть, orders.deliver?');
    expect(run.stderr).toContain('(stdin):5: steps[3].fault.every: целое число от 2');
    expect(run.stderr).toContain('(stdin):5: steps[3].fault.for: длительность вроде 2s, 500ms или 10m (задержка не больше 60s), а не soon');
    expect(run.stderr).not.toContain('Неверные входные данные');
    expect(englishSentences(run.stderr)).toEqual([]);
  });

  it('and in English the same problems in the step\'s keys', async () => {
    const run = await runSeller(['sandbox', 'run', '-'], { env, input: FAULTS });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('(stdin):4: steps[2].fault.retryAfter: retryAfter goes with status only');
    expect(run.stderr).toContain('(stdin):4: steps[2].fault.op: orders.delivr is not an operation of the seller API; did you mean orders.deliver?');
  });
});
