/**
 * Our own clients pass the rehearsal (issue #27, section 4), end to end against a real
 * seller-server with faults: the SDK retries a deliver answered 503 twice under one idempotency key
 * and the order is delivered once; a deliver whose connection drops after the change ends in one
 * delivery and a success for the caller; a 429 is waited out by its Retry-After; the autopilot
 * delivers every order exactly once with a fault on every third call, in-process (runAutopilot) and
 * as `seller autopilot`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SellerClient } from '../../sdk/client.ts';
import { runAutopilot, type AutopilotEvent } from '../../sdk/autopilot/index.ts';
import type { AddFaultBody } from '../../sdk/sandbox-faults.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

const world = useSellerWorld({ cli: true, server: { rateLimit: NO_RATE_LIMIT }, card: { stock: Array.from({ length: 40 }, (_, i) => `CODE-${i}`) } });
const dir = mkdtempSync(join(tmpdir(), 'faults-clients-'));

afterEach(async () => {
  await world.sandbox.clearFaults();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Sent {
  method: string;
  path: string;
  key: string | null;
  status: number | 'dropped';
  replayed: boolean;
}

/** An SDK client of the world's seller that records every request it sends, and every wait between attempts. */
function recordingClient() {
  const sent: Sent[] = [];
  const waits: number[] = [];
  const client = new SellerClient({
    apiKey: world.apiKey,
    baseUrl: world.server.url,
    strict: true,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const entry: Sent = { method: request.method, path: new URL(request.url).pathname, key: request.headers.get('idempotency-key'), status: 'dropped', replayed: false };
      sent.push(entry);
      const res = await fetch(request);
      entry.status = res.status;
      entry.replayed = res.headers.get('idempotent-replayed') === 'true';
      return res;
    },
    sleep: async (ms) => {
      waits.push(ms);
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
  });
  return { client, sent, waits };
}

const addFault = (body: AddFaultBody) => world.sandbox.addFault({ sellerId: world.sellerId, ...body });
/** How many times the order's note reached the buyer: once per delivery that ran. */
const notesOf = async (order: string, note: string) => (await world.client.orders.get(order)).messages.filter((m) => m.text === note).length;

describe('the SDK', () => {
  it('retries a deliver answered 503 twice under one idempotency key; the order is delivered once', async () => {
    const order = await world.buy(world.card);
    await addFault({ op: 'orders.deliver', status: 503, times: 2 });
    const { client, sent } = recordingClient();
    const delivered = await client.orders.deliver(order, { note: 'Enjoy (503)' });
    expect(delivered.status).toBe('delivered');
    const delivers = sent.filter((s) => s.path.endsWith('/deliver'));
    expect(delivers.map((s) => s.status)).toEqual([503, 503, 200]);
    expect(new Set(delivers.map((s) => s.key)).size).toBe(1);
    expect(delivers[0]!.key).toBeTruthy();
    expect(await notesOf(order, 'Enjoy (503)')).toBe(1);
  });

  it('a deliver dropped after the change: one delivery, and a success for the caller (the replay)', async () => {
    const order = await world.buy(world.card);
    await addFault({ op: 'orders.deliver', dropAfter: true, times: 1 });
    const { client, sent } = recordingClient();
    const delivered = await client.orders.deliver(order, { note: 'Enjoy (dropped)' });
    expect(delivered.status).toBe('delivered');
    const delivers = sent.filter((s) => s.path.endsWith('/deliver'));
    expect(delivers.map((s) => [s.status, s.replayed])).toEqual([['dropped', false], [200, true]]);
    expect(delivers[0]!.key).toBe(delivers[1]!.key);
    expect(await notesOf(order, 'Enjoy (dropped)')).toBe(1);
  });

  it("waits out a 429 by its Retry-After", async () => {
    await addFault({ op: 'orders.list', status: 429, times: 1 });
    const { client, sent, waits } = recordingClient();
    await client.orders.list({});
    expect(sent.map((s) => s.status)).toEqual([429, 200]);
    expect(waits).toEqual([1000]);
  });
});

describe('the autopilot', () => {
  it.each<[string, AddFaultBody]>([
    ['503', { op: '*', status: 503, every: 3 }],
    ['a connection dropped after the change', { op: '*', dropAfter: true, every: 3 }],
  ])('delivers every order exactly once with %s on every third call', async (_name, fault) => {
    const orders: string[] = [];
    for (let i = 0; i < 5; i++) orders.push(await world.buy(world.card));
    const log = join(dir, `actions-${orders[0]}.log`);
    await addFault(fault);
    const events: AutopilotEvent[] = [];
    const stop = new AbortController();
    const running = runAutopilot(
      world.client,
      { pollSeconds: 0.1, deliver: [{ match: { card: world.card }, action: { command: `echo "$SERVICE_ORDER_ID" >> ${JSON.stringify(log)}` } }] },
      { statePath: join(dir, `state-${orders[0]}.json`), signal: stop.signal, onEvent: (e) => events.push(e) },
    );
    const deliveredOf = (id: string) => events.filter((e) => e.rule === 'deliver' && e.type === 'delivered' && e.order === id);
    try {
      await waitFor('every order delivered', () => orders.every((id) => deliveredOf(id).length > 0), {
        ms: 60_000,
        describe: () => events.map((e) => `${e.type} ${e.order ?? ''} ${e.message ?? ''}`).join('\n'),
      });
    } finally {
      stop.abort();
      await running;
    }
    for (const id of orders) {
      expect(deliveredOf(id)).toHaveLength(1);
      expect((await world.client.orders.get(id)).status).toBe('delivered');
    }
    const ran = readFileSync(log, 'utf8').trim().split('\n');
    expect(ran.sort()).toEqual([...orders].sort());
    const [still] = (await world.sandbox.listFaults()).items;
    expect(still!.hits).toBeGreaterThan(0);
  }, 90_000);
});

describe('seller autopilot', () => {
  it('delivers every order exactly once with drop-after on every third call', async () => {
    const orders: string[] = [];
    for (let i = 0; i < 4; i++) orders.push(await world.buy(world.card));
    const log = join(dir, 'cli-actions.log');
    const config = join(dir, 'autopilot.json');
    writeFileSync(config, JSON.stringify({ pollSeconds: 0.2, deliver: [{ match: { card: world.card }, action: { command: `echo "$SERVICE_ORDER_ID" >> ${JSON.stringify(log)}` } }] }));
    await addFault({ op: '*', dropAfter: true, every: 3 });
    const child = world.spawn(['autopilot', '--config', config, '--state', join(dir, 'cli-state.json'), '--json']);
    const events: AutopilotEvent[] = [];
    let buffer = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      buffer += text;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        events.push(JSON.parse(buffer.slice(0, nl)) as AutopilotEvent);
        buffer = buffer.slice(nl + 1);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const closed = new Promise((resolve) => child.on('close', resolve));
    const deliveredOf = (id: string) => events.filter((e) => e.rule === 'deliver' && e.type === 'delivered' && e.order === id);
    try {
      await waitFor('every order delivered', () => orders.every((id) => deliveredOf(id).length > 0), {
        ms: 60_000,
        describe: () => `${events.map((e) => `${e.type} ${e.order ?? ''} ${e.message ?? ''}`).join('\n')}\n${stderr}`,
      });
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
    for (const id of orders) {
      expect(deliveredOf(id)).toHaveLength(1);
      expect((await world.client.orders.get(id)).status).toBe('delivered');
    }
    expect(readFileSync(log, 'utf8').trim().split('\n').sort()).toEqual([...orders].sort());
    expect((await world.sandbox.listFaults()).items[0]!.hits).toBeGreaterThan(0);
  }, 120_000);
});
