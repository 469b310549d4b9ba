/**
 * The server's change notices (server/domain/change-bus.ts): published once the change is written,
 * never for a write that failed; merged per write; no webhook event kind added for them; and the
 * timeline's records (moves, noteRejected, attempts) kept bounded.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../sdk/contract/index.ts';
import { buildApp } from '../../server/app.ts';
import { ChangeBus, merge, type ChangeNotice } from '../../server/domain/change-bus.ts';
import { Store } from '../../server/store/store.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { useFileStore } from '../helpers/file-store.ts';
import { TestDisk } from '../helpers/test-disk.ts';
import { ADMIN, call, newSeller, sandbox, type SellerCreated } from './helpers.ts';

const at = '2026-11-26T10:00:00.000Z';
const order = (orderId: string, change: 'created' | 'status' | 'updated'): ChangeNotice => ({
  type: 'order',
  sellerId: 's',
  orderId,
  number: 1001,
  change,
  from: null,
  to: 'awaiting_payment',
  action: null,
  by: null,
  at,
  snapshot: () => ({}) as never,
});

describe('merging one write’s notices', () => {
  it('drops an order’s plain updates when the write created or moved it, and keeps one update otherwise', () => {
    const merged = merge([order('a', 'updated'), order('a', 'created'), order('a', 'updated'), order('b', 'updated'), order('b', 'updated')]);
    expect(merged.map((n) => n.type === 'order' && `${n.orderId}:${n.change}`)).toEqual(['a:created', 'b:updated']);
  });

  it('names a card once, keeps every move', () => {
    const card: ChangeNotice = { type: 'card', sellerId: 's', number: 7, at };
    const merged = merge([card, order('a', 'status'), card, order('a', 'status')]);
    expect(merged.map((n) => n.type)).toEqual(['order', 'card', 'order']);
  });

  it('publishes only what was taken, to every listener until it stops', () => {
    const bus = new ChangeBus();
    const heard: string[] = [];
    const stop = bus.on((n) => heard.push(n.type));
    bus.note('s', order('a', 'created'));
    bus.note('t', { type: 'hooks', sellerId: 't', at });
    bus.publish(bus.take(['s']));
    expect(heard).toEqual(['order']);
    stop();
    bus.publish(bus.take(['t']));
    expect(heard).toEqual(['order']);
  });
});

describe('notices follow the writes', () => {
  const files = useFileStore('change-notices-');
  let disk: TestDisk;
  let app: FastifyInstance;
  let seller: SellerCreated;
  let heard: ChangeNotice[];

  beforeEach(async () => {
    disk = new TestDisk();
    const store = await Store.open({ dataDir: files.dir, fs: disk.fs });
    app = await buildApp({ store, adminToken: ADMIN });
    files.track(app);
    seller = await newSeller(app, { admission: 'complete' });
    heard = [];
    app.service.changes.on((n) => heard.push(n));
  });
  afterEach(() => {
    disk.fail = null;
  });

  it('a card created by the API is told once written; a failed write tells nothing', async () => {
    disk.fail = 'ENOSPC';
    expect((await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).status).toBe(500);
    expect(heard).toEqual([]);
    disk.fail = null;
    const created = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    expect(heard).toEqual([{ type: 'card', sellerId: seller.sellerId, number: created.body.number, at: expect.any(String) }]);
  });

  it('an order bought and paid is told created, then moved by the buyer; the clock’s refund is told moved by the clock; no webhook kind is added', async () => {
    const { number } = (await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body;
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active: true });
    heard = [];
    const created = (await sandbox(app, 'POST', '/orders', { number })).body;
    await sandbox(app, 'POST', `/orders/${created.id}/pay`);
    const advanced = (await sandbox(app, 'POST', '/clock/advance', { seconds: (CODE_CARD.slaMinutes + 1) * 60 })).body;
    const orderNotices = heard.filter((n) => n.type === 'order');
    expect(orderNotices.map((n) => n.type === 'order' && [n.change, n.action, n.by, n.to])).toEqual([
      ['created', null, 'buyer', 'awaiting_payment'],
      ['status', 'pay', 'buyer', 'awaiting_delivery'],
      ['status', 'missDeadline', 'clock', 'refunded'],
    ]);
    expect(heard.at(-1)).toMatchObject({ type: 'clock', moved: [{ order: created.id, action: 'missDeadline', to: 'refunded' }] });
    expect(advanced.moved).toEqual([{ order: created.id, sellerId: seller.sellerId, number, action: 'missDeadline', from: 'awaiting_delivery', to: 'refunded' }]);
    // The seller's outbox holds only webhook kinds.
    const doc = await app.service.store.seller(seller.sellerId);
    expect(doc.events.every((e) => (EVENT_KINDS as readonly string[]).includes(e.kind))).toBe(true);
  });

  it('adding and clearing faults tells that the faults changed (no seller owns them); listing them tells nothing', async () => {
    expect((await sandbox(app, 'POST', '/faults', { op: 'orders.list', status: 503 })).status).toBe(201);
    await sandbox(app, 'GET', '/faults');
    await sandbox(app, 'DELETE', '/faults');
    expect(heard).toEqual([{ type: 'faults', at: expect.any(String) }, { type: 'faults', at: expect.any(String) }]);
  });

  it('an order keeps at most MOVES_KEPT moves, and a delivery at most ATTEMPTS_KEPT attempts', async () => {
    const { MOVES_KEPT } = await import('../../server/domain/orders.ts');
    const { ATTEMPTS_KEPT } = await import('../../server/webhooks/outbox.ts');
    const { number } = (await call(app, seller.apiKey, 'POST', '/api/v1/listings', { ...CODE_CARD, guaranteeDays: 30 })).body;
    await call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active: true });
    const { id } = (await sandbox(app, 'POST', '/orders', { number })).body;
    await sandbox(app, 'POST', `/orders/${id}/pay`);
    await call(app, seller.apiKey, 'POST', `/api/v1/orders/${id}/deliver`, {});
    // dispute and resolve for the seller, over and over while the guarantee runs
    for (let i = 0; i < MOVES_KEPT; i++) {
      await sandbox(app, 'POST', `/orders/${id}/dispute`, { text: 'again' });
      await sandbox(app, 'POST', `/orders/${id}/resolve`, { winner: 'seller' });
    }
    const timeline = (await sandbox(app, 'GET', `/orders/${id}/timeline`)).body;
    expect(timeline.moves).toHaveLength(MOVES_KEPT);
    expect(timeline.moves.at(-1)).toMatchObject({ action: 'resolveForSeller', by: 'marketplace' });

    const { url } = (await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe')).body;
    await call(app, seller.apiKey, 'PUT', '/api/v1/hooks', { url, events: ['order.new'] });
    const { delivery } = (await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', {})).body;
    for (let i = 0; i < ATTEMPTS_KEPT + 2; i++) await sandbox(app, 'POST', `/sellers/${seller.sellerId}/deliveries/${delivery}/resend`);
    const found = (await sandbox(app, 'GET', `/sellers/${seller.sellerId}/deliveries`)).body.items.find((d: { id: string }) => d.id === delivery);
    expect(found.attemptLog).toHaveLength(ATTEMPTS_KEPT);
    expect(found.attemptLog.at(-1).attempt).toBe(found.attempts);
  });
});
