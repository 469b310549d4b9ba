/**
 * `seller hooks listen`: in-process through run() on port 0 (signed and tampered deliveries,
 * forwarding byte for byte), and end to end: the built binary receiving a real `hooks test`
 * delivery from a seller-server that allows local hook addresses.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../../sdk/webhooks/index.ts';
import { formatRecord, startHooksListener } from '../../cli/commands/hooks-listen.ts';
import { t, useLanguage } from '../../cli/i18n/index.ts';
import { ROOT } from '../helpers/cli.ts';
import { createDeps } from '../../cli/lib/deps.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';
import { bufferIO, run, tempConfigDir, type TestIO } from './helpers.ts';
import { freePort } from '../helpers/wait.ts';

const SECRET = `whsec_${'Lq7Rt9Wx'.repeat(4)}`;

let dir: ReturnType<typeof tempConfigDir>;
let secretFile: string;
beforeEach(() => {
  dir = tempConfigDir();
  secretFile = join(dir.dir, 'webhook.secret');
  writeFileSync(secretFile, `${SECRET}\n`);
});
afterEach(() => dir.cleanup());

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/** Starts `seller hooks listen` in-process; answers its URL and the pending run. */
async function listen(args: string[], env: Record<string, string> = {}) {
  const io: TestIO = bufferIO({ env: { SELLER_CONFIG_DIR: dir.dir, ...env } });
  let finished = false;
  const done = run(['hooks', 'listen', '--port', '0', ...args], io).finally(() => (finished = true));
  const url = await waitFor(() => {
    if (finished) throw new Error(`listen ended early: ${io.err()}`);
    return /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.err())?.[1];
  }, 'the listening line');
  return { io, done, url };
}

const paidEvent = (delivery: string, extra: Record<string, unknown> = {}) => ({
  event: 'order.paid',
  at: new Date().toISOString(),
  data: { order: 'ord_1', number: 1001, status: 'awaiting_delivery', slaMinutes: 60 },
  delivery,
  attempt: 1,
  ...extra,
});

const post = (url: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('seller hooks listen (in-process)', () => {
  it('answers 200 to a signed delivery and 400 with the reason to a tampered one, printing both', async () => {
    const { io, done, url } = await listen(['--secret-file', secretFile, '--count', '1']);
    expect(io.err()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);

    const tampered = signWebhook(paidEvent('dlv_bad'), SECRET);
    const bad = await post(`${url}/hooks`, tampered.body.replace('"slaMinutes":60', '"slaMinutes":61'), tampered.headers);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'mismatch' });

    const unsigned = await post(url, JSON.stringify(paidEvent('dlv_none')), {});
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ error: 'missing_header' });

    const get = await fetch(url);
    expect(get.status).toBe(405);

    const signed = signWebhook(paidEvent('dlv_good'), SECRET);
    const good = await post(`${url}/hooks`, signed.body, signed.headers);
    expect(good.status).toBe(200);

    const result = await done; // --count 1: the valid delivery ends it
    expect(result.code).toBe(0);
    const lines = result.out.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/\torder\.paid\tdlv_bad\t#1\tinvalid: mismatch \(signature does not match\)$/);
    expect(lines[1]).toMatch(/\t-\t-\t-\tinvalid: missing_header \(a header is missing\)$/);
    expect(lines[2]).toMatch(/\tinvalid: method_not_allowed \(not a POST\)$/);
    expect(lines[3]).toMatch(/\torder\.paid\tdlv_good\t#1\tvalid$/);
  });

  it('takes the secret from SERVICE_WEBHOOK_SECRET and prints NDJSON with --json', async () => {
    const io: TestIO = bufferIO({ env: { SELLER_CONFIG_DIR: dir.dir, SERVICE_WEBHOOK_SECRET: SECRET } });
    const done = run(['--json', 'hooks', 'listen', '--port', '0', '--count', '1'], io);
    const url = await waitFor(() => /listening on (\S+)/.exec(io.err())?.[1], 'the listening line');
    const signed = signWebhook(paidEvent('dlv_json', { test: true, attempt: 3 }), SECRET);
    expect((await post(url, signed.body, signed.headers)).status).toBe(200);
    const result = await done;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ valid: true, status: 200, event: 'order.paid', delivery: 'dlv_json', attempt: 3, test: true });
  });

  it('forwards a valid delivery with identical bytes and x-service-* headers, and reports the status', async () => {
    let received: { body: Buffer; headers: IncomingHttpHeaders; url: string | undefined } | undefined;
    const target: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received = { body: Buffer.concat(chunks), headers: req.headers, url: req.url };
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/app/webhooks?x=1`;
    try {
      const { done, url } = await listen(['--secret-file', secretFile, '--forward-to', targetUrl, '--count', '1']);
      // Unusual but valid bytes: spacing, key order and non-ASCII text must all survive.
      const body = `{ "attempt":1,"event":"order.message","at":"${new Date().toISOString()}",\n "data":{"order":"ord_1","number":1001,"status":"awaiting_delivery","message":{"id":"msg_1","text":"Привет — ✓","at":"2026-01-01T00:00:00.000Z"}},"delivery":"dlv_fwd"}`;
      const signed = signWebhook(body, SECRET);
      const answer = await post(url, new Uint8Array(Buffer.from(signed.body, 'utf8')), { ...signed.headers, 'content-type': 'application/json; charset=utf-8' });
      expect(answer.status).toBe(200);
      const result = await done;
      expect(result.code).toBe(0);
      expect(received).toBeDefined();
      expect(received!.url).toBe('/app/webhooks?x=1');
      expect(received!.body.equals(Buffer.from(signed.body, 'utf8'))).toBe(true);
      for (const [name, value] of Object.entries(signed.headers)) expect(received!.headers[name]).toBe(value);
      expect(received!.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(result.out).toMatch(/\torder\.message\tdlv_fwd\t#1\tvalid\t→ 202\n$/);
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it('does not forward an invalid delivery; a failed forward is reported and the sender still gets 200', async () => {
    const io = bufferIO({ env: { SELLER_CONFIG_DIR: dir.dir } });
    const deps = createDeps(io, {}, {});
    // A port nothing listens on: take one, then free it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    const listener = await startHooksListener({ port: 0, secretFile, forwardTo: `http://127.0.0.1:${deadPort}/` }, deps);
    try {
      const signed = signWebhook(paidEvent('dlv_fail'), SECRET);
      expect((await post(listener.url, signed.body, signed.headers)).status).toBe(200);
      await waitFor(() => (io.out().includes('dlv_fail') ? true : undefined), 'the delivery line');
      expect(io.out()).toMatch(/dlv_fail\t#1\tvalid\t→ failed: ECONNREFUSED/);
    } finally {
      await listener.stop();
    }
    await listener.done;
  });

  it('without a secret it is a usage error', async () => {
    const result = await run(['hooks', 'listen', '--port', '0'], bufferIO({ env: { SELLER_CONFIG_DIR: dir.dir } }));
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/a signing secret is needed: --secret-file FILE or SERVICE_WEBHOOK_SECRET/);
  });

  it('a port in use is an error naming it', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const result = await run(['hooks', 'listen', '--port', String(port), '--secret-file', secretFile], bufferIO({ env: { SELLER_CONFIG_DIR: dir.dir } }));
      expect(result.code).toBe(1);
      expect(result.err).toMatch(new RegExp(`port ${port} is already in use`));
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('refuses a --forward-to that is not http(s)', async () => {
    const result = await run(['hooks', 'listen', '--secret-file', secretFile, '--forward-to', 'ftp://x'], bufferIO({ env: { SELLER_CONFIG_DIR: dir.dir } }));
    expect(result.code).toBe(2);
  });
});

describe('seller hooks listen (end to end with seller-server)', () => {
  /** A seller on a server that delivers hooks to 127.0.0.1. */
  const world = useSellerWorld({ cli: true, server: { allowLocalHooks: true } });

  it('hooks set to the listener, hooks test → the listener prints a valid order.paid; Ctrl-C ends it with 0', async () => {
    const port = await freePort();
    const hookUrl = `http://127.0.0.1:${port}/webhooks`;
    const set = await world.run(['hooks', 'set', '--url', hookUrl, '--event', 'order.paid', '--secret-file', secretFile]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).not.toMatch(/whsec_/);

    const child = world.spawn(['--json', 'hooks', 'listen', '--port', String(port), '--secret-file', secretFile]);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await waitFor(() => (err.includes(`listening on http://127.0.0.1:${port}`) ? true : undefined), 'the listener', 15_000);

      const test = await world.run(['--json', 'hooks', 'test']);
      expect(test.code, test.stderr).toBe(0);
      const sent = JSON.parse(test.stdout) as { delivery: string; event: string };
      expect(sent.event).toBe('order.paid');

      const line = await waitFor(() => out.split('\n').find((l) => l.includes(sent.delivery)), 'the delivery line', 15_000);
      expect(JSON.parse(line)).toMatchObject({ valid: true, status: 200, event: 'order.paid', delivery: sent.delivery, attempt: 1, test: true });

      // The service logged it as delivered with the listener's 200.
      let entry: { delivery: string; lastStatus: number | null; deliveredAt: string | null } | undefined;
      for (let i = 0; i < 50 && !entry?.deliveredAt; i++) {
        const deliveries = await world.run(['--json', 'hooks', 'deliveries']);
        entry = (JSON.parse(deliveries.stdout) as { items: NonNullable<typeof entry>[] }).items.find((d) => d.delivery === sent.delivery);
        if (!entry?.deliveredAt) await delay(100);
      }
      expect(entry).toMatchObject({ lastStatus: 200 });
      expect(entry?.deliveredAt).toBeTruthy();
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});

describe('the lines and the hint are those docs/webhooks.md shows (issue 37, item 6)', () => {
  const docs = readFileSync(join(ROOT, 'docs/webhooks.md'), 'utf8');

  it('a valid forwarded test delivery and a refused one, as on a terminal', async () => {
    await useLanguage('en');
    const base = { status: 200, event: 'order.paid', attempt: 1 };
    const valid = formatRecord({ ...base, receivedAt: '2026-11-21T12:00:01.000Z', valid: true, delivery: 'dlv_FwULXzkLkduSdJQP', test: true, forward: { url: 'http://127.0.0.1:3000/webhooks', status: 204 } }, true);
    const refused = formatRecord({ ...base, receivedAt: '2026-11-21T12:00:09.000Z', valid: false, status: 400, reason: 'mismatch', message: 'x', delivery: 'dlv_Tq81LmZp0sWe4RxC' }, true);
    expect(docs).toContain(`\n${valid}\n`);
    expect(docs).toContain(`\n${refused}\n`);
  });

  it('the subscribe hint names the path the docs subscribe', async () => {
    await useLanguage('en');
    const hint = t('hooks.subscribeItSellerHooks', { url: 'http://127.0.0.1:8790' });
    const command = /seller hooks set --url \S+/.exec(hint)![0];
    expect(command).toBe('seller hooks set --url http://127.0.0.1:8790/webhooks');
    expect(docs).toContain(command);
  });
});

describe('a failed forward is said from its data (issue 37, item 9)', () => {
  it('a time limit from timeoutMs, in Russian; the English of the record is never read', async () => {
    await useLanguage('ru');
    const base = { receivedAt: '2026-11-21T12:00:01.000Z', valid: true, status: 200, event: 'order.paid', delivery: 'dlv_1', attempt: 1 };
    const timedOut = formatRecord({ ...base, forward: { url: 'http://127.0.0.1:1/', error: 'no answer within 10 s', timeoutMs: 10_000 } }, false);
    expect(timedOut).toContain('нет ответа за 10 с');
    expect(timedOut).not.toContain('no answer');
    const refused = formatRecord({ ...base, forward: { url: 'http://127.0.0.1:1/', error: 'ECONNREFUSED' } }, false);
    expect(refused).toContain('ECONNREFUSED');
    await useLanguage('en');
  });
});
