/**
 * The commands of a seller's paperwork and settings in Russian, as the built CLI (dist/) under
 * LANG=ru_RU.UTF-8 against a real seller-server: one representative run of each file, its
 * `--json` the same as under LANG=C.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_INNS } from '../../server/seed/registry.ts';
import { ensureBuilt, runSeller } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** `seller …` as a seller, in Russian (or in `lang`). */
function sellerAs(apiKey: string) {
  return (args: string[], lang = 'ru_RU.UTF-8', extra: Record<string, string> = {}) =>
    runSeller(args, { env: { SERVICE_BASE_URL: server.url, SERVICE_API_KEY: apiKey, LANG: lang, ...extra } });
}

describe('seller papers in Russian', () => {
  it('shows what is missing, and refuses a bad INN and SBP for a sole trader before any call', async () => {
    const { apiKey } = await server.newSeller({ admission: 'none' });
    const seller = sellerAs(apiKey);

    const show = await seller(['papers', 'show']);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^Оферта:\s+не принята$/m);
    expect(show.stdout).toMatch(/^Допуск:\s+нет: новые карточки — тестовые$/m);
    expect(show.stdout).toMatch(/^Выплаты:\s+не задан$/m);
    expect(show.stdout).toContain('\nНе хватает:\n');
    expect(show.stdout).toMatch(/^ {2}оферта не принята\s+→ {2}seller papers accept-offer$/m);

    const inn = FIXTURE_INNS.ip;
    const bad = `${inn.slice(0, 11)}${(Number(inn[11]) + 1) % 10}`;
    const refused = await seller(['papers', 'status', '--type', 'ip', '--inn', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'ошибка: --inn: ИНН не проходит проверку контрольных цифр или не подходит к типу продавца (inn_bad)\nИНН индивидуального предпринимателя — 12 цифр\n',
    );

    expect((await seller(['papers', 'status', '--type', 'ip', '--inn', inn])).code).toBe(0);
    const sbp = await seller(['papers', 'payout', '--method', 'sbp', '--phone', '+7 999 123-45-67', '--name', 'Иванов Иван']);
    expect(sbp.code).toBe(2);
    expect(sbp.stderr).toContain('ошибка: --method: Выплаты по телефону (СБП) — только для самозанятых; ваш тип продавца: ip. (sbp_only_self)');
    expect(sbp.stderr).toContain('выплаты по телефону (СБП) — только для самозанятых; используйте --method account');

    const [english, russian] = [await seller(['--json', 'papers', 'show'], 'C'), await seller(['--json', 'papers', 'show'])];
    expect(russian.stdout).toBe(english.stdout);
  });
});
