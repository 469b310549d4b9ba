/**
 * Deadline guard: a warning `warnMinutesBefore` minutes before an open order's delivery deadline
 * (`deliverBy`, while it awaits confirmation or delivery), and one as soon as an order is disputed
 * (the dispute waits for the seller's answer). Each deadline is warned about once (remembered in
 * the state, across restarts); a warning goes to the status line and to `notify`, if set. A
 * deadline found already passed with no warning given (the autopilot was not running, or the clock
 * jumped) is reported once as `missed`. The guard only warns: it never delivers, declines or
 * answers a dispute.
 */
import type { Order } from '../../records.ts';
import type { RuleContext } from '../context.ts';
import { notify } from './notify.ts';
import { says } from '../words.ts';

export interface Warning {
  order: Order;
  kind: 'sla' | 'missed' | 'dispute';
  /** What is warned about; the state keeps it so that the same deadline is warned about once. */
  key: string;
  /** Minutes left until the deadline (negative: overdue); for a dispute, undefined. */
  minutesLeft?: number | undefined;
}

const DUE = ['awaiting_confirmation', 'awaiting_delivery'];

/** The warnings due at `nowMs` among the open orders, leaving out those already given. */
export function dueWarnings(open: Iterable<Order>, nowMs: number, cfg: { warnMinutesBefore: number; disputes: boolean }, warned: Record<string, string>): Warning[] {
  const out: Warning[] = [];
  for (const order of open) {
    if (DUE.includes(order.status) && order.deliverBy !== null) {
      const key = slaKey(order.deliverBy);
      const left = Date.parse(order.deliverBy) - nowMs;
      const given = warned[order.id] === key || warned[order.id] === missedKey(order.deliverBy);
      if (left < 0 && !given) out.push({ order, kind: 'missed', key: missedKey(order.deliverBy), minutesLeft: Math.floor(left / 60_000) });
      else if (left <= cfg.warnMinutesBefore * 60_000 && !given) out.push({ order, kind: 'sla', key, minutesLeft: Math.floor(left / 60_000) });
    } else if (order.status === 'disputed' && cfg.disputes && order.needsAction) {
      const key = `dispute:${order.updatedAt}`;
      if (!warned[order.id]?.startsWith('dispute:')) out.push({ order, kind: 'dispute', key });
    }
  }
  return out;
}

/** The state's mark of a deadline reported as missed. */
export const missedKey = (deliverBy: string): string => `missed:${deliverBy}`;
/** The key of a deadline's warning, given before it passed. */
export const slaKey = (deliverBy: string): string => `sla:${deliverBy}`;

/** The words of a deadline that passed with no warning given. */
export const missedSays = (order: Pick<Order, 'id' | 'number' | 'deliverBy'>) => says('missed', { id: order.id, number: order.number, deliverBy: order.deliverBy });

/** The line of a deadline that passed with no warning given. */
export const missedMessage = (order: Pick<Order, 'id' | 'number' | 'deliverBy'>): string => missedSays(order).message;

export async function runDeadlineGuard(ctx: RuleContext, open: Iterable<Order>): Promise<void> {
  const cfg = ctx.config.deadline;
  if (!cfg) return;
  const warnings = dueWarnings(open, ctx.now(), cfg, ctx.state.warned);
  for (const w of warnings) {
    const { order } = w;
    const said =
      w.kind === 'missed'
        ? missedSays(order)
        : w.kind === 'sla'
          ? says('within', { id: order.id, number: order.number, minutes: w.minutesLeft ?? null, deliverBy: order.deliverBy })
          : says('disputed', { id: order.id, number: order.number });
    ctx.emit({ rule: 'deadline', type: w.kind === 'sla' ? 'warned' : w.kind, order: order.id, card: order.number, ...said, dryRun: ctx.dryRun || undefined, detail: { deliverBy: order.deliverBy, minutesLeft: w.minutesLeft } });
    ctx.state.warned[order.id] = w.key;
    await notify(ctx, 'deadline', cfg.notify, { type: w.kind, order: order.id, card: order.number, status: order.status, deliverBy: order.deliverBy, minutesLeft: w.minutesLeft });
  }
  if (warnings.length > 0) await ctx.save();
}
