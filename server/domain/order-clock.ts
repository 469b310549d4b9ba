/**
 * Order deadlines on the server clock: an unpaid order is cancelled after 24 h, a paid order not
 * delivered by `deliverBy` is refunded (missed SLA), a delivered order completes when its guarantee
 * ends. The sweep runs on every clock tick (each second in real time, and on a sandbox advance).
 *
 * It visits only sellers whose next deadline has come ({@link orderDeadlines}, kept by every order
 * change); the first sweep of a process scans every seller once to learn their deadlines.
 * Sweeps run one after another, never overlapping; each writes the documents it changed.
 */
import type { ServerContext } from '../context.ts';
import { UnitOfWork } from '../context.ts';
import { nextDeadline, orderDeadlines, settle } from './orders.ts';

interface ClockState {
  scanned: boolean;
  /** The sweep running now (or the last one), so that the next waits for it. */
  chain: Promise<unknown>;
}

const installed = new WeakMap<ServerContext, ClockState>();

/**
 * Registers the order sweep on `svc.clock` once per server (later calls do nothing). `buildApp`
 * calls it; every order handler calls it too, so a server that skipped it starts on first use.
 */
export function installOrderClock(svc: ServerContext): void {
  if (installed.has(svc)) return;
  const state: ClockState = { scanned: false, chain: Promise.resolve() };
  installed.set(svc, state);
  svc.clock.onAdvance((now) => {
    const run = state.chain.then(() => sweep(svc, state, now));
    state.chain = run.catch(() => undefined);
    return run.then(() => undefined);
  });
}

/** Runs one sweep at `now` directly (tests), after any sweep already running. Answers how many orders moved. */
export async function sweepOrders(svc: ServerContext, now: Date): Promise<number> {
  installOrderClock(svc);
  const state = installed.get(svc)!;
  const run = state.chain.then(() => sweep(svc, state, now));
  state.chain = run.catch(() => undefined);
  return run;
}

async function sweep(svc: ServerContext, state: ClockState, now: Date): Promise<number> {
  const map = orderDeadlines(svc);
  if (!state.scanned) {
    for (const sellerId of await svc.store.sellerIds()) {
      const doc = await svc.store.seller(sellerId);
      const next = nextDeadline(Object.values(doc.orders));
      const known = map.get(sellerId);
      if (next !== null && (known === undefined || next < known)) map.set(sellerId, next);
    }
    state.scanned = true;
  }
  const nowMs = now.getTime();
  const due = [...map].filter(([, at]) => at <= nowMs).map(([sellerId]) => sellerId);
  if (due.length === 0) return 0;
  const tx = new UnitOfWork(svc);
  let moved = 0;
  for (const sellerId of due) {
    const doc = await tx.seller(sellerId);
    // From here to the end of this seller: no await, so no handler interleaves with the changes.
    for (const order of Object.values(doc.orders)) if (settle(svc, doc, order, now)) moved++;
    // Exact again (settle may have noted an earlier value while moving orders on).
    const next = nextDeadline(Object.values(doc.orders));
    if (next === null) map.delete(sellerId);
    else map.set(sellerId, next);
  }
  await tx.commit();
  return moved;
}
