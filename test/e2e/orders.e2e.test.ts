/**
 * A full order through the `seller` binary against a real server: the sandbox CLI creates the seller
 * and plays the buyer, `seller orders watch --json` streams the order as it changes, and the seller
 * exchanges credentials, delivers (with a refused note), and sees the order completed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../sdk/contract/index.ts';
import { SellerClient } from '../../sdk/index.ts';
import { runSeller, spawnSeller } from '../helpers/cli.ts';
import { newCard, SUBSCRIPTION_CARD, useSellerWorld } from '../helpers/seller-world.ts';

const world = useSellerWorld({ cli: true });
/** The buyer's side: `seller sandbox …` with the admin token. */
let admin: Record<string, string>;
beforeAll(() => {
  admin = world.adminEnv;
});

/** A new seller with a switched-on subscription card (needs a next charge day on delivery): its `seller` env and the card. */
async function subscriptionShop(): Promise<{ seller: Record<string, string>; number: number }> {
  const { env, card } = await world.newShop({ client: { strict: true }, card: SUBSCRIPTION_CARD });
  return { seller: env, number: card };
}

/**
 * The NDJSON lines of a running `seller`: `until(pred)` waits for a line that satisfies `pred` and
 * answers every line read since the previous call (stderr is kept for failure messages).
 */
function ndjson(child: ReturnType<typeof spawnSeller>) {
  let buffer = '';
  let stderr = '';
  const pending: Order[] = [];
  let wake: (() => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    buffer += text;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      pending.push(JSON.parse(buffer.slice(0, newline)) as Order);
      buffer = buffer.slice(newline + 1);
    }
    wake?.();
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return {
    stderr: () => stderr,
    async until(predicate: (order: Order) => boolean, ms = 15_000): Promise<Order[]> {
      const deadline = Date.now() + ms;
      const taken: Order[] = [];
      for (;;) {
        while (pending.length > 0) {
          const order = pending.shift()!;
          taken.push(order);
          if (predicate(order)) return taken;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching line within ${ms} ms; got ${JSON.stringify(taken)}; stderr: ${stderr}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.min(left, 250));
        });
      }
    },
  };
}

const exited = (child: ReturnType<typeof spawnSeller>) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));

describe('an order through the CLI', { timeout: 90_000 }, () => {
  it('buy → watch sees it → pay → vaults → deliver (note refused) → accept → completed', async () => {
    const created = await runSeller(['--json', 'sandbox', 'seller', 'create', '--admission', 'complete'], { env: admin });
    expect(created.code, created.stderr).toBe(0);
    const { sellerId, apiKey } = JSON.parse(created.stdout) as { sellerId: string; apiKey: string };
    expect(apiKey).toMatch(/^service_live_/);
    const seller = { SERVICE_BASE_URL: world.server.url, SERVICE_API_KEY: apiKey };
    const number = await newCard(new SellerClient({ apiKey, baseUrl: world.server.url, strict: true }), SUBSCRIPTION_CARD);

    const bought = await runSeller(['sandbox', 'buy', String(number)], { env: admin });
    expect(bought.code, bought.stderr).toBe(0);
    const id = bought.stdout.trim();
    expect(id).toMatch(/^ord_/);
    expect(bought.stderr).toContain(`card #${number}, 390 RUB, awaiting_payment`);

    // The watch starts from the beginning, shows the unpaid order, then its payment as it happens.
    const watch = spawnSeller(['orders', 'watch', '--json', '--since', 'all', '--interval', '0.2'], { env: seller });
    const lines = ndjson(watch);
    const end = exited(watch);
    const first = await lines.until((o) => o.id === id);
    expect(first.at(-1)).toMatchObject({ id, status: 'awaiting_payment', needsAction: false });

    const paid = await runSeller(['sandbox', 'pay', id], { env: admin });
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stdout).toBe(`Paid ${id}: now awaiting_delivery (the seller needs to act).\n`);
    const second = await lines.until((o) => o.id === id && o.status === 'awaiting_delivery');
    expect(second.at(-1)).toMatchObject({ id, status: 'awaiting_delivery', needsAction: true, priceRub: 390 });

    watch.kill('SIGINT');
    expect(await end).toEqual({ code: 0, signal: null });
    expect(lines.stderr()).toMatch(/Watching orders changed since 1970-01-01T00:00:00.000Z/);
    expect(lines.stderr()).not.toMatch(/error|warning/);

    // Vaults: the buyer's credentials are read once; the seller's go in from stdin.
    expect((await runSeller(['sandbox', 'vault', id, '--secret', 'buyer@login / hunter2'], { env: admin })).code).toBe(0);
    // in a script the read needs --yes: without it nothing is spent
    const unasked = await runSeller(['orders', 'vault', 'reveal', id], { env: seller });
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toMatch(/--yes is required when not running interactively/);
    const revealed = await runSeller(['orders', 'vault', 'reveal', id, '--yes'], { env: seller });
    expect(revealed.code, revealed.stderr).toBe(0);
    expect(revealed.stdout).toBe('buyer@login / hunter2\n');
    expect(revealed.stderr).toMatch(/cannot be read again/);
    const again = await runSeller(['orders', 'vault', 'reveal', id, '--yes'], { env: seller });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/already_opened/);
    expect(again.stderr).toMatch(/can be read only once/);
    const put = await runSeller(['orders', 'vault', 'put', id], { env: seller, input: 'family invite: xyz\n' });
    expect(put.code, put.stderr).toBe(0);
    const vaults = await runSeller(['--json', 'orders', 'vault', 'list', id], { env: seller });
    expect(JSON.parse(vaults.stdout)).toEqual(expect.arrayContaining([{ side: 'own', opened: false }, { side: 'other', opened: true }]));

    // Delivery: the next charge day is required for a subscription (and not in the past); a note with contacts is refused.
    const missing = await runSeller(['orders', 'deliver', id], { env: seller });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/need_next_charge/);
    expect(missing.stderr).toMatch(/hint: add --next-charge YYYY-MM-DD/);
    // a note with contacts is refused offline, before anything is sent; the seller drops it
    const refused = await runSeller(['orders', 'deliver', id, '--next-charge', '2036-12-21', '--note', 'Invite sent; questions: shop@example.com'], {
      env: seller,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error: the note contains an e-mail address "shop@example.com"');
    expect(refused.stderr).toContain('deliver without --note');
    const past = await runSeller(['orders', 'deliver', id, '--next-charge', '2025-01-01'], { env: seller });
    expect(past.code).toBe(1);
    expect(past.stderr).toMatch(/2025-01-01 is in the past \(the service's today is/);
    const delivered = await runSeller(['orders', 'deliver', id, '--next-charge', '2036-12-21'], { env: seller });
    expect(delivered.code, delivered.stderr).toBe(0);
    expect(delivered.stdout).toBe(`Delivered ${id}: now delivered.\n`);
    const message = await runSeller(['orders', 'message', id, '--text', 'Invite sent, check your inbox'], { env: seller });
    expect(message.code, message.stderr).toBe(0);
    const twice = await runSeller(['orders', 'deliver', id, '--next-charge', '2036-12-21'], { env: seller });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`hint: the order moved on; re-read it with \`seller orders show ${id}\``);

    const accepted = await runSeller(['sandbox', 'accept', id], { env: admin });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/now completed/);

    const shown = await runSeller(['--json', 'orders', 'show', id], { env: seller });
    expect(shown.code, shown.stderr).toBe(0);
    const order = JSON.parse(shown.stdout);
    expect(order).toMatchObject({ id, status: 'completed', needsAction: false, nextChargeDay: '2036-12-21', number });
    expect(order.messages.map((m: { text: string }) => m.text)).toContain('Invite sent, check your inbox');
    expect(JSON.stringify(order)).not.toContain('shop@example.com');
    const human = await runSeller(['orders', 'show', id], { env: seller });
    expect(human.stdout).toMatch(/Status:\s+completed/);

    const listed = await runSeller(['--json', 'orders', 'list', '--status', 'completed'], { env: seller });
    expect(JSON.parse(listed.stdout).items.map((o: Order) => o.id)).toEqual([id]);
    expect(sellerId).toBeTruthy();
  });

  it('a watch with --state-file resumes where it stopped and repeats nothing', async () => {
    const { seller, number } = await subscriptionShop();
    const dir = mkdtempSync(join(tmpdir(), 'watch-state-'));
    try {
      const state = join(dir, 'orders.pos');
      const a = (await runSeller(['sandbox', 'buy', String(number)], { env: admin })).stdout.trim();
      const first = spawnSeller(['orders', 'watch', '--json', '--since', 'all', '--interval', '0.2', '--state-file', state], { env: seller });
      const firstEnd = exited(first);
      expect((await ndjson(first).until((o) => o.id === a)).map((o) => o.id)).toEqual([a]);
      first.kill('SIGTERM');
      expect((await firstEnd).code).toBe(0);

      expect((await runSeller(['sandbox', 'pay', a], { env: admin })).code).toBe(0);
      const b = (await runSeller(['sandbox', 'buy', String(number)], { env: admin })).stdout.trim();
      const second = spawnSeller(['orders', 'watch', '--json', '--since', 'all', '--interval', '0.2', '--state-file', state], { env: seller });
      const reader = ndjson(second);
      const secondEnd = exited(second);
      const lines = await reader.until((o) => o.id === b);
      second.kill('SIGINT');
      expect((await secondEnd).code).toBe(0);
      expect(lines.map((o) => [o.id, o.status])).toEqual([
        [a, 'awaiting_delivery'],
        [b, 'awaiting_payment'],
      ]);
      expect(reader.stderr()).toMatch(/Resuming from .*orders\.pos/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a dispute through the CLI: dispute → reply → resolved for the seller → review; a question', async () => {
    const { seller, number } = await subscriptionShop();
    const id = (await runSeller(['sandbox', 'buy', String(number)], { env: admin })).stdout.trim();
    expect((await runSeller(['sandbox', 'pay', id], { env: admin })).code).toBe(0);
    const early = await runSeller(['orders', 'dispute-reply', id, '--text', 'nothing to answer'], { env: seller });
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/not_disputed/);
    expect(early.stderr).toMatch(/hint: only a disputed order takes a dispute reply/);
    expect((await runSeller(['orders', 'deliver', id, '--next-charge', '2026-12-21'], { env: seller })).code).toBe(0);
    const disputed = await runSeller(['sandbox', 'dispute', id, '--text', 'the invite never came'], { env: admin });
    expect(disputed.code, disputed.stderr).toBe(0);
    expect(disputed.stdout).toMatch(/now disputed \(the seller needs to act\)/);
    const replied = await runSeller(['orders', 'dispute-reply', id, '--text', 'sent again just now'], { env: seller });
    expect(replied.code, replied.stderr).toBe(0);
    const resolved = await runSeller(['sandbox', 'resolve', id, '--winner', 'seller'], { env: admin });
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toMatch(/now completed/);
    const review = await runSeller(['sandbox', 'review', id, '--stars', '5', '--text', 'great'], { env: admin });
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout.trim()).toMatch(/^rev_/);
    const question = await runSeller(['sandbox', 'question', String(number), '--text', 'does it work in Europe?'], { env: admin });
    expect(question.code, question.stderr).toBe(0);
    expect(question.stdout.trim()).toMatch(/^q_/);
  });

  it('a blocked seller: the watch ends with exit 4; admission can be cleared', async () => {
    const created = JSON.parse((await runSeller(['--json', 'sandbox', 'seller', 'create'], { env: admin })).stdout) as { sellerId: string; apiKey: string };
    const seller = { SERVICE_BASE_URL: world.server.url, SERVICE_API_KEY: created.apiKey };
    const watch = spawnSeller(['orders', 'watch', '--json', '--interval', '0.1'], { env: seller });
    const reader = ndjson(watch);
    const end = exited(watch);
    const blocked = await runSeller(['sandbox', 'seller', 'status', created.sellerId, 'blocked'], { env: admin });
    expect(blocked).toMatchObject({ code: 0, stdout: `Seller ${created.sellerId} is now blocked.\n` });
    expect(await end).toEqual({ code: 4, signal: null });
    expect(reader.stderr()).toMatch(/error: seller_blocked/);
    const admission = await runSeller(['sandbox', 'seller', 'admission', created.sellerId, 'none'], { env: admin });
    expect(admission.code, admission.stderr).toBe(0);
    expect(admission.stdout).toMatch(/is now incomplete/);
  });

  it('the sandbox CLI moves the clock and needs the admin token', async () => {
    const before = await runSeller(['sandbox', 'clock'], { env: admin });
    expect(before.code, before.stderr).toBe(0);
    const after = await runSeller(['sandbox', 'clock', 'advance', '1h'], { env: admin });
    expect(after.code, after.stderr).toBe(0);
    expect(Date.parse(after.stdout.trim()) - Date.parse(before.stdout.trim())).toBeGreaterThanOrEqual(3600_000);
    const wrong = await runSeller(['sandbox', 'clock'], { env: { ...admin, SERVICE_ADMIN_TOKEN: 'nope' } });
    expect(wrong.code, wrong.stderr).toBe(4);
    const none = await runSeller(['sandbox', 'clock'], { env: { SERVICE_BASE_URL: world.server.url } });
    expect(none.code).toBe(2);
  });
});
