/**
 * A seller's day in Russian: the `seller` binary under LANG=ru_RU.UTF-8 (and TZ=Europe/Moscow)
 * against a real seller-server: log in, look around, create and switch on a card, see an order
 * come in, fail to deliver it and read why, deliver it. Everything a person reads is Russian, money
 * is `390 ₽`, times are Moscow time with the zone and the time left; `--json` is byte for byte what
 * English prints, and every exit code is the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runSeller } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let config: string;

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer();
  config = mkdtempSync(join(tmpdir(), 'seller-ru-'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(config, { recursive: true, force: true });
});

describe('a seller’s day under LANG=ru_RU.UTF-8', { timeout: 90_000 }, () => {
  it('speaks Russian with roubles and Moscow time; --json and exit codes are those of English', async () => {
    const { apiKey } = await server.newSeller();
    const base = { SERVICE_BASE_URL: server.url, SELLER_CONFIG_DIR: config, TZ: 'Europe/Moscow' };
    const ru = { ...base, LANG: 'ru_RU.UTF-8' };
    const en = { ...base, LANG: 'C' };
    const admin = { SERVICE_BASE_URL: server.url, SERVICE_ADMIN_TOKEN: server.adminToken };

    const login = await runSeller(['login', '--with-key-stdin'], { env: ru, input: apiKey });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/^Вход выполнен: sel_\w+ \(боевой\), ключ service_live_/);

    const whoami = await runSeller(['whoami'], { env: ru });
    expect(whoami.stdout).toMatch(/Продавец:\s+sel_/);
    expect(whoami.stdout).toMatch(/Допуск:\s+завершён/);

    const help = await runSeller(['orders', '--help'], { env: ru });
    expect(help.stdout).toContain('Использование: seller orders');
    expect(help.stdout).toMatch(/deliver \[параметры\] <id>\s+Отметить заказ выданным/);

    const typo = await runSeller(['ordres', 'list'], { env: ru });
    expect(typo.stderr).toContain('ошибка: неизвестная команда «ordres»');
    expect(typo.stderr).toContain('(Может быть, orders?)');
    expect(typo.code).toBe((await runSeller(['ordres', 'list'], { env: en })).code);

    const create = ['cards', 'create', '--service', 'spotify', '--tariff', 'individual', '--type', 'subscription', '--delivery', 'invite', '--price', '1299'];
    const position = await runSeller(['--json', 'catalog', 'show', 'spotify'], { env: ru });
    const { slaChoices, guaranteeChoices, tariffs } = JSON.parse(position.stdout) as { slaChoices: number[]; guaranteeChoices: number[]; tariffs: { slug: string }[] };
    create[5] = tariffs[0]!.slug;
    const created = await runSeller([...create, '--sla', String(slaChoices[0]), '--guarantee', String(guaranteeChoices.find((d) => d > 0))], { env: ru });
    expect(created.code, created.stderr).toBe(0);
    const number = /Карточка №(\d+) создана \(выключена\)\./.exec(created.stdout)?.[1];
    expect(number, created.stdout).toBeDefined();
    expect(created.stderr).toContain(`Включите её: seller cards on ${number}`);

    const on = await runSeller(['cards', 'on', number!], { env: ru });
    expect(on.stdout).toBe(`Карточка №${number} включена.\n`);
    const shown = await runSeller(['cards', 'show', number!], { env: ru });
    expect(shown.stdout).toMatch(/Цена:\s+1\s299\s₽/u);
    expect(shown.stdout).toMatch(/Товар:\s+подписка, выдача: приглашение/);
    expect(shown.stdout).toMatch(/Состояние:\s+вкл\./);

    const bought = await runSeller(['sandbox', 'buy', number!], { env: admin });
    const id = bought.stdout.trim();
    expect((await runSeller(['sandbox', 'pay', id], { env: admin })).code).toBe(0);

    const list = await runSeller(['orders', 'list', '--needs-action'], { env: ru });
    expect(list.code, list.stderr).toBe(0);
    const [header, row] = list.stdout.trimEnd().split('\n');
    expect(header!.split('\t')).toEqual(['ID', 'КАРТОЧКА', 'СЕРВИС', 'ЦЕНА', 'СОСТОЯНИЕ', 'ДЕЙСТВИЕ', 'ВЫДАТЬ ДО', 'ИЗМЕНЁН']);
    const cells = row!.split('\t');
    expect(cells[0]).toBe(id);
    expect(cells[3]).toMatch(/^1\s299\s₽$/u);
    expect(cells[4]).toBe('ждёт выдачи');
    expect(cells[5]).toBe('ждёт вас');
    // The deadline in Moscow time, the zone shown, and the time left.
    expect(cells[6]).toMatch(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d GMT\+3 \(через \d+ (мин|ч)\.?\)$/);
    expect(cells[7]).toMatch(/GMT\+3$/);
    const utc = await runSeller(['--utc', 'orders', 'list', '--needs-action'], { env: ru });
    expect(utc.stdout.split('\n')[1]!.split('\t')[7]).toMatch(/UTC$/);

    const refused = await runSeller(['orders', 'deliver', id], { env: ru });
    const refusedEn = await runSeller(['orders', 'deliver', id], { env: en });
    expect(refused.code).toBe(1);
    expect(refusedEn.code).toBe(1);
    expect(refused.stderr).toContain('отказ: need_next_charge');
    expect(refused.stderr).toContain('выдаётся с датой следующего списания у сервиса');
    expect(refused.stderr).toContain('подсказка: добавьте --next-charge ДД.ММ.ГГГГ');

    const missing = await runSeller(['cards', 'show', '999999'], { env: ru });
    expect(missing.stderr).toMatch(/^ошибка: not_found: /);
    expect(missing.stderr).toContain('проверьте номер карточки: `seller cards list` покажет ваши');
    expect(missing.stderr).not.toContain('slug');
    expect(missing.code).toBe((await runSeller(['cards', 'show', '999999'], { env: en })).code);

    // Machine output is the same in every language, byte for byte.
    for (const argv of [['--json', 'orders', 'list'], ['--json', 'cards', 'list'], ['--json', 'whoami'], ['--json', 'orders', 'show', id]]) {
      const [a, b] = [await runSeller(argv, { env: ru }), await runSeller(argv, { env: en })];
      expect(a.stdout, argv.join(' ')).toBe(b.stdout);
      expect(a.code).toBe(b.code);
    }

    const delivered = await runSeller(['orders', 'deliver', id, '--next-charge', '2026-12-21'], { env: ru });
    expect(delivered.code, delivered.stderr).toBe(0);
    expect(delivered.stdout).toBe(`Заказ ${id} выдан: теперь «выдан».\n`);
  });
});
