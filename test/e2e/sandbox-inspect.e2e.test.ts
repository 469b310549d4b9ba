/**
 * The inspector's sandbox operations end to end, through the SDK's `SandboxClient` against a real
 * `seller-server` on a port: sellers, cards, orders and timelines, the subscription, deliveries with
 * every attempt, resend, the probe inbox, create/refill/switch a card, the clock's moved orders, and
 * the live change stream (a new order, its status changes, a refund by the clock). No answer or
 * stream event carries a stock unit, a vault's contents, a key, a signing secret or a bank account.
 */
import { describe, expect, it } from 'vitest';
import { AuthenticationError, RejectedError } from '../../sdk/errors.ts';
import type { ChangeEventRead } from '../../sdk/sandbox-changes.ts';
import { SandboxClient } from '../../sdk/sandbox.ts';
import { FIXTURE_PAPERS } from '../../server/seed/registry.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { startSellerWorld, useSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

/** A stream read in the background: its events so far, and a way to stop it. */
function watch(sb: SandboxClient, sellerId?: string) {
  const stop = new AbortController();
  const events: ChangeEventRead[] = [];
  const state: { ended: boolean; error: unknown } = { ended: false, error: undefined };
  const done = (async () => {
    try {
      for await (const event of sb.changes({ sellerId, signal: stop.signal })) events.push(event);
    } catch (err) {
      state.error = err;
    } finally {
      state.ended = true;
    }
  })();
  // The events' fields are read as the tests expect them (the matcher says which type it found).
  const seen = (what: string, match: (e: any) => boolean): Promise<any> =>
    waitFor(what, () => events.find(match), { describe: () => `events: ${events.map((e) => e.type).join(', ')}; error: ${String(state.error)}` });
  return {
    events,
    state,
    seen,
    ready: () => seen('the ready event', (e) => e.type === 'ready'),
    close: async () => {
      stop.abort();
      await done;
    },
  };
}

const world = useSellerWorld({ card: { body: CODE_CARD } });

describe('the inspector reads', () => {
  it('lists sellers with status, admission, key prefixes and scopes, card and order counts', async () => {
    await world.buy(world.card);
    const page = await world.sandbox.listSellers({ limit: 200 });
    const me = page.items.find((s) => s.sellerId === world.sellerId)!;
    expect(me).toMatchObject({ status: 'active', mode: 'live', admission: { complete: true, missing: [] }, cards: 1, activeCards: 1 });
    expect(me.orders).toBeGreaterThanOrEqual(1);
    expect(me.keys).toHaveLength(1);
    expect(world.apiKey.startsWith(me.keys[0]!.prefix)).toBe(true);
    expect(me.keys[0]!.scopes.length).toBeGreaterThan(0);
    expect(JSON.stringify(page)).not.toContain(world.apiKey);
    expect(await world.sandbox.getSeller(world.sellerId)).toEqual(me);
  });

  it('a seller that does not exist is 404', async () => {
    await expect(world.sandbox.getSeller('sel_nobody')).rejects.toMatchObject({ status: 404 });
  });

  it("lists a seller's cards with stock counts and its orders, filtered by status", async () => {
    const cards = await world.sandbox.sellerCards(world.sellerId);
    expect(cards.items.map((c) => c.number)).toContain(world.card);
    const orderId = await world.buy(world.card);
    const paid = await world.sandbox.sellerOrders(world.sellerId, { status: 'awaiting_delivery' });
    expect(paid.items.map((o) => o.id)).toContain(orderId);
    const unpaid = await world.sandbox.sellerOrders(world.sellerId, { status: 'awaiting_payment' });
    expect(unpaid.items.map((o) => o.id)).not.toContain(orderId);
  });

  it("an order's timeline: its moves and who made them, the deadline, the note refused for contacts, and the moves that apply", async () => {
    const orderId = await world.buy(world.card);
    let timeline = await world.sandbox.orderTimeline(orderId);
    expect(timeline.moves).toEqual([expect.objectContaining({ action: 'pay', from: 'awaiting_payment', to: 'awaiting_delivery', by: 'buyer' })]);
    expect(timeline.deadline).toMatchObject({ kind: 'delivery' });
    expect(timeline.sandboxMoves).toEqual(['cancel', 'message', 'vault']);
    const answer = await world.client.orders.deliver(orderId, { note: 'write me at seller@example.com' });
    expect(answer.noteRejected).not.toBeNull();
    timeline = await world.sandbox.orderTimeline(orderId);
    expect(timeline).toMatchObject({ noteRejected: answer.noteRejected, note: null, order: { status: 'delivered' } });
    expect(timeline.deliveredAt).not.toBeNull();
    expect(timeline.moves.at(-1)).toMatchObject({ action: 'deliver', to: 'delivered', by: 'seller' });
    expect(timeline.sandboxMoves).toEqual(['accept', 'message', 'vault', 'dispute']);
    await world.sandbox.dispute(orderId, { text: 'it does not work' });
    await world.sandbox.resolve(orderId, { winner: 'buyer' });
    timeline = await world.sandbox.orderTimeline(orderId);
    expect(timeline.moves.map((m) => [m.action, m.by])).toEqual([
      ['pay', 'buyer'],
      ['deliver', 'seller'],
      ['dispute', 'buyer'],
      ['resolveForBuyer', 'marketplace'],
    ]);
    expect(timeline.sandboxMoves).toEqual([]);
  });

  it('a completed order offers a message, a dispute while its guarantee runs, and one review (no vault)', async () => {
    const orderId = await world.buy(world.card);
    await world.client.orders.deliver(orderId, {});
    await world.sandbox.accept(orderId);
    expect((await world.sandbox.orderTimeline(orderId)).sandboxMoves).toEqual(['message', 'dispute', 'review']);
    const review = await world.sandbox.review(orderId, { stars: 5, text: 'fine' });
    const timeline = await world.sandbox.orderTimeline(orderId);
    expect(timeline.sandboxMoves).toEqual(['message', 'dispute']);
    expect(timeline.review).toMatchObject({ id: review.id, stars: 5 });
  });
});

describe('the inspector acts', () => {
  it('creates a card for a seller, refills it with generated units and switches it on with auto-delivery', async () => {
    const seller = await world.sandbox.createSeller({ admission: 'complete' });
    const created = await world.sandbox.createCard(seller.sellerId, CODE_CARD);
    expect(created).toMatchObject({ isActive: false, isTest: false });
    await expect(world.sandbox.setCardState(created.number, { active: true, autoIssue: true })).rejects.toSatisfy(
      (e) => e instanceof RejectedError && e.refusal.kind === 'stock_empty',
    );
    expect(await world.sandbox.refill(created.number, { count: 3 })).toEqual({ number: created.number, added: 3, free: 3, issued: 0 });
    expect(await world.sandbox.setCardState(created.number, { active: true, autoIssue: true })).toEqual({ number: created.number, isActive: true, autoIssue: true });
    const order = await world.sandbox.createOrder({ number: created.number });
    await world.sandbox.pay(order.id);
    const timeline = await world.sandbox.orderTimeline(order.id);
    expect(timeline).toMatchObject({ stockIssued: true, order: { status: 'delivered' }, vaults: { seller: { opened: true } } });
    expect(timeline.moves.at(-1)).toMatchObject({ action: 'deliver', by: 'auto' });
    const card = (await world.sandbox.sellerCards(seller.sellerId)).items[0]!;
    expect(card).toMatchObject({ number: created.number, isActive: true, stock: { free: 2, issued: 1 } });
  });

  it('refuses a card the catalogue refuses, as listings.create does', async () => {
    await expect(world.sandbox.createCard(world.sellerId, { ...CODE_CARD, slaMinutes: 7 })).rejects.toSatisfy(
      (e) => e instanceof RejectedError && e.refusal.kind === 'complaint' && e.refusal.field === 'slaMinutes',
    );
  });

  it('advancing the clock past an undelivered order answers it among the moved orders, refunded', async () => {
    const orderId = await world.buy(world.card);
    const advanced = await world.sandbox.advanceClock({ seconds: (CODE_CARD.slaMinutes + 1) * 60 });
    expect(advanced.moved).toContainEqual({ order: orderId, sellerId: world.sellerId, number: world.card, action: 'missDeadline', from: 'awaiting_delivery', to: 'refunded' });
    const timeline = await world.sandbox.orderTimeline(orderId);
    expect(timeline.moves.at(-1)).toMatchObject({ action: 'missDeadline', to: 'refunded', by: 'clock' });
    expect((await world.sandbox.advanceClock({ seconds: 0 })).moved).toEqual([]);
  });
});

describe('webhooks in the inspector', () => {
  it("shows the subscription without its secret, every delivery's attempts, body and headers, the probe inbox; resends as a new attempt that keeps the first success", async () => {
    const shop = await world.newShop({ card: { body: CODE_CARD } });
    const { url } = await shop.client.hooks.createProbe();
    const set = await shop.client.hooks.set({ url, events: ['order.new', 'order.paid'] });
    const hooks = await world.sandbox.sellerHooks(shop.sellerId);
    expect(hooks).toMatchObject({ url, status: 'active', probeUrl: url, events: ['order.new', 'order.paid'] });
    expect(JSON.stringify(hooks)).not.toContain(set.secret!);

    const order = await world.sandbox.createOrder({ number: shop.card });
    const delivered = await waitFor('the order.new delivery', async () => {
      const page = await world.sandbox.sellerDeliveries(shop.sellerId);
      return page.items.find((d) => d.event === 'order.new' && d.deliveredAt !== null);
    });
    expect(delivered.attemptLog).toEqual([{ attempt: 1, at: expect.any(String), status: 204, error: null, durationMs: expect.any(Number) }]);
    expect(JSON.parse(delivered.body)).toMatchObject({ event: 'order.new', delivery: delivered.id, attempt: 1, data: { order: order.id } });
    expect(delivered.headers).toMatchObject({ 'x-service-delivery': delivered.id, 'x-service-attempt': '1', 'x-service-signature': expect.stringMatching(/^sha256=/) });

    const inbox = await world.sandbox.probeInbox(shop.sellerId);
    expect(inbox.url).toBe(url);
    expect(inbox.items.some((h) => JSON.parse(h.body).delivery === delivered.id)).toBe(true);

    const resent = await world.sandbox.resendDelivery(shop.sellerId, delivered.id);
    expect(resent).toMatchObject({ id: delivered.id, attempts: 2, lastStatus: 204 });
    expect(resent.attemptLog.map((a) => a.attempt)).toEqual([1, 2]);
    expect(JSON.parse(resent.body)).toMatchObject({ delivery: delivered.id, attempt: 2 });
    expect(resent.headers).toMatchObject({ 'x-service-attempt': '2' });
    expect(resent.deliveredAt).toBe(delivered.deliveredAt);

    // A failed resend is one more attempt in the log: the delivery still reads as delivered, nothing is queued.
    await world.sandbox.addFault({ sellerId: shop.sellerId, hooks: 'fail', times: 1 });
    const failed = await world.sandbox.resendDelivery(shop.sellerId, delivered.id);
    expect(failed).toMatchObject({ attempts: 3, lastStatus: null, deliveredAt: delivered.deliveredAt, nextAttemptAt: null });
    expect(failed.attemptLog.map((a) => a.status)).toEqual([204, 204, null]);
    await world.sandbox.advanceClock({ seconds: 3 * 3600 });
    const later = (await world.sandbox.sellerDeliveries(shop.sellerId)).items.find((d) => d.id === delivered.id)!;
    expect(later).toMatchObject({ attempts: 3, deliveredAt: delivered.deliveredAt, nextAttemptAt: null });

    await shop.client.hooks.delete();
    await expect(world.sandbox.resendDelivery(shop.sellerId, delivered.id)).rejects.toSatisfy(
      (e) => e instanceof RejectedError && e.refusal.kind === 'state_moved',
    );
    await expect(world.sandbox.resendDelivery(shop.sellerId, 'dlv_nothing')).rejects.toMatchObject({ status: 404 });
  });
});

describe('the live change stream', () => {
  it('sends a new order, its status changes and a refund by the clock, and the clock with what it moved', async () => {
    const stream = watch(world.sandbox);
    try {
      await stream.ready();
      const order = await world.sandbox.createOrder({ number: world.card });
      await world.sandbox.pay(order.id);
      // each event shows the order as its own write left it, however soon the next change came
      const created = await stream.seen('the new order', (e) => e.type === 'order' && e.change === 'created' && e.order.id === order.id);
      expect(created.order).toMatchObject({ status: 'awaiting_payment', paidAt: null });
      const paid = await stream.seen('the payment', (e) => e.type === 'order' && e.change === 'status' && e.order.id === order.id);
      expect(paid).toMatchObject({ sellerId: world.sellerId, from: 'awaiting_payment', action: 'pay', by: 'buyer' });
      await world.sandbox.advanceClock({ seconds: (CODE_CARD.slaMinutes + 1) * 60 });
      const refunded = await stream.seen('the refund by the clock', (e) => e.type === 'order' && e.order.id === order.id && e.order.status === 'refunded');
      expect(refunded).toMatchObject({ change: 'status', from: 'awaiting_delivery', action: 'missDeadline', by: 'clock' });
      const clock = await stream.seen('the clock', (e) => e.type === 'clock' && e.moved.some((m: { order: string }) => m.order === order.id));
      expect(clock.moved).toContainEqual(expect.objectContaining({ order: order.id, to: 'refunded' }));
    } finally {
      await stream.close();
    }
  });

  it("tells a card's change and keeps to one seller when asked", async () => {
    const other = await world.newShop();
    const stream = watch(world.sandbox, other.sellerId);
    try {
      await stream.ready();
      await world.sandbox.createOrder({ number: world.card }); // another seller's: not sent
      const created = await world.sandbox.createCard(other.sellerId, CODE_CARD);
      const card = await stream.seen('the new card', (e) => e.type === 'card' && e.number === created.number);
      expect(card).toMatchObject({ sellerId: other.sellerId, card: { isActive: false, stock: { free: 0, issued: 0 } } });
      await world.sandbox.setCardState(created.number, { active: true });
      await stream.seen('the card switched on', (e) => e.type === 'card' && e.number === created.number && e.card.isActive);
      expect(stream.events.filter((e) => e.type !== 'ready' && e.type !== 'clock').every((e) => (e as { sellerId?: string }).sellerId === other.sellerId)).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it('tells when a fault hits or ends, not only when one is added or cleared', async () => {
    const shop = await world.newShop({ client: { maxRetries: 0 } });
    const stream = watch(world.sandbox);
    const told = () => stream.events.filter((e) => e.type === 'faults').length;
    const toldMore = async (what: string, before: number) => waitFor(what, () => told() > before);
    try {
      await stream.ready();
      let before = told();
      await world.sandbox.addFault({ sellerId: shop.sellerId, op: 'orders.list', status: 500, times: 2 });
      await toldMore('the fault added', before);
      before = told();
      await expect(shop.client.orders.list()).rejects.toMatchObject({ status: 500 });
      await toldMore('its first hit', before);
      before = told();
      await expect(shop.client.orders.list()).rejects.toMatchObject({ status: 500 });
      await toldMore('its last hit, which ends it', before);
      await world.sandbox.addFault({ sellerId: shop.sellerId, op: 'orders.list', status: 503, forMs: 60_000 });
      before = told();
      await world.sandbox.advanceClock({ seconds: 61 }); // no call hits it: the clock's tick ends it
      await toldMore('the for-fault ending with the clock', before);
      expect((await shop.client.orders.list()).items).toEqual([]);
    } finally {
      await stream.close();
    }
  });

  it('ends when the server closes', async () => {
    const own = await startSellerWorld();
    const stream = watch(own.sandbox);
    await stream.ready();
    await own.server.close(); // the server's own close: the streams end first, then it stops
    await waitFor('the stream to end', () => stream.state.ended);
    expect(stream.state.error).toBeUndefined();
    await stream.close();
  });
});

describe('the admin token', () => {
  it('is needed for every inspector operation and for the stream: 401 without it', async () => {
    const stranger = new SandboxClient({ adminToken: 'not-the-token', baseUrl: world.server.url, maxRetries: 0 });
    await expect(stranger.listSellers()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(stranger.sellerDeliveries(world.sellerId)).rejects.toMatchObject({ status: 401 });
    await expect(stranger.refill(world.card, { count: 1 })).rejects.toMatchObject({ status: 401 });
    const stream = watch(stranger);
    await waitFor('the stream to fail', () => stream.state.ended);
    expect(stream.state.error).toBeInstanceOf(AuthenticationError);
    expect(stream.events).toEqual([]);
    const raw = await fetch(`${world.server.url}/sandbox/v1/changes`);
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ error: 'no_key' });
  });
});

describe('no secret leaves', () => {
  it('no answer or stream event holds a stock unit, a vault content, a key, a signing secret or a bank account', async () => {
    const shop = await world.newShop();
    const stream = watch(world.sandbox);
    await stream.ready();
    const units = ['UNIT-SECRET-0001-alpha', 'UNIT-SECRET-0002-beta'];
    const bank = FIXTURE_PAPERS('ip').bankAccount;
    await shop.client.papers.setPayout({ method: 'account', account: bank.account, bik: bank.bik, name: bank.name });
    const { url } = await shop.client.hooks.createProbe();
    const { secret } = await shop.client.hooks.set({ url, events: ['order.new', 'order.paid', 'stock.out'] });
    const number = await shop.newCard({ body: CODE_CARD, stock: units, autoIssue: true });
    const issued = await world.sandbox.createOrder({ number });
    await world.sandbox.pay(issued.id);
    const manual = await shop.newCard({ body: CODE_CARD });
    const order = await world.sandbox.createOrder({ number: manual });
    await world.sandbox.vault(order.id, { secret: 'BUYER-VAULT-SECRET-42' });
    await world.sandbox.pay(order.id);
    await shop.client.orders.putVault(order.id, { secret: 'SELLER-VAULT-SECRET-43' });
    await world.sandbox.refill(manual, { count: 2 });
    const issuedKey = await shop.client.keys.create({ name: 'second', scopes: ['orders'] });
    await stream.seen('the new key', (e) => e.type === 'seller' && e.sellerId === shop.sellerId && e.seller.keys.length === 2);
    await waitFor('the deliveries', async () => (await world.sandbox.sellerDeliveries(shop.sellerId)).items.filter((d) => d.deliveredAt).length >= 3);
    await stream.seen('the last card change', (e) => e.type === 'card' && e.number === manual && e.card.stock.free === 2);

    const answers = [
      await world.sandbox.listSellers({ limit: 200 }),
      await world.sandbox.getSeller(shop.sellerId),
      await world.sandbox.sellerCards(shop.sellerId),
      await world.sandbox.sellerOrders(shop.sellerId),
      await world.sandbox.orderTimeline(issued.id),
      await world.sandbox.orderTimeline(order.id),
      await world.sandbox.sellerHooks(shop.sellerId),
      await world.sandbox.sellerDeliveries(shop.sellerId),
      await world.sandbox.probeInbox(shop.sellerId),
    ];
    await stream.close();
    const text = JSON.stringify([answers, stream.events]);
    for (const secretText of [...units, 'BUYER-VAULT-SECRET-42', 'SELLER-VAULT-SECRET-43', shop.apiKey, issuedKey.key, secret!, bank.account, 'sandbox-unit-']) {
      expect(text, secretText).not.toContain(secretText);
    }
    // and the reads did show what they are for
    expect(text).toContain(issued.id);
    expect(text).toContain('"stockIssued":true');
  });
});
