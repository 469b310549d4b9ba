/**
 * Concurrency (issue 8): calls that arrive at once. One idempotency key sent twenty times at once
 * runs once and answers twenty times alike; two deliveries of one order under different keys make
 * one delivery and one `state_moved`; parallel writers never lose or duplicate each other's work.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerProblems, api, CODE_CARD, ok, openApp, operationById, sandbox, SUB_CARD, type Reply, type SellerKey } from './helpers.ts';

let app: FastifyInstance;
let seller: SellerKey;

beforeEach(async () => {
  app = await openApp();
  seller = await ok(sandbox(app, 'POST', '/sellers', { admission: 'complete' }), 201);
});
afterEach(async () => {
  await app.close();
});

const doc = () => app.service.store.seller(seller.sellerId);
const replayed = (r: Reply) => r.headers['idempotent-replayed'] === 'true';

describe('one idempotency key, twenty requests at once', () => {
  it('POST /listings: one card, twenty equal answers, nineteen marked replayed', async () => {
    const before = Object.keys((await doc()).cards).length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => api(app, seller.apiKey, 'POST', '/listings', CODE_CARD, 'same-key-20')));
    expect(Object.keys((await doc()).cards).length - before).toBe(1);
    for (const r of answers) {
      expect(r.status, r.text).toBe(201);
      expect(r.text).toBe(answers[0]!.text);
      expect(answerProblems(operationById('listings.create'), r)).toEqual([]);
    }
    expect(answers.filter(replayed)).toHaveLength(19);
    expect(app.service.store.shared.seq.card).toBe(1001);
  });

  it('POST /keys: one key issued, every answer shows that same key', async () => {
    const before = Object.keys((await doc()).keys).length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => api(app, seller.apiKey, 'POST', '/keys', { name: 'ci', scopes: ['orders'] }, 'key-once')));
    expect(Object.keys((await doc()).keys).length - before).toBe(1);
    expect(new Set(answers.map((r) => r.body.key)).size).toBe(1);
    expect(answers.filter(replayed)).toHaveLength(19);
    // the one issued key works
    expect((await api(app, answers[0]!.body.key, 'GET', '/me')).status).toBe(200);
  });

  it('a refusal is stored and replayed like a success (no second run)', async () => {
    const bad = { ...CODE_CARD, slaMinutes: 7 };
    const answers = await Promise.all(Array.from({ length: 20 }, () => api(app, seller.apiKey, 'POST', '/listings', bad, 'refused-20')));
    expect(new Set(answers.map((r) => `${r.status} ${r.text}`)).size).toBe(1);
    expect(answers[0]!.status).toBe(409);
    expect(answers.filter(replayed)).toHaveLength(19);
    expect(Object.keys((await doc()).cards)).toHaveLength(0);
  });

  it('the same key with different bodies at once: one runs, the others are idempotency_mismatch', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api(app, seller.apiKey, 'POST', '/listings', { ...CODE_CARD, priceRub: 100 + i }, 'one-key-many-bodies')),
    );
    const created = answers.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 201)) {
      expect(r.status, r.text).toBe(422);
      expect(r.body.error).toBe('idempotency_mismatch');
    }
    expect(Object.keys((await doc()).cards)).toHaveLength(1);
  });
});

describe('racing changes of one record', () => {
  async function paidOrder(): Promise<string> {
    const number: number = (await ok(api(app, seller.apiKey, 'POST', '/listings', SUB_CARD), 201)).number;
    await ok(api(app, seller.apiKey, 'POST', `/listings/${number}/state`, { active: true }));
    const id: string = (await ok(sandbox(app, 'POST', '/orders', { number }), 201)).id;
    await ok(sandbox(app, 'POST', `/orders/${id}/pay`));
    return id;
  }

  it('two deliveries of one order at once (different keys): one success, one 409 state_moved', async () => {
    const id = await paidOrder();
    const body = { nextChargeDay: '2030-01-15' };
    const [a, b] = await Promise.all([
      api(app, seller.apiKey, 'POST', `/orders/${id}/deliver`, { ...body, note: 'first' }, 'deliver-a'),
      api(app, seller.apiKey, 'POST', `/orders/${id}/deliver`, { ...body, note: 'second' }, 'deliver-b'),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.error).toBe('rejected');
    expect(loser.body.refusal.kind).toBe('state_moved');
    expect(answerProblems(operationById('orders.deliver'), loser)).toEqual([]);
    const order = (await doc()).orders[id]!;
    expect(order.status).toBe('delivered');
    // exactly one note went out
    expect(order.messages.filter((m) => m.from === 'seller')).toHaveLength(1);
  });

  it('a delivery racing the buyer cancelling: exactly one of them wins', async () => {
    const id = await paidOrder();
    const [delivered, cancelled] = await Promise.all([
      api(app, seller.apiKey, 'POST', `/orders/${id}/deliver`, { nextChargeDay: '2030-01-15' }),
      sandbox(app, 'POST', `/orders/${id}/cancel`),
    ]);
    const wins = [delivered.status === 200, cancelled.status === 200].filter(Boolean);
    expect(wins).toHaveLength(1);
    const loser = delivered.status === 200 ? cancelled : delivered;
    expect(loser.status, loser.text).toBe(409);
    expect(loser.body.refusal.kind).toBe('state_moved');
    expect(['delivered', 'cancelled']).toContain((await doc()).orders[id]!.status);
  });
});

describe('parallel writers lose nothing', () => {
  it('forty card creations at once: forty distinct numbers, all readable', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => api(app, seller.apiKey, 'POST', '/listings', { ...CODE_CARD, priceRub: 200 + i })));
    const numbers = answers.map((r) => {
      expect(r.status, r.text).toBe(201);
      return r.body.number as number;
    });
    expect(new Set(numbers).size).toBe(40);
    for (const n of numbers) expect((await api(app, seller.apiKey, 'GET', `/listings/${n}`)).status).toBe(200);
    expect(app.service.store.shared.seq.card).toBe(1040);
  });

  it('twenty refills of one card at once with overlapping items: every unit once', async () => {
    const number: number = (await ok(api(app, seller.apiKey, 'POST', '/listings', CODE_CARD), 201)).number;
    const batches = Array.from({ length: 20 }, (_, i) => Array.from({ length: 10 }, (_, j) => `unit-${(i * 5 + j) % 120}`));
    const unique = new Set(batches.flat());
    const answers = await Promise.all(batches.map((items) => api(app, seller.apiKey, 'POST', `/listings/${number}/stock`, { items })));
    const added = answers.reduce((sum, r) => {
      expect(r.status, r.text).toBe(201);
      return sum + (r.body.added as number);
    }, 0);
    expect(added).toBe(unique.size);
    const counts = await ok(api(app, seller.apiKey, 'GET', `/listings/${number}/stock`));
    expect(counts.free).toBe(unique.size);
  });

  it('one stock unit, five paid orders at once: the unit is issued to one order only', async () => {
    const number: number = (await ok(api(app, seller.apiKey, 'POST', '/listings', CODE_CARD), 201)).number;
    await ok(api(app, seller.apiKey, 'POST', `/listings/${number}/stock`, { items: ['THE-ONLY-CODE'] }), 201);
    await ok(api(app, seller.apiKey, 'POST', `/listings/${number}/state`, { active: true, autoIssue: true }));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await ok(sandbox(app, 'POST', '/orders', { number }), 201)).id);
    const paid = await Promise.all(ids.map((id) => sandbox(app, 'POST', `/orders/${id}/pay`)));
    for (const r of paid) expect(r.status, r.text).toBe(200);
    const orders = Object.values((await doc()).orders);
    expect(orders.filter((o) => o.stockItem !== null)).toHaveLength(1);
    expect(orders.filter((o) => o.status === 'delivered')).toHaveLength(1);
    const counts = await ok(api(app, seller.apiKey, 'GET', `/listings/${number}/stock`));
    expect(counts).toMatchObject({ free: 0, issued: 1 });
  });

  it('revoking a key while it is in use: after the revocation answers, the key is refused everywhere', async () => {
    const extra = await ok(api(app, seller.apiKey, 'POST', '/keys', { name: 'doomed', scopes: ['listings'] }), 201);
    const load = Array.from({ length: 30 }, () => api(app, extra.key, 'GET', '/listings'));
    const revoke = api(app, seller.apiKey, 'DELETE', `/keys/${extra.id}`);
    const [revoked, ...reads] = await Promise.all([revoke, ...load]);
    expect(revoked!.status).toBe(200);
    for (const r of reads) expect([200, 401]).toContain(r.status);
    const after = await api(app, extra.key, 'GET', '/listings');
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('revoked');
  });
});
