/**
 * Orders under concurrent calls: one order delivered once, one stock unit issued once, and a
 * client paging by updatedSince never missing a change made while it pages (rule 6).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../sdk/contract/index.ts';
import { Clock } from '../../server/clock.ts';
import { vaultAad } from '../../server/domain/orders.ts';
import { allUnits } from '../../server/store/stock-pieces.ts';
import { call, expectError, makeApp, newSeller, sandbox, type Answer, type SellerCreated } from './helpers.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';

let app: FastifyInstance;
let seller: SellerCreated;

async function ok(res: Promise<Answer> | Answer, status = 200): Promise<any> {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.body;
}

async function start(clock?: Clock): Promise<void> {
  app = await makeApp({ ...(clock ? { clock } : {}), rateLimit: { burst: 10_000, perMinute: 600_000 } });
  seller = await newSeller(app, { admission: 'complete' });
}

async function makeCard(stock?: string[]): Promise<number> {
  const number: number = (await ok(call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD), 201)).number;
  if (stock) await ok(call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/stock`, { items: stock }), 201);
  await ok(call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/state`, stock ? { active: true, autoIssue: true } : { active: true }));
  return number;
}

const buy = async (number: number): Promise<string> => (await ok(sandbox(app, 'POST', '/orders', { number }), 201)).id;
const pay = (id: string) => sandbox(app, 'POST', `/orders/${id}/pay`);
const doc = () => app.service.store.seller(seller.sellerId);

afterEach(async () => {
  await app.close();
});

describe('racing deliveries', () => {
  it('two deliveries of one order at once (different keys): exactly one success, one state_moved', async () => {
    await start();
    const id = await buy(await makeCard());
    await ok(pay(id));
    const [a, b] = await Promise.all([
      call(app, seller.apiKey, 'POST', `/api/v1/orders/${id}/deliver`, { note: 'first' }, { 'idempotency-key': 'deliver-a' }),
      call(app, seller.apiKey, 'POST', `/api/v1/orders/${id}/deliver`, { note: 'second' }, { 'idempotency-key': 'deliver-b' }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expectError(loser, 409, 'rejected');
    expect(loser.body.refusal).toMatchObject({ kind: 'state_moved', status: 'delivered' });
    const order = (await doc()).orders[id]!;
    expect(order.status).toBe('delivered');
    expect(order.messages).toHaveLength(1);
  });

  it('many racing deliveries: still exactly one', async () => {
    await start();
    const id = await buy(await makeCard());
    await ok(pay(id));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call(app, seller.apiKey, 'POST', `/api/v1/orders/${id}/deliver`, {}, { 'idempotency-key': `d-${i}` })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.refusal.kind).toBe('state_moved');
  });

  it('the seller declines while the buyer cancels: one of them wins, the other is state_moved', async () => {
    await start();
    const id = await buy(await makeCard());
    await ok(pay(id));
    const [decline, cancel] = await Promise.all([
      call(app, seller.apiKey, 'POST', `/api/v1/orders/${id}/decline`, { reason: 'sorry' }),
      sandbox(app, 'POST', `/orders/${id}/cancel`),
    ]);
    expect([decline.status, cancel.status].sort()).toEqual([200, 409]);
    const final = (await doc()).orders[id]!.status;
    expect(final).toBe(decline.status === 200 ? 'declined' : 'cancelled');
  });
});

describe('racing payments for auto-delivery stock', () => {
  it('two payments racing for the last unit: one delivered, one waiting; the unit issued once', async () => {
    await start();
    const number = await makeCard(['LAST-UNIT']);
    const [a, b] = [await buy(number), await buy(number)];
    const answers = await Promise.all([pay(a), pay(b)]);
    const statuses = answers.map((r) => r.body.status).sort();
    expect(statuses).toEqual(['awaiting_delivery', 'delivered']);
    const d = await doc();
    const withVault = [a, b].filter((id) => d.orders[id]!.vaults.seller);
    expect(withVault).toHaveLength(1);
    expect(app.service.sealer.open(d.orders[withVault[0]!]!.vaults.seller!.sealed, vaultAad(withVault[0]!, 'seller'))).toBe('LAST-UNIT');
    expect(allUnits(d, number).filter((i) => i.status === 'issued')).toHaveLength(1);
    expect(d.events.filter((e) => e.kind === 'stock.out')).toHaveLength(1);
  });

  it('ten payments racing for six units: six distinct units delivered, four orders waiting', async () => {
    await start();
    const units = Array.from({ length: 6 }, (_, i) => `UNIT-${i}`);
    const number = await makeCard(units);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await buy(number));
    const answers = await Promise.all(ids.map(pay));
    for (const r of answers) expect(r.status, r.text).toBe(200);
    const d = await doc();
    const delivered = ids.filter((id) => d.orders[id]!.status === 'delivered');
    expect(delivered).toHaveLength(6);
    expect(ids.filter((id) => d.orders[id]!.status === 'awaiting_delivery')).toHaveLength(4);
    const got = delivered.map((id) => app.service.sealer.open(d.orders[id]!.vaults.seller!.sealed, vaultAad(id, 'seller')));
    expect(new Set(got).size).toBe(6);
    expect(got.sort()).toEqual(units);
    const items = allUnits(d, number);
    expect(new Set(items.map((i) => i.order)).size).toBe(6);
    expect(d.cards[String(number)]!.autoIssue).toBe(false);
  });
});

describe('polling by updatedSince never misses a change (rule 6)', () => {
  const idsOf = (page: { items: Order[] }) => page.items.map((o) => o.id);

  it('with time standing still: page 1 read, a page-1 order updated, page 2 and a re-poll see it', async () => {
    // A frozen clock: every change happens in the same millisecond, the hardest case for the order.
    const clock = new Clock(0, () => Date.parse('2030-03-03T03:03:03.003Z'));
    await start(clock);
    const number = await makeCard();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await buy(number));
    // even in one millisecond, creation times are distinct: newest first is exact
    expect(idsOf(await ok(call(app, seller.apiKey, 'GET', '/api/v1/orders')))).toEqual([...ids].reverse());
    const since = new Date(0).toISOString();
    const list = (q: string) => ok(call(app, seller.apiKey, 'GET', `/api/v1/orders?updatedSince=${since}&limit=2${q}`));

    const page1 = await list('');
    expect(idsOf(page1)).toEqual(ids.slice(0, 2));
    // the first order of page 1 changes while the client pages
    await ok(pay(ids[0]!));
    const seen = new Map<string, Order>();
    for (const o of page1.items as Order[]) seen.set(o.id, o);
    let cursor: string | null = page1.nextCursor;
    let last = (page1.items as Order[]).at(-1)!.updatedAt;
    while (cursor) {
      const page = await list(`&cursor=${cursor}`);
      for (const o of page.items as Order[]) {
        seen.set(o.id, o);
        last = o.updatedAt;
      }
      cursor = page.nextCursor;
    }
    expect(seen.get(ids[0]!)!.status).toBe('awaiting_delivery');
    expect(seen.size).toBe(5);

    // a change after the paging is over: the re-poll from the last seen updatedAt returns it
    await ok(sandbox(app, 'POST', `/orders/${ids[1]!}/message`, { text: 'hello?' }));
    const repoll = await ok(call(app, seller.apiKey, 'GET', `/api/v1/orders?updatedSince=${last}`));
    expect(idsOf(repoll)).toContain(ids[1]);
    expect((repoll.items as Order[]).find((o) => o.id === ids[1])!.needsAction).toBe(true);
  });

  it('concurrent changes while a client pages through many orders: the union of pages holds every final version', async () => {
    await start();
    const number = await makeCard();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await buy(number));
    const since = new Date(0).toISOString();
    const seen = new Map<string, string>();
    let cursor: string | null = null;
    let i = 0;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      // change two orders (one already seen, one maybe not) alongside every page read
      const [page] = await Promise.all([
        ok(call(app, seller.apiKey, 'GET', `/api/v1/orders?updatedSince=${since}&limit=4${q}`)),
        pay(ids[i]!),
        sandbox(app, 'POST', `/orders/${ids[29 - i]!}/message`, { text: `m${i}` }),
      ]);
      for (const o of page.items as Order[]) seen.set(o.id, o.updatedAt);
      cursor = page.nextCursor;
      i++;
    } while (cursor);
    // every order's latest updatedAt was seen, or the client's next poll from its high-water mark gets it
    const highWater = [...seen.values()].sort().at(-1)!;
    const next = await ok(call(app, seller.apiKey, 'GET', `/api/v1/orders?updatedSince=${highWater}&limit=200`));
    for (const o of next.items as Order[]) seen.set(o.id, o.updatedAt);
    const d = await doc();
    for (const id of ids) expect(seen.get(id), id).toBe(d.orders[id]!.updatedAt);
  });
});
