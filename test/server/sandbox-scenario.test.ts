/**
 * The sandbox operations scenario runs read and hold (server/sandbox/scenario.ts): a seller's events
 * with the webhook deliveries made of them, subscribed or not; and the clock lease, which a second
 * holder cannot take while it is held, its holder renews, and which ends by release or expiry.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClockLeases } from '../../server/sandbox/clock-lease.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/wait.ts';
import { call, expectError, makeApp, newSeller, sandbox } from './helpers.ts';

let app: FastifyInstance;

beforeEach(async () => {
  app = await makeApp();
});
afterEach(async () => {
  await app.close();
});

async function paidOrder(key: string): Promise<string> {
  const card = await call(app, key, 'POST', '/api/v1/listings', CODE_CARD);
  expect((await call(app, key, 'POST', `/api/v1/listings/${card.body.number}/state`, { active: true })).status).toBe(200);
  const order = await sandbox(app, 'POST', '/orders', { number: card.body.number });
  await sandbox(app, 'POST', `/orders/${order.body.id}/pay`);
  return order.body.id;
}

describe('GET /sandbox/v1/sellers/{id}/events', () => {
  it('lists the events oldest first, each with the deliveries made of it', async () => {
    const seller = await newSeller(app, { admission: 'complete' });
    const probe = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe');
    expect((await call(app, seller.apiKey, 'PUT', '/api/v1/hooks', { url: probe.body.url, events: ['order.paid'] })).status).toBe(200);
    const order = await paidOrder(seller.apiKey);
    const events = await waitFor('the order.paid delivery', async () => {
      const res = await sandbox(app, 'GET', `/sellers/${seller.sellerId}/events`);
      expect(res.status, res.text).toBe(200);
      const items = res.body.items as Array<{ kind: string; deliveries: Array<{ deliveredAt: string | null }> }>;
      return items.find((e) => e.kind === 'order.paid')?.deliveries[0]?.deliveredAt ? items : undefined;
    });
    expect(events.map((e) => e.kind)).toEqual(['order.new', 'order.paid']);
    expect(events[0]).toMatchObject({ id: expect.stringMatching(/^evt_/), data: { order, status: 'awaiting_payment' }, deliveries: [] });
    expect(events[1]!.deliveries).toEqual([{ id: expect.stringMatching(/^dlv_/), delivery: expect.stringMatching(/^dlv_/), attempts: 1, lastStatus: 204, deliveredAt: expect.any(String) }]);
  });

  it('lists them for a seller that subscribed to nothing, with no deliveries', async () => {
    const seller = await newSeller(app, { admission: 'complete' });
    const order = await paidOrder(seller.apiKey);
    const res = await sandbox(app, 'GET', `/sellers/${seller.sellerId}/events`);
    expect(res.body.items.map((e: { kind: string; data: { order: string }; deliveries: unknown[] }) => [e.kind, e.data.order, e.deliveries.length])).toEqual([
      ['order.new', order, 0],
      ['order.paid', order, 0],
    ]);
  });

  it('answers 404 for an unknown seller, and only to the admin token', async () => {
    expectError(await sandbox(app, 'GET', '/sellers/sel_nobody/events'), 404, 'not_found');
    const seller = await newSeller(app);
    expect((await sandbox(app, 'GET', `/sellers/${seller.sellerId}/events`, undefined, { authorization: `Bearer ${seller.apiKey}` })).status).toBe(401);
  });
});

describe('the clock lease', () => {
  it('is refused to a second holder while held (409 clock_leased, naming the holder), renewed by its own, taken again once released', async () => {
    const first = await sandbox(app, 'POST', '/clock/lease', { holder: 'run A', ttlSeconds: 60 });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ id: expect.stringMatching(/^cll_/), holder: 'run A', expiresAt: expect.any(String) });
    const second = await sandbox(app, 'POST', '/clock/lease', { holder: 'run B', ttlSeconds: 60 });
    expectError(second, 409, 'rejected');
    expect(second.body.refusal).toMatchObject({ kind: 'clock_leased' });
    expect(second.body.detail).toMatch(/run A, lease until /);
    const renewed = await sandbox(app, 'POST', '/clock/lease', { holder: 'run A', ttlSeconds: 120, lease: first.body.id });
    expect(renewed.status).toBe(201);
    expect(renewed.body.id).toBe(first.body.id);
    expect(Date.parse(renewed.body.expiresAt)).toBeGreaterThan(Date.parse(first.body.expiresAt));
    expect((await sandbox(app, 'POST', '/clock/lease', { holder: 'run B', ttlSeconds: 60, lease: 'cll_someoneelse' })).status).toBe(409);
    expect((await sandbox(app, 'DELETE', `/clock/lease/${first.body.id}`)).body).toEqual({ released: true });
    expect((await sandbox(app, 'DELETE', `/clock/lease/${first.body.id}`)).body).toEqual({ released: false });
    expect((await sandbox(app, 'POST', '/clock/lease', { holder: 'run B', ttlSeconds: 60 })).status).toBe(201);
  });

  it('refuses every other move of the clock while held (409 clock_leased, naming the run and the lease end); the holder\'s own and a forced one go; GET /clock shows it', async () => {
    const lease = await sandbox(app, 'POST', '/clock/lease', { holder: 'run A', ttlSeconds: 60 });
    const before = (await sandbox(app, 'GET', '/clock')).body;
    expect(before).toEqual({ now: expect.any(String), lease: { holder: 'run A', expiresAt: lease.body.expiresAt } });
    const refused = await sandbox(app, 'POST', '/clock/advance', { seconds: 3600 });
    expectError(refused, 409, 'rejected');
    expect(refused.body.refusal).toEqual({ kind: 'clock_leased', reason: 'held', holder: 'run A', until: lease.body.expiresAt });
    expect(refused.body.detail).toMatch(/run A, lease until /);
    expect((await sandbox(app, 'POST', '/clock/advance', { seconds: 3600, lease: 'cll_someoneelse' })).status).toBe(409);
    // Not moved: an hour later it would be.
    expect(Date.parse((await sandbox(app, 'GET', '/clock')).body.now) - Date.parse(before.now)).toBeLessThan(3_600_000);
    const own = await sandbox(app, 'POST', '/clock/advance', { seconds: 60, lease: lease.body.id });
    expect(own.status, own.text).toBe(200);
    const forced = await sandbox(app, 'POST', '/clock/advance', { seconds: 60, force: true });
    expect(forced.status, forced.text).toBe(200);
    expect(Date.parse(forced.body.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(120_000);
    await sandbox(app, 'DELETE', `/clock/lease/${lease.body.id}`);
    expect((await sandbox(app, 'GET', '/clock')).body.lease).toBeNull();
    expect((await sandbox(app, 'POST', '/clock/advance', { seconds: 60 })).status).toBe(200);
  });

  it('ends by itself when it expires (real time, not the sandbox clock)', () => {
    const leases = new ClockLeases();
    const a = leases.take('A', 1000, 0);
    expect('taken' in a).toBe(true);
    expect(leases.take('B', 1000, 999)).toMatchObject({ heldBy: { holder: 'A' } });
    expect(leases.take('B', 1000, 1000)).toMatchObject({ taken: { holder: 'B', expiresAt: 2000 } });
    expect(leases.release((a as { taken: { id: string } }).taken.id, 1001)).toBe(false);
  });
});
