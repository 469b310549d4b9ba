/**
 * `seller autopilot` through a scripted day against a real seller-server and its sandbox, as the
 * built CLI (dist/) in a child process:
 * - paid orders of three kinds (a subscription, an account, credits) delivered by three rules;
 * - an SLA warning before the deadline after the sandbox clock moved;
 * - a backlog that switches do-not-disturb on (a new order is refused) and off again;
 * - a stock-out that switches auto-delivery off, and a refill after which the autopilot turns it on;
 * - a reprice that stops at the floor, once, with one audit line;
 * - a reply template that answers a buyer once (the second message is left to the seller);
 * - a SIGKILL mid-delivery and a restart: no order delivered or activated twice, none missed.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AutopilotEvent } from '../../sdk/autopilot/index.ts';
import { NETFLIX_CODE_CARD, NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { useSellerWorld, type CardBody } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

/** The seller, its client, the sandbox and the work directory (the deliver command's WORK_DIR). */
const world = useSellerWorld({ cli: true, server: { rateLimit: NO_RATE_LIMIT }, dir: 'autopilot-e2e-' });
/** The states of a delivered order (one without a guarantee completes at the next clock sweep). */
const DELIVERED: readonly string[] = ['delivered', 'completed'];
const cards = { subs: 0, account: 0, credits: 0, manual: 0, auto: 0, priced: 0 };

const DELIVER_SCRIPT = `
const fs = require('node:fs');
const path = require('node:path');
const order = JSON.parse(fs.readFileSync(0, 'utf8'));
const dir = process.env.WORK_DIR;
fs.appendFileSync(path.join(dir, 'invocations.log'), order.id + ' ' + process.env.SERVICE_AUTOPILOT_ATTEMPT + '\\n');
// An idempotent activation: a marker per order, as the autopilot asks of a command run again.
const marker = path.join(dir, 'done-' + order.id);
if (!fs.existsSync(marker)) {
  fs.appendFileSync(path.join(dir, 'activations.log'), order.id + '\\n');
  fs.writeFileSync(marker, '');
}
const wait = Number(process.env.DELIVER_DELAY_MS || 0);
if (wait) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
const out = order.productType === 'subscription' ? { nextChargeDay: '2031-01-31', note: 'Activated on your account, enjoy!' }
  : order.productType === 'account' ? { secret: 'login: buyer-' + order.number + ' / password: s3cret-' + order.id, nextChargeDay: '2031-01-31' }
  : { note: 'Credited to your wallet.' };
process.stdout.write(JSON.stringify(out));
`;

beforeAll(async () => {
  const { dir } = world;
  // Switched-on cards, each at 300 ₽ with a 60-minute SLA and 7 days of guarantee unless it says otherwise.
  const make = (body: Partial<CardBody>) => world.newCard({ body });
  cards.subs = await make({ service: 'spotify', tariff: 'individual', productType: 'subscription', deliveryMethod: 'invite' });
  cards.account = await make({ service: 'spotify', tariff: 'family', productType: 'account', deliveryMethod: 'credentials' });
  cards.credits = await make({ service: 'steam-wallet', tariff: 'region-ru', productType: 'credits', deliveryMethod: 'transfer', creditsType: 'pack', creditsAmount: 1000, slaMinutes: 60, guaranteeDays: 0 });
  cards.manual = await make({ service: 'spotify', tariff: 'duo', productType: 'subscription', deliveryMethod: 'own_account' });
  cards.auto = await world.newCard({ body: { service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code' }, stock: ['CODE-0001'], autoIssue: true });
  cards.priced = await make({ ...NETFLIX_CODE_CARD, priceRub: 500 });
  // Three other sellers make the usual price of netflix codes 325 (with ours at 500): under the floor.
  for (const priceRub of [250, 300, 350]) await world.newShop({ card: { body: { ...NETFLIX_CODE_CARD, priceRub } } });
  writeFileSync(join(dir, 'deliver.cjs'), DELIVER_SCRIPT);
  const notify = `node -e "require('fs').appendFileSync(process.env.WORK_DIR + '/warnings.log', require('fs').readFileSync(0, 'utf8'))"`;
  const action = { command: `node ${join(dir, 'deliver.cjs')}` };
  writeFileSync(
    join(dir, 'autopilot.json'),
    JSON.stringify({
      pollSeconds: 0.2,
      deliver: [
        { name: 'subs', match: { card: cards.subs }, action },
        { name: 'accounts', match: { card: cards.account }, action },
        { name: 'credits', match: { card: cards.credits, productType: 'credits' }, action },
      ],
      deadline: { warnMinutesBefore: 15, notify: { command: notify } },
      backlog: { above: 9, restoreAt: 2, set: { doNotDisturb: true } },
      stock: { everySeconds: 1, cards: [{ card: cards.auto, lowAt: 0 }] },
      reprice: { intervalMinutes: 1, auditLog: join(dir, 'prices.jsonl'), cards: [{ card: cards.priced, floor: 400, ceiling: 900 }] },
      replies: { maxPerOrder: 1, templates: [{ name: 'when', keywords: ['when', 'how long'], text: 'Your order is being prepared and arrives within the hour.' }] },
    }),
  );
}, 120_000);

/** A running autopilot and the events it printed. */
class Run {
  readonly events: AutopilotEvent[] = [];
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  constructor(all: AutopilotEvent[], extraEnv: Record<string, string> = {}) {
    this.child = world.spawn(['autopilot', '--config', join(world.dir, 'autopilot.json'), '--json'], { env: { WORK_DIR: world.dir, ...extraEnv } });
    let buffer = '';
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => {
      buffer += text;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const event = JSON.parse(line) as AutopilotEvent;
        this.events.push(event);
        all.push(event);
        trace.push(event);
      }
    });
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderr += text;
      stderrTrace.push(text);
    });
    this.closed = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
  }
}

/** What the autopilot runs printed, for the message of a failed wait. */
const trace: AutopilotEvent[] = [];
const stderrTrace: string[] = [];

const until = <T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> =>
  waitFor(what, probe, { ms, every: 100, describe: () => `the autopilot printed:\n${trace.map((e) => `${e.rule} ${e.type} ${e.message}`).slice(-40).join('\n')}\n${stderrTrace.join('')}` });

const buy = (card: number) => world.buy(card);
const lines = (file: string) => (existsSync(join(world.dir, file)) ? readFileSync(join(world.dir, file), 'utf8').split('\n').filter(Boolean) : []);
const statusOf = async (id: string) => (await world.client.orders.get(id)).status;

describe('seller autopilot: a scripted day', () => {
  it('delivers, warns, balances the backlog, restocks, reprices, replies, and survives a SIGKILL', async () => {
    const all: AutopilotEvent[] = [];
    const has = (run: Run, rule: string, type: string, about?: string | number) =>
      run.events.find((e) => e.rule === rule && e.type === type && (about === undefined || e.order === about || e.card === about));

    // Morning: the autopilot starts; three kinds of paid orders arrive.
    let run = new Run(all);
    await until('start', () => has(run, 'autopilot', 'started'));
    const morning = [await buy(cards.subs), await buy(cards.account), await buy(cards.credits), await buy(cards.subs)];
    for (const id of morning) await until(`delivery of ${id}`, () => has(run, 'deliver', 'delivered', id));
    // A card without a guarantee completes at once after delivery: either state means delivered.
    for (const id of morning) expect(DELIVERED).toContain(await statusOf(id));
    const sub = await world.client.orders.get(morning[0]!);
    expect(sub.nextChargeDay).toBe('2031-01-31');
    expect((await world.client.orders.vaults(morning[1]!)).items).toEqual([{ side: 'own', opened: true }]);

    // The reprice stops at the floor (usual price 325, floor 400), once.
    await until('reprice', () => has(run, 'reprice', 'repriced', cards.priced));
    expect((await world.client.listings.get(cards.priced)).priceRub).toBe(400);

    // Stock: the only code is sold, auto-delivery goes off; a refill brings it back.
    const autoOrder = await buy(cards.auto);
    expect(DELIVERED).toContain(await statusOf(autoOrder));
    await until('stock out', () => has(run, 'stock', 'out', cards.auto));
    await world.client.stock.refill(cards.auto, { items: ['CODE-0002', 'CODE-0003'] });
    await until('auto-delivery on again', () => has(run, 'stock', 'reenabled', cards.auto));
    expect((await world.client.listings.get(cards.auto)).autoIssue).toBe(true);
    expect(DELIVERED).toContain(await statusOf(await buy(cards.auto)));

    // Midday rush on a card no rule delivers: the backlog switches do-not-disturb on.
    const manual: string[] = [];
    for (let i = 0; i < 10; i++) manual.push(await buy(cards.manual));
    await until('backlog engaged', () => has(run, 'backlog', 'engaged'));
    expect((await world.client.workMode.get()).doNotDisturb).toBe(true);
    await expect(world.sandbox.createOrder({ number: cards.manual })).rejects.toMatchObject({ refusal: { kind: 'do_not_disturb' } });

    // The clock moves 50 of the 60 SLA minutes; a buyer asks when, twice.
    await world.sandbox.advanceClock({ seconds: 50 * 60 });
    await world.sandbox.message(manual[0]!, { text: 'Hello, when will it arrive?' });
    await until('SLA warning', () => has(run, 'deadline', 'warned', manual[0]));
    const warned = run.events.find((e) => e.rule === 'deadline' && e.type === 'warned' && e.order === manual[0])!;
    expect(warned.detail?.minutesLeft).toBeGreaterThanOrEqual(0);
    expect(warned.detail?.minutesLeft).toBeLessThanOrEqual(15);
    expect(await statusOf(manual[0]!)).toBe('awaiting_delivery'); // warned before the deadline
    await until('warning notified', () => lines('warnings.log').length > 0);
    await until('reply', () => has(run, 'replies', 'replied', manual[0]));
    await world.sandbox.message(manual[0]!, { text: 'And how long exactly? when?' });
    await until('second message left to the seller', () => has(run, 'replies', 'capped', manual[0]));
    const sellerMessages = (await world.client.orders.get(manual[0]!)).messages.filter((m) => m.from === 'seller');
    expect(sellerMessages.map((m) => m.text)).toEqual(['Your order is being prepared and arrives within the hour.']);

    // The seller delivers by hand; the backlog clears and the work mode is restored.
    for (const id of manual) await world.client.orders.deliver(id, { nextChargeDay: '2031-02-01' });
    await until('backlog restored', () => has(run, 'backlog', 'restored'));
    expect((await world.client.workMode.get()).doNotDisturb).toBe(false);

    // Afternoon: a burst of orders with slow activations; the autopilot is killed in the middle.
    const afternoon: string[] = [];
    run.child.kill('SIGTERM');
    expect(await run.closed).toEqual({ code: 0, signal: null });
    run = new Run(all, { DELIVER_DELAY_MS: '300' });
    await until('restart', () => has(run, 'autopilot', 'started'));
    for (const card of [cards.subs, cards.account, cards.credits, cards.subs, cards.account, cards.credits]) afternoon.push(await buy(card));
    await until('some afternoon deliveries', () => afternoon.filter((id) => has(run, 'deliver', 'delivered', id)).length >= 2, 30_000);
    run.child.kill('SIGKILL');
    await run.closed;
    // Orders keep coming while it is down.
    for (const card of [cards.subs, cards.account, cards.credits]) afternoon.push(await buy(card));
    run = new Run(all);
    for (const id of afternoon) await until(`afternoon delivery of ${id}`, async () => DELIVERED.includes(await statusOf(id)), 30_000);
    // Evening: stop it gracefully.
    await until('settled', () => afternoon.every((id) => all.some((e) => e.order === id && (e.type === 'delivered' || e.type === 'already-delivered'))), 10_000);
    run.child.kill('SIGINT');
    expect(await run.closed).toEqual({ code: 0, signal: null });
    expect(has(run, 'autopilot', 'stopped')).toBeDefined();

    // The kill interrupted deliveries in progress: the restart resumed them from the journal.
    expect(all.some((e) => e.rule === 'deliver' && e.type === 'resumed')).toBe(true);
    // Each order: delivered by one call at most, activated once, never invoked twice with the same attempt.
    const delivered = [...morning, ...afternoon];
    for (const id of delivered) {
      expect(all.filter((e) => e.order === id && e.type === 'delivered').length, id).toBeLessThanOrEqual(1);
      expect(all.filter((e) => e.order === id && (e.type === 'delivered' || e.type === 'already-delivered')).length, id).toBeGreaterThanOrEqual(1);
    }
    const activations = lines('activations.log');
    expect([...activations].sort()).toEqual([...delivered].sort());
    const invocations = lines('invocations.log').map((l) => l.split(' '));
    for (const id of delivered) {
      const attempts = invocations.filter(([order]) => order === id).map(([, attempt]) => Number(attempt));
      // Each attempt number once, rising. Not always from 1: an attempt is journalled before its
      // action starts, so a kill between the two leaves a number no action saw, and the restart
      // takes the next one (deliver.ts).
      expect(attempts.length, id).toBeGreaterThan(0);
      expect(attempts, id).toEqual([...new Set(attempts)].sort((a, b) => a - b));
      expect(attempts[0], id).toBeGreaterThanOrEqual(1);
    }
    // No order was touched by a rule that does not match it.
    for (const id of manual) expect(invocations.some(([order]) => order === id)).toBe(false);
    // One price change, stopped at the floor, with its audit line.
    const audit = lines('prices.jsonl').map((l) => JSON.parse(l));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ card: cards.priced, before: 500, after: 400, usual: 325, floor: 400 });
    expect(all.filter((e) => e.type === 'repriced')).toHaveLength(1);
    // Nothing printed holds a secret.
    expect(JSON.stringify(all)).not.toMatch(/s3cret/);
  }, 180_000);
});
