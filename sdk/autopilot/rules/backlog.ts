/**
 * Backlog: when the open orders (awaiting confirmation or delivery, disputed) are more than
 * `above`, the work mode is set as configured (a capacity, do-not-disturb), after saving the work
 * mode it replaces; when they fall to `restoreAt` (default `above`) or fewer, the saved work mode
 * is put back. Only capacity and do-not-disturb are ever sent: presence is the marketplace's to
 * decide (spec rule 5), and quiet hours are left as they are.
 */
import type { RuleContext } from '../context.ts';
import { idempotencyKey } from '../context.ts';
import { failureOf, says } from '../words.ts';

export type BacklogStep = 'engage' | 'restore' | null;

/** What to do with `open` open orders, given whether the backlog mode is on. */
export function backlogStep(open: number, cfg: { above: number; restoreAt?: number | undefined }, engaged: boolean): BacklogStep {
  if (!engaged && open > cfg.above) return 'engage';
  if (engaged && open <= (cfg.restoreAt ?? cfg.above)) return 'restore';
  return null;
}

export async function runBacklog(ctx: RuleContext, open: number): Promise<void> {
  const cfg = ctx.config.backlog;
  if (!cfg) return;
  const memory = ctx.state.backlog;
  const what = backlogStep(open, cfg, memory.engaged);
  if (what === null) return;
  if (ctx.dryRun) {
    ctx.emit({ rule: 'backlog', type: what === 'engage' ? 'would-engage' : 'would-restore', dryRun: true, ...says(what === 'engage' ? 'wouldEngage' : 'wouldRestore', { count: open }) });
    memory.engaged = what === 'engage';
    return;
  }
  try {
    if (what === 'engage') {
      const current = await ctx.client.workMode.get();
      memory.saved = { capacity: current.capacity, doNotDisturb: current.doNotDisturb };
      await ctx.save();
      const body = { ...(cfg.set.capacity !== undefined ? { capacity: cfg.set.capacity } : {}), ...(cfg.set.doNotDisturb !== undefined ? { doNotDisturb: cfg.set.doNotDisturb } : {}) };
      await ctx.client.workMode.set(body, { idempotencyKey: idempotencyKey('backlog', 'engage', Date.now()) });
      memory.engaged = true;
      await ctx.save();
      ctx.emit({ rule: 'backlog', type: 'engaged', ...says('engaged', { count: open, above: cfg.above, body }), detail: { open, set: body } });
    } else {
      const saved = memory.saved ?? { capacity: null, doNotDisturb: false };
      const body = { ...(cfg.set.capacity !== undefined ? { capacity: saved.capacity } : {}), ...(cfg.set.doNotDisturb !== undefined ? { doNotDisturb: saved.doNotDisturb } : {}) };
      await ctx.client.workMode.set(body, { idempotencyKey: idempotencyKey('backlog', 'restore', Date.now()) });
      memory.engaged = false;
      memory.saved = undefined;
      await ctx.save();
      ctx.emit({ rule: 'backlog', type: 'restored', ...says('restored', { count: open, body }), detail: { open, set: body } });
    }
  } catch (error) {
    ctx.emit({ rule: 'backlog', type: 'error', ...says(what === 'engage' ? 'cannotEngage' : 'cannotRestore', { reason: failureOf(error) }) });
  }
}
