/**
 * Real webhooks on a developer's machine, end to end with the real binaries' code: seller-server
 * delivers to its probe receiver, `seller hooks probe --forward-to` relays each new hit to a local
 * receiver that verifies the signature with the SDK's verifyWebhook; a restart relays nothing twice
 * (and relays what came while it was stopped). `seller hooks send` signs a body of the user's with
 * the user's secret; a receiver with another secret refuses it.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SellerClient } from '../../sdk/client.ts';
import { computeSignature } from '../../sdk/webhooks/index.ts';
import { ensureBuilt, runSeller, spawnSeller } from '../helpers/cli.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { until } from '../helpers/seeded-account.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let configDir: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer();
}, 120_000);

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

afterAll(async () => {
  await server?.close();
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

/** Starts the relay and waits until its first poll is done (its state file exists). */
async function startRelay(env: Record<string, string>, forwardTo: string) {
  const child = spawnSeller(['--json', 'hooks', 'probe', '--forward-to', forwardTo, '--interval', '0.1'], { env });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await until('the relay to start', async () => (stderr.includes('Relaying new hits') ? true : undefined));
  await until('the relay state file', async () => (readdirSafe(join(env.SELLER_CONFIG_DIR!, 'relay')) ? true : undefined));
  return {
    lines: () => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line)),
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

function readdirSafe(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.endsWith('.json'));
  } catch {
    return false;
  }
}

describe('seller hooks probe --forward-to', () => {
  it('relays each new hit byte for byte with its headers; the handler verifies it; a restart relays nothing twice', async () => {
    configDir = mkdtempSync(join(tmpdir(), 'seller-relay-'));
    const seller = await server.newSeller();
    const client = new SellerClient({ apiKey: seller.apiKey, baseUrl: server.url, maxRetries: 0 });
    const { url: probeUrl } = await client.hooks.createProbe();
    const { secret } = await client.hooks.set({ url: probeUrl, events: ['order.new', 'order.paid', 'order.message'] });
    const receiver = await startReceiver(() => secret!);
    try {
      // A hit from before the first start is history: not relayed.
      const before = await client.hooks.test({ event: 'order.message' });
      await until('the earlier hit', async () => ((await client.hooks.probe({})).items.length === 1 ? true : undefined));

      const env = { SERVICE_API_KEY: seller.apiKey, SERVICE_BASE_URL: server.url, SELLER_CONFIG_DIR: configDir };
      const relay = await startRelay(env, receiver.url);

      // Real events: a buyer orders and pays a card of the seller's.
      const card = await client.listings.create({ ...CODE_CARD } as never);
      await client.listings.setState(card.number, { active: true });
      const order = await server.sandbox<{ id: string }>('POST', '/orders', { number: card.number });
      await server.sandbox('POST', `/orders/${order.id}/pay`);
      await until('two relayed deliveries', async () => (receiver.got.length >= 2 ? true : undefined));
      await until('two status lines', async () => (relay.lines().length >= 2 ? true : undefined));

      expect(receiver.got.map((r) => [r.event, r.verified])).toEqual([
        ['order.new', true],
        ['order.paid', true],
      ]);
      // Byte for byte, with the original headers: the probe's record and the handler's are the same.
      const hits = (await client.hooks.probe({})).items;
      for (const got of receiver.got) {
        const hit = hits.find((h) => h.headers['x-service-delivery'] === got.headers['x-service-delivery'])!;
        expect(got.body).toBe(hit.body);
        for (const name of ['content-type', 'x-service-event', 'x-service-delivery', 'x-service-timestamp', 'x-service-attempt', 'x-service-signature']) {
          expect(got.headers[name], name).toBe(hit.headers[name]);
        }
      }
      expect(receiver.got.some((r) => r.headers['x-service-delivery'] === before.delivery)).toBe(false);
      expect(relay.lines()).toEqual([
        expect.objectContaining({ event: 'order.new', delivery: receiver.got[0]!.headers['x-service-delivery'], attempt: 1, status: 204 }),
        expect.objectContaining({ event: 'order.paid', delivery: receiver.got[1]!.headers['x-service-delivery'], attempt: 1, status: 204 }),
      ]);
      // Ctrl-C ends it cleanly.
      expect(await relay.stop()).toBe(0);

      // While it is stopped, one more delivery comes; the restart relays it, and only it.
      const during = await client.hooks.test({ event: 'order.paid' });
      await until('the hit while stopped', async () => ((await client.hooks.probe({})).items.length === 4 ? true : undefined));
      const again = await startRelay(env, receiver.url);
      await until('the relay of the hit while stopped', async () => (receiver.got.length >= 3 ? true : undefined));
      await new Promise((r) => setTimeout(r, 500)); // a few more polls: nothing else may come
      expect(await again.stop()).toBe(0);
      expect(receiver.got).toHaveLength(3);
      expect(receiver.got[2]).toMatchObject({ event: 'order.paid', verified: true });
      expect(receiver.got[2]!.headers['x-service-delivery']).toBe(during.delivery);
      const deliveries = receiver.got.map((r) => `${r.headers['x-service-delivery']}#${r.headers['x-service-attempt']}`);
      expect(new Set(deliveries).size).toBe(deliveries.length);
      expect(again.lines()).toEqual([expect.objectContaining({ delivery: during.delivery, status: 204 })]);
    } finally {
      await receiver.close();
    }
  });

  it('shows a handler that is down as a failed relay (no answer code, the system error)', async () => {
    const seller = await server.newSeller();
    const client = new SellerClient({ apiKey: seller.apiKey, baseUrl: server.url, maxRetries: 0 });
    const { url: probeUrl } = await client.hooks.createProbe();
    await client.hooks.set({ url: probeUrl, events: ['order.paid'] });
    const dir = mkdtempSync(join(tmpdir(), 'seller-relay-'));
    try {
      const relay = await startRelay({ SERVICE_API_KEY: seller.apiKey, SERVICE_BASE_URL: server.url, SELLER_CONFIG_DIR: dir }, 'http://127.0.0.1:9/hooks');
      await client.hooks.test({ event: 'order.paid' });
      await until('the failed relay line', async () => (relay.lines().length >= 1 ? true : undefined));
      expect(relay.lines()[0]).toMatchObject({ event: 'order.paid', status: null, error: 'ECONNREFUSED' });
      expect(await relay.stop()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an address that is not http(s), and --secret-file with it', async () => {
    const bad = await runSeller(['hooks', 'probe', '--forward-to', 'ftp://localhost/x'], { env: { SERVICE_API_KEY: 'service_test_x' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--forward-to: only http and https addresses');
    const both = await runSeller(['hooks', 'probe', '--forward-to', 'http://localhost:1/x', '--secret-file', 'x'], { env: { SERVICE_API_KEY: 'service_test_x' } });
    expect(both.code).toBe(2);
  });
});

describe('seller hooks send', () => {
  const SECRET = `whsec_${'k'.repeat(32)}`;
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'seller-send-'));
    writeFileSync(join(dir, 'secret'), `${SECRET}\n`, { mode: 0o600 });
    writeFileSync(join(dir, 'wrong'), `whsec_${'w'.repeat(32)}\n`, { mode: 0o600 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const body = '{"event":"order.paid","delivery":"dlv_local1","at":"2026-11-21T08:13:39.000Z","attempt":1,"data":{"order":"ord_1","number":1,"status":"awaiting_delivery","slaMinutes":60}}';

  it('signs the file with the secret; the receiver verifies it (exit 0)', async () => {
    const receiver = await startReceiver(() => SECRET);
    try {
      writeFileSync(join(dir, 'paid.json'), body);
      const result = await runSeller(['hooks', 'send', receiver.url, '--file', join(dir, 'paid.json'), '--secret-file', join(dir, 'secret')]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('order.paid dlv_local1 → 204\n');
      expect(receiver.got).toHaveLength(1);
      expect(receiver.got[0]).toMatchObject({ verified: true, event: 'order.paid', body });
      expect(receiver.got[0]!.headers).toMatchObject({ 'x-service-event': 'order.paid', 'x-service-delivery': 'dlv_local1', 'x-service-attempt': '1' });
      expect(Math.abs(Number(receiver.got[0]!.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    } finally {
      await receiver.close();
    }
  });

  it('reads stdin, takes the secret from the environment and any event kind from --event', async () => {
    const receiver = await startReceiver(() => SECRET);
    try {
      const custom = '{"data":{"thing":1}}';
      const result = await runSeller(['--json', 'hooks', 'send', receiver.url, '--file', '-', '--event', 'payout.sent'], {
        input: custom,
        env: { SERVICE_WEBHOOK_SECRET: SECRET },
      });
      const got = receiver.got[0]!;
      expect(got.body).toBe(custom);
      expect(got.headers['x-service-event']).toBe('payout.sent');
      expect(got.headers['x-service-delivery']).toMatch(/^dlv_[A-Za-z0-9]{24}$/);
      // Signed with the secret from the environment over the exact bytes.
      expect(got.headers['x-service-signature']).toBe(computeSignature(got.headers['x-service-timestamp']!, custom, SECRET));
      const out = JSON.parse(result.stdout);
      expect(out).toEqual({ url: receiver.url, event: 'payout.sent', delivery: got.headers['x-service-delivery'], status: got.verified ? 204 : 400 });
      expect(result.code).toBe(got.verified ? 0 : 1);
    } finally {
      await receiver.close();
    }
  });

  it('a receiver with another secret refuses it: exit 1 with its answer', async () => {
    const receiver = await startReceiver(() => SECRET);
    try {
      writeFileSync(join(dir, 'paid.json'), body);
      const result = await runSeller(['hooks', 'send', receiver.url, '--file', join(dir, 'paid.json'), '--secret-file', join(dir, 'wrong')]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('order.paid dlv_local1 → 400\n');
      expect(result.stderr).toContain('error: the receiver answered 400');
      expect(result.stderr).toContain('refused: mismatch');
      expect(receiver.got[0]!.verified).toBe(false);
      // The secret is never printed.
      expect(result.stdout + result.stderr).not.toContain('whsec_');
    } finally {
      await receiver.close();
    }
  });

  it('needs a body and a secret, and never takes the secret in argv', async () => {
    const noFile = await runSeller(['hooks', 'send', 'http://127.0.0.1:9/x', '--secret-file', join(dir, 'secret')]);
    expect(noFile.code).toBe(2);
    const noSecret = await runSeller(['hooks', 'send', 'http://127.0.0.1:9/x', '--file', '-'], { input: body });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('a signing secret is needed');
    const down = await runSeller(['hooks', 'send', 'http://127.0.0.1:9/x', '--file', '-'], { input: body, env: { SERVICE_WEBHOOK_SECRET: SECRET } });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('could not reach');
  });
});
