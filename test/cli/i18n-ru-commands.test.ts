/**
 * The commands of a seller's paperwork and settings in Russian, as the built CLI (dist/) under
 * LANG=ru_RU.UTF-8 against a real seller-server: one representative run of each file, its
 * `--json` the same as under LANG=C.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_INNS } from '../../server/seed/registry.ts';
import { runSeller } from '../helpers/cli.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';

const world = useSellerWorld({ cli: true });

describe('seller papers in Russian', () => {
  it('shows what is missing, and refuses a bad INN and SBP for a sole trader before any call', async () => {
    // `seller …` as a seller without papers, in Russian
    const { run: seller } = await world.newShop({ seller: { admission: 'none' }, lang: 'ru' });

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
      'ошибка: --inn: вторая контрольная цифра ИНН (12-я) не сходится (inn_bad)\nИНН индивидуального предпринимателя — 12 цифр\n',
    );

    expect((await seller(['papers', 'status', '--type', 'ip', '--inn', inn])).code).toBe(0);
    const sbp = await seller(['papers', 'payout', '--method', 'sbp', '--phone', '+7 999 123-45-67', '--name', 'Иванов Иван']);
    expect(sbp.code).toBe(2);
    expect(sbp.stderr).toContain('ошибка: --method: Выплаты по телефону (СБП) — только для самозанятых; ваш тип продавца: ip. (sbp_only_self)');
    expect(sbp.stderr).toContain('выплаты по телефону (СБП) — только для самозанятых; используйте --method account');

    const [english, russian] = [await seller(['--json', 'papers', 'show'], { lang: 'en' }), await seller(['--json', 'papers', 'show'])];
    expect(russian.stdout).toBe(english.stdout);
  });
});

describe('seller questions, reviews, complaints in Russian', () => {
  it('lists a question with Russian headers and local time, refuses contacts in an answer, answers it; the buyer text is never translated', async () => {
    // a seller with a switched-off code card (390 ₽), in Russian
    const { run: seller, card: number } = await world.newShop({ card: { fromCatalog: true, active: false }, lang: 'ru' });
    const question = await world.server.sandbox<{ id: string; at: string }>('POST', '/questions', { number, text: 'Does it work in Kazakhstan?' });

    const listed = await seller(['questions', 'list', '--unanswered'], { env: { TZ: 'Asia/Yekaterinburg' } });
    const [header, row] = listed.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(header).toEqual(['ID', 'КАРТОЧКА', 'ЗАДАН', 'ВОПРОС', 'ОТВЕТ']);
    expect(row).toEqual([question.id, `№${number}`, expect.stringMatching(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d GMT\+5$/), 'Does it work in Kazakhstan?', 'без ответа']);

    const contacts = await seller(['questions', 'answer', question.id, '--text', 'Пишите: shop@example.com']);
    expect(contacts.code).toBe(1);
    // refused offline, before the call (issue 21): the contact named, in Russian
    expect(contacts.stderr).toContain('ответ содержит адрес e-mail «shop@example.com»');
    expect(contacts.stderr).toContain('подсказка: перепишите текст без адресов e-mail');

    const answered = await seller(['questions', 'answer', question.id, '--text', 'Yes, it does']);
    expect(answered.stdout).toBe(`Ответ на ${question.id} отправлен (карточка №${number}).\n`);
    expect((await seller(['questions', 'list', '--unanswered'])).stderr).toBe('Вопросов без ответа нет.\n');
    expect((await seller(['reviews', 'list'])).stderr).toBe('Отзывов нет.\n');

    const missing = await seller(['complaints', 'file', '--order', 'ord_x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ошибка: не хватает параметров: --reason --text\n--reason — одно из: /);

    const [english, russian] = [await seller(['--json', 'questions', 'list'], { lang: 'en' }), await seller(['--json', 'questions', 'list'])];
    expect(russian.stdout).toBe(english.stdout);
  });
});

describe('seller keys and logout in Russian', () => {
  it('lists, issues and revokes keys with Russian words; logout says what it removed', async () => {
    const { apiKey, run: seller } = await world.newShop({ lang: 'ru' });

    const issued = await seller(['keys', 'issue', '--name', 'ci', '--scope', 'orders']);
    expect(issued.code).toBe(0);
    expect(issued.stderr).toMatch(/^Выпущен ключ (key_\S+) «ci» \(боевой\) с областями orders:\n/);
    expect(issued.stderr).toContain('ключ показывается только сейчас, больше его не увидеть. Сохраните его.');
    const id = /Выпущен ключ (key_\S+)/.exec(issued.stderr)![1]!;

    const list = await seller(['keys', 'list']);
    const [header, ...rows] = list.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(header).toEqual(['ID', 'НАЗВАНИЕ', 'НАЧАЛО', 'РЕЖИМ', 'ОБЛАСТИ', 'ИСПОЛЬЗОВАН', 'СОСТОЯНИЕ']);
    expect(rows.find((row) => row[0] === id)).toEqual([id, 'ci', expect.stringMatching(/…$/), 'боевой', 'orders', '-', 'действует']);

    const unknown = await seller(['keys', 'issue', '--name', 'x', '--scope', 'everything']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^ошибка: неизвестная область доступа everything\nобласти: /);

    const revoked = await seller(['keys', 'revoke', id, '--yes']);
    expect(revoked.stdout).toBe(`Ключ ${id} отозван.\n`);

    const config = mkdtempSync(join(tmpdir(), 'seller-ru-logout-'));
    try {
      const inDir = { SELLER_CONFIG_DIR: config, SERVICE_API_KEY: '' };
      expect((await runSeller(['login', '--key', apiKey, '--base-url', world.server.url], { env: { ...inDir, LANG: 'C' } })).code).toBe(0);
      const out = await runSeller(['logout'], { env: { ...inDir, LANG: 'ru_RU.UTF-8' } });
      expect(out.stdout).toBe('Выход из профиля default выполнен; его ключ удалён.\n');
      const again = await runSeller(['logout'], { env: { ...inDir, LANG: 'ru_RU.UTF-8', SERVICE_API_KEY: apiKey } });
      expect(again.stderr).toContain('В профиле default нет сохранённого ключа; делать нечего.');
      expect(again.stderr).toContain('в окружении всё ещё задана SERVICE_API_KEY, и она будет использоваться');
    } finally {
      rmSync(config, { recursive: true, force: true });
    }
  });
});

describe('seller work-mode in Russian', () => {
  it('sets and shows the work mode in words, and refuses a bad range with a Russian hint', async () => {
    const { run: seller } = await world.newShop({ lang: 'ru' });
    const set = await seller(['work-mode', 'set', '--capacity', '3', '--dnd', 'on', '--quiet', '23:00-08:00', '--tz', 'Europe/Moscow']);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^Загрузка:\s+3 заказа одновременно$/m);
    expect(set.stdout).toMatch(/^Не беспокоить:\s+включено$/m);
    expect(set.stdout).toMatch(/^Тихие часы:\s+23:00–08:00 \(Europe\/Moscow\)$/m);
    expect(set.stdout).toMatch(/^Присутствие:\s+.+ \(определяет маркетплейс\)$/m);
    expect((await seller(['work-mode', 'set', '--capacity', '5'])).stdout).toMatch(/^Загрузка:\s+5 заказов одновременно$/m);

    const bad = await seller(['work-mode', 'set', '--quiet', '23-8']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('ошибка: --quiet: «23-8» — не промежуток ЧЧ:ММ-ЧЧ:ММ\nпример: --quiet 23:00-08:00 --tz Europe/Moscow\n');

    const [english, russian] = [await seller(['--json', 'work-mode', 'show'], { lang: 'en' }), await seller(['--json', 'work-mode', 'show'])];
    expect(russian.stdout).toBe(english.stdout);
  });
});

describe('seller sandbox in Russian', () => {
  it('buys and pays an order as the buyer, in roubles and words; a missing admin token is explained', async () => {
    // a seller with a switched-on code card (390 ₽); the buyer's side runs with the admin token
    const { card: number } = await world.newShop({ card: { fromCatalog: true } });
    const sandbox = (args: string[], extra: Record<string, string> = {}) => runSeller(['sandbox', ...args], { env: { ...world.adminEnv, LANG: 'ru_RU.UTF-8', ...extra } });

    const buy = await sandbox(['buy', String(number)]);
    expect(buy.code).toBe(0);
    const order = buy.stdout.trim();
    expect(buy.stderr).toBe(`Заказ ${order}: карточка №${number}, 390\u00a0₽, «ждёт оплаты».\n`);
    const pay = await sandbox(['pay', order]);
    expect(pay.stdout).toMatch(new RegExp(`^${order} оплачен: теперь «ждёт выдачи»( \\(продавцу нужно действовать\\))?\\.\n$`));

    const noToken = await sandbox(['clock'], { SERVICE_ADMIN_TOKEN: '' });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toBe(
      'ошибка: нет токена администратора: укажите --admin-token или задайте SERVICE_ADMIN_TOKEN\nseller-server печатает свой токен администратора при запуске или принимает его через --admin-token\n',
    );
  });
});

describe('seller mcp in Russian', () => {
  it('explains a missing key and its options in Russian, while the JSON-RPC answers stay byte for byte', async () => {
    const config = mkdtempSync(join(tmpdir(), 'seller-ru-mcp-'));
    try {
      const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`;
      const run = (lang: string) =>
        runSeller(['mcp', '--read-only'], { env: { SELLER_CONFIG_DIR: config, SERVICE_API_KEY: '', SERVICE_BASE_URL: world.server.url, LANG: lang }, input: line });
      const [english, russian] = [await run('C'), await run('ru_RU.UTF-8')];
      expect(russian.stderr).toBe('seller mcp: в профиле «default» нет API-ключа; запросы будут отклонены (no_key)\n');
      expect(russian.stdout).toBe(english.stdout);
      expect(JSON.parse(russian.stdout)).toMatchObject({ jsonrpc: '2.0', id: 1 });

      const help = await runSeller(['mcp', '--help'], { env: { LANG: 'ru_RU.UTF-8' } });
      expect(help.stdout.replace(/\s+/g, ' ')).toContain('--read-only показывать и разрешать только читающие инструменты (никаких изменений)');
      expect(help.stdout).toContain('Для агента, который должен только смотреть:  "args": ["mcp", "--read-only"]');
    } finally {
      rmSync(config, { recursive: true, force: true });
    }
  });
});
