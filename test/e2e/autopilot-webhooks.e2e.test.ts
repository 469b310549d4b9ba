/**
 * The autopilot's webhook receiver (config `webhooks`) against a real server: with polling set to
 * once an hour, a paid order is delivered within moments because the signed `order.paid` delivery
 * wakes the watch; a forged delivery is refused (400) and wakes nothing. Polling stays the source:
 * the delivery itself is decided by the poll that the event triggers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient, SellerClient } from '../../sdk/index.ts';
import { runAutopilot, type AutopilotEvent } from '../../sdk/autopilot/index.ts';
import { signWebhook } from '../../sdk/webhooks/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let client: SellerClient;
let sandbox: SandboxClient;
let dir: string;
let card: number;

beforeAll(async () => {
  server = await startTestServer({ allowLocalHooks: true });
  client = new SellerClient({ apiKey: (await server.newSeller()).apiKey, baseUrl: server.url, strict: true });
  sandbox = new SandboxClient({ adminToken: server.adminToken, baseUrl: server.url, strict: true });
  ({ number: card } = await client.listings.create({ service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 500, slaMinutes: 60, guaranteeDays: 7 }));
  await client.listings.setState(card, { active: true });
  dir = mkdtempSync(join(tmpdir(), 'autopilot-hooks-'));
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const until = async (what: string, probe: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

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
