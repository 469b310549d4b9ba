/**
 * Orders that moved without the autopilot are reported, so that nothing happens to a seller's
 * order in silence: one refunded (its delivery deadline passed, or the marketplace refunded it),
 * cancelled by the buyer, or disputed gets one line (rule `orders`), once per order and state
 * (remembered in `state.moved`, across restarts). With the deadline guard on, a refunded order whose
 * deadline passed with no warning given (the autopilot was not running, or the clock jumped) also
 * gets the guard's `missed` line, once.
 *
 * History is not news: on a first run (no watermark yet) the orders of the catch-up are not
 * reported, only what changes after it; a resumed run reports everything that changed since it
 * stopped.
 */
import type { Order } from '../../records.ts';
import type { RuleContext } from '../context.ts';
import { missedKey, missedSays, slaKey } from './deadline.ts';
import { says, type AutopilotSay } from '../words.ts';

type Moved = Pick<Order, 'id' | 'number' | 'status' | 'deliverBy' | 'updatedAt'>;

/** Refunded after its delivery deadline had passed (the marketplace's refund of a late order). */
const refundedLate = (order: Moved): boolean => order.status === 'refunded' && order.deliverBy !== null && Date.parse(order.deliverBy) <= Date.parse(order.updatedAt);

/** The words for an order that moved, or undefined when the status is not one reported. */
export function movedSays(order: Moved): { say: AutopilotSay; message: string } | undefined {
  const values = { id: order.id, number: order.number };
  switch (order.status) {
    case 'refunded':
      return refundedLate(order) ? says('refundedLate', { ...values, deliverBy: order.deliverBy }) : says('refunded', values);
    case 'cancelled':
      return says('cancelled', values);
    case 'disputed':
      return says('disputedByBuyer', values);
    default:
      return undefined;
  }
}

/** The line for an order that moved, or undefined when the status is not one reported. */
export const movedMessage = (order: Moved): string | undefined => movedSays(order)?.message;

export async function reportMoved(ctx: RuleContext, order: Order): Promise<void> {
  const said = movedSays(order);
  if (said === undefined) return;
  // The deadline guard warns about disputes itself when asked to.
  if (order.status === 'disputed' && ctx.config.deadline?.disputes) return;
  const seen = ctx.state.moved[order.id];
  if (seen !== undefined && seen.split(' ')[0] === order.status) return;
  ctx.state.moved[order.id] = `${order.status} ${new Date().toISOString()}`;
  ctx.emit({ rule: 'orders', type: order.status, order: order.id, card: order.number, ...said, dryRun: ctx.dryRun || undefined, detail: { status: order.status, deliverBy: order.deliverBy } });
  const deadline = order.deliverBy;
  if (refundedLate(order) && ctx.config.deadline && deadline !== null && ctx.state.warned[order.id] !== missedKey(deadline) && ctx.state.warned[order.id] !== slaKey(deadline)) {
    ctx.state.warned[order.id] = missedKey(deadline);
    ctx.emit({ rule: 'deadline', type: 'missed', order: order.id, card: order.number, ...missedSays(order), dryRun: ctx.dryRun || undefined, detail: { deliverBy: deadline } });
  }
  await ctx.save();
}

/**
 * A paid order (awaiting delivery) said once: one that no deliver rule takes needs a hand
 * (`needs-hand`, also from a first run's catch-up: it waits now; remembered in `state.moved` as its
 * status); with `sales`, one a rule takes is said `paid` when it is news and its delivery has not
 * begun (`begun`: a journal entry or a delivery in flight).
 */
export function reportPaid(ctx: RuleContext, order: Order, picked: unknown, { news, sales, begun }: { news: boolean; sales: boolean; begun: boolean }): void {
  if (order.status !== 'awaiting_delivery' || ctx.state.moved[order.id]?.split(' ')[0] === order.status) return;
  if (picked !== undefined && (!(sales && news) || begun)) return;
  // A sale a rule delivers is remembered by its delivery's journal (said before it begins: `begun`
  // stops a second line), so the state does not grow by a mark per sale; one that needs a hand is marked.
  if (picked === undefined) ctx.state.moved[order.id] = `${order.status} ${new Date().toISOString()}`;
  const values = { id: order.id, number: order.number, productType: order.productType, price: order.priceRub };
  const type = picked === undefined ? 'needs-hand' : 'paid';
  // No write of its own on the watch's path: the mark goes to disk with the state's next write (the
  // order's journal step or the watermark), which carries the message too if the outbox's own append
  // has not come first; a crash before it repeats the line.
  ctx.emit({ rule: 'orders', type, order: order.id, card: order.number, ...says(picked === undefined ? 'needsHand' : 'paid', values), dryRun: ctx.dryRun || undefined, detail: { priceRub: order.priceRub } });
}
