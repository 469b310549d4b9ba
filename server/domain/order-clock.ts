/**
 * Order deadlines on the server clock: an unpaid order is cancelled after 24 h, a paid order not
 * delivered by `deliverBy` is refunded (missed SLA), a delivered order completes when its guarantee
 * ends. `buildApp` hangs {@link sweepOrders} on the clock: it runs on every tick (each second in
 * real time, and on a sandbox advance).
 *
 * It visits only sellers whose next deadline has come (`svc.deadlines`, kept by every order
 * change); the first sweep of a process scans every seller once to learn their deadlines.
 * Sweeps run one after another, never overlapping; each writes the documents it changed, and only
 * then sets the visited sellers' next deadlines (from the store: after a failed write, from the
 * documents reopened from disk), so a sweep whose write failed is done again by the next one.
 */
import type { ServerContext } from '../context.ts';
import { UnitOfWork } from '../context.ts';
import { nextDeadline, settle } from './orders.ts';

/** Runs one sweep at `now`, after any sweep already running. Answers how many orders moved. */
export function sweepOrders(svc: ServerContext, now: Date): Promise<number> {
  const state = svc.deadlines;
  const run = state.chain.then(() => sweep(svc, now));
  state.chain = run.catch(() => undefined);
  return run;
}

async function sweep(svc: ServerContext, now: Date): Promise<number> {
  const state = svc.deadlines;
  const map = state.bySeller;
  if (!state.scanned) {
    for (const sellerId of await svc.store.sellerIds()) {
      const next = nextDeadline(Object.values((await svc.store.seller(sellerId)).orders));
      if (next !== null) state.note(sellerId, next);
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
  }
  // The index learns the sellers' next deadlines only from what the store holds after the commit:
  // written, or (a failed commit) reopened from disk, where the overdue orders still wait, so that
  // the next sweep comes back for them. Some sellers of a failed commit may have been written.
  try {
    await tx.commit();
  } finally {
    await relearn(svc, due);
  }
  return moved;
}

/** Sets each seller's next deadline from its document as the store holds it now. */
async function relearn(svc: ServerContext, sellerIds: readonly string[]): Promise<void> {
  const map = svc.deadlines.bySeller;
  for (const sellerId of sellerIds) {
    let doc;
    try {
      doc = await svc.store.seller(sellerId);
    } catch {
      continue; // unreadable now: its entry stays as it was (due), and the next sweep tries again
    }
    // No await between reading the orders and setting the entry: a change made meanwhile is in both.
    const next = nextDeadline(Object.values(doc.orders));
    if (next === null) map.delete(sellerId);
    else map.set(sellerId, next);
  }
}
