/**
 * Deliver: an order awaiting delivery whose card matches a rule gets the rule's action run (a
 * command or a hook that activates the subscription, makes the account…), and is delivered with
 * what the action answered: `nextChargeDay`, a `note` (checked offline by the marketplace's
 * contact filter; a note with contacts is withheld, the order still delivered), a `secret` (put
 * into the seller's vault first, handed to the buyer by the delivery).
 *
 * Each step is journalled before it is taken (state.ts): `running` (the action may have run),
 * `ready` (its answer is kept, the secret already in the vault), `done`. A restart finishes an
 * interrupted order from its step: a `ready` order is only delivered; a `running` one has its action
 * run again with `SERVICE_AUTOPILOT_ATTEMPT` > 1 (the action must then make sure it does not act
 * twice for `SERVICE_ORDER_ID`). Changing calls carry idempotency keys made of the order id and the
 * attempt, so a repeated call replays the first answer. `done` is journalled only after the
 * `delivered` event was printed: a crash between the two makes the restart report the order as
 * `already-delivered` (reported twice rather than never). In a run, a `ready` order found delivered
 * is sent again under the same key (its answer may have been lost): see {@link resumeDelivery}.
 *
 * A refusal (`state_moved`: cancelled or refunded meanwhile; `need_next_charge`; …) and a failed
 * action are reported and not retried (reported first, then closed in the journal). A send the
 * service did not take (no answer, a 5xx, a 429, once the SDK's retries are used up) leaves a
 * `ready` order to the next round.
 */
import { isRejected, SellerError } from '../../errors.ts';
import type { Order } from '../../records.ts';
import { contactsIn } from '../../contact-words.ts';
import type { ContactKind } from '../../contacts.ts';
import { nextChargeProblem } from '../../next-charge.ts';
import { matches, type AutopilotConfig, type DeliverRule } from '../config.ts';
import { ActionError, parseDelivery, runAction } from '../actions.ts';
import { idempotencyKey, type RuleContext } from '../context.ts';
import { failureOf, part, says } from '../words.ts';
import type { JournalEntry } from '../state.ts';

/** The first deliver rule that takes this order, with its name; `undefined` when none does. */
export function pickDeliverRule(order: Pick<Order, 'status' | 'productType' | 'service' | 'number'>, rules: AutopilotConfig['deliver']): { rule: DeliverRule; name: string } | undefined {
  if (order.status !== 'awaiting_delivery' || !rules) return undefined;
  const index = rules.findIndex((rule) => matches(rule.match, order));
  if (index < 0) return undefined;
  const rule = rules[index]!;
  return { rule, name: rule.name ?? `deliver#${index}` };
}

/** The note to send: the action's, else the rule's; withheld (with the contact kinds found) when the contact filter would refuse it. */
export function noteToSend(actionNote: string | undefined, ruleNote: string | undefined): { note?: string; withheld?: ContactKind[] } {
  const note = actionNote ?? ruleNote;
  if (note === undefined || note.trim() === '') return {};
  const found = contactsIn(note);
  if (found) return { withheld: found.kinds };
  return { note };
}

/** The action's next charge day must be a real date, not before the service's today (as the CLI's `--next-charge`). */
function checkNextCharge(day: string | undefined, nowMs: number): void {
  const problem = day === undefined ? undefined : nextChargeProblem(day, nowMs);
  if (problem?.kind === 'not_a_date') throw new ActionError(part('action.nextChargeNotDate', { day: day! }));
  if (problem?.kind === 'past') throw new ActionError(part('action.nextChargePast', { day: day!, today: problem.today }));
}

/** Whether a journal entry means the order needs no more work. */
export const finished = (entry: JournalEntry | undefined): boolean => entry !== undefined && ['done', 'skipped', 'failed'].includes(entry.phase);

const base = (order: Order) => ({ rule: 'deliver' as const, order: order.id, card: order.number });

/** Journals a step and puts it on disk. */
async function step(ctx: RuleContext, id: string, entry: JournalEntry, patch: Partial<JournalEntry>): Promise<void> {
  Object.assign(entry, patch, { at: new Date().toISOString() });
  ctx.state.journal[id] = entry;
  await ctx.save();
}

/**
 * Delivers one order by `rule` (or finishes the journalled delivery `entry` after a restart). The
 * caller checked that the order awaits delivery.
 */
export async function deliverOrder(ctx: RuleContext, order: Order, rule: DeliverRule, name: string): Promise<void> {
  const id = order.id;
  if (ctx.dryRun) {
    const form = rule.action.command !== undefined ? 'wouldRun' : 'wouldCall';
    ctx.emit({ ...base(order), type: 'would-deliver', dryRun: true, ...says(form, { id, number: order.number, productType: order.productType, name }) });
    return;
  }
  const entry: JournalEntry = ctx.state.journal[id] ?? { phase: 'running', rule: name, at: '', attempts: 0 };
  if (finished(entry)) return;
  if (entry.phase === 'running' || entry.phase === 'held') {
    await step(ctx, id, entry, { phase: 'running', attempts: entry.attempts + 1 });
    let output;
    try {
      const text = await runAction(
        rule.action,
        order,
        {
          SERVICE_ORDER_ID: id,
          SERVICE_ORDER_STATUS: order.status,
          SERVICE_PRODUCT_TYPE: order.productType,
          SERVICE_CARD: String(order.number),
          SERVICE_AUTOPILOT_ATTEMPT: String(entry.attempts),
        },
        ctx.signal,
      );
      output = parseDelivery(text);
      checkNextCharge(output.nextChargeDay, ctx.now());
    } catch (error) {
      const output = error instanceof ActionError ? error.output : undefined;
      ctx.emit({ ...base(order), type: 'failed', ...says('failed', { id, reason: failureOf(error) }), detail: { step: 'action', ...(output ? { output } : {}) } });
      await step(ctx, id, entry, { phase: 'failed' });
      return;
    }
    const { note, withheld } = noteToSend(output.note, rule.note);
    if (withheld) ctx.emit({ ...base(order), type: 'note-withheld', ...says('noteWithheld', { id, kinds: withheld }), detail: { kinds: withheld } });
    if (output.secret !== undefined) {
      try {
        await ctx.client.orders.putVault(id, { secret: output.secret }, { idempotencyKey: idempotencyKey('deliver', id, entry.attempts, 'vault') });
      } catch (error) {
        await refusedOrFailed(ctx, order, entry, error, 'vault');
        return;
      }
    }
    await step(ctx, id, entry, { phase: 'ready', delivery: { nextChargeDay: output.nextChargeDay, note } });
  }
  const error = await sendDelivery(ctx, order, entry, name);
  if (error !== undefined) await refusedOrFailed(ctx, order, entry, error, 'deliver');
}

/**
 * Sends the journalled delivery of a `ready` order under its attempt's idempotency key and, once
 * answered, reports it `delivered` and closes it in the journal; answers the error otherwise. A send
 * whose answer was lost (a dropped connection after the service delivered) is sent again the same
 * way: the service replays its answer, and the order is reported as delivered by this rule.
 */
async function sendDelivery(ctx: RuleContext, order: Order, entry: JournalEntry, name: string): Promise<unknown> {
  const id = order.id;
  const delivery = entry.delivery ?? {};
  const body = {
    ...(delivery.nextChargeDay !== undefined ? { nextChargeDay: delivery.nextChargeDay } : {}),
    ...(delivery.note !== undefined ? { note: delivery.note } : {}),
  };
  try {
    const answer = await ctx.client.orders.deliver(id, body, { idempotencyKey: idempotencyKey('deliver', id, entry.attempts) });
    // Reported before the journal closes the order. The state is one shared object and writes
    // are shared (state.ts): once `done` is in it, any save (another order's step, the watermark)
    // may put it on disk, and a crash before the event was printed would leave an order delivered
    // that no run ever reports; the restart skips a `done` order. This way a crash between the
    // two leaves it `ready`, and the restart sends it again, is answered by the replay and reports it.
    const filtered = answer.noteRejected !== null ? part('noteFiltered', { why: answer.noteRejected }) : null;
    ctx.emit({ ...base(order), type: 'delivered', ...says('delivered', { id, number: order.number, productType: order.productType, name, filtered }), detail: { status: answer.status, noteRejected: answer.noteRejected } });
  } catch (error) {
    return error;
  }
  await step(ctx, id, entry, { phase: 'done', delivery: undefined });
  return undefined;
}

/**
 * A refusal ends the order's delivery (logged, not retried); a failed connection leaves a `ready` order for the next round.
 * As with `delivered`, the event is printed before the journal closes the order: a crash between the two makes the
 * restart take the order up again from its step and report it again, rather than never.
 */
async function refusedOrFailed(ctx: RuleContext, order: Order, entry: JournalEntry, error: unknown, where: 'vault' | 'deliver'): Promise<void> {
  const id = order.id;
  if (isRejected(error)) {
    const kind = error.refusal.kind;
    const phase = kind === 'state_moved' ? 'skipped' : 'failed';
    const said = kind === 'state_moved' ? says('movedOn', { id }) : says('refused', { id, reason: failureOf(error, true) });
    ctx.emit({ ...base(order), type: kind === 'state_moved' ? 'skipped' : 'refused', ...said, detail: { refusal: kind, ...(error.refusal.reason === undefined ? {} : { reason: error.refusal.reason }), step: where } });
    await step(ctx, id, entry, { phase, delivery: undefined });
    return;
  }
  // What the service says changed nothing and may be tried again: no answer, a 5xx (503 `unavailable`
  // says "retry later"), a 429; the SDK's own retries of it were used up.
  const transient = error instanceof SellerError && ['connection', 'internal', 'unavailable', 'rate'].includes(error.code);
  if (where === 'deliver' && transient && !(error instanceof ActionError)) {
    ctx.emit({ ...base(order), type: 'retrying', ...says('retrying', { id, reason: failureOf(error) }), detail: { step: where } });
    return;
  }
  ctx.emit({ ...base(order), type: 'failed', ...says('failed', { id, reason: failureOf(error) }), detail: { step: where } });
  await step(ctx, id, entry, { phase: 'failed', delivery: undefined });
}

/**
 * Finishes a journalled delivery: after a restart (`restart`), one a crash interrupted; in a run,
 * a `ready` one whose send failed to reach the service. The order is read again first: one that no
 * longer awaits delivery is closed in the journal without any call, except a `ready` one found
 * delivered in the same run: its send may have reached the service with the answer lost (a
 * connection dropped after the service delivered), and this run never reported it. It is sent
 * again under the same key: the service replays its answer and it is reported `delivered`; refused,
 * it was delivered otherwise meanwhile (`already-delivered`). After a restart no call is made: the
 * run before may have printed `delivered` just before it was killed, and an order is reported
 * `delivered` once at most (`already-delivered` after it).
 */
export async function resumeDelivery(ctx: RuleContext, id: string, entry: JournalEntry, { restart }: { restart: boolean }): Promise<void> {
  let order: Order;
  try {
    order = await ctx.client.orders.get(id);
  } catch (error) {
    ctx.emit({ rule: 'deliver', type: 'error', order: id, ...says('cannotResume', { id, reason: failureOf(error) }) });
    return;
  }
  ctx.emit({ rule: 'deliver', type: 'resumed', order: id, card: order.number, ...says('resumed', { id, phase: entry.phase, status: order.status }) });
  if (order.status !== 'awaiting_delivery') {
    const delivered = order.status === 'delivered' || order.status === 'completed';
    if (delivered && entry.phase === 'ready' && !restart) {
      const error = await sendDelivery(ctx, order, entry, entry.rule);
      if (error === undefined) return;
      if (!isRejected(error)) {
        await refusedOrFailed(ctx, order, entry, error, 'deliver');
        return;
      }
    }
    // Reported before the journal closes the order: a crash between the two reports it again on
    // the next start instead of never.
    const said = !delivered ? says('notAwaiting', { id, status: order.status }) : restart ? says('alreadyDelivered', { id }) : says('deliveredOtherwise', { id });
    ctx.emit({ rule: 'deliver', type: delivered ? 'already-delivered' : 'skipped', order: id, card: order.number, ...said });
    entry.phase = delivered ? 'done' : 'skipped';
    entry.delivery = undefined;
    entry.at = new Date().toISOString();
    await ctx.save();
    return;
  }
  const picked = ctx.config.deliver?.find((rule, index) => (rule.name ?? `deliver#${index}`) === entry.rule);
  if (!picked) {
    entry.phase = 'failed';
    await ctx.save();
    ctx.emit({ rule: 'deliver', type: 'failed', order: id, ...says('ruleGone', { id, rule: entry.rule }) });
    return;
  }
  await deliverOrder(ctx, order, picked, entry.rule);
}
