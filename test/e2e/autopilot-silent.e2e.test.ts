/**
 * The autopilot is never silent where a seller could lose something (issue "Never silent",
 * items 7–9), in-process against a real seller-server:
 * - a failed action says why: the last lines of its stderr, bounded, on the event's one line and
 *   in its detail;
 * - orders that move without it are reported once: cancelled by the buyer, disputed, refunded when
 *   a sandbox clock jump passed its deadline (with the deadline guard's "missed" line), and nothing
 *   again after a restart; history before a first run is not news;
 * - within the key's budget: a paced client spends about one call per delivered order and no 429.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SellerClient } from '../../sdk/index.ts';
import { englishOf, runAutopilot, type AutopilotEvent } from '../../sdk/autopilot/index.ts';
import type { AutopilotConfigInput } from '../../sdk/autopilot/config.ts';
import { OUTPUT_TAIL_CHARS } from '../../sdk/autopilot/actions.ts';
import { pacedFetch } from '../../sdk/pacing.ts';
import { eventLine } from '../../cli/commands/autopilot.ts';
import { startSellerWorld, useSellerWorld, type SellerWorld } from '../helpers/seller-world.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { writeFileSync } from 'node:fs';
import { waitFor } from '../helpers/wait.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'autopilot-silent-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const until = async (what: string, probe: () => boolean, events: AutopilotEvent[], ms = 15_000): Promise<void> => {
  await waitFor(what, probe, { ms, describe: () => `events: ${JSON.stringify(events.map((e) => `${e.rule}.${e.type} ${e.order ?? ''}`))}` });
};

/** A new seller with a switched-on code card (CODE_CARD) and a strict client, and the world's sandbox and buyer. */
async function shop(world: SellerWorld) {
  const { client, card, spawn } = await world.newShop({ client: { strict: true }, card: {} });
  return { client, sandbox: world.sandbox, buy: world.buy, card, spawn };
}

/** Runs the autopilot until `done(events)`, then stops it. */
async function runUntil(client: SellerClient, config: AutopilotConfigInput, statePath: string, what: string, done: (events: AutopilotEvent[]) => boolean, meanwhile?: (events: AutopilotEvent[]) => Promise<void>) {
  const events: AutopilotEvent[] = [];
  const stop = new AbortController();
  const running = runAutopilot(client, config, { statePath, signal: stop.signal, onEvent: (e) => events.push(e) });
  try {
    await until('started', () => events.some((e) => e.type === 'started'), events);
    await meanwhile?.(events);
    await until(what, () => done(events), events);
  } finally {
    stop.abort();
    await running;
  }
  // Every event says its words as data, and its English line is made from them.
  expect(events.filter((e) => e.say === undefined || englishOf(e.say) !== e.message).map((e) => e.message)).toEqual([]);
  return events;
}

describe('a failed action says why', () => {
  const world = useSellerWorld({ server: { rateLimit: NO_RATE_LIMIT } });

  it("the last lines of the command's stderr are on the event's one line and in its detail", async () => {
    const { client, buy, card } = await shop(world);
    const id = await buy(card);
    const command = `echo 'connecting to the vendor' >&2; echo 'step 2 of 3' >&2; echo 'vendor API: 403 Forbidden (token expired)' >&2; exit 3`;
    const events = await runUntil(client, { pollSeconds: 0.1, deliver: [{ match: { card }, action: { command } }] }, join(dir, 'failed.state.json'), 'the failure', (es) => es.some((e) => e.type === 'failed'));
    const failed = events.find((e) => e.type === 'failed')!;
    expect(failed.message).toContain('the command failed with exit code 3: connecting to the vendor | step 2 of 3 | vendor API: 403 Forbidden (token expired)');
    expect(failed.message).not.toContain('\n');
    expect(failed.detail).toMatchObject({ step: 'action', output: 'connecting to the vendor | step 2 of 3 | vendor API: 403 Forbidden (token expired)' });
    // The same as data: the exit code, and the output as the command wrote it.
    expect(failed.say).toMatchObject({
      form: 'failed',
      values: { id, reason: { say: { form: 'action.output', values: { action: { form: 'action.exitCode', values: { exitCode: 3 } }, output: 'connecting to the vendor | step 2 of 3 | vendor API: 403 Forbidden (token expired)' } } } },
    });
    expect(eventLine(failed).split('\n')).toHaveLength(1);
    expect((await client.orders.get(id)).status).toBe('awaiting_delivery');
  });

  it("an action answering a next charge day in the past (by the service's clock) fails the delivery, saying so", async () => {
    const { client, buy, card } = await shop(world);
    const id = await buy(card);
    const command = `echo '{"nextChargeDay":"2025-01-01"}'`;
    const events = await runUntil(client, { pollSeconds: 0.1, deliver: [{ match: { card }, action: { command } }] }, join(dir, 'past.state.json'), 'the failure', (es) => es.some((e) => e.type === 'failed'));
    expect(events.find((e) => e.type === 'failed')!.message).toMatch(/"nextChargeDay" 2025-01-01 is in the past \(the service's today is \d{4}-\d{2}-\d{2}\)/);
    expect((await client.orders.get(id)).status).toBe('awaiting_delivery');
  });

  it('a long stderr is bounded to its end', async () => {
    const { client, buy, card } = await shop(world);
    const id = await buy(card);
    const command = `node -e "for (let i = 0; i < 500; i++) console.error('noise line ' + i + ' ' + 'x'.repeat(80)); console.error('the real reason'); process.exitCode = 2"`;
    const events = await runUntil(client, { pollSeconds: 0.1, deliver: [{ match: { card }, action: { command } }] }, join(dir, 'long.state.json'), 'the failure', (es) => es.some((e) => e.type === 'failed'));
    const output = events.find((e) => e.type === 'failed')!.detail!['output'] as string;
    expect(output.length).toBeLessThanOrEqual(OUTPUT_TAIL_CHARS);
    expect(output).toMatch(/the real reason$/);
    expect((await client.orders.get(id)).status).toBe('awaiting_delivery');
  });
});

describe('`seller autopilot` status lines (the built CLI, no terminal)', () => {
  const world = useSellerWorld({ cli: true, server: { rateLimit: NO_RATE_LIMIT } });

  it('says "autopilot started" once, and a failed action\'s reason on its one line', async () => {
    const { spawn, buy, card } = await shop(world);
    const id = await buy(card);
    const config = join(dir, 'cli-autopilot.json');
    writeFileSync(config, JSON.stringify({ pollSeconds: 0.1, deliver: [{ match: { card }, action: { command: "echo 'vendor says: quota exceeded' >&2; exit 4" } }] }));
    const child = spawn(['autopilot', '--config', config]);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    const closed = new Promise((resolve) => child.on('close', resolve));
    try {
      await until('the failed line', () => /\bfailed\b/.test(out), []);
    } finally {
      child.kill('SIGINT');
      await closed;
    }
    const started = out.split('\n').find((line) => /\bstarted\b/.test(line))!;
    expect(started.match(/autopilot/g)).toHaveLength(1);
    const failed = out.split('\n').find((line) => /\bfailed\b/.test(line))!;
    expect(failed).toContain(`${id}: not delivered, the command failed with exit code 4: vendor says: quota exceeded; deliver it by hand`);
  });
});

describe('orders that move without the autopilot are reported', () => {
  const world = useSellerWorld({ server: { rateLimit: NO_RATE_LIMIT } });

  it('cancelled, disputed, refunded at a deadline a clock jump passed (and missed): one line each, none again after a restart', async () => {
    const { client, sandbox, buy, card } = await shop(world);
    // history: cancelled before the autopilot ever ran
    const old = await sandbox.createOrder({ number: card });
    await sandbox.cancel(old.id);
    const late = await buy(card);
    const leaving = await buy(card);
    const quarrel = await buy(card);
    await client.orders.putVault(quarrel, { secret: 'CODE-1' });
    await client.orders.deliver(quarrel, {});

    const config: AutopilotConfigInput = { pollSeconds: 0.1, deadline: { warnMinutesBefore: 15, disputes: false } };
    const statePath = join(dir, 'moved.state.json');
    const moved = (es: AutopilotEvent[], type: string, id: string) => es.some((e) => e.rule === 'orders' && e.type === type && e.order === id);
    const events = await runUntil(
      client,
      config,
      statePath,
      'the three moves',
      (es) => moved(es, 'cancelled', leaving) && moved(es, 'disputed', quarrel) && moved(es, 'refunded', late) && es.some((e) => e.type === 'missed'),
      async () => {
        await new Promise((r) => setTimeout(r, 300)); // the first run's catch-up is over
        await sandbox.cancel(leaving);
        await sandbox.dispute(quarrel, { text: 'The code does not work.' });
        await sandbox.advanceClock({ seconds: 2 * 3600 }); // past the 60-minute deadline of `late` and `leaving`
      },
    );
    const about = (id: string) => events.filter((e) => e.order === id && ((e.rule === 'orders' && e.type !== 'needs-hand') || e.type === 'missed'));
    expect(events.some((e) => e.order === old.id)).toBe(false);
    // No rule delivers: the two orders awaiting delivery at the start needed a hand (said once each).
    expect(events.filter((e) => e.type === 'needs-hand').map((e) => e.order).sort()).toEqual([late, leaving].sort());
    expect(about(leaving).map((e) => e.type)).toEqual(['cancelled']);
    expect(about(quarrel).map((e) => e.type)).toEqual(['disputed']);
    expect(about(late).map((e) => `${e.rule}.${e.type}`)).toEqual(['orders.refunded', 'deadline.missed']);
    expect(about(late)[0]!.message).toMatch(/was refunded: its delivery deadline .* passed before it was delivered/);
    expect(about(late)[1]!.message).toMatch(/missed its delivery deadline .* with no warning given/);

    // a restart from the same state repeats none of it
    const again = await runUntil(client, config, statePath, 'a few polls', () => true, async () => {
      await new Promise((r) => setTimeout(r, 500));
    });
    expect(again.filter((e) => e.rule === 'orders' || e.type === 'missed')).toEqual([]);
  });
});

describe("within the key's budget", () => {
  it('a paced client: about one call per delivered order beyond the polls, and no 429', async () => {
    const counted = { calls: 0, limited: 0, on: false };
    const stream = {
      write(line: string) {
        if (!counted.on || !line.includes('"request completed"')) return;
        counted.calls++;
        if (line.includes('"statusCode":429')) counted.limited++;
      },
    };
    // A seller whose client paces itself, with a switched-on code card (CODE_CARD).
    const world = await startSellerWorld({ server: { rateLimit: { perMinute: 600, burst: 10 }, logger: { level: 'info', stream } }, client: { fetch: pacedFetch((input, init) => fetch(input, init)) }, card: {} });
    try {
      const { client, card } = world;
      const orders = 30;
      for (let i = 0; i < orders; i++) {
        await world.buy(card);
      }
      await new Promise((r) => setTimeout(r, 1000)); // the setup's calls are refilled
      counted.on = true;
      const events = await runUntil(client, { pollSeconds: 0.2, deliver: [{ match: { card }, action: { command: 'true' } }] }, join(dir, 'budget.state.json'), 'every delivery', (es) => es.filter((e) => e.type === 'delivered').length === orders, undefined);
      counted.on = false;
      expect(events.filter((e) => e.type === 'delivered')).toHaveLength(orders);
      expect(counted.limited).toBe(0);
      expect(counted.calls / orders).toBeLessThanOrEqual(1.2);
    } finally {
      await world.close();
    }
  }, 30_000);
});
