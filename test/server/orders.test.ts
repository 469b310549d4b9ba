/**
 * The seller's orders API (spec: Orders endpoints, deliver refusals, vaults, rules 4, 6, 7;
 * gaps.md: order status table, orders shape, events).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Order, OrderWithMessages } from '../../sdk/contract/index.ts';
import { vaultAad } from '../../server/domain/orders.ts';
import { call, expectError, issueKey, makeApp, newSeller, sandbox, type Answer, type SellerCreated } from './helpers.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';

let app: FastifyInstance;
let seller: SellerCreated;

const SUBSCRIPTION_CARD = { ...CODE_CARD, productType: 'subscription', deliveryMethod: 'own_account', slaMinutes: 30, guaranteeDays: 30 };
const ACCOUNT_CARD = { ...CODE_CARD, productType: 'account', deliveryMethod: 'credentials' };

async function ok(res: Promise<Answer> | Answer, status = 200): Promise<any> {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.body;
}

function expectRefusal(res: Answer, kind: string): void {
  expectError(res, 409, 'rejected');
  expect(res.body.refusal.kind, res.text).toBe(kind);
}

async function makeCard(fields: Record<string, unknown> = {}, key = seller.apiKey): Promise<number> {
  const number: number = (await ok(call(app, key, 'POST', '/api/v1/listings', { ...CODE_CARD, ...fields }), 201)).number;
  await ok(call(app, key, 'POST', `/api/v1/listings/${number}/state`, { active: true }));
  return number;
}

const sb = (id: string, action: string, body?: unknown) => ok(sandbox(app, 'POST', `/orders/${id}/${action}`, body));
const api = (method: 'GET' | 'POST', url: string, body?: unknown, key = seller.apiKey) => call(app, key, method, `/api/v1${url}`, body);

/** An order of a new card (or `number`) brought to `status` through the sandbox and the API. */
async function orderIn(
  status: 'awaiting_payment' | 'awaiting_confirmation' | 'awaiting_delivery' | 'delivered' | 'completed' | 'disputed' | 'cancelled' | 'refunded' | 'declined',
  fields: Record<string, unknown> = {},
): Promise<string> {
  const confirm = status === 'awaiting_confirmation';
  const number = await makeCard({ ...fields, ...(confirm ? { confirmRequired: true } : {}) });
  const id: string = (await ok(sandbox(app, 'POST', '/orders', { number }), 201)).id;
  if (status === 'awaiting_payment') return id;
  if (status === 'cancelled') {
    await sb(id, 'cancel');
    return id;
  }
  await sb(id, 'pay');
  if (status === 'awaiting_confirmation' || status === 'awaiting_delivery') return id;
  if (status === 'declined') {
    await ok(api('POST', `/orders/${id}/decline`, { reason: 'out of stock' }));
    return id;
  }
  const deliver = fields.productType === 'subscription' || fields.productType === 'account' ? { nextChargeDay: '2031-01-01' } : {};
  await ok(api('POST', `/orders/${id}/deliver`, deliver));
  if (status === 'delivered') return id;
  if (status === 'completed') {
    await sb(id, 'accept');
    return id;
  }
  await sb(id, 'dispute', { text: 'it does not work' });
  if (status === 'refunded') await sb(id, 'resolve', { winner: 'buyer' });
  return id;
}

const read = async (id: string): Promise<OrderWithMessages> => OrderWithMessages.parse(await ok(api('GET', `/orders/${id}`)));
const doc = () => app.service.store.seller(seller.sellerId);

beforeEach(async () => {
  app = await makeApp();
  seller = await newSeller(app, { admission: 'complete' });
});
afterEach(async () => {
  await app.close();
});

describe('GET /orders/{id}', () => {
  it('the order with its messages, in the contract shape', async () => {
    const id = await orderIn('awaiting_delivery');
    await sb(id, 'message', { text: 'hi' });
    const order = await read(id);
    expect(order).toMatchObject({ id, status: 'awaiting_delivery', needsAction: true, isTest: false });
    expect(order.messages).toHaveLength(1);
    expect(order.messages[0]).toMatchObject({ from: 'buyer', text: 'hi' });
  });

  it("rule 7: another seller's order and an absent one look the same (404 not_found)", async () => {
    const other = await newSeller(app, { admission: 'complete' });
    const id = await orderIn('awaiting_delivery');
    const foreign = await api('GET', `/orders/${id}`, undefined, other.apiKey);
    const absent = await api('GET', '/orders/ord_doesnotexist', undefined, other.apiKey);
    expectError(foreign, 404, 'not_found');
    expectError(absent, 404, 'not_found');
    expect(foreign.body.detail).toEqual({ message: `no order ${id}`, record: 'order', id });
    expect(absent.body.detail).toEqual({ message: 'no order ord_doesnotexist', record: 'order', id: 'ord_doesnotexist' });
    // nothing of another seller's order can be changed either
    for (const [path, body] of [
      ['confirm', undefined],
      ['decline', { reason: 'no' }],
      ['messages', { text: 'hello' }],
      ['handover', { secret: 's' }],
      ['handover/reveal', undefined],
      ['dispute/reply', { text: 'x' }],
    ] as const) {
      expectError(await api('POST', `/orders/${id}/${path}`, body, other.apiKey), 404, 'not_found');
    }
    expectError(await api('GET', `/orders/${id}/handover`, undefined, other.apiKey), 404, 'not_found');
  });

  it('needs the orders scope', async () => {
    const key = await issueKey(app, seller.apiKey, ['listings']);
    const res = await api('GET', '/orders', undefined, key.key);
    expectError(res, 403, 'scope');
    expect(res.body.detail).toMatchObject({ needed: 'orders' });
  });
});

describe('POST /orders/{id}/confirm', () => {
  it('awaiting_confirmation → awaiting_delivery', async () => {
    const id = await orderIn('awaiting_confirmation');
    const res = Order.parse(await ok(api('POST', `/orders/${id}/confirm`)));
    expect(res).toMatchObject({ id, status: 'awaiting_delivery', needsAction: true });
  });

  it('from every other state → state_moved naming the status', async () => {
    for (const status of ['awaiting_payment', 'awaiting_delivery', 'delivered', 'cancelled'] as const) {
      const id = await orderIn(status);
      const res = await api('POST', `/orders/${id}/confirm`);
      expectRefusal(res, 'state_moved');
      expect(res.body.refusal.status).toBe(status);
      expect(res.body.detail).toContain(status);
    }
  });
});

describe('POST /orders/{id}/decline', () => {
  it('from awaiting_confirmation and awaiting_delivery → declined; the reason goes to the buyer', async () => {
    for (const status of ['awaiting_confirmation', 'awaiting_delivery'] as const) {
      const id = await orderIn(status);
      const res = await ok(api('POST', `/orders/${id}/decline`, { reason: 'cannot deliver today' }));
      expect(res).toMatchObject({ id, status: 'declined', needsAction: false });
      expect((await read(id)).messages.at(-1)).toMatchObject({ from: 'seller', text: 'cannot deliver today' });
    }
  });

  it('from other states → state_moved', async () => {
    for (const status of ['awaiting_payment', 'delivered', 'cancelled', 'declined'] as const) {
      const id = await orderIn(status);
      expectRefusal(await api('POST', `/orders/${id}/decline`, { reason: 'no' }), 'state_moved');
    }
  });

  it('a reason with contacts → contacts; the order is unchanged', async () => {
    const id = await orderIn('awaiting_delivery');
    const res = await api('POST', `/orders/${id}/decline`, { reason: 'write me at seller@example.com' });
    expectRefusal(res, 'contacts');
    expect(res.body.refusal).toMatchObject({ field: 'reason', reason: 'email' });
    expect((await read(id)).status).toBe('awaiting_delivery');
  });

  it('no reason → bad_request', async () => {
    const id = await orderIn('awaiting_delivery');
    expectError(await api('POST', `/orders/${id}/decline`, {}), 400, 'bad_request');
  });
});

describe('POST /orders/{id}/deliver', () => {
  it('awaiting_delivery → delivered; guarantee runs from now; the answer is {order, status, noteRejected}', async () => {
    const id = await orderIn('awaiting_delivery');
    const res = await ok(api('POST', `/orders/${id}/deliver`, {}));
    expect(res).toEqual({ order: id, status: 'delivered', noteRejected: null });
    const order = await read(id);
    expect(order.status).toBe('delivered');
    expect(order.needsAction).toBe(false);
    expect(Date.parse(order.guaranteeUntil!) - Date.parse(order.updatedAt)).toBeLessThanOrEqual(7 * 86400_000);
    expect(Date.parse(order.guaranteeUntil!) - Date.parse(order.updatedAt)).toBeGreaterThan(7 * 86400_000 - 1000);
  });

  it('absent and foreign orders → 409 rejected not_found, identical', async () => {
    const other = await newSeller(app, { admission: 'complete' });
    const id = await orderIn('awaiting_delivery');
    const foreign = await api('POST', `/orders/${id}/deliver`, {}, other.apiKey);
    const absent = await api('POST', '/orders/ord_nope/deliver', {}, other.apiKey);
    expectRefusal(foreign, 'not_found');
    expectRefusal(absent, 'not_found');
    expect(Object.keys(foreign.body).sort()).toEqual(Object.keys(absent.body).sort());
    expect((await read(id)).status).toBe('awaiting_delivery');
  });

  it('not awaiting delivery → state_moved, from every other state', async () => {
    for (const status of ['awaiting_payment', 'awaiting_confirmation', 'delivered', 'completed', 'disputed', 'cancelled', 'declined', 'refunded'] as const) {
      const id = await orderIn(status);
      const res = await api('POST', `/orders/${id}/deliver`, {});
      expectRefusal(res, 'state_moved');
      expect(res.body.refusal.status, status).toBe(status);
    }
  });

  it('a subscription or an account without nextChargeDay → need_next_charge; with it, kept', async () => {
    for (const card of [SUBSCRIPTION_CARD, ACCOUNT_CARD]) {
      const id = await orderIn('awaiting_delivery', card);
      const res = await api('POST', `/orders/${id}/deliver`, {});
      expectRefusal(res, 'need_next_charge');
      expect(res.body.refusal).toMatchObject({ field: 'nextChargeDay', reason: 'required' });
      expect((await read(id)).status).toBe('awaiting_delivery');
      expect((await ok(api('POST', `/orders/${id}/deliver`, { nextChargeDay: '2031-02-28' }))).status).toBe('delivered');
      expect((await read(id)).nextChargeDay).toBe('2031-02-28');
    }
  });

  it('nextChargeDay must be a real date → bad_request naming the field', async () => {
    const id = await orderIn('awaiting_delivery', SUBSCRIPTION_CARD);
    for (const day of ['2031-02-30', '31.01.2031', '2031-1-5']) {
      const res = await api('POST', `/orders/${id}/deliver`, { nextChargeDay: day });
      expectError(res, 400, 'bad_request');
      expect(JSON.stringify(res.body.detail)).toContain('nextChargeDay');
    }
  });

  it('a clean note is stored as a seller message', async () => {
    const id = await orderIn('awaiting_delivery');
    const res = await ok(api('POST', `/orders/${id}/deliver`, { note: 'Enjoy! Redeem in the app.' }));
    expect(res.noteRejected).toBeNull();
    expect((await read(id)).messages).toEqual([expect.objectContaining({ from: 'seller', text: 'Enjoy! Redeem in the app.' })]);
  });

  it('a note with contacts: the delivery passes, the note is not stored, noteRejected says why', async () => {
    const id = await orderIn('awaiting_delivery');
    const res = await ok(api('POST', `/orders/${id}/deliver`, { note: 'call me +7 999 123-45-67' }));
    expect(res.status).toBe('delivered');
    expect(res.noteRejected).toMatch(/^contacts: the note contains a phone number; contacts are not allowed, send it without them through POST \/orders\/ord_\w+\/messages$/);
    const order = await read(id);
    expect(order.status).toBe('delivered');
    expect(order.messages).toEqual([]);
    expect(JSON.stringify((await doc()).orders[id])).not.toContain('999 123');
  });

  it('a replay with the same Idempotency-Key answers the same, and delivers once', async () => {
    const id = await orderIn('awaiting_delivery');
    const headers = { 'idempotency-key': 'deliver-once' };
    const a = await call(app, seller.apiKey, 'POST', `/api/v1/orders/${id}/deliver`, {}, headers);
    const b = await call(app, seller.apiKey, 'POST', `/api/v1/orders/${id}/deliver`, {}, headers);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(b.headers['idempotent-replayed']).toBe('true');
  });
});

describe('POST /orders/{id}/messages', () => {
  it('201 the message; it answers the buyer: needsAction clears', async () => {
    const id = await orderIn('delivered');
    await sb(id, 'message', { text: 'thanks, works' });
    expect((await read(id)).needsAction).toBe(true);
    const msg = await ok(api('POST', `/orders/${id}/messages`, { text: 'Glad to help' }), 201);
    expect(msg).toMatchObject({ from: 'seller', text: 'Glad to help' });
    expect(msg.id).toMatch(/^msg_/);
    const order = await read(id);
    expect(order.needsAction).toBe(false);
    expect(order.messages.map((m) => m.from)).toEqual(['buyer', 'seller']);
  });

  it('reading the order does not clear the unread flag; only an answer does', async () => {
    const id = await orderIn('completed');
    await sb(id, 'message', { text: 'one more question' });
    await read(id);
    expect((await read(id)).needsAction).toBe(true);
    const listed = await ok(api('GET', '/orders?needsAction=true'));
    expect(listed.items.map((o: Order) => o.id)).toEqual([id]);
  });

  it('contacts → contacts, nothing stored', async () => {
    const id = await orderIn('delivered');
    const res = await api('POST', `/orders/${id}/messages`, { text: 'telegram: @best_seller' });
    expectRefusal(res, 'contacts');
    expect(res.body.refusal.field).toBe('text');
    expect((await read(id)).messages).toEqual([]);
  });

  it('allowed while the order is open (even unpaid or completed); a closed order → state_moved', async () => {
    for (const status of ['awaiting_payment', 'awaiting_confirmation', 'awaiting_delivery', 'delivered', 'completed', 'disputed'] as const) {
      const id = await orderIn(status);
      await ok(api('POST', `/orders/${id}/messages`, { text: 'hello' }), 201);
    }
    for (const status of ['cancelled', 'declined', 'refunded'] as const) {
      const id = await orderIn(status);
      const res = await api('POST', `/orders/${id}/messages`, { text: 'hello' });
      expectRefusal(res, 'state_moved');
      expect(res.body.refusal.status).toBe(status);
    }
  });

  it('empty text → bad_request', async () => {
    const id = await orderIn('delivered');
    expectError(await api('POST', `/orders/${id}/messages`, { text: '   ' }), 400, 'bad_request');
  });
});

describe('vaults (handover)', () => {
  it('no vaults at first; the list never holds contents', async () => {
    const id = await orderIn('awaiting_delivery');
    expect(await ok(api('GET', `/orders/${id}/handover`))).toEqual({ items: [] });
  });

  it("the seller's own vault: put (201), sealed at rest, listed as own, handed over at delivery, never readable", async () => {
    const id = await orderIn('awaiting_delivery', ACCOUNT_CARD);
    const put = await ok(api('POST', `/orders/${id}/handover`, { secret: 'login: acc1 / pass: Secr3t!' }), 201);
    expect(put).toEqual({ side: 'own', opened: false });
    expect(await ok(api('GET', `/orders/${id}/handover`))).toEqual({ items: [{ side: 'own', opened: false }] });
    const stored = (await doc()).orders[id]!.vaults.seller!;
    expect(stored.sealed).not.toContain('Secr3t');
    expect(app.service.sealer.open(stored.sealed, vaultAad(id, 'seller'))).toBe('login: acc1 / pass: Secr3t!');
    // reveal reads only the buyer's vault: with none there is nothing to read
    expectError(await api('POST', `/orders/${id}/handover/reveal`), 404, 'not_found');
    await ok(api('POST', `/orders/${id}/deliver`, { nextChargeDay: '2031-01-01' }));
    expect(await ok(api('GET', `/orders/${id}/handover`))).toEqual({ items: [{ side: 'own', opened: true }] });
    // a replacement after delivery is handed over at once
    expect(await ok(api('POST', `/orders/${id}/handover`, { secret: 'new password' }), 201)).toEqual({ side: 'own', opened: true });
    const all = await read(id);
    expect(JSON.stringify(all)).not.toContain('Secr3t');
    expect(JSON.stringify(all)).not.toContain('new password');
  });

  it('putting into the own vault: not before payment, not after completion or closing', async () => {
    for (const status of ['awaiting_payment', 'completed', 'cancelled', 'declined', 'refunded'] as const) {
      const id = await orderIn(status);
      expectRefusal(await api('POST', `/orders/${id}/handover`, { secret: 'x' }), 'state_moved');
    }
    for (const status of ['awaiting_confirmation', 'awaiting_delivery', 'delivered', 'disputed'] as const) {
      const id = await orderIn(status);
      await ok(api('POST', `/orders/${id}/handover`, { secret: 'x' }), 201);
    }
  });

  it("the buyer's vault: read exactly once, then already_opened", async () => {
    const id = await orderIn('awaiting_delivery', SUBSCRIPTION_CARD);
    await sb(id, 'vault', { secret: 'buyer@mail.example / pw123' });
    expect(await ok(api('GET', `/orders/${id}/handover`))).toEqual({ items: [{ side: 'other', opened: false }] });
    expect(await ok(api('POST', `/orders/${id}/handover/reveal`))).toEqual({ secret: 'buyer@mail.example / pw123' });
    expect(await ok(api('GET', `/orders/${id}/handover`))).toEqual({ items: [{ side: 'other', opened: true }] });
    const again = await api('POST', `/orders/${id}/handover/reveal`);
    expectRefusal(again, 'already_opened');
    expect(again.text).not.toContain('pw123');
    // the answer kept for replays is sealed too: the secret is nowhere in the document in the clear
    expect(JSON.stringify(await doc())).not.toContain('pw123');
  });

  it('both vaults: own first, then other', async () => {
    const id = await orderIn('awaiting_delivery', ACCOUNT_CARD);
    await sb(id, 'vault', { secret: 'b' });
    await ok(api('POST', `/orders/${id}/handover`, { secret: 'a' }), 201);
    expect(await ok(api('GET', `/orders/${id}/handover`))).toEqual({
      items: [
        { side: 'own', opened: false },
        { side: 'other', opened: false },
      ],
    });
  });
});

describe('POST /orders/{id}/dispute/reply', () => {
  it('disputed: the reply clears needsAction and goes to the buyer; the order stays disputed', async () => {
    const id = await orderIn('disputed');
    expect((await read(id)).needsAction).toBe(true);
    const res = Order.parse(await ok(api('POST', `/orders/${id}/dispute/reply`, { text: 'I sent a new code' })));
    expect(res).toMatchObject({ status: 'disputed', needsAction: false });
    expect((await read(id)).messages.at(-1)).toMatchObject({ from: 'seller', text: 'I sent a new code' });
    // a new buyer message asks for action again
    await sb(id, 'message', { text: 'still broken' });
    expect((await read(id)).needsAction).toBe(true);
  });

  it('not disputed → not_disputed naming the status', async () => {
    for (const status of ['awaiting_delivery', 'delivered', 'completed', 'refunded'] as const) {
      const id = await orderIn(status);
      const res = await api('POST', `/orders/${id}/dispute/reply`, { text: 'hm' });
      expectRefusal(res, 'not_disputed');
      expect(res.body.refusal.status).toBe(status);
    }
  });

  it('contacts → contacts; still needs action', async () => {
    const id = await orderIn('disputed');
    expectRefusal(await api('POST', `/orders/${id}/dispute/reply`, { text: 'email me: a.b@example.org' }), 'contacts');
    expect((await read(id)).needsAction).toBe(true);
  });
});

describe('GET /orders', () => {
  it('newest first without updatedSince; filters by status and needsAction', async () => {
    const a = await orderIn('awaiting_payment');
    const b = await orderIn('awaiting_delivery');
    const c = await orderIn('delivered');
    const all = await ok(api('GET', '/orders'));
    expect(all.items.map((o: Order) => o.id)).toEqual([c, b, a]);
    expect(all.nextCursor).toBeNull();
    for (const item of all.items) Order.parse(item);
    expect((await ok(api('GET', '/orders?status=awaiting_delivery'))).items.map((o: Order) => o.id)).toEqual([b]);
    expect((await ok(api('GET', '/orders?needsAction=true'))).items.map((o: Order) => o.id)).toEqual([b]);
    expect((await ok(api('GET', '/orders?needsAction=false'))).items.map((o: Order) => o.id)).toEqual([c, a]);
  });

  it('needsAction follows the status table', async () => {
    const expected = {
      awaiting_payment: false,
      awaiting_confirmation: true,
      awaiting_delivery: true,
      delivered: false,
      completed: false,
      disputed: true,
      cancelled: false,
      declined: false,
      refunded: false,
    } as const;
    for (const [status, needs] of Object.entries(expected)) {
      const id = await orderIn(status as keyof typeof expected);
      const order = await read(id);
      expect(order.status).toBe(status);
      expect(order.needsAction, status).toBe(needs);
    }
  });

  it('pages with limit and cursor; a bad or foreign-mode cursor → bad_request', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await orderIn('awaiting_payment'));
    const p1 = await ok(api('GET', '/orders?limit=2'));
    const p2 = await ok(api('GET', `/orders?limit=2&cursor=${p1.nextCursor}`));
    const p3 = await ok(api('GET', `/orders?limit=2&cursor=${p2.nextCursor}`));
    expect([...p1.items, ...p2.items, ...p3.items].map((o: Order) => o.id)).toEqual([...ids].reverse());
    expect(p3.nextCursor).toBeNull();
    expectError(await api('GET', '/orders?cursor=nonsense!'), 400, 'bad_request');
    const since = new Date(0).toISOString();
    expectError(await api('GET', `/orders?updatedSince=${since}&cursor=${p1.nextCursor}`), 400, 'bad_request');
    expectError(await api('GET', '/orders?limit=0'), 400, 'bad_request');
    expectError(await api('GET', '/orders?updatedSince=yesterday'), 400, 'bad_request');
    expectError(await api('GET', '/orders?status=lost'), 400, 'bad_request');
  });

  it('updatedSince: inclusive, ascending by updatedAt; a changed order comes again', async () => {
    const a = await orderIn('awaiting_payment');
    const b = await orderIn('awaiting_payment');
    const first = await ok(api('GET', `/orders?updatedSince=${new Date(0).toISOString()}`));
    expect(first.items.map((o: Order) => o.id)).toEqual([a, b]);
    const last = first.items[1].updatedAt;
    // inclusive: the order updated exactly at T is returned
    expect((await ok(api('GET', `/orders?updatedSince=${last}`))).items.map((o: Order) => o.id)).toEqual([b]);
    await sb(a, 'pay');
    const next = await ok(api('GET', `/orders?updatedSince=${last}`));
    expect(next.items.map((o: Order) => o.id)).toEqual([b, a]);
    expect(next.items[1].status).toBe('awaiting_delivery');
  });

  it('updatedAt is strictly increasing across every change of a seller\'s orders', async () => {
    const a = await orderIn('awaiting_payment');
    const b = await orderIn('awaiting_payment');
    await sb(a, 'message', { text: 'x' });
    await sb(b, 'pay');
    await sb(a, 'pay');
    const list = (await ok(api('GET', `/orders?updatedSince=${new Date(0).toISOString()}`))).items as Order[];
    const times = list.map((o) => Date.parse(o.updatedAt));
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    expect((await doc()).lastOrderUpdate).toBe(list.at(-1)!.updatedAt);
  });
});

describe('events', () => {
  it('order.new, order.paid, order.message, order.dispute, order.completed, order.cancelled with their data', async () => {
    const number = await makeCard();
    const id: string = (await ok(sandbox(app, 'POST', '/orders', { number }), 201)).id;
    await sb(id, 'pay');
    const msg = await sb(id, 'message', { text: 'ping' });
    await ok(api('POST', `/orders/${id}/messages`, { text: 'pong' }), 201);
    await ok(api('POST', `/orders/${id}/deliver`, {}));
    await sb(id, 'dispute', { text: 'broken' });
    await sb(id, 'resolve', { winner: 'seller' });
    const other: string = (await ok(sandbox(app, 'POST', '/orders', { number }), 201)).id;
    await sb(other, 'cancel');

    const events = (await doc()).events.filter((e) => e.kind.startsWith('order.'));
    expect(events.map((e) => [e.kind, e.data])).toEqual([
      ['order.new', { order: id, number, status: 'awaiting_payment' }],
      ['order.paid', { order: id, number, status: 'awaiting_delivery', slaMinutes: 60 }],
      ['order.message', { order: id, number, status: 'awaiting_delivery', message: { id: msg.id, text: 'ping', at: msg.at } }],
      ['order.dispute', { order: id, number, status: 'disputed' }],
      ['order.completed', { order: id, number, status: 'completed' }],
      ['order.new', { order: other, number, status: 'awaiting_payment' }],
      ['order.cancelled', { order: other, number, status: 'cancelled' }],
    ]);
    for (const e of events) expect(e.at).toMatch(/Z$/);
  });

  it('the buyer accepting records order.completed', async () => {
    const id = await orderIn('completed');
    const kinds = (await doc()).events.filter((e) => e.data.order === id).map((e) => e.kind);
    expect(kinds).toEqual(['order.new', 'order.paid', 'order.completed']);
  });
});

describe('rule 4: no buyer identity in any answer', () => {
  it('the internal buyer id appears in no answer of the API or the sandbox', async () => {
    const answers: string[] = [];
    const keep = async (res: Promise<Answer> | Answer) => {
      const r = await res;
      answers.push(r.text);
      return r;
    };
    const number = await makeCard(ACCOUNT_CARD);
    const created = await keep(sandbox(app, 'POST', '/orders', { number }));
    const id: string = created.body.id;
    await keep(sandbox(app, 'POST', `/orders/${id}/pay`));
    await keep(sandbox(app, 'POST', `/orders/${id}/message`, { text: 'hello' }));
    await keep(sandbox(app, 'POST', `/orders/${id}/vault`, { secret: 'my login' }));
    await keep(api('GET', '/orders'));
    await keep(api('GET', `/orders?updatedSince=${new Date(0).toISOString()}`));
    await keep(api('GET', `/orders/${id}`));
    await keep(api('GET', `/orders/${id}/handover`));
    await keep(api('POST', `/orders/${id}/handover/reveal`));
    await keep(api('POST', `/orders/${id}/handover`, { secret: 'acc' }));
    await keep(api('POST', `/orders/${id}/messages`, { text: 'here you go' }));
    await keep(api('POST', `/orders/${id}/deliver`, { nextChargeDay: '2031-01-01', note: 'enjoy' }));
    await keep(sandbox(app, 'POST', `/orders/${id}/dispute`, { text: 'no' }));
    await keep(api('POST', `/orders/${id}/dispute/reply`, { text: 'fixed' }));
    await keep(sandbox(app, 'POST', `/orders/${id}/resolve`, { winner: 'seller' }));
    const record = (await doc()).orders[id]!;
    expect(record.buyer.id).toMatch(/^buy_/);
    for (const text of answers) {
      expect(text).not.toContain(record.buyer.id);
      expect(text).not.toMatch(/"buyer"\s*:/);
    }
    // nor in the events a subscriber would receive
    expect(JSON.stringify((await doc()).events)).not.toContain(record.buyer.id);
  });
});
