/** Work mode and presence (spec rule 5; gaps.md: Work mode). */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../sdk/contract/index.ts';
import { WorkMode } from '../../sdk/contract/index.ts';
import { Clock } from '../../server/clock.ts';
import { atCapacity, doNotDisturb, inQuietHours, isDoNotDisturb, localMinutes, openOrders, presenceOf } from '../../server/domain/work-mode.ts';
import type { SellerDoc } from '../../server/store/docs.ts';
import { newSellerDoc } from '../../server/store/docs.ts';
import { orderRecord } from '../helpers/fixtures.ts';
import type { OrderRecord } from '../../server/store/records/orders.ts';
import { call, expectError, issueKey, makeApp, newSeller, sandbox, type SellerCreated } from './helpers.ts';

/** Tuesday 2026-03-10 19:30 UTC = 22:30 in Moscow (UTC+3, no daylight saving). */
const START = Date.parse('2026-03-10T19:30:00.000Z');

let app: FastifyInstance;
let seller: SellerCreated;

beforeEach(async () => {
  app = await makeApp({ clock: new Clock(0, () => START) });
  seller = await newSeller(app);
});
afterEach(async () => {
  await app.close();
});

const get = (key = seller.apiKey) => call(app, key, 'GET', '/api/v1/work-mode');
const put = (body: unknown, key = seller.apiKey) => call(app, key, 'PUT', '/api/v1/work-mode', body);
const advance = (seconds: number) => sandbox(app, 'POST', '/clock/advance', { seconds });

function order(status: OrderStatus): OrderRecord {
  const at = new Date(START).toISOString();
  return orderRecord({
    service: 'netflix',
    tariff: 'standard',
    productType: 'subscription',
    deliveryMethod: 'own_account',
    priceRub: 500,
    status,
    guaranteeDays: 30,
    createdAt: at,
    paidAt: at,
    updatedAt: at,
    buyer: { id: 'buyer_1', test: false },
  });
}

async function addOrders(...statuses: OrderStatus[]): Promise<void> {
  const doc = await app.service.store.seller(seller.sellerId);
  for (const s of statuses) {
    const o = order(s);
    doc.orders[o.id] = o;
    app.service.store.shared.orderIndex[o.id] = seller.sellerId;
  }
}

describe('GET /work-mode', () => {
  it('defaults: no capacity, no do-not-disturb, no quiet hours, online', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(WorkMode.parse(res.body)).toEqual({ capacity: null, doNotDisturb: false, quietHours: null, presence: 'online' });
  });

  it('needs the orders scope', async () => {
    const other = await issueKey(app, seller.apiKey, ['stats']);
    const res = await get(other.key);
    expectError(res, 403, 'scope');
    expect(res.body.detail).toMatchObject({ needed: 'orders' });
  });
});

describe('PUT /work-mode', () => {
  it('a partial update changes only the fields sent', async () => {
    expect((await put({ capacity: 3 })).body).toEqual({ capacity: 3, doNotDisturb: false, quietHours: null, presence: 'online' });
    const quiet = { from: '01:00', to: '06:00', tz: 'Europe/Moscow' };
    expect((await put({ quietHours: quiet })).body).toEqual({ capacity: 3, doNotDisturb: false, quietHours: quiet, presence: 'online' });
    expect((await put({ doNotDisturb: true })).body).toEqual({ capacity: 3, doNotDisturb: true, quietHours: quiet, presence: 'offline' });
    expect((await put({})).body).toEqual({ capacity: 3, doNotDisturb: true, quietHours: quiet, presence: 'offline' });
    expect((await get()).body).toEqual({ capacity: 3, doNotDisturb: true, quietHours: quiet, presence: 'offline' });
  });

  it('null clears the capacity and the quiet hours', async () => {
    await put({ capacity: 3, quietHours: { from: '01:00', to: '06:00', tz: 'UTC' } });
    expect((await put({ capacity: null, quietHours: null })).body).toEqual({ capacity: null, doNotDisturb: false, quietHours: null, presence: 'online' });
  });

  it('presence cannot be set: sending it is 400 bad_request, nothing changes', async () => {
    for (const body of [{ presence: 'online' }, { doNotDisturb: true, presence: 'online' }]) {
      const res = await put(body);
      expectError(res, 400, 'bad_request');
      expect(JSON.stringify(res.body.detail)).toContain('presence');
    }
    expect((await get()).body.doNotDisturb).toBe(false);
  });

  it.each([
    ['an unknown zone', { from: '23:00', to: '07:00', tz: 'Mars/Olympus' }, 'tz'],
    ['a UTC offset instead of a zone', { from: '23:00', to: '07:00', tz: '+03:00' }, 'tz'],
    ['hour 24', { from: '24:00', to: '07:00', tz: 'Europe/Moscow' }, 'from'],
    ['a one-digit hour', { from: '23:00', to: '7:00', tz: 'Europe/Moscow' }, 'to'],
    ['minute 60', { from: '23:60', to: '07:00', tz: 'Europe/Moscow' }, 'from'],
    ['no zone', { from: '23:00', to: '07:00' }, 'tz'],
    ['an extra field', { from: '23:00', to: '07:00', tz: 'UTC', days: [1] }, 'days'],
  ])('quiet hours with %s → 400 bad_request naming the field', async (_label, quietHours, field) => {
    const res = await put({ quietHours });
    expectError(res, 400, 'bad_request');
    expect(JSON.stringify(res.body.detail)).toContain(field);
    expect((await get()).body.quietHours).toBeNull();
  });

  it.each([
    ['zero', 0],
    ['negative', -1],
    ['a fraction', 1.5],
    ['a string', '3'],
  ])('capacity %s → 400 bad_request', async (_label, capacity) => {
    expectError(await put({ capacity }), 400, 'bad_request');
  });

  it('needs an Idempotency-Key', async () => {
    const res = await call(app, seller.apiKey, 'PUT', '/api/v1/work-mode', { capacity: 2 }, { 'idempotency-key': null });
    expectError(res, 400, 'idempotency_key_required');
    expect((await get()).body.capacity).toBeNull();
  });
});

describe('presence', () => {
  it('quiet hours across midnight in Moscow, on the server clock', async () => {
    await put({ quietHours: { from: '23:00', to: '07:00', tz: 'Europe/Moscow' } });
    // 22:30 MSK: before the quiet hours
    expect((await get()).body.presence).toBe('online');
    // 22:59 MSK
    await advance(29 * 60);
    expect((await get()).body.presence).toBe('online');
    // 23:00 MSK: the start is inside
    await advance(60);
    expect((await get()).body.presence).toBe('offline');
    // 03:00 MSK next day (00:00 UTC: a new UTC day, still quiet)
    await advance(4 * 3600);
    expect((await get()).body.presence).toBe('offline');
    // 06:59 MSK
    await advance(3 * 3600 + 59 * 60);
    expect((await get()).body.presence).toBe('offline');
    // 07:00 MSK: the end is outside
    await advance(60);
    expect((await get()).body.presence).toBe('online');
  });

  it('the same hours in UTC would be quiet at a different moment', async () => {
    // 19:30 UTC is outside 20:00–04:00 UTC but inside 20:00–04:00 in Moscow (22:30)
    await put({ quietHours: { from: '20:00', to: '04:00', tz: 'UTC' } });
    expect((await get()).body.presence).toBe('online');
    await put({ quietHours: { from: '20:00', to: '04:00', tz: 'Europe/Moscow' } });
    expect((await get()).body.presence).toBe('offline');
  });

  it('at capacity → away; open orders are those awaiting confirmation or delivery and disputes', async () => {
    await put({ capacity: 2 });
    await addOrders('awaiting_delivery', 'delivered', 'completed', 'awaiting_payment', 'refunded');
    expect((await get()).body.presence).toBe('online');
    await addOrders('disputed');
    expect((await get()).body.presence).toBe('away');
    await put({ capacity: 3 });
    expect((await get()).body.presence).toBe('online');
    await addOrders('awaiting_confirmation');
    expect((await get()).body.presence).toBe('away');
    // do-not-disturb wins over capacity
    expect((await put({ doNotDisturb: true })).body.presence).toBe('offline');
    expect((await put({ doNotDisturb: false, capacity: null })).body.presence).toBe('online');
  });
});

describe('the helpers (pure)', () => {
  const doc = (over: Partial<SellerDoc['workMode']> = {}, statuses: OrderStatus[] = []): SellerDoc => {
    const d = newSellerDoc('sel_x');
    Object.assign(d.workMode, over);
    for (const s of statuses) {
      const o = order(s);
      d.orders[o.id] = o;
    }
    return d;
  };
  const at = (iso: string) => new Date(iso);

  it('localMinutes reads the wall clock of the zone', () => {
    expect(localMinutes(at('2026-03-10T19:30:00.000Z'), 'Europe/Moscow')).toBe(22 * 60 + 30);
    expect(localMinutes(at('2026-03-10T19:30:00.000Z'), 'Asia/Kolkata')).toBe(1 * 60 + 0);
    expect(localMinutes(at('2026-03-10T00:05:00.000Z'), 'UTC')).toBe(5);
  });

  it('inQuietHours: [from, to), across midnight, equal ends never quiet, null never quiet', () => {
    const day = { from: '09:00', to: '18:00', tz: 'UTC' };
    expect(inQuietHours(day, at('2026-03-10T08:59:00.000Z'))).toBe(false);
    expect(inQuietHours(day, at('2026-03-10T09:00:00.000Z'))).toBe(true);
    expect(inQuietHours(day, at('2026-03-10T17:59:00.000Z'))).toBe(true);
    expect(inQuietHours(day, at('2026-03-10T18:00:00.000Z'))).toBe(false);
    const night = { from: '22:00', to: '06:00', tz: 'Asia/Vladivostok' }; // UTC+10
    expect(inQuietHours(night, at('2026-03-10T11:59:00.000Z'))).toBe(false); // 21:59
    expect(inQuietHours(night, at('2026-03-10T12:00:00.000Z'))).toBe(true); // 22:00
    expect(inQuietHours(night, at('2026-03-10T14:00:00.000Z'))).toBe(true); // 00:00
    expect(inQuietHours(night, at('2026-03-10T19:59:00.000Z'))).toBe(true); // 05:59
    expect(inQuietHours(night, at('2026-03-10T20:00:00.000Z'))).toBe(false); // 06:00
    expect(inQuietHours({ from: '10:00', to: '10:00', tz: 'UTC' }, at('2026-03-10T10:00:00.000Z'))).toBe(false);
    expect(inQuietHours(null, at('2026-03-10T10:00:00.000Z'))).toBe(false);
  });

  it('quiet hours follow daylight saving of the zone', () => {
    const q = { from: '01:00', to: '02:00', tz: 'Europe/Berlin' };
    expect(inQuietHours(q, at('2026-01-15T00:30:00.000Z'))).toBe(true); // 01:30 CET
    expect(inQuietHours(q, at('2026-07-15T00:30:00.000Z'))).toBe(false); // 02:30 CEST
    expect(inQuietHours(q, at('2026-07-15T23:30:00.000Z'))).toBe(true); // 01:30 CEST
  });

  it('isDoNotDisturb: the switch or the quiet hours; doNotDisturb is the same function', () => {
    const now = at('2026-03-10T03:00:00.000Z');
    expect(isDoNotDisturb(doc(), now)).toBe(false);
    expect(isDoNotDisturb(doc({ doNotDisturb: true }), now)).toBe(true);
    expect(isDoNotDisturb(doc({ quietHours: { from: '02:00', to: '04:00', tz: 'UTC' } }), now)).toBe(true);
    expect(doNotDisturb).toBe(isDoNotDisturb);
  });

  it('atCapacity and openOrders', () => {
    expect(atCapacity(doc({}, ['awaiting_delivery', 'awaiting_delivery']))).toBe(false);
    expect(atCapacity(doc({ capacity: 2 }, ['awaiting_delivery']))).toBe(false);
    expect(atCapacity(doc({ capacity: 2 }, ['awaiting_delivery', 'awaiting_confirmation']))).toBe(true);
    expect(atCapacity(doc({ capacity: 1 }, ['delivered', 'completed', 'cancelled', 'declined', 'refunded', 'awaiting_payment']))).toBe(false);
    expect(openOrders(doc({}, ['disputed', 'delivered', 'awaiting_confirmation']))).toBe(2);
  });

  it('presenceOf: offline before away before online', () => {
    const now = at('2026-03-10T12:00:00.000Z');
    expect(presenceOf(doc({ capacity: 1 }, ['disputed']), now)).toBe('away');
    expect(presenceOf(doc({ capacity: 1, doNotDisturb: true }, ['disputed']), now)).toBe('offline');
    expect(presenceOf(doc({ capacity: 2 }, ['disputed']), now)).toBe('online');
  });
});
