/**
 * Admission through the `seller` binary against a real server: a seller without papers creates a
 * card (a test card, since admission is incomplete), fills the papers one command at a time as
 * `papers show` tells it, and then turns the card real. A bad account is refused by the CLI itself,
 * before any call. A second test runs the work-mode, feedback and numbers commands against the server.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Papers } from '../../sdk/contract/account.ts';
import { FIXTURE_ACCOUNTS, FIXTURE_BIK, FIXTURE_INNS, registryName } from '../../server/seed/registry.ts';
import { runSeller } from '../helpers/cli.ts';
import { catalogCard, useSellerWorld, type Shop } from '../helpers/seller-world.ts';
import type { z } from 'zod';

const world = useSellerWorld({ cli: true });

/** Runs `seller` as the shop's seller; `ok` fails the test on a non-zero exit. */
function sellerAs(shop: Shop) {
  const any = (...args: string[]) => shop.run(args);
  const ok = async (...args: string[]) => {
    const result = await any(...args);
    if (result.code !== 0) throw new Error(`seller ${args.join(' ')} → ${result.code}\n${result.stderr}`);
    return result;
  };
  return { any, ok };
}

describe('admission through the CLI', () => {
  it('fills the papers step by step, then a test card turns real', async () => {
    const shop = await world.newShop({ seller: { admission: 'none' }, client: { strict: true } });
    const { apiKey, client } = shop;
    const seller = sellerAs(shop);

    // A card made while admission is incomplete is a test card, and stays one (a switched-off code card).
    const card = await client.listings.create(await catalogCard(client));
    expect(card.isTest).toBe(true);
    const early = await seller.any('cards', 'real', String(card.number));
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('test_to_real_needs_papers');

    // `papers show` lists every gap with its command.
    const before = await seller.ok('papers', 'show');
    expect(before.stdout).toMatch(/Admission:\s+incomplete/);
    for (const fix of [
      'seller papers nickname NAME',
      'seller papers accept-offer',
      'seller papers status --type',
      'seller papers confirm-registry',
      'seller papers payout --method account',
    ]) {
      expect(before.stdout).toContain(fix);
    }

    const nickname = `shop-${randomBytes(3).toString('hex')}`;
    expect((await seller.ok('papers', 'nickname', nickname)).stdout).toBe(`Nickname set: ${nickname}\n`);
    expect((await seller.ok('papers', 'accept-offer')).stdout).toMatch(/^Seller offer accepted/);

    // A bad INN never leaves the computer; a good one answers the registry name.
    const badInn = await seller.any('papers', 'status', '--type', 'ip', '--inn', '771234567850');
    expect(badInn.code).toBe(2);
    expect(badInn.stderr).toContain('inn_bad');
    const status = await seller.ok('papers', 'status', '--type', 'ip', '--inn', FIXTURE_INNS.ip);
    expect(status.stdout).toContain(`Registry name: ${registryName(FIXTURE_INNS.ip, 'ip')}`);
    expect(status.stderr).toContain('confirm with `seller papers confirm-registry`');
    expect((await seller.ok('papers', 'confirm-registry')).stdout).toBe('Registry name confirmed.\n');

    // A bad account is refused by the CLI before any call: pointed at a closed port, it still says why.
    const badAccount = `${FIXTURE_ACCOUNTS.ip.slice(0, 19)}${(Number(FIXTURE_ACCOUNTS.ip.slice(19)) + 1) % 10}`;
    const refused = await runSeller(['papers', 'payout', '--method', 'account', '--bik', FIXTURE_BIK, '--account', badAccount, '--name', 'ИП Петров'], {
      env: { SERVICE_BASE_URL: 'http://127.0.0.1:9', SERVICE_API_KEY: apiKey },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--account:');
    expect(refused.stderr).toContain('account_bad');
    expect(refused.stderr).not.toContain(badAccount);
    expect(refused.stderr).not.toContain('connection');

    const payout = await seller.ok('papers', 'payout', '--method', 'account', '--bik', FIXTURE_BIK, '--account', FIXTURE_ACCOUNTS.ip, '--name', 'ИП Петров Иван Сергеевич');
    expect(payout.stdout).toBe(`Payout details saved: bank account ending ${FIXTURE_ACCOUNTS.ip.slice(-4)}.\n`);
    expect(payout.stdout + payout.stderr).not.toContain(FIXTURE_ACCOUNTS.ip);

    // Complete now.
    const after = await seller.ok('papers', 'show');
    expect(after.stdout).toMatch(/Admission:\s+complete/);
    expect(after.stdout).not.toContain('Missing');
    const json = JSON.parse((await seller.ok('--json', 'papers', 'show')).stdout) as z.infer<typeof Papers>;
    expect(json).toMatchObject({ nickname, offerAccepted: true, sellerType: 'ip', inn: FIXTURE_INNS.ip, registryConfirmed: true, complete: true, missing: [] });
    expect(json.payout).toEqual({ method: 'account', accountTail: FIXTURE_ACCOUNTS.ip.slice(-4), filled: true });

    // The test card turns real.
    expect((await seller.ok('cards', 'real', String(card.number))).stdout).toBe(`Card ${card.number} is real.\n`);
    expect((await client.listings.get(card.number)).isTest).toBe(false);
  }, 90_000);
});

describe('work mode, feedback and numbers through the CLI', () => {
  it('sets the work mode, answers a question, and reads stats, rating, payouts and clients', async () => {
    const shop = await world.newShop({ seller: { admission: 'complete' }, client: { strict: true } });
    const seller = sellerAs(shop);

    const set = await seller.ok('work-mode', 'set', '--capacity', '4', '--dnd', 'on', '--quiet', '23:00-08:00', '--tz', 'Europe/Moscow');
    expect(set.stdout).toMatch(/Capacity:\s+4 orders at a time/);
    const shown = JSON.parse((await seller.ok('--json', 'work-mode', 'show')).stdout);
    expect(shown).toMatchObject({ capacity: 4, doNotDisturb: true, quietHours: { from: '23:00', to: '08:00', tz: 'Europe/Moscow' } });
    await seller.ok('work-mode', 'set', '--capacity', 'none', '--no-quiet');
    expect(JSON.parse((await seller.ok('--json', 'work-mode', 'show')).stdout)).toMatchObject({ capacity: null, quietHours: null });

    const number = await shop.newCard({ fromCatalog: true, active: false });
    const question = await world.server.sandbox<{ id: string }>('POST', '/questions', { number, text: 'Does it work in Kazakhstan?' });
    const listed = await seller.ok('questions', 'list', '--unanswered');
    expect(listed.stdout).toContain(question.id);
    const contacts = await seller.any('questions', 'answer', question.id, '--text', 'Write me: shop@example.com');
    expect(contacts.code).toBe(1);
    // refused offline, before the call: the contact named, how to go on
    expect(contacts.stderr).toContain('the answer contains an e-mail address "shop@example.com"');
    expect(contacts.stderr).toContain('hint: rewrite it without e-mail addresses, phone numbers, messenger handles or profile links');
    expect((await seller.ok('questions', 'answer', question.id, '--text', 'Yes, it does')).stdout).toBe(`Answered ${question.id} (card #${number}).\n`);
    const unanswered = await seller.ok('questions', 'list', '--unanswered');
    expect(unanswered.stderr).toBe('No unanswered questions.\n');

    const stats = await seller.ok('stats', '--period', 'week', '--sort', 'revenue');
    expect(stats.stdout).toContain('Stats for this week');
    expect(stats.stdout).toMatch(/Revenue:\s+0 RUB/);
    expect(JSON.parse((await seller.ok('--json', 'stats')).stdout)).toMatchObject({ period: 'all', revenueRub: 0, listings: [] });
    expect((await seller.ok('rating')).stdout).toMatch(/Score:\s+no reviews yet/);
    expect((await seller.ok('payouts')).stderr).toBe('No payouts yet.\n');
    expect(JSON.parse((await seller.ok('--json', 'clients')).stdout)).toEqual({ items: [], total: 0 });
  }, 90_000);
});
