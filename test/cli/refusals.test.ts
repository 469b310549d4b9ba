/**
 * Where a seller could lose something, the CLI refuses before any change and says why (issue
 * "Never silent"): a next charge day in the past by the service's clock, or not a real date; a text
 * for a buyer that holds a contact. In-process against a real seller-server on 127.0.0.1:0, without
 * a terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SellerClient } from '../../sdk/client.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { startSellerWorld, SUBSCRIPTION_CARD, useSellerWorld } from '../helpers/seller-world.ts';
import type { TestServer } from '../helpers/server.ts';
import { bufferIO, run, scriptedPrompter, tempConfigDir } from './helpers.ts';
import { createDeps } from '../../cli/lib/deps.ts';
import { runCardsCreate, type WalkPrompter } from '../../cli/commands/cards-create.ts';
import { countsLine, eventLine } from '../../cli/commands/autopilot.ts';
import { CancelledError } from '../../cli/lib/errors.ts';
import type { Choice } from '../../cli/lib/prompts.ts';

const world = useSellerWorld({ client: { maxRetries: 0 } });
let server: TestServer;
let config: ReturnType<typeof tempConfigDir>;
let apiKey: string;
let client: SellerClient;
let subscriptionCard: number;
let codeCard: number;

const cli = (argv: string[], env: Record<string, string> = {}) =>
  run(argv, bufferIO({ env: { SELLER_CONFIG_DIR: config.dir, ...world.env, ...env } }));

/** A paid order of `card`, awaiting delivery. */
const paidOrder = (card: number): Promise<string> => world.buy(card);

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ server, apiKey, client } = world);
  config = tempConfigDir();
  // Two switched-on cards: a subscription with a guarantee (from the catalogue, 390 ₽) and a code card (CODE_CARD).
  subscriptionCard = await world.newCard(SUBSCRIPTION_CARD);
  codeCard = await world.newCard();
});
afterAll(() => {
  config.cleanup();
});

describe('orders deliver --next-charge', () => {
  it('refuses a day in the past before any change: exit 1, says what a valid date is', async () => {
    const id = await paidOrder(subscriptionCard);
    const result = await cli(['orders', 'deliver', id, '--next-charge', '2025-01-01']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: --next-charge: 2025-01-01 is in the past \(the service's today is \d{4}-\d{2}-\d{2}\); nothing was sent\n/);
    expect(result.err).toMatch(/a valid next charge day is a real date YYYY-MM-DD, today \(\d{4}-\d{2}-\d{2} by the service's clock\) or later/);
    expect((await client.orders.get(id)).status).toBe('awaiting_delivery');
  });

  it('refuses a day that does not exist (2031-02-30) and one that is not a date, exit 1', async () => {
    const id = await paidOrder(subscriptionCard);
    for (const bad of ['2031-02-30', 'tomorrow', '2031-13-01']) {
      const result = await cli(['orders', 'deliver', id, '--next-charge', bad]);
      expect(result.code, bad).toBe(1);
      expect(result.err).toContain(`--next-charge: "${bad}" is not a real date; nothing was sent`);
    }
    expect((await client.orders.get(id)).status).toBe('awaiting_delivery');
  });

  it("follows the service's clock, not this computer's: after the sandbox moves 400 days on, this computer's tomorrow is past", async () => {
    // a server of its own: the jump must not move the other tests' today
    const own = await startSellerWorld({ client: { maxRetries: 0 }, card: { body: { productType: 'subscription', deliveryMethod: 'invite', priceRub: 390 } } });
    try {
      const moved = own.server;
      const order = await moved.sandbox<{ id: string }>('POST', '/orders', { number: own.card });
      await moved.sandbox('POST', `/orders/${order.id}/pay`);
      await moved.sandbox('POST', '/clock/advance', { seconds: 400 * 86_400 });
      const tomorrow = day(Date.now() + 86_400_000);
      const { env } = own;
      const refused = await cli(['orders', 'deliver', order.id, '--next-charge', tomorrow], env);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain(`${tomorrow} is in the past (the service's today is ${day(Date.now() + 400 * 86_400_000)})`);
      const serviceTomorrow = day(Date.now() + 401 * 86_400_000);
      const delivered = await cli(['orders', 'deliver', order.id, '--next-charge', serviceTomorrow], env);
      // the order's deadline may have passed with the jump: the point is that the date itself is not refused
      expect(delivered.err).not.toContain('--next-charge');
    } finally {
      await own.close();
    }
  });

  it('today and later pass and deliver', async () => {
    const id = await paidOrder(subscriptionCard);
    const result = await cli(['orders', 'deliver', id, '--next-charge', day(Date.now() + 30 * 86_400_000)]);
    expect(result).toMatchObject({ code: 0 });
    expect((await client.orders.get(id)).status).toBe('delivered');
  });
});

describe('texts for buyers are checked offline before sending', () => {
  it('deliver --note with a phone: exit 1, the contact named, the order not delivered', async () => {
    const id = await paidOrder(subscriptionCard);
    const result = await cli(['orders', 'deliver', id, '--next-charge', day(Date.now() + 30 * 86_400_000), '--note', 'Done! Questions? Call 8 999 123-45-67']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: the note contains a phone number "8 999 123-45-67"; contacts are not allowed in texts for buyers; nothing was sent\n/);
    expect(result.err).toContain('hint: rewrite the note without contacts, or deliver without --note to send no note');
    expect((await client.orders.get(id)).status).toBe('awaiting_delivery');
    // the seller drops the note explicitly: delivered
    const dropped = await cli(['orders', 'deliver', id, '--next-charge', day(Date.now() + 30 * 86_400_000)]);
    expect(dropped.code).toBe(0);
  });

  it('in Russian too (the messages come from the catalogues)', async () => {
    const id = await paidOrder(codeCard);
    const result = await cli(['orders', 'message', id, '--text', 'звоните 8 999 123-45-67'], { LANG: 'ru_RU.UTF-8' });
    expect(result.code).toBe(1);
    expect(result.err).toContain('ошибка: сообщение содержит номер телефона «8 999 123-45-67»; контакты в текстах для покупателей запрещены');
    expect(result.err).toContain('подсказка: перепишите текст');
  });

  it('a message, a dispute reply, a declined reason: refused with the contact named, nothing sent', async () => {
    const id = await paidOrder(codeCard);
    const before = (await client.orders.get(id)).messages.length;
    const message = await cli(['orders', 'message', id, '--text', 'write me at ivan.petrov@gmail.com']);
    expect(message.code).toBe(1);
    expect(message.err).toContain('error: the message contains an e-mail address "ivan.petrov@gmail.com"');
    const decline = await cli(['orders', 'decline', id, '--reason', 'out of stock, ask me in t.me/ivan_shop']);
    expect(decline.code).toBe(1);
    expect(decline.err).toContain('error: the reason contains a messenger contact "t.me/ivan_shop"');
    const dispute = await cli(['orders', 'dispute-reply', id, '--text', 'whatsapp +7 912 345 67 89']);
    expect(dispute.code).toBe(1);
    expect(dispute.err).toMatch(/error: the answer contains a (phone number|messenger contact) "/);
    const after = await client.orders.get(id);
    expect(after.status).toBe('awaiting_delivery');
    expect(after.messages.length).toBe(before);
  });

  it('letters for digits and slash-split phones: the CLI refuses offline and the server refuses too (one filter)', async () => {
    const id = await paidOrder(codeCard);
    for (const text of ['call 8 999 I23 45 67', 'call 8 9O0 123 45 67', 'call 8/999/123/45/67']) {
      const offline = await cli(['orders', 'message', id, '--text', text]);
      expect(offline.code, text).toBe(1);
      expect(offline.err).toContain('error: the message contains a phone number');
      await expect(client.orders.message(id, { text })).rejects.toMatchObject({ code: 'rejected', refusal: { kind: 'contacts' } });
    }
    const honest = await cli(['orders', 'message', id, '--text', 'Order 1234567 is OK, I sent it on 21/11/2026 for 1 990 RUB']);
    expect(honest.code, honest.err).toBe(0);
  });

  it('an answer to a question and a reply to a review: refused, nothing sent; plain text passes', async () => {
    const question = await server.sandbox<{ id: string }>('POST', '/questions', { number: codeCard, text: 'Does it work in Kazakhstan?' });
    const answer = await cli(['questions', 'answer', question.id, '--text', 'Yes. Details: vk.com/ivan_shop']);
    expect(answer.code).toBe(1);
    expect(answer.err).toContain('error: the answer contains a social profile link "vk.com/ivan_shop"');
    const plain = await cli(['questions', 'answer', question.id, '--text', 'Yes, order #1042 worked there on 12.11.2026 for 300 RUB.']);
    expect(plain.code).toBe(0);

    const id = await paidOrder(codeCard);
    await client.orders.putVault(id, { secret: 'CODE-1234' });
    await client.orders.deliver(id, {});
    await server.sandbox('POST', `/orders/${id}/accept`);
    const review = await server.sandbox<{ id: string }>('POST', `/orders/${id}/review`, { stars: 4, text: 'Fine.' });
    const reply = await cli(['reviews', 'reply', review.id, '--text', 'Thanks! Next time: @ivan_shop_bot']);
    expect(reply.code).toBe(1);
    expect(reply.err).toContain('error: the reply contains a messenger contact "@ivan_shop_bot"');
    const reviews = await client.reviews.list({});
    expect(reviews.items.find((r) => r.id === review.id)?.reply ?? null).toBeNull();
  });
});

describe('hooks set --event', () => {
  it('a misspelt kind is refused before the call with the right spelling; nothing changes', async () => {
    const { url: probe } = await client.hooks.createProbe();
    const first = await cli(['hooks', 'set', '--url', probe, '--event', 'order.paid', '--json']);
    expect(first.code, first.err).toBe(0);
    const typo = await cli(['hooks', 'set', '--url', probe, '--event', 'order.mesage']);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('error: --event: unknown event kind "order.mesage"; did you mean "order.message"? Nothing was changed');
    expect((await client.hooks.get()).events).toEqual(['order.paid']);
  });

  it('a kind far from every known one is sent; the service leaving it out is exit 1 naming it', async () => {
    const { url: probe } = await client.hooks.createProbe();
    const result = await cli(['hooks', 'set', '--url', probe, '--event', 'order.message', '--event', 'payout.sent']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('error: the service did not subscribe to "payout.sent"');
    expect((await client.hooks.get()).events).toEqual(['order.message']);
  });
});

describe('orders vault reveal spends the one read only when asked to', () => {
  const tty = (argv: string[], prompter: ReturnType<typeof scriptedPrompter>) =>
    run(argv, bufferIO({ tty: true, env: { SELLER_CONFIG_DIR: config.dir, SERVICE_BASE_URL: server.url, SERVICE_API_KEY: apiKey } }), { prompter });
  const buyerVaultOpened = async (id: string) => (await client.orders.vaults(id)).items.find((v) => v.side === 'other')?.opened;

  it('on a terminal it asks first (default no): "no" is cancelled and the vault stays unread; "yes" reads it', async () => {
    const id = await paidOrder(codeCard);
    await server.sandbox('POST', `/orders/${id}/vault`, { secret: 'buyer@login / hunter2' });
    const declined = scriptedPrompter({ confirm: [false] });
    const no = await tty(['orders', 'vault', 'reveal', id], declined);
    expect(no.code).toBe(2);
    expect(declined.asked[0]).toMatch(/can be read only once/);
    expect(no.out).toBe('');
    expect(await buyerVaultOpened(id)).toBe(false);
    const yes = await tty(['orders', 'vault', 'reveal', id], scriptedPrompter({ confirm: [true] }));
    expect(yes).toMatchObject({ code: 0, out: 'buyer@login / hunter2\n' });
    expect(await buyerVaultOpened(id)).toBe(true);
  });

  it('in a script it needs --yes: without it exit 2 and nothing is read', async () => {
    const id = await paidOrder(codeCard);
    await server.sandbox('POST', `/orders/${id}/vault`, { secret: 'login-2 / pw-2' });
    const refused = await cli(['orders', 'vault', 'reveal', id]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--yes is required when not running interactively');
    expect(await buyerVaultOpened(id)).toBe(false);
    const read = await cli(['orders', 'vault', 'reveal', id, '--yes']);
    expect(read).toMatchObject({ code: 0, out: 'login-2 / pw-2\n' });
  });
});

describe('errors that point the right way', () => {
  it('a wrong key from SERVICE_API_KEY names the variable, not `seller login`', async () => {
    const result = await cli(['whoami'], { SERVICE_API_KEY: `service_live_${'x'.repeat(40)}` });
    expect(result.code).toBe(4);
    expect(result.err).toMatch(/^error: bad_key: .*\nthe key comes from SERVICE_API_KEY \(it wins over the saved profile\): correct SERVICE_API_KEY, or unset it to use the profile\n/);
    expect(result.err).not.toContain('seller login');
  });

  it('a revoked key from SERVICE_API_KEY names the variable too', async () => {
    const other = await client.keys.create({ name: 'spare', scopes: ['catalog'] });
    await client.keys.revoke(other.id);
    const result = await cli(['whoami'], { SERVICE_API_KEY: other.key });
    expect(result.code).toBe(4);
    expect(result.err).toContain('the key in SERVICE_API_KEY was revoked');
  });

  it('a refusal reads in words first, its code after them; --json adds the envelope with the code', async () => {
    const created = await client.listings.create({ ...CODE_CARD } as never);
    const result = await cli(['cards', 'on', String(created.number), '--auto']);
    expect(result.code).toBe(1);
    expect(result.err.split('\n')[0]).toBe(`error: auto-delivery needs free stock, and card ${created.number} has none (rejected: stock_empty)`);
    const json = await cli(['--json', 'cards', 'on', String(created.number), '--auto']);
    expect(json.code).toBe(1);
    const envelope = JSON.parse(json.err.trimEnd().split('\n').at(-1)!) as { error: string; refusal: { kind: string } };
    expect(envelope).toMatchObject({ error: 'rejected', refusal: { kind: 'stock_empty' } });
  });

  it('a local receiver refused by a public-only service points to hooks probe --forward-to, hooks listen and --allow-local-hooks', async () => {
    const result = await cli(['hooks', 'set', '--url', 'http://127.0.0.1:9999/hooks', '--event', 'order.paid']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/\(rejected: url\)/);
    expect(result.err).toContain('seller hooks probe --forward-to');
    expect(result.err).toContain('seller hooks listen');
    expect(result.err).toContain('--allow-local-hooks');
  });
});

describe('commands that read alike', () => {
  it('every list noun takes `list`: payouts list and clients list answer as payouts and clients do', async () => {
    for (const noun of ['payouts', 'clients']) {
      const bare = await cli(['--json', noun]);
      const listed = await cli(['--json', noun, 'list']);
      expect(listed.code, `${noun} list: ${listed.err}`).toBe(0);
      expect(JSON.parse(listed.out)).toEqual(JSON.parse(bare.out));
    }
    const limited = await cli(['--json', 'payouts', 'list', '--limit', '1']);
    expect(limited.code).toBe(0);
    expect(JSON.parse(limited.out)).toHaveProperty('items');
  });

  it('bare `seller profiles` prints the profiles, not help', async () => {
    const login = await run(['login', '--with-key-stdin'], bufferIO({ stdin: `${apiKey}\n`, env: { SELLER_CONFIG_DIR: config.dir, SERVICE_BASE_URL: server.url } }));
    expect(login.code, login.err).toBe(0);
    const bare = await cli(['profiles']);
    expect(bare.code).toBe(0);
    expect(bare.out).toBe((await cli(['profiles', 'list'])).out);
    expect(bare.out).toMatch(/^\*\tdefault\t/m);
    expect(bare.out).not.toContain('Usage:');
  });

  it("the wizard's search suggests the nearest slug for a typo (spotfy), on a terminal", async () => {
    const seen: Choice[][] = [];
    const walk: WalkPrompter = {
      search: async (_message, source) => {
        seen.push(await source('spotfy'));
        throw new CancelledError();
      },
      select: async () => { throw new Error('not reached'); },
      input: async () => { throw new Error('not reached'); },
      confirm: async () => { throw new Error('not reached'); },
    };
    const io = bufferIO({ tty: true, env: { SELLER_CONFIG_DIR: config.dir, SERVICE_BASE_URL: server.url, SERVICE_API_KEY: apiKey } });
    await expect(runCardsCreate({}, createDeps(io, {}), walk)).rejects.toBeInstanceOf(CancelledError);
    expect(seen[0]!.map((c) => c.value)).toContain('spotify');
    expect(seen[0]![0]!.name).toMatch(/^did you mean Spotify/);
  });

  it('counts read as words: 1 reply, 2 replies, 1 warning; the start line says "autopilot started" once', () => {
    expect(countsLine(new Map([['replies.replied', 1], ['deadline.warned', 1], ['orders.disputed', 1]]))).toBe('1 reply, 1 warning, 1 dispute');
    expect(countsLine(new Map([['replies.replied', 2], ['deadline.missed', 2]]))).toBe('2 replies, 2 missed deadlines');
    const line = eventLine({ at: new Date().toISOString(), rule: 'autopilot', type: 'started', message: 'autopilot started: deliver; first run: every order is looked at once' });
    expect(line.match(/autopilot/g)).toHaveLength(1);
    expect(line).toMatch(/started\s+deliver; first run/);
  });
});
