/**
 * Input as Russians write it, questions in Russian, and times that are true, under LANG=ru_RU.UTF-8
 * against a real seller-server: prompts driven through a pseudo-terminal (`да`, the key hints, the
 * next charge day asked with its form shown), prices `1 299` and days `26.12.2026` accepted as well
 * as `1299` and `2026-12-26`, durations `2ч`, no countdown on a finished order, relative times and
 * `orders watch` by the service's clock after `sandbox clock advance`. `--json` and exit codes are
 * those of English.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSellerWorld, SUBSCRIPTION_CARD, useSellerWorld } from '../helpers/seller-world.ts';
import { closePtys, sellerInPty } from '../helpers/pty.ts';
import { waitFor } from '../helpers/wait.ts';

afterEach(closePtys);

const world = useSellerWorld({ cli: true, lang: 'ru', card: SUBSCRIPTION_CARD, env: { TZ: 'Europe/Moscow' } });

/** `2026-12-26` → `26.12.2026`. */
const ruDay = (iso: string) => iso.split('-').reverse().join('.');
/** The service's today plus `days`, as the API writes a day. */
async function serviceDay(days: number): Promise<string> {
  const { now } = await world.sandbox.clock();
  return new Date(Date.parse(now) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The flags of a spotify card as the catalogue offers it, without the price. */
async function cardFlags(): Promise<string[]> {
  const position = await world.client.catalog.get('spotify');
  return ['--service', 'spotify', '--tariff', position.tariffs[0]!.slug, '--type', 'subscription', '--delivery', 'invite', '--sla', String(position.slaChoices[1]), '--guarantee', '0'];
}

describe('input written the Russian way', { timeout: 120_000 }, () => {
  it('takes a price with spaces, refuses kopecks in Russian, and takes minutes and days with units', async () => {
    const flags = await cardFlags();
    const sla = Number(flags[flags.indexOf('--sla') + 1]);
    const created = async (args: string[]) => {
      const run = await world.run(['--json', 'cards', 'create', ...args]);
      expect(run.code, run.stderr).toBe(0);
      return world.client.listings.get((JSON.parse(run.stdout) as { number: number }).number);
    };
    expect((await created([...flags, '--price', '1 299'])).priceRub).toBe(1299);
    expect((await created([...flags, '--price', '1\u00a0299\u00a0₽'])).priceRub).toBe(1299);
    expect((await created([...flags, '--price', '1299'])).priceRub).toBe(1299);

    const kopecks = await world.run(['cards', 'create', ...flags, '--price', '299,50']);
    const kopecksEn = await world.run(['cards', 'create', ...flags, '--price', '299,50'], { lang: 'en' });
    expect(kopecks.stderr).toContain('цены — в целых рублях, без копеек: «299,50» не подходит; напишите 299');
    expect(kopecks.stderr).not.toMatch(/[a-z]{4,} [a-z]{4,}/);
    expect(kopecks.code).toBe(kopecksEn.code);
    expect(kopecks.code).not.toBe(0);

    // `--sla 1ч` is 60 minutes, `--guarantee 7д` 7 days.
    const units = await created([...flags.slice(0, -4), '--sla', sla % 60 === 0 ? `${sla / 60}ч` : `${sla}мин`, '--guarantee', '7д', '--price', '990']);
    expect(units).toMatchObject({ slaMinutes: sla, guaranteeDays: 7 });
  });

  it('takes a day as 26.12.2026 as well as 2026-12-26', async () => {
    const since = await world.run(['--json', 'orders', 'list', '--since', '26.12.2020']);
    const sinceIso = await world.run(['--json', 'orders', 'list', '--since', '2020-12-26']);
    expect(since.code, since.stderr).toBe(0);
    expect(since.stdout).toBe(sinceIso.stdout);

    const id = await world.buy(world.card);
    const day = await serviceDay(40);
    const delivered = await world.run(['orders', 'deliver', id, '--next-charge', ruDay(day)]);
    expect(delivered.code, delivered.stderr).toBe(0);
    expect((await world.client.orders.get(id)).nextChargeDay).toBe(day);
    const shown = await world.run(['orders', 'show', id]);
    expect(shown.stdout).toMatch(new RegExp(`Следующее списание:\\s+${ruDay(day).replace(/\./g, '\\.')}`));

    const noDay = await world.run(['orders', 'deliver', await world.buy(world.card), '--next-charge', '31.02.2027']);
    expect(noDay.code).toBe(1);
  });
});

describe('questions on a terminal, in Russian', { timeout: 120_000 }, () => {
  it('asks the price and takes 1 299 after refusing 299,50; the confirm answers да', async () => {
    const flags = await cardFlags();
    const pty = sellerInPty(['cards', 'create', ...flags], world.env);
    await pty.answer('Цена', '299,50\r');
    await pty.expectDrawn('цены — в целых рублях, без копеек');
    // The refused answer stays in the line: rub it out, then write it the Russian way.
    await pty.answer('цены — в целых рублях', '\u007f'.repeat(8) + '1 299\r');
    await pty.answer('Описание', '\r');
    await pty.answer(/Создать эту карточку\? \(Д\/н\)/, 'да\r');
    expect(await pty.exit, pty.screen()).toBe(0);
    const screen = pty.screen();
    expect(screen).toMatch(/Создать эту карточку\? да/);
    expect(screen).not.toMatch(/\bYes\b|You must/);
    const number = /Карточка №(\d+) создана/.exec(screen)?.[1];
    expect(number, screen).toBeDefined();
    expect((await world.client.listings.get(Number(number))).priceRub).toBe(1299);
  });

  it('shows the key hints of a choice in Russian', async () => {
    const pty = sellerInPty(['cards', 'create', '--service', 'spotify'], world.env);
    await pty.expectDrawn('↑↓ перемещение • ⏎ выбрать');
    expect(pty.screen()).not.toContain('navigate');
    await pty.answer('выбрать', '\u0003');
    expect(await pty.exit).toBe(2);
  });

  it('refuses a confirmation answered with a word it does not know, then takes нет as no', async () => {
    const number = await world.newCard({ ...SUBSCRIPTION_CARD, active: false });
    const pty = sellerInPty(['cards', 'delete', String(number)], world.env);
    await pty.answer('(д/Н)', 'может\r');
    await pty.answer('ответьте «да» или «нет»', '\u007f'.repeat(5) + 'нет\r');
    expect(await pty.exit, pty.screen()).toBe(2);
    expect((await world.client.listings.get(number)).number).toBe(number);
  });

  it('asks the next charge day of a subscription, with its form, instead of failing after the call', async () => {
    const id = await world.buy(world.card);
    const day = await serviceDay(30);
    const pty = sellerInPty(['orders', 'deliver', id], world.env);
    await pty.answer('Дата следующего списания у сервиса (ДД.ММ.ГГГГ', '31.02.2027\r');
    await pty.answer('такого дня нет: «31.02.2027»', '\u007f'.repeat(10) + `${ruDay(day)}\r`);
    expect(await pty.exit, pty.screen()).toBe(0);
    expect(pty.screen()).toContain(`Заказ ${id} выдан`);
    expect((await world.client.orders.get(id)).nextChargeDay).toBe(day);

    // In a script it stays an error naming --next-charge, with the same exit code as in English.
    const other = await world.buy(world.card);
    const script = await world.run(['orders', 'deliver', other]);
    expect(script.code).toBe(1);
    expect(script.code).toBe((await world.run(['orders', 'deliver', other], { lang: 'en' })).code);
    expect(script.stderr).toContain('--next-charge');
  });
});

describe('times that are true', { timeout: 120_000 }, () => {
  it('shows no countdown on a finished order, and counts the open one from the service’s clock', async () => {
    const shop = await startSellerWorld({ cli: true, lang: 'ru', card: SUBSCRIPTION_CARD, env: { TZ: 'Europe/Moscow' } });
    try {
      const open = await shop.buy(shop.card);
      const done = await shop.buy(shop.card);
      await shop.client.orders.deliver(done, { nextChargeDay: new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10) });
      const { slaMinutes } = await shop.client.orders.get(open);
      const rows = (await shop.run(['orders', 'list'])).stdout.trimEnd().split('\n').slice(1).map((line) => line.split('\t'));
      const row = (id: string) => rows.find((cells) => cells[0] === id)!;
      expect(row(open)[6]).toMatch(/\(через \d+ (мин|ч)\.?\)$/);
      expect(row(done)[6]).not.toMatch(/через|назад/);
      const shown = await shop.run(['orders', 'show', done]);
      expect(shown.stdout).not.toMatch(/через \d+/);

      // The service's clock moves on by a third of the SLA: the time left is what the service would say.
      const moved = Math.floor(slaMinutes / 3);
      const advance = await shop.run(['sandbox', 'clock', 'advance', `${moved}мин`], { env: shop.adminEnv });
      expect(advance.code, advance.stderr).toBe(0);
      const after = (await shop.run(['orders', 'list'])).stdout.split('\n').find((line) => line.startsWith(open))!.split('\t');
      const left = /через (\d+) (мин|ч)/.exec(after[6]!);
      expect(left, after[6]).not.toBeNull();
      const leftMinutes = left![2] === 'ч' ? Number(left![1]) * 60 : Number(left![1]);
      expect(leftMinutes).toBeLessThanOrEqual(slaMinutes - moved);
      // `--since 5мин` counts back from the service's now: both orders changed before the move are older.
      const recent = await shop.run(['--json', 'orders', 'list', '--since', '5мин']);
      expect(recent.code, recent.stderr).toBe(0);
      expect((JSON.parse(recent.stdout) as { items: unknown[] }).items).toEqual([]);
    } finally {
      await shop.close();
    }
  });

  it('orders watch without --since starts at the service’s time after a clock move', async () => {
    const shop = await startSellerWorld({ cli: true, lang: 'ru', card: SUBSCRIPTION_CARD });
    try {
      const advance = await shop.run(['sandbox', 'clock', 'advance', '2ч'], { env: shop.adminEnv });
      expect(advance.code, advance.stderr).toBe(0);
      // Changed after the move, before the watch: hours ahead of this computer's clock, and not new to the watch.
      const before = await shop.buy(shop.card);
      const watch = shop.spawn(['--json', 'orders', 'watch', '--interval', '0.2']);
      let out = '';
      let err = '';
      watch.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
      watch.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
      try {
        await waitFor('the watch to start', () => err.includes('Следим за заказами'), { describe: () => err });
        const after = await shop.buy(shop.card);
        const ids = await waitFor(
          'the new order in the watch',
          () => {
            const seen = out.trim().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id);
            return seen.includes(after) ? seen : undefined;
          },
          { ms: 30_000, describe: () => `${out}\n${err}` },
        );
        expect(ids, err).not.toContain(before);
      } finally {
        watch.kill('SIGTERM');
      }
    } finally {
      await shop.close();
    }
  });

  it('orders watch on a terminal shows what the buyer wrote', async () => {
    const pty = sellerInPty(['orders', 'watch', '--interval', '0.2'], world.env);
    await pty.expectDrawn('Следим за заказами');
    const id = await world.buy(world.card);
    // Paid and seen as such first: the message is then a change of its own.
    await pty.expectDrawn(new RegExp(`${id}\\s.*ждёт выдачи`));
    await world.sandbox.message(id, { text: 'Здравствуйте, когда будет?' });
    await pty.expectDrawn(`${id}: покупатель пишет: Здравствуйте, когда будет?`);
    await pty.answer('покупатель пишет', '\u0003');
    expect(await pty.exit).toBe(0);
  });
});
