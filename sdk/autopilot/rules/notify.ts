/** Sends a warning or an alert to the rule's `notify` command or hook (besides the status line). */
import type { Notify } from '../config.ts';
import { runAction } from '../actions.ts';
import type { RuleContext } from '../context.ts';
import { failureOf, says } from '../words.ts';
import type { AutopilotRuleName } from '../events.ts';

export async function notify(ctx: RuleContext, rule: AutopilotRuleName, target: Notify | undefined, input: Record<string, unknown>): Promise<void> {
  if (!target || ctx.dryRun) return;
  const env: Record<string, string> = { SERVICE_AUTOPILOT_RULE: rule, SERVICE_AUTOPILOT_EVENT: String(input.type ?? '') };
  if (typeof input.order === 'string') env.SERVICE_ORDER_ID = input.order;
  if (typeof input.card === 'number') env.SERVICE_CARD = String(input.card);
  try {
    await runAction(target, input, env, ctx.signal);
  } catch (error) {
    ctx.emit({ rule, type: 'notify-failed', ...says('notifyFailed', { rule, reason: failureOf(error) }), detail: { for: input.type } });
  }
}
