/**
 * The buyer and marketplace side of orders in the sandbox (gaps.md: sandbox routes, test buyers),
 * auto-delivery, the price snapshot, and the deadlines the clock enforces.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OrderWithMessages } from '../../sdk/contract/index.ts';
import { Clock } from '../../server/clock.ts';
import { sweepOrders } from '../../server/domain/order-clock.ts';
import { vaultAad } from '../../server/domain/orders.ts';
import { allUnits } from '../../server/store/stock-pieces.ts';
import { call, expectError, makeApp, newSeller, sandbox, type Answer, type SellerCreated } from './helpers.ts';
import { CODE_CARD as BASE_CODE_CARD } from '../helpers/fixtures.ts';

let app: FastifyInstance;
let seller: SellerCreated;

const CODE_CARD = { ...BASE_CODE_CARD, description: 'Gift code' };

interface CardOpts {
  active?: boolean;
  isTest?: boolean;
  stock?: string[];
  autoIssue?: boolean;
}

async function makeCard(fields: Record<string, unknown> = {}, opts: CardOpts = {}, key = seller.apiKey): Promise<number> {
  const res = await call(app, key, 'POST', '/api/v1/listings', { ...CODE_CARD, ...fields });
  expect(res.status, res.text).toBe(201);
  const number: number = res.body.number;
  if (opts.isTest !== undefined) {
    const t = await call(app, key, 'POST', `/api/v1/listings/${number}/test`, { isTest: opts.isTest });
    expect(t.status, t.text).toBe(200);
  }
  if (opts.stock) {
    const s = await call(app, key, 'POST', `/api/v1/listings/${number}/stock`, { items: opts.stock });
    expect(s.status, s.text).toBe(201);
  }
  if (opts.active ?? true) {
    const body = opts.autoIssue === undefined ? { active: true } : { active: true, autoIssue: opts.autoIssue };
    const s = await call(app, key, 'POST', `/api/v1/listings/${number}/state`, body);
    expect(s.status, s.text).toBe(200);
  }
  return number;
}

async function buy(number: number, testBuyer?: boolean): Promise<OrderWithMessages> {
  const res = await sandbox(app, 'POST', '/orders', testBuyer === undefined ? { number } : { number, testBuyer });
  expect(res.status, res.text).toBe(201);
  return OrderWithMessages.parse(res.body);
}

const act = (id: string, action: string, body?: unknown) => sandbox(app, 'POST', `/orders/${id}/${action}`, body);

async function ok(res: Promise<Answer> | Answer, status = 200): Promise<any> {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.body;
}

function expectRefusal(res: Answer, kind: string): void {
  expectError(res, 409, 'rejected');
  expect(res.body.refusal.kind, res.text).toBe(kind);
}

const advance = (seconds: number) => ok(sandbox(app, 'POST', '/clock/advance', { seconds }));
const getOrder = async (id: string) => ok(call(app, seller.apiKey, 'GET', `/api/v1/orders/${id}`));
const doc = () => app.service.store.seller(seller.sellerId);

beforeEach(async () => {
  app = await makeApp();
  seller = await newSeller(app, { admission: 'complete' });
});
afterEach(async () => {
  await app.close();
});

describe('sandbox.createOrder', () => {
  it('a buyer presses buy: 201, awaiting_payment, a snapshot of the card, no buyer in the answer', async () => {
    const number = await makeCard();
    const order = await buy(number);
    expect(order).toMatchObject({
      number,
      service: 'spotify',
      tariff: 'individual',
      productType: 'code',
      deliveryMethod: 'code',
      priceRub: 300,
      status: 'awaiting_payment',
      isTest: false,
      needsAction: false,
      slaMinutes: 60,
      deliverBy: null,
      guaranteeDays: 7,
      guaranteeUntil: null,
      nextChargeDay: null,
      paidAt: null,
      messages: [],
    });
    expect(order.id).toMatch(/^ord_/);
    const record = (await doc()).orders[order.id]!;
    expect(record.buyer.id).toMatch(/^buy_/);
    expect(JSON.stringify(order)).not.toContain(record.buyer.id);
    expect(Object.keys(order)).not.toContain('buyer');
    expect(app.service.store.shared.orderIndex[order.id]).toBe(seller.sellerId);
  });

  it('an unknown card → 404 not_found', async () => {
    expectError(await sandbox(app, 'POST', '/orders', { number: 999999 }), 404, 'not_found');
  });

  it('a switched-off card → inactive', async () => {
    const number = await makeCard({}, { active: false });
    expectRefusal(await sandbox(app, 'POST', '/orders', { number }), 'inactive');
  });

  it('a deleted card with orders (hidden) cannot be bought: 404', async () => {
    const number = await makeCard();
    await buy(number);
    expect((await call(app, seller.apiKey, 'DELETE', `/api/v1/listings/${number}`)).body.result).toBe('hidden');
    expectError(await sandbox(app, 'POST', '/orders', { number }), 404, 'not_found');
  });

  it('a normal buyer cannot buy a test card (test_card); a test buyer can', async () => {
    const number = await makeCard({}, { isTest: true });
    expectRefusal(await sandbox(app, 'POST', '/orders', { number }), 'test_card');
    expectRefusal(await sandbox(app, 'POST', '/orders', { number, testBuyer: false }), 'test_card');
    const order = await buy(number, true);
    expect(order.isTest).toBe(true);
  });

  it('a test buyer can buy only test cards (real_card)', async () => {
    const number = await makeCard();
    expectRefusal(await sandbox(app, 'POST', '/orders', { number, testBuyer: true }), 'real_card');
  });

  it('do-not-disturb → do_not_disturb; off again → accepted', async () => {
    const number = await makeCard();
    await ok(call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { doNotDisturb: true }));
    expectRefusal(await sandbox(app, 'POST', '/orders', { number }), 'do_not_disturb');
    await ok(call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { doNotDisturb: false }));
    await buy(number);
  });

  it('capacity: orders awaiting confirmation/delivery or disputed count; unpaid and delivered do not', async () => {
    const number = await makeCard();
    await ok(call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { capacity: 2 }));
    const a = await buy(number);
    const b = await buy(number);
    await buy(number); // unpaid orders do not occupy the seller
    await ok(act(a.id, 'pay'));
    await ok(act(b.id, 'pay'));
    expectRefusal(await sandbox(app, 'POST', '/orders', { number }), 'capacity');
    // one delivered: room again
    await ok(call(app, seller.apiKey, 'POST', `/api/v1/orders/${a.id}/deliver`, {}));
    const c = await buy(number);
    await ok(act(c.id, 'pay'));
    expectRefusal(await sandbox(app, 'POST', '/orders', { number }), 'capacity');
    // a dispute occupies the seller again
    await ok(act(a.id, 'dispute', { text: 'the code does not work' }));
    await ok(call(app, seller.apiKey, 'POST', `/api/v1/orders/${b.id}/deliver`, {}));
    expectRefusal(await sandbox(app, 'POST', '/orders', { number }), 'capacity');
  });

  it('needs the admin token', async () => {
    const number = await makeCard();
    const res = await app.inject({ method: 'POST', url: '/sandbox/v1/orders', payload: { number } });
    expect(res.statusCode).toBe(401);
  });
});

describe('price snapshot', () => {
  it('a later price change does not touch an order already taken; a new order takes the new price', async () => {
    const number = await makeCard();
    const order = await buy(number);
    const patch = await call(app, seller.apiKey, 'PATCH', `/api/v1/listings/${number}`, {
      productType: 'code',
      deliveryMethod: 'code',
      priceRub: 999,
      slaMinutes: 30,
      guaranteeDays: 30,
    });
    expect(patch.status, patch.text).toBe(200);
    const paid = await ok(act(order.id, 'pay'));
    expect(paid).toMatchObject({ priceRub: 300, slaMinutes: 60, guaranteeDays: 7 });
    expect((await getOrder(order.id)).priceRub).toBe(300);
    const later = await buy(number);
    expect(later).toMatchObject({ priceRub: 999, slaMinutes: 30, guaranteeDays: 30 });
  });
});

describe('pay', () => {
  it('awaiting_payment → awaiting_delivery; paidAt and deliverBy = paidAt + SLA; needsAction', async () => {
    const order = await buy(await makeCard());
    const paid = await ok(act(order.id, 'pay'));
    expect(paid.status).toBe('awaiting_delivery');
    expect(paid.needsAction).toBe(true);
    expect(Date.parse(paid.deliverBy) - Date.parse(paid.paidAt)).toBe(60 * 60 * 1000);
  });

  it('a card with confirmRequired → awaiting_confirmation', async () => {
    const order = await buy(await makeCard({ confirmRequired: true }));
    expect((await ok(act(order.id, 'pay'))).status).toBe('awaiting_confirmation');
  });

  it('paying twice, or paying a cancelled order → state_moved naming the status', async () => {
    const order = await buy(await makeCard());
    await ok(act(order.id, 'pay'));
    const again = await act(order.id, 'pay');
    expectRefusal(again, 'state_moved');
    expect(again.body.detail).toContain('awaiting_delivery');
    const other = await buy(await makeCard());
    await ok(act(other.id, 'cancel'));
    const res = await act(other.id, 'pay');
    expectRefusal(res, 'state_moved');
    expect(res.body.refusal.status).toBe('cancelled');
  });

  it('an unknown order → 404', async () => {
    expectError(await act('ord_nothing', 'pay'), 404, 'not_found');
  });
});

describe('cancel', () => {
  it('from awaiting_payment, awaiting_confirmation and awaiting_delivery → cancelled', async () => {
    const plain = await makeCard();
    const confirm = await makeCard({ confirmRequired: true });
    const unpaid = await buy(plain);
    const toConfirm = await buy(confirm);
    await ok(act(toConfirm.id, 'pay'));
    const toDeliver = await buy(plain);
    await ok(act(toDeliver.id, 'pay'));
    for (const o of [unpaid, toConfirm, toDeliver]) {
      const res = await ok(act(o.id, 'cancel'));
      expect(res.status).toBe('cancelled');
      expect(res.needsAction).toBe(false);
    }
  });

  it('a delivered or completed order cannot be cancelled', async () => {
    const order = await buy(await makeCard());
    await ok(act(order.id, 'pay'));
    await ok(call(app, seller.apiKey, 'POST', `/api/v1/orders/${order.id}/deliver`, {}));
    expectRefusal(await act(order.id, 'cancel'), 'state_moved');
    await ok(act(order.id, 'accept'));
    expectRefusal(await act(order.id, 'cancel'), 'state_moved');
  });
});

describe('accept, dispute, resolve', () => {
  async function delivered(fields: Record<string, unknown> = {}) {
    const order = await buy(await makeCard(fields));
    await ok(act(order.id, 'pay'));
    await ok(call(app, seller.apiKey, 'POST', `/api/v1/orders/${order.id}/deliver`, {}));
    return order;
  }

  it('accept: delivered → completed; from anything else → state_moved', async () => {
    const order = await buy(await makeCard());
    expectRefusal(await act(order.id, 'accept'), 'state_moved');
    await ok(act(order.id, 'pay'));
    expectRefusal(await act(order.id, 'accept'), 'state_moved');
    await ok(call(app, seller.apiKey, 'POST', `/api/v1/orders/${order.id}/deliver`, {}));
    expect((await ok(act(order.id, 'accept'))).status).toBe('completed');
    expectRefusal(await act(order.id, 'accept'), 'state_moved');
  });

  it('dispute: delivered → disputed with the text as a buyer message; needsAction until replied', async () => {
    const order = await delivered();
    const res = await ok(act(order.id, 'dispute', { text: 'the code was already used' }));
    expect(res.status).toBe('disputed');
    expect(res.needsAction).toBe(true);
    expect(res.messages.at(-1)).toMatchObject({ from: 'buyer', text: 'the code was already used' });
  });

  it('dispute: a completed order while its guarantee runs → disputed; after it ended → state_moved', async () => {
    const order = await delivered();
    await ok(act(order.id, 'accept'));
    await advance(6 * 86400);
    expect((await ok(act(order.id, 'dispute', { text: 'stopped working' }))).status).toBe('disputed');
    const late = await delivered();
    await ok(act(late.id, 'accept'));
    await advance(7 * 86400);
    expectRefusal(await act(late.id, 'dispute', { text: 'too late' }), 'state_moved');
  });

  it('dispute: not before delivery, and not on a closed order', async () => {
    const order = await buy(await makeCard());
    expectRefusal(await act(order.id, 'dispute', { text: 'x' }), 'state_moved');
    await ok(act(order.id, 'pay'));
    expectRefusal(await act(order.id, 'dispute', { text: 'x' }), 'state_moved');
    await ok(act(order.id, 'cancel'));
    expectRefusal(await act(order.id, 'dispute', { text: 'x' }), 'state_moved');
  });

  it('resolve: seller wins → completed; buyer wins → refunded; not disputed → state_moved', async () => {
    const a = await delivered();
    const b = await delivered();
    expectRefusal(await act(a.id, 'resolve', { winner: 'seller' }), 'state_moved');
    await ok(act(a.id, 'dispute', { text: 'broken' }));
    await ok(act(b.id, 'dispute', { text: 'broken' }));
    expect((await ok(act(a.id, 'resolve', { winner: 'seller' }))).status).toBe('completed');
    expect((await ok(act(b.id, 'resolve', { winner: 'buyer' }))).status).toBe('refunded');
    expectRefusal(await act(b.id, 'resolve', { winner: 'seller' }), 'state_moved');
    expectError(await act(a.id, 'resolve', { winner: 'nobody' }), 400, 'bad_request');
  });
});

describe('buyer messages and vault', () => {
  it('a buyer message: answers the message, sets needsAction, shows in the order', async () => {
    const order = await buy(await makeCard());
    const msg = await ok(act(order.id, 'message', { text: 'When will it arrive?' }));
    expect(msg).toMatchObject({ from: 'buyer', text: 'When will it arrive?' });
    expect(msg.id).toMatch(/^msg_/);
    const read = await getOrder(order.id);
    expect(read.needsAction).toBe(true);
    expect(read.messages).toEqual([msg]);
  });

  it('no messages and no vault on a closed order', async () => {
    const order = await buy(await makeCard());
    await ok(act(order.id, 'cancel'));
    expectRefusal(await act(order.id, 'message', { text: 'hello?' }), 'state_moved');
    expectRefusal(await act(order.id, 'vault', { secret: 'login:pass' }), 'state_moved');
  });

  it("the buyer's vault is sealed at rest, bound to the order", async () => {
    const order = await buy(await makeCard());
    await ok(act(order.id, 'vault', { secret: 'buyer-login:hunter2' }));
    const vault = (await doc()).orders[order.id]!.vaults.buyer!;
    expect(vault.sealed).not.toContain('hunter2');
    expect(app.service.sealer.open(vault.sealed, vaultAad(order.id, 'buyer'))).toBe('buyer-login:hunter2');
    expect(() => app.service.sealer.open(vault.sealed, vaultAad(order.id, 'seller'))).toThrow();
  });
});

describe('auto-delivery', () => {
  it('on payment one free unit goes into the seller vault and the order is delivered; the last one empties the stock', async () => {
    const number = await makeCard({}, { stock: ['CODE-AAA', 'CODE-BBB'], autoIssue: true });
    const a = await buy(number);
    const paidA = await ok(act(a.id, 'pay'));
    expect(paidA.status).toBe('delivered');
    expect(paidA.guaranteeUntil).not.toBeNull();
    expect((await ok(call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}/stock`))).free).toBe(1);
    const b = await buy(number);
    expect((await ok(act(b.id, 'pay'))).status).toBe('delivered');

    const d = await doc();
    const units = [a.id, b.id].map((id) => app.service.sealer.open(d.orders[id]!.vaults.seller!.sealed, vaultAad(id, 'seller')));
    expect(units.sort()).toEqual(['CODE-AAA', 'CODE-BBB']);
    expect(d.orders[a.id]!.stockItem).toMatch(/^itm_/);
    expect(d.orders[a.id]!.stockItem).not.toBe(d.orders[b.id]!.stockItem);
    // each order names the unit issued to it
    for (const id of [a.id, b.id]) expect(d.orders[id]!.stockItem).toBe(allUnits(d, number).find((u) => u.order === id)!.id);
    // the empty stock: stock.out once, auto-delivery off
    expect(d.events.filter((e) => e.kind === 'stock.out')).toEqual([expect.objectContaining({ data: { number } })]);
    const card = await ok(call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}`));
    expect(card.autoIssue).toBe(false);
    expect(card.stock).toEqual({ free: 0, issued: 2 });
    // the seller sees its own vault (handed over) but never its contents
    expect(await ok(call(app, seller.apiKey, 'GET', `/api/v1/orders/${a.id}/handover`))).toEqual({ items: [{ side: 'own', opened: true }] });
    // order.paid carries the status after the auto-delivery
    const paid = d.events.find((e) => e.kind === 'order.paid' && e.data.order === a.id);
    expect(paid?.data).toEqual({ order: a.id, number, status: 'delivered', slaMinutes: 60 });

    // a third order waits for a manual delivery
    const c = await buy(number);
    expect((await ok(act(c.id, 'pay'))).status).toBe('awaiting_delivery');
  });

  it('without autoIssue the stock is left alone', async () => {
    const number = await makeCard({}, { stock: ['X-1'] });
    const order = await buy(number);
    expect((await ok(act(order.id, 'pay'))).status).toBe('awaiting_delivery');
    expect((await ok(call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}/stock`))).free).toBe(1);
  });

  it('with confirmRequired the unit is issued when the seller confirms', async () => {
    const number = await makeCard({ confirmRequired: true }, { stock: ['X-1', 'X-2'], autoIssue: true });
    const order = await buy(number);
    expect((await ok(act(order.id, 'pay'))).status).toBe('awaiting_confirmation');
    expect((await ok(call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}/stock`))).free).toBe(2);
    const confirmed = await ok(call(app, seller.apiKey, 'POST', `/api/v1/orders/${order.id}/confirm`));
    expect(confirmed.status).toBe('delivered');
    expect((await ok(call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}/stock`))).free).toBe(1);
  });
});

describe('deadlines on the clock', () => {
  it('an unpaid order is cancelled 24 h after buy (order.cancelled), not a moment before', async () => {
    const order = await buy(await makeCard());
    await advance(24 * 3600 - 1);
    expect((await getOrder(order.id)).status).toBe('awaiting_payment');
    await advance(1);
    const read = await getOrder(order.id);
    expect(read.status).toBe('cancelled');
    const events = (await doc()).events.filter((e) => e.kind === 'order.cancelled');
    expect(events.map((e) => e.data)).toEqual([{ order: order.id, number: order.number, status: 'cancelled' }]);
  });

  it('a paid order not delivered by deliverBy is refunded; delivery is then refused with state_moved', async () => {
    const order = await buy(await makeCard());
    await ok(act(order.id, 'pay'));
    await advance(59 * 60);
    expect((await getOrder(order.id)).status).toBe('awaiting_delivery');
    await advance(60);
    const read = await getOrder(order.id);
    expect(read.status).toBe('refunded');
    expect(read.needsAction).toBe(false);
    const res = await call(app, seller.apiKey, 'POST', `/api/v1/orders/${order.id}/deliver`, {});
    expectRefusal(res, 'state_moved');
    expect(res.body.detail).toContain('refunded');
  });

  it('an order awaiting confirmation past deliverBy is refunded too', async () => {
    const order = await buy(await makeCard({ confirmRequired: true }));
    await ok(act(order.id, 'pay'));
    await advance(3600);
    expect((await getOrder(order.id)).status).toBe('refunded');
  });

  it('a delivered order completes when the guarantee ends (order.completed)', async () => {
    const order = await buy(await makeCard());
    await ok(act(order.id, 'pay'));
    await ok(call(app, seller.apiKey, 'POST', `/api/v1/orders/${order.id}/deliver`, {}));
    await advance(7 * 86400 - 1);
    expect((await getOrder(order.id)).status).toBe('delivered');
    await advance(1);
    expect((await getOrder(order.id)).status).toBe('completed');
    const completed = (await doc()).events.filter((e) => e.kind === 'order.completed');
    expect(completed.map((e) => e.data)).toEqual([{ order: order.id, number: order.number, status: 'completed' }]);
  });

  it('a disputed order has no deadline: it waits for the marketplace', async () => {
    const order = await buy(await makeCard());
    await ok(act(order.id, 'pay'));
    await ok(call(app, seller.apiKey, 'POST', `/api/v1/orders/${order.id}/deliver`, {}));
    await ok(act(order.id, 'dispute', { text: 'broken' }));
    await advance(365 * 86400);
    expect((await getOrder(order.id)).status).toBe('disputed');
  });

  it('the sweep touches many sellers at once, and each only in its own orders', async () => {
    const other = await newSeller(app, { admission: 'complete' });
    const mine = await buy(await makeCard());
    const theirs = await buy(await makeCard({}, {}, other.apiKey));
    await ok(act(mine.id, 'pay'));
    await advance(3600);
    expect((await getOrder(mine.id)).status).toBe('refunded');
    expect((await ok(call(app, other.apiKey, 'GET', `/api/v1/orders/${theirs.id}`))).status).toBe('awaiting_payment');
  });

  it('a deadline that passed before the clock ran is settled by the next action on the order', async () => {
    await app.close();
    let t = Date.parse('2030-01-01T00:00:00.000Z');
    const clock = new Clock(0, () => t);
    app = await makeApp({ clock });
    seller = await newSeller(app, { admission: 'complete' });
    const order = await buy(await makeCard());
    await ok(act(order.id, 'pay'));
    t += 3600 * 1000; // time passes, no tick ran
    const res = await call(app, seller.apiKey, 'POST', `/api/v1/orders/${order.id}/deliver`, {});
    expectRefusal(res, 'state_moved');
    expect(res.body.refusal.status).toBe('refunded');
    expect((await getOrder(order.id)).status).toBe('refunded');
  });

  it('the real-time tick runs the sweep too, once per tick', async () => {
    await app.close();
    let t = Date.parse('2030-01-01T00:00:00.000Z');
    const clock = new Clock(0, () => t);
    app = await makeApp({ clock });
    seller = await newSeller(app, { admission: 'complete' });
    const order = await buy(await makeCard());
    await ok(act(order.id, 'pay'));
    t += 3600 * 1000;
    await clock.tick();
    expect((await getOrder(order.id)).status).toBe('refunded');
    expect(await sweepOrders(app.service, clock.now())).toBe(0);
  });

  it('what the sweep changed is written: a restarted server over the same data sees it', async () => {
    await app.close();
    const dir = await mkdtemp(path.join(tmpdir(), 'orders-clock-'));
    try {
      app = await makeApp({ memory: false, dataDir: dir });
      seller = await newSeller(app, { admission: 'complete' });
      const order = await buy(await makeCard());
      await ok(act(order.id, 'pay'));
      await advance(3600);
      await app.close();
      app = await makeApp({ memory: false, dataDir: dir });
      expect((await getOrder(order.id)).status).toBe('refunded');
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
