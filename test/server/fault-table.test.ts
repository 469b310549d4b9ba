/**
 * The fault table's rules (server/faults/table.ts): matching by seller and operation (or chaos
 * kind), `*` never matching webhook chaos; `every` counted per fault; the oldest fault that fires
 * wins and the others spend no hit; `times` and `for` (server clock) end a fault, which stays listed
 * as ended for an hour of real time; waits end on close; a fault added with a run lease ends when
 * the lease lapses or is released, and no run lease refuses another.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunLeases } from '../../server/faults/run-leases.ts';
import { ENDED_KEPT_MS, FaultTable } from '../../server/faults/table.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const call = (sellerId: string, op: string) => ({ sellerId, op });

afterEach(() => {
  vi.useRealTimers();
});

describe('FaultTable', () => {
  it('matches a seller (or all) and an operation (or *); * is no webhook chaos', () => {
    const table = new FaultTable();
    const mine = table.add({ sellerId: 'sel_a', op: 'orders.deliver', status: 503 }, T0);
    const all = table.add({ op: '*', status: 500 }, T0);
    expect(table.hit(call('sel_a', 'orders.deliver'), T0)?.id).toBe(mine.id);
    expect(table.hit(call('sel_b', 'orders.deliver'), T0)?.id).toBe(all.id);
    expect(table.hit(call('sel_a', 'me.get'), T0)?.id).toBe(all.id);
    expect(table.hit({ sellerId: 'sel_a', hooks: 'duplicate' }, T0)).toBeUndefined();
    const chaos = table.add({ hooks: 'duplicate' }, T0);
    expect(table.hit({ sellerId: 'sel_b', hooks: 'duplicate' }, T0)?.id).toBe(chaos.id);
    expect(table.hit({ sellerId: 'sel_b', hooks: 'fail' }, T0)).toBeUndefined();
  });

  it('a fault added with a run lease ends when the lease lapses (real time) or is released; leases never refuse each other', () => {
    let now = T0;
    const table = new FaultTable(new RunLeases(() => now));
    const first = table.runLeases.take('run one', 2000);
    const second = table.runLeases.take('run two', 2000);
    expect(second.id).not.toBe(first.id);
    const lapsing = table.add({ op: '*', status: 503, runLease: first.id }, T0);
    table.add({ op: 'me.get', status: 500, runLease: second.id }, T0);
    const free = table.add({ op: 'me.get', status: 502 }, T0);
    now += 1500;
    expect(table.runLeases.take('run one', 2000, first.id).id).toBe(first.id); // renewed: lapses at +3.5 s now
    now += 1500;
    const inForce = () => table.list(T0).filter((f) => f.endedAt === null).map((f) => f.id);
    expect(inForce()).toEqual([lapsing.id, free.id]); // the second lease was not renewed: lapsed at +2 s
    now += 1000;
    expect(inForce()).toEqual([free.id]);
    const third = table.runLeases.take('run three', 2000);
    const ending = table.add({ op: '*', status: 503, runLease: third.id }, T0);
    expect(table.endRun(third.id, T0 + 60_000)).toBe(1);
    expect(table.runLeases.alive(third.id)).toBe(false);
    expect(inForce()).toEqual([free.id]);
    // Ended with their runs, they are listed as ended, the proof that they were there.
    const ended = table.list(T0).filter((f) => f.endedAt !== null);
    expect(ended.map((f) => f.id)).toEqual(expect.arrayContaining([lapsing.id, ending.id]));
    expect(ended.find((f) => f.id === ending.id)!.endedAt).toBe(new Date(T0 + 60_000).toISOString());
  });

  it('the oldest fault that fires wins; the others count the call and spend nothing', () => {
    const table = new FaultTable();
    const first = table.add({ op: 'me.get', status: 500, every: 2 }, T0);
    const second = table.add({ op: 'me.get', status: 503, times: 5 }, T0);
    const fired = [1, 2, 3, 4].map(() => table.hit(call('sel_a', 'me.get'), T0)?.id);
    expect(fired).toEqual([second.id, first.id, second.id, first.id]);
    expect(table.list(T0).map((f) => [f.hits, f.remaining])).toEqual([[2, null], [2, 3]]);
  });

  it('times ends a fault at zero; for ends it once the server clock passes it', () => {
    const table = new FaultTable();
    table.add({ op: 'me.get', status: 500, times: 1 }, T0);
    expect(table.hit(call('sel_a', 'me.get'), T0)).toBeDefined();
    expect(table.hit(call('sel_a', 'me.get'), T0)).toBeUndefined();
    const timed = table.add({ op: 'me.get', status: 500, forMs: 1000 }, T0);
    expect(timed.expiresAt).toBe('2026-03-01T10:00:01.000Z');
    expect(table.hit(call('sel_a', 'me.get'), T0 + 999)).toBeDefined();
    expect(table.hit(call('sel_a', 'me.get'), T0 + 1000)).toBeUndefined();
    expect(table.size).toBe(0);
  });

  it('an ended fault is listed with when it ended (server clock) and its hits for an hour of real time, then forgotten', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const table = new FaultTable();
    const used = table.add({ op: 'me.get', status: 500, times: 2 }, T0);
    const timed = table.add({ op: 'orders.list', status: 503, forMs: 1000 }, T0);
    table.hit(call('sel_a', 'me.get'), T0 + 5);
    table.hit(call('sel_a', 'me.get'), T0 + 10);
    table.hit(call('sel_a', 'orders.list'), T0 + 20);
    // A clock advance far past both: the ended faults stay (real time keeps them), the timed one ended at its expiresAt.
    const listed = table.list(T0 + 86_400_000);
    expect(listed.map((f) => [f.id, f.hits, f.endedAt])).toEqual([
      [used.id, 2, '2026-03-01T10:00:00.010Z'],
      [timed.id, 1, '2026-03-01T10:00:01.000Z'],
    ]);
    expect(table.size).toBe(0);
    expect(table.hit(call('sel_a', 'me.get'), T0 + 30)).toBeUndefined();
    vi.advanceTimersByTime(ENDED_KEPT_MS);
    expect(table.list(T0)).toEqual([]);
  });

  it('clears one or all; a wait ends early on close', async () => {
    const table = new FaultTable();
    const a = table.add({ op: 'me.get', status: 500 }, T0);
    table.add({ op: 'me.get', status: 502 }, T0);
    expect(table.clear('flt_none')).toBe(0);
    expect(table.clear(a.id)).toBe(1);
    expect(table.clear()).toBe(1);
    const waiting = table.wait(60_000);
    table.close();
    expect(await waiting).toBe(false);
    expect(await table.wait(1)).toBe(true);
  });
});
