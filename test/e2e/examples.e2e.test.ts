/**
 * The scripts in examples/ run as a user runs them (`node examples/…`, importing `service-seller`
 * by name, which resolves to the built package) against a real server.
 *
 * - deliver-subscriptions.mjs delivers the paid subscription orders (with the next charge day and its
 *   note), leaves other orders alone, keeps its position in the watermark file, and stops on SIGINT
 *   with exit 0; started again, it resumes from the file and delivers only what was paid since.
 * - webhook-receiver.mjs takes a signed test delivery from the server (204, the event handled) and
 *   refuses a forged one (400 with the reason), and stops on SIGINT with exit 0.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { startSellerWorld, useSellerWorld } from '../helpers/seller-world.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { freePort, waitFor } from '../helpers/wait.ts';

/** A seller with strict clients (its own and the sandbox), and the example's working directory. */
const world = useSellerWorld({ cli: true, server: { rateLimit: NO_RATE_LIMIT }, client: { strict: true }, sandbox: { strict: true }, dir: 'seller-examples-' });

/**
 * A paid order of a new active card of `productType` (from the catalogue, 390 ₽, with a guarantee
 * above 0 days, so that a delivered order stays `delivered`: with 0 days the server's 1 s tick
 * completes it at once, and a poll for `delivered` on a loaded machine missed that second), or of card `number`.
 */
async function paidOrder(productType: 'subscription' | 'code', number?: number): Promise<{ id: string; number: number }> {
  const card = number ?? (await world.newCard({ fromCatalog: 'guaranteed', body: { productType, deliveryMethod: productType === 'subscription' ? 'own_account' : 'code' } }));
  return { id: await world.buy(card), number: card };
}

/**
 * Runs the example until it prints `line` (the event itself: the example says so once the service
 * answered the delivery), then SIGINT; resolves with its exit code and output. The wait is bounded
 * for a loaded machine (the child's start and first poll alone took seconds under a full `npm test`),
 * and ends at once if the example exits.
 */
async function runExample(line: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'examples/deliver-subscriptions.mjs')], {
    cwd: world.dir,
    env: { PATH: process.env.PATH, ...world.env, POLL_SECONDS: '0.2' },
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await waitFor(
      `the example to print "${line}"`,
      () => {
        if (out.includes(line)) return true;
        if (child.exitCode !== null) throw new Error(`the example exited (${child.exitCode}) before "${line}":\n${out}\n${err}`);
        return false;
      },
      { ms: 90_000, every: 50, describe: () => `it printed:\n${out}\n${err}` },
    );
  } finally {
    child.kill('SIGINT');
  }
  return { code: await exited, out, err };
}

const statusOf = async (id: string) => (await world.client.orders.get(id)).status;

describe('examples/deliver-subscriptions.mjs', () => {
  it('delivers paid subscriptions with the next charge day, resumes from its watermark, stops on Ctrl-C', async () => {
    const first = await paidOrder('subscription');
    const code = await paidOrder('code');
    const run1 = await runExample(`delivered ${first.id}`);
    expect(run1.code, run1.err).toBe(0);
    expect(run1.out).toContain(`delivered ${first.id}, next charge `);
    expect(run1.out.trimEnd().split('\n').at(-1)).toBe('stopped');
    const delivered = await world.client.orders.get(first.id);
    expect(delivered.status).toBe('delivered'); // what the example's line says, held by the guarantee
    expect(delivered.nextChargeDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(delivered.messages.map((m) => m.text)).toContain('Activated on your account. Enjoy!');
    expect(await statusOf(code.id)).toBe('awaiting_delivery'); // not a subscription: left alone
    expect(existsSync(join(world.dir, '.deliver-subscriptions.watermark'))).toBe(true);

    // A second run starts from the watermark: only the order paid since is delivered.
    const second = await paidOrder('subscription', first.number);
    const run2 = await runExample(`delivered ${second.id}`);
    expect(run2.code, run2.err).toBe(0);
    expect(run2.out).toContain(`delivered ${second.id}`);
    expect(await statusOf(second.id)).toBe('delivered');
    expect(run2.out).not.toContain(first.id);
    expect(JSON.parse(readFileSync(join(world.dir, '.deliver-subscriptions.watermark'), 'utf8')).since).toMatch(/^\d{4}-/);
  }, 240_000);
});

// The receiver must be subscribed before it starts (it needs the secret): it is told a port free a moment ago (freePort).
async function until(what: string, ok: () => boolean, child: ChildProcessWithoutNullStreams): Promise<void> {
  await waitFor(
    what,
    () => {
      if (child.exitCode !== null) throw new Error(`the receiver exited (${child.exitCode}) before ${what}`);
      return ok();
    },
    { ms: 15_000, every: 50 },
  );
}

describe('examples/webhook-receiver.mjs', () => {
  it('takes a signed delivery from the server and refuses a forged one', async () => {
    // a server of its own that delivers hooks to 127.0.0.1, with a seller and its strict client
    const hooks = await startSellerWorld({ server: { allowLocalHooks: true }, client: { strict: true } });
    try {
      const seller = hooks.client;
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/webhooks`;
      const { secret } = await seller.hooks.set({ url, events: ['order.paid'] });
      const child = spawn(process.execPath, [join(ROOT, 'examples/webhook-receiver.mjs')], {
        env: { PATH: process.env.PATH, SERVICE_WEBHOOK_SECRET: secret!, PORT: String(port) },
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await until('its listening line', () => out.includes(`listening on ${url}`), child);

      const { delivery } = await seller.hooks.test({ event: 'order.paid' });
      await until('the test delivery', () => /order ord_\w+ paid; deliver within \d+ min \(test\)/.test(out), child);
      // The server saw the 204: the delivery is marked delivered in its log.
      const deadline = Date.now() + 10_000;
      let deliveredAt: string | null | undefined;
      while (!deliveredAt && Date.now() < deadline) {
        deliveredAt = (await seller.hooks.deliveries()).items.find((d) => d.id === delivery)?.deliveredAt;
        if (!deliveredAt) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(deliveredAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

      const forged = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-timestamp': String(Math.floor(Date.now() / 1000)), 'x-service-signature': `sha256=${'0'.repeat(64)}` },
        body: JSON.stringify({ event: 'order.paid', data: { order: 'ord_forged' } }),
      });
      expect(forged.status).toBe(400);
      await until('the refusal line', () => out.includes('refused a delivery: '), child);
      expect(out).not.toContain('ord_forged');

      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      await hooks.close();
    }
  }, 60_000);
});
