/**
 * `runAutopilot()` in-process against a real server: `dryRun` changes nothing (no delivery, no
 * action run, no price change, no state written) and says what it would do; a graceful stop waits
 * for a delivery in progress; buyer questions are answered once; the webhook receiver (config
 * `webhooks`) wakes the poll on a signed delivery, so with polling set to once an hour a paid order
 * is still delivered within moments, and a forged delivery is refused (400) and wakes nothing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient, SellerClient } from '../../sdk/index.ts';
import { runAutopilot, type AutopilotEvent } from '../../sdk/autopilot/index.ts';
import { signWebhook } from '../../sdk/webhooks/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';

let server: TestServer;
let client: SellerClient;
let sandbox: SandboxClient;
let dir: string;
let card: number;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: NO_RATE_LIMIT, allowLocalHooks: true });
  client = new SellerClient({ apiKey: (await server.newSeller()).apiKey, baseUrl: server.url, strict: true });
  sandbox = new SandboxClient({ adminToken: server.adminToken, baseUrl: server.url, strict: true });
  ({ number: card } = await client.listings.create({ service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 500, slaMinutes: 60, guaranteeDays: 7 }));
  await client.listings.setState(card, { active: true });
  dir = mkdtempSync(join(tmpdir(), 'autopilot-sdk-'));
}, 60_000);
afterAll(async () => {
  const closing = server?.close();
  server?.app.server.closeAllConnections();
  await closing;
  rmSync(dir, { recursive: true, force: true });
});

const until = async (what: string, probe: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('runAutopilot()', () => {
  it('dry run: reports, changes nothing, writes no state', async () => {
    const order = await sandbox.createOrder({ number: card });
    await sandbox.pay(order.id);
    const events: AutopilotEvent[] = [];
    const stop = new AbortController();
    const marker = join(dir, 'ran');
    const statePath = join(dir, 'dry.state.json');
    const running = runAutopilot(
      client,
      {
        pollSeconds: 0.1,
        deliver: [{ match: { card }, action: { command: `touch ${marker}` } }],
        reprice: { intervalMinutes: 1, auditLog: join(dir, 'audit.jsonl'), cards: [{ card, floor: 100, ceiling: 200 }] },
      },
      { dryRun: true, statePath, signal: stop.signal, onEvent: (e) => events.push(e) },
    );
    await until('would-deliver', () => events.some((e) => e.type === 'would-deliver' && e.order === order.id));
    stop.abort();
    await running;
    expect((await client.orders.get(order.id)).status).toBe('awaiting_delivery');
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(statePath)).toBe(false);
    expect(existsSync(join(dir, 'audit.jsonl'))).toBe(false);
    expect((await client.listings.get(card)).priceRub).toBe(500);
    // The usual price is unknown (one live card): no reprice is even proposed.
    expect(events.some((e) => e.rule === 'reprice')).toBe(false);
    expect(events.every((e) => e.rule === 'autopilot' || e.dryRun === true)).toBe(true);
  });

  it('a stop waits for the delivery in progress, which completes', async () => {
    const order = await sandbox.createOrder({ number: card });
    await sandbox.pay(order.id);
    const events: AutopilotEvent[] = [];
    const stop = new AbortController();
    const running = runAutopilot(client, { pollSeconds: 0.1, deliver: [{ match: { card }, action: { command: 'sleep 0.5' } }] }, { statePath: join(dir, 'run.state.json'), signal: stop.signal, onEvent: (e) => events.push(e) });
    // this order's own delivery (the dry run's order, still awaiting delivery, may be journalled first)
    const statePath = join(dir, 'run.state.json');
    await until('the delivery started', () => existsSync(statePath) && readFileSync(statePath, 'utf8').includes(order.id));
    stop.abort();
    const summary = await running;
    expect(summary['deliver.delivered']).toBeGreaterThanOrEqual(1);
    expect((await client.orders.get(order.id)).status).toBe('delivered');
    expect(events.at(-1)?.type).toBe('stopped');
  });

  it('answers a buyer question a template matches, once, and leaves the others to the seller', async () => {
    const matching = await sandbox.createQuestion({ number: card, text: 'Does the code renew itself each month?' });
    const other = await sandbox.createQuestion({ number: card, text: 'Can I pay by invoice?' });
    const events: AutopilotEvent[] = [];
    const statePath = join(dir, 'questions.state.json');
    const config = { pollSeconds: 0.1, replies: { questions: true, templates: [{ name: 'renewal', keywords: ['renew'], text: 'No: it is a one-time code.' }] } };
    const runOnce = async () => {
      const stop = new AbortController();
      const running = runAutopilot(client, config, { statePath, signal: stop.signal, onEvent: (e) => events.push(e) });
      await until('a tick of the replies', () => events.filter((e) => e.type === 'started').length > 0 && events.some((e) => e.rule === 'replies'));
      await new Promise((r) => setTimeout(r, 300));
      stop.abort();
      await running;
    };
    await runOnce();
    const answered = (await client.questions.list({})).items;
    expect(answered.find((q) => q.id === matching.id)?.answer).toBe('No: it is a one-time code.');
    expect(answered.find((q) => q.id === other.id)?.answer).toBeNull();
    // A second run (a restart) answers nothing again.
    const answeredEvents = () => events.filter((e) => e.rule === 'replies' && e.type === 'answered');
    expect(answeredEvents().map((e) => e.detail?.['question'])).toEqual([matching.id]);
    await runOnce();
    expect(answeredEvents()).toHaveLength(1);
  });
});

describe('autopilot webhooks: a signed delivery wakes the poll', () => {
  it('delivers a paid order at once though the next poll is an hour away; a forged delivery is refused', async () => {
    const events: AutopilotEvent[] = [];
    const stop = new AbortController();
    const secretFile = join(dir, 'secret');
    const running = (async () => {
      // The subscription (and its secret) comes first; the autopilot reads the secret file at start.
      return runAutopilot(
        client,
        {
          pollSeconds: 3600,
          deliver: [{ match: { card }, action: { command: 'true' } }],
          webhooks: { listen: { port: 0 }, secretFile },
        },
        { statePath: join(dir, 'state.json'), signal: stop.signal, onEvent: (e) => events.push(e) },
      );
    });
    // Subscribe a placeholder first to learn the secret, then point the subscription at the receiver.
    const first = await client.hooks.set({ url: 'http://127.0.0.1:9/placeholder', events: ['order.paid'] });
    writeFileSync(secretFile, `${first.secret}\n`);
    const run = running();
    await until('listening', () => events.some((e) => e.type === 'listening'));
    const url = String(events.find((e) => e.type === 'listening')!.detail!['url']);
    await client.hooks.set({ url, events: ['order.paid'] });
    // The first poll (at start) is over: the watch now sleeps for an hour.
    await until('the first poll', () => events.some((e) => e.type === 'started'));
    await new Promise((r) => setTimeout(r, 200));

    // A forged delivery (another secret) is refused and wakes nothing.
    const body = JSON.stringify({ event: 'order.paid', at: new Date().toISOString(), data: { order: 'ord_x', slaMinutes: 60 }, delivery: 'dlv_forged', attempt: 1 });
    const forged = signWebhook(body, 'whsec_not_the_secret', { event: 'order.paid', delivery: 'dlv_forged' });
    const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...forged.headers }, body });
    expect(refused.status).toBe(400);
    await until('the refusal', () => events.some((e) => e.rule === 'webhooks' && e.type === 'refused'));
    expect(events.some((e) => e.rule === 'webhooks' && e.type === 'event')).toBe(false);

    const order = await sandbox.createOrder({ number: card });
    await sandbox.pay(order.id);
    await until('the delivery', () => events.some((e) => e.rule === 'deliver' && e.type === 'delivered' && e.order === order.id), 10_000);
    const woke = events.find((e) => e.rule === 'webhooks' && e.type === 'event');
    expect(woke?.detail).toMatchObject({ event: 'order.paid' });
    expect(['delivered', 'completed']).toContain((await client.orders.get(order.id)).status);

    stop.abort();
    await run;
    // The receiver is closed with the autopilot.
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
  }, 30_000);

  it('refuses to start without a secret', async () => {
    const saved = process.env['SERVICE_WEBHOOK_SECRET'];
    delete process.env['SERVICE_WEBHOOK_SECRET'];
    try {
      await expect(
        runAutopilot(client, { deliver: [{ match: { card }, action: { command: 'true' } }], webhooks: { listen: { port: 0 } } }, { statePath: join(dir, 'none.json'), signal: AbortSignal.timeout(5_000) }),
      ).rejects.toThrow(/no signing secret/);
    } finally {
      if (saved !== undefined) process.env['SERVICE_WEBHOOK_SECRET'] = saved;
    }
  });
});
