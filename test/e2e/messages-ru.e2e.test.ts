/**
 * Every message true and in the seller's words (issue 37, §1 and §2): the built CLI under
 * LANG=ru_RU.UTF-8 against a real seller-server says only what is so (a resume hint only where
 * running again can help; a card has a number, not a slug; a 503 is `unavailable`, with the tries
 * and the order's state after them), in Russian, with no English sentence.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_CARD, useSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

const world = useSellerWorld({ cli: true, lang: 'ru', dir: 'seller-messages-', card: { stock: ['CODE-1'] } });

afterEach(async () => {
  await world.sandbox.clearFaults();
});

/** Two Latin words of three letters or more in a row: an English sentence (a command to type is not one). */
const ENGLISH = /[A-Za-z]{3,} [A-Za-z]{3,}/;
const sentences = (text: string): string => text.replace(/`?seller [^\n`]*`?/g, '');

describe('stock refill of a card that is not there (item 1)', () => {
  it('names the card number, not a slug, and does not offer a re-run that cannot help', async () => {
    const file = join(world.dir, 'codes.txt');
    writeFileSync(file, 'A-1\nA-2\n');
    const result = await world.run(['stock', 'refill', '9999', '--file', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('ещё раз');
    expect(result.stderr).not.toContain('slug');
    expect(result.stderr).toContain('ошибка: not_found: карточки 9999 нет, или она не ваша');
    expect(result.stderr).toContain('проверьте номер карточки');
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);
  });

  it('a failure that may pass the next time (503 on every try) keeps the re-run hint', async () => {
    const file = join(world.dir, 'more.txt');
    writeFileSync(file, 'B-1\nB-2\n');
    await world.sandbox.addFault({ sellerId: world.sellerId, op: 'stock.refill', status: 503 });
    const result = await world.run(['stock', 'refill', String(world.card), '--file', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Запустите ту же команду ещё раз');
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);
  });
});

describe('orders deliver answered 503 on every try (item 3)', () => {
  it('is `unavailable`, says the tries and how long, and the order as it is now', async () => {
    const card = await world.newCard(SUBSCRIPTION_CARD);
    const order = await world.buy(card);
    await world.sandbox.addFault({ sellerId: world.sellerId, op: 'orders.deliver', status: 503 });
    const result = await world.run(['orders', 'deliver', order, '--next-charge', '2099-01-01', '--without-vault']);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe('ошибка: unavailable: сервис временно недоступен');
    expect(result.stderr).not.toContain('internal');
    expect(result.stderr).toMatch(/попыток: 3 за \d+(,\d)? с/);
    expect(result.stderr).toContain(`заказ ${order} сейчас: ждёт выдачи (не выдан)`);
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);

    const json = await world.run(['orders', 'deliver', order, '--next-charge', '2099-01-01', '--without-vault', '--json']);
    const line = json.stderr.split('\n').find((l) => l.startsWith('{'));
    expect(JSON.parse(line!)).toMatchObject({ error: 'unavailable' });
  });
});

describe('a refusal inside seller sandbox run (item 4)', () => {
  const SLA_45 = `name: an SLA the catalogue does not offer
steps:
  - seller: { as: shop }
  - card: { as: codes, seller: shop, service: spotify, tariff: individual, productType: code,
            deliveryMethod: code, priceRub: 300, slaMinutes: 45, guaranteeDays: 7, active: true }
`;

  it('names the field and the allowed values in text, as --json has them', async () => {
    const file = join(world.dir, 'sla.yaml');
    writeFileSync(file, SLA_45);
    // No seller key (SERVICE_API_KEY empty, no profile) to read the catalogue with before the run: the server refuses the card at its step.
    const noProfile = { ...world.adminEnv, SERVICE_API_KEY: '', SELLER_CONFIG_DIR: join(world.dir, 'no-profile') };
    const result = await world.run(['sandbox', 'run', file], { env: noProfile });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('slaMinutes: такое значение здесь не разрешено; можно: 30, 60, 180, 720');
    expect(result.stderr).toContain('поле: slaMinutes');
    expect(result.stderr).toContain('допустимые значения: 30, 60, 180, 720');
    expect(result.stderr).not.toContain(': : ');
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);

    const json = await world.run(['sandbox', 'run', file, '--json'], { env: noProfile });
    expect(JSON.parse(json.stdout).failure).toMatchObject({ kind: 'error', code: 'rejected', refusal: 'complaint', values: { field: 'slaMinutes', allowed: [30, 60, 180, 720] } });
  });

  it('with the seller\'s key (SERVICE_API_KEY) the catalogue is read first: the same SLA is refused before the run (item 5), in Russian', async () => {
    const file = join(world.dir, 'sla.yaml');
    writeFileSync(file, SLA_45);
    const result = await world.run(['sandbox', 'run', file], { env: world.adminEnv });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('sla.yaml:5: steps[1].card.slaMinutes: spotify не предлагает 45 для slaMinutes; допустимо: 30, 60, 180, 720');
    expect(result.stderr).toContain('ничего не запускалось и ничего не создано');
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);
  });
});

describe('orders watch piped, and a credits rate with a comma (item 7)', () => {
  it('piped, the lines come after their column titles, so a yes/no column is named', async () => {
    const child = world.spawn(['orders', 'watch', '--since', '2000-01-01T00:00:00Z']);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    const closed = new Promise((resolve) => child.on('close', resolve));
    try {
      await world.buy(world.card);
      await waitFor('a watched order', () => out.split('\n').length > 2, { ms: 20_000 });
    } finally {
      child.kill('SIGINT');
      await closed;
    }
    const [titles, first] = out.split('\n');
    expect(titles).toBe('ИЗМЕНЁН\tID\tКАРТОЧКА\tСОСТОЯНИЕ\tНУЖНО ДЕЙСТВИЕ\tЦЕНА ₽');
    expect(first!.split('\t')).toHaveLength(6);
    expect(sentences(out)).not.toMatch(ENGLISH);
  });

  it('--credits-rate 1,5 is read as the prompt reads it', async () => {
    const result = await world.run([
      '--json', 'cards', 'create', '--service', 'steam-wallet', '--tariff', 'region-ru', '--type', 'credits', '--delivery', 'transfer',
      '--price', '1100', '--sla', '15', '--guarantee', '0', '--credits-type', 'rate', '--credits-rate', '1,5',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const { number } = JSON.parse(result.stdout) as { number: number };
    expect(await world.client.listings.get(number)).toMatchObject({ creditsType: 'rate', creditsRate: 1.5 });
    const wrong = await world.run(['cards', 'create', '--service', 'steam-wallet', '--credits-rate', '1,5,0']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('положительное число');
  });
});

describe('the last English under a Russian locale (item 8)', () => {
  it("a scenario value of the wrong type is said in zod's Russian", async () => {
    const file = join(world.dir, 'wrong-type.yaml');
    writeFileSync(file, 'name: wrong type\nsteps:\n  - seller: { as: shop }\n  - card: { as: c, seller: shop, service: spotify, tariff: individual, productType: code,\n            deliveryMethod: code, priceRub: "дорого", slaMinutes: 60, guaranteeDays: 7 }\n');
    const result = await world.run(['sandbox', 'run', file], { env: world.adminEnv });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('priceRub');
    expect(result.stderr).toContain('priceRub: Неверный ввод: ожидалось число, получено string');
    expect(result.stderr).not.toContain('Invalid input');
  });

  it('a broken profile file is said in Russian', async () => {
    const config = join(world.dir, 'broken-config');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, 'config.json'), '{ not json');
    const result = await world.run(['whoami'], { env: { SELLER_CONFIG_DIR: config } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('— не JSON: исправьте или удалите его');
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);
  });

  it("the MCP bridge's own failure on stderr is said in Russian", async () => {
    const result = await world.run(['mcp', '--base-url', 'http://127.0.0.1:9'], { input: '{"jsonrpc":"2.0","method":"notifications/initialized"}\n' });
    expect(result.stderr).toContain('не удалось связаться с http://127.0.0.1:9/api/mcp');
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);
  });

  it('sellers, an order and its timeline: statuses, moves and vaults in words, a vault is «сейф»', async () => {
    const list = await world.run(['sandbox', 'seller', 'list'], { env: world.adminEnv });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('работает');
    expect(list.stdout).not.toMatch(/\bactive\b/);

    const order = await world.buy(world.card);
    const timeline = await world.run(['sandbox', 'timeline', order], { env: world.adminEnv });
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toMatch(/Кнопки: .*(принять|написать|заполнить сейф|открыть спор)/);
    expect(timeline.stdout).not.toMatch(/accept|message|vault|dispute/);

    const show = await world.run(['orders', 'show', order]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('Сейфы');
    expect(show.stdout).not.toMatch(/[Хх]ранилищ/);
  });
});

describe('seller sandbox watch (item 2)', () => {
  it('each line shows the move it reports, from its own before to its own after', async () => {
    const card = await world.newCard({ stock: ['AUTO-1'], autoIssue: true });
    const child = world.spawn(['sandbox', 'watch'], { env: world.adminEnv });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
    const closed = new Promise((resolve) => child.on('close', resolve));
    try {
      await waitFor('the stream', () => err.length > 0 || undefined, { ms: 20_000 });
      const order = await world.buy(card);
      const moved = () => out.split('\n').filter((l) => l.includes(`${order}:`) && l.includes('→'));
      const moves = await waitFor('two moves', () => (moved().length >= 2 ? moved() : undefined), { ms: 20_000, describe: () => out + err });
      expect(moves[0]).toContain('ждёт оплаты → ждёт выдачи');
      expect(moves[1]).toContain('ждёт выдачи → выдан');
    } finally {
      child.kill('SIGINT');
      await closed;
    }
  });
});

describe('scenario fields (item 5, in part)', () => {
  it('an unknown field suggests the nearest of its step (auto → autoIssue)', async () => {
    const file = join(world.dir, 'auto.yaml');
    writeFileSync(file, 'name: a typo\nsteps:\n  - seller: { as: shop }\n  - card: { as: c, seller: shop, service: spotify, tariff: individual, productType: code,\n            deliveryMethod: code, priceRub: 300, slaMinutes: 60, guaranteeDays: 7, auto: true }\n');
    const result = await world.run(['sandbox', 'run', file], { env: world.adminEnv });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('steps[1].card.auto: неизвестное поле auto; может быть, autoIssue?');
  });
});
