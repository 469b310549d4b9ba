/**
 * A Russian seller's morning with the autopilot, as the built CLI (dist/) under
 * LANG=ru_RU.UTF-8 and TZ=Europe/Moscow against a real seller-server and its sandbox: the lines
 * it prints (piped: one line per event) are Russian, with Moscow times, roubles and words for the
 * event types; `--json` under the same locale keeps the SDK's English events.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { NETFLIX_CODE_CARD, NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { useSellerWorld, type CardBody } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

/** The seller, its client, the sandbox, a work directory; its `seller` runs in Russian, in Moscow. */
const world = useSellerWorld({ cli: true, server: { rateLimit: NO_RATE_LIMIT }, dir: 'autopilot-ru-', lang: 'ru', env: { TZ: 'Europe/Moscow' } });
const cards = { subs: 0, auto: 0, manual: 0, priced: 0 };

const DELIVER_SCRIPT = `
const order = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify({ nextChargeDay: '2031-01-31', note: 'Готово, пользуйтесь!' }));
`;

beforeAll(async () => {
  const { dir } = world;
  // Switched-on cards, each at 300 ₽ with a 60-minute SLA and 7 days of guarantee unless it says otherwise.
  const make = (body: Partial<CardBody>) => world.newCard({ body });
  cards.subs = await make({ service: 'spotify', tariff: 'individual', productType: 'subscription', deliveryMethod: 'invite' });
  cards.manual = await make({ service: 'spotify', tariff: 'duo', productType: 'subscription', deliveryMethod: 'own_account' });
  cards.auto = await world.newCard({ body: { service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code' }, stock: ['CODE-0001'], autoIssue: true });
  cards.priced = await make({ ...NETFLIX_CODE_CARD, priceRub: 1500 });
  // Three other sellers: with ours at 1500, the usual price of netflix codes is 1275 (the median).
  for (const priceRub of [1200, 1250, 1300]) await world.newShop({ card: { body: { ...NETFLIX_CODE_CARD, priceRub } } });
  writeFileSync(join(dir, 'deliver.cjs'), DELIVER_SCRIPT);
  writeFileSync(
    join(dir, 'autopilot.json'),
    JSON.stringify({
      pollSeconds: 0.2,
      deliver: [{ name: 'subs', match: { card: cards.subs }, action: { command: `node ${join(dir, 'deliver.cjs')}` } }],
      deadline: { warnMinutesBefore: 15 },
      stock: { everySeconds: 1, cards: [{ card: cards.auto, lowAt: 0 }] },
      reprice: { intervalMinutes: 1, auditLog: join(dir, 'prices.jsonl'), cards: [{ card: cards.priced, floor: 1000, ceiling: 2000 }] },
    }),
  );
}, 120_000);

class Run {
  stdout = '';
  stderr = '';
  readonly child: ChildProcessWithoutNullStreams;
  readonly closed: Promise<number | null>;
  constructor(args: string[] = []) {
    this.child = world.spawn(['autopilot', '--config', join(world.dir, 'autopilot.json'), ...args]);
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => (this.stdout += text));
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    this.closed = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }
  line(pattern: RegExp): string | undefined {
    return this.stdout.split('\n').find((l) => pattern.test(l));
  }
}

const until = <T>(what: string, run: Run, probe: () => T | undefined, ms = 20_000): Promise<T> =>
  waitFor(what, probe, { ms, every: 100, describe: () => `the autopilot printed:\n${run.stdout}\n${run.stderr}` });

const buy = (card: number) => world.buy(card);

describe('seller autopilot under LANG=ru_RU.UTF-8', () => {
  it('prints its morning in Russian: deliveries, stock, prices, deadlines in Moscow time', async () => {
    const run = new Run();
    const started = await until('start', run, () => run.line(/autopilot запущен/));
    expect(started).toMatch(/^\d\d:\d\d:\d\d  autopilot запущен\s+deliver, deadline, stock, reprice; первый запуск: каждый заказ будет просмотрен один раз$/);
    expect(run.stderr).toContain(`автопилот: ${join(world.dir, 'autopilot.json')}, состояние в `);

    const id = await buy(cards.subs);
    const delivered = await until('delivery', run, () => run.line(new RegExp(`${id} .*выдан по правилу subs`)));
    expect(delivered).toMatch(new RegExp(`deliver   выдан\\s+${id} \\(№${cards.subs} подписка\\) выдан по правилу subs$`));

    // The usual price of netflix codes is 1275 (the median, ours at 1500 among them): the reprice moves to it, in roubles.
    const repriced = await until('reprice', run, () => run.line(/^\S+  reprice /));
    expect(repriced).toMatch(new RegExp(`reprice   новая цена\\s+№${cards.priced}: 1\\u00a0500\\u00a0₽ → 1\\u00a0275\\u00a0₽ \\(обычная цена 1\\u00a0275\\u00a0₽, минимум 1\\u00a0000\\u00a0₽, максимум 2\\u00a0000\\u00a0₽; `));

    await buy(cards.auto);
    expect(await until('stock out', run, () => run.line(/^\S+  stock .*закончился/))).toContain(`№${cards.auto}: склад пуст, автовыдача выключена до пополнения`);

    // 50 of the 60 SLA minutes pass on an order no rule delivers, and its buyer writes: a warning with the Moscow deadline.
    const manual = await buy(cards.manual);
    const deliverBy = (await world.client.orders.get(manual)).deliverBy!;
    await world.sandbox.advanceClock({ seconds: 50 * 60 });
    // The guard sees an order when it changes: the buyer writes.
    await world.sandbox.message(manual, { text: 'Здравствуйте, когда будет?' });
    const warned = await until('SLA warning', run, () => run.line(new RegExp(`${manual} .*нужно выдать`)));
    const moscow = new Intl.DateTimeFormat('ru-RU', { timeZone: 'Europe/Moscow', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(new Date(deliverBy));
    expect(warned).toMatch(new RegExp(`deadline  срок\\s+${manual} \\(№${cards.manual}\\) нужно выдать в течение \\d+ мин\\. \\(до ${moscow.replaceAll('.', '\\.')} GMT\\+3\\)$`));

    run.child.kill('SIGINT');
    expect(await run.closed).toBe(0);
    expect(run.stderr).toContain('останавливаюсь: доделываю начатое');
    expect(run.line(/autopilot остановлен\s+начатое доделано, состояние сохранено$/)).toBeDefined();
    expect(run.stdout).not.toMatch(/delivered by|out of stock|must be delivered/);
  }, 90_000);

  it('--json under the same locale keeps the SDK\'s English events', async () => {
    const run = new Run(['--json', '--dry-run']);
    const line = await until('start', run, () => run.stdout.split('\n').find((l) => l.includes('"started"')));
    run.child.kill('SIGINT');
    await run.closed;
    const event = JSON.parse(line) as { message: string; dryRun?: boolean; say?: { form: string; values: Record<string, unknown> } };
    expect(event.message).toMatch(/^autopilot started \(dry run: nothing is changed\): deliver, deadline, stock, reprice; resuming from /);
    // The words as data beside the English: the form, and raw values (a list of rules, the parts by their forms, an ISO time).
    expect(event.say).toMatchObject({ form: 'started', values: { dry: { form: 'dryRun' }, rules: ['deliver', 'deadline', 'stock', 'reprice'], from: { form: 'resumingFrom' } } });
    expect(Date.parse((event.say!.values['from'] as { values: { since: string } }).values.since)).not.toBeNaN();
    expect(run.stdout).not.toMatch(/[а-яё]/i);
  }, 60_000);
});
