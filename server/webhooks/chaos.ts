/**
 * Webhook chaos (issue #27): the sandbox makes a seller's deliveries (or every seller's) arrive the
 * way real senders sometimes deliver them. The faults are `hooks` faults of the table
 * (server/faults/table.ts); the outbox (./outbox.ts) asks here at its attempt's steps:
 *
 * - `reorder`: a delivery's first attempt is held until a later delivery of the same seller has
 *   been sent, at most {@link REORDER_MAX_MS} of real time; that later delivery (the first to come
 *   while one is held) is not held itself, so the receiver gets it first and the held one after it;
 * - `delay`: a delivery's first attempt is held `delayMs` of real time;
 * - `fail`: an attempt fails as if the network broke (nothing is sent; the ladder retries it);
 * - `duplicate`: after a successful attempt, the same delivery is sent again as the next attempt.
 *
 * A held delivery stays pending in the seller's document (a restart resumes it at once); only its
 * place in the due-queue is taken until it is let go. Every attempt made is signed and logged as
 * any other, with its true number.
 */
import type { ServerContext } from '../context.ts';
import type { DeliveryRecord } from '../store/records/hooks.ts';
import type { AttemptResult } from './sender.ts';

/** The longest a reordered delivery waits for the seller's next one, in real time. */
export const REORDER_MAX_MS = 5_000;

/** Before a first attempt: whether chaos holds the delivery back (reorder, delay); true: do not attempt now. */
export function heldBack(svc: ServerContext, sellerId: string, d: DeliveryRecord, kick: () => void): boolean {
  const faults = svc.faults;
  if (faults.held.has(d.id)) {
    svc.outbox.queue.delete(d.id);
    return true;
  }
  if (faults.released.delete(d.id) || faults.size === 0 || d.attempts > 0) return false;
  const nowMs = svc.clock.nowMs();
  // The seller's next delivery after a held one goes out (and lets the held one go after it): holding
  // it too would only hold every delivery, each released in its own order by its timer.
  const reorder = waitingForNext(svc, sellerId) ? undefined : faults.hit({ sellerId, hooks: 'reorder' }, nowMs);
  const fault = reorder ?? faults.hit({ sellerId, hooks: 'delay' }, nowMs);
  if (!fault) return false;
  const untilNext = fault.hooks === 'reorder';
  const timer = setTimeout(() => letGo(svc, d.id, kick), untilNext ? REORDER_MAX_MS : fault.delayMs!);
  faults.held.set(d.id, { sellerId, seq: d.seq, untilNext, timer });
  svc.outbox.queue.delete(d.id);
  return true;
}

/** Whether a delivery of the seller is held until its next one has been sent (a reorder). */
function waitingForNext(svc: ServerContext, sellerId: string): boolean {
  for (const held of svc.faults.held.values()) if (held.untilNext && held.sellerId === sellerId) return true;
  return false;
}

/** After an attempt was sent: the seller's earlier deliveries held for a reorder go now. */
export function sentAfter(svc: ServerContext, sellerId: string, d: DeliveryRecord, kick: () => void): void {
  for (const [id, held] of svc.faults.held) {
    if (held.untilNext && held.sellerId === sellerId && held.seq < d.seq) letGo(svc, id, kick);
  }
}

/** A held delivery goes back into the due-queue, not to be held again. */
function letGo(svc: ServerContext, deliveryId: string, kick: () => void): void {
  const held = svc.faults.held.get(deliveryId);
  if (!held) return;
  clearTimeout(held.timer);
  svc.faults.held.delete(deliveryId);
  if (svc.outbox.closed) return;
  svc.faults.released.add(deliveryId);
  // Due at once: the attempt reads the delivery again and reschedules it if it is not due.
  svc.outbox.queue.set(deliveryId, { sellerId: held.sellerId, due: 0 });
  kick();
}

/** An attempt that chaos fails as a broken network would; undefined: send it. */
export function chaosFailure(svc: ServerContext, sellerId: string): AttemptResult | undefined {
  if (svc.faults.size === 0) return undefined;
  const fault = svc.faults.hit({ sellerId, hooks: 'fail' }, svc.clock.nowMs());
  return fault ? { ok: false, status: null, error: `connection reset (sandbox fault ${fault.id})` } : undefined;
}

/** After a successful attempt: whether chaos sends the delivery again. */
export function duplicated(svc: ServerContext, sellerId: string): boolean {
  return svc.faults.size > 0 && svc.faults.hit({ sellerId, hooks: 'duplicate' }, svc.clock.nowMs()) !== undefined;
}
