/**
 * Replies: a buyer's message on an order that contains a template's keyword (case-insensitive) is
 * answered with the template's text, at most `maxPerOrder` times per order, so the bot never spams
 * a buyer; a message no template matches is left to the seller. Templates were checked against the
 * contact filter when the config was read, and are checked again before sending. With
 * `questions: true`, unanswered buyer questions about the cards are answered the same way.
 * The buyer's text is never printed or logged; only the template's name is.
 */
import type { Message, Order } from '../../records.ts';
import { hasContacts } from '../../contacts.ts';
import { isRejected } from '../../errors.ts';
import type { AutopilotConfig } from '../config.ts';
import { idempotencyKey, type RuleContext } from '../context.ts';
import { failureOf, refusalOf, says } from '../words.ts';

type Template = NonNullable<AutopilotConfig['replies']>['templates'][number];

/** The first template any of whose keywords the text contains. */
export function matchTemplate(text: string, templates: readonly Template[]): { template: Template; name: string } | undefined {
  const lower = text.toLocaleLowerCase();
  const index = templates.findIndex((t) => t.keywords.some((k) => lower.includes(k.toLocaleLowerCase())));
  return index < 0 ? undefined : { template: templates[index]!, name: templates[index]!.name ?? `template#${index}` };
}

export type ReplyStep =
  | { kind: 'none' }
  | { kind: 'reply'; message: string; template: Template; name: string }
  | { kind: 'capped'; message: string }
  | { kind: 'unmatched'; message: string };

/** What to do about an order's conversation: the buyer's latest message after the seller's last one, if not seen yet. */
export function replyStep(messages: readonly Message[], templates: readonly Template[], memory: { count: number; lastMessage: string } | undefined, maxPerOrder: number): ReplyStep {
  let lastSeller = -1;
  messages.forEach((m, i) => {
    if (m.from === 'seller') lastSeller = i;
  });
  const pending = messages.slice(lastSeller + 1).filter((m) => m.from === 'buyer');
  const latest = pending[pending.length - 1];
  if (!latest || memory?.lastMessage === latest.id) return { kind: 'none' };
  const found = pending.map((m) => matchTemplate(m.text, templates)).find((t) => t !== undefined);
  if (!found) return { kind: 'unmatched', message: latest.id };
  if ((memory?.count ?? 0) >= maxPerOrder) return { kind: 'capped', message: latest.id };
  return { kind: 'reply', message: latest.id, ...found };
}

const CLOSED = ['cancelled', 'declined', 'refunded'];

/** Answers an order's buyer when a template matches (called for orders that need action). */
export async function runOrderReplies(ctx: RuleContext, order: Order): Promise<void> {
  const cfg = ctx.config.replies;
  if (!cfg || !order.needsAction || CLOSED.includes(order.status)) return;
  let full;
  try {
    full = await ctx.client.orders.get(order.id);
  } catch (error) {
    ctx.emit({ rule: 'replies', type: 'error', order: order.id, ...says('cannotReadMessages', { id: order.id, reason: failureOf(error) }) });
    return;
  }
  const memory = ctx.state.replies[order.id];
  const decided = replyStep(full.messages, cfg.templates, memory, cfg.maxPerOrder);
  if (decided.kind === 'none') return;
  const remember = (count: number) => {
    ctx.state.replies[order.id] = { count, lastMessage: decided.message };
  };
  if (decided.kind === 'unmatched') {
    remember(memory?.count ?? 0);
    await ctx.save();
    return;
  }
  if (decided.kind === 'capped') {
    remember(memory?.count ?? 0);
    await ctx.save();
    ctx.emit({ rule: 'replies', type: 'capped', order: order.id, card: order.number, ...says('capped', { id: order.id, count: memory?.count ?? 0 }) });
    return;
  }
  if (hasContacts(decided.template.text)) return; // checked at load; never send one that slipped through
  if (ctx.dryRun) {
    ctx.emit({ rule: 'replies', type: 'would-reply', order: order.id, card: order.number, dryRun: true, ...says('wouldReply', { id: order.id, name: decided.name }) });
    return;
  }
  try {
    await ctx.client.orders.message(order.id, { text: decided.template.text }, { idempotencyKey: idempotencyKey('replies', order.id, decided.message) });
    remember((memory?.count ?? 0) + 1);
    await ctx.save();
    ctx.emit({ rule: 'replies', type: 'replied', order: order.id, card: order.number, ...says('replied', { id: order.id, name: decided.name }), detail: { template: decided.name } });
  } catch (error) {
    if (isRejected(error)) {
      remember(memory?.count ?? 0);
      await ctx.save();
      ctx.emit({ rule: 'replies', type: 'refused', order: order.id, ...says('replyRefused', { id: order.id, refusal: refusalOf(error.refusal) }), detail: { refusal: error.refusal.kind } });
    } else {
      ctx.emit({ rule: 'replies', type: 'error', order: order.id, ...says('replyFailed', { id: order.id, reason: failureOf(error) }) });
    }
  }
}

/** Answers unanswered buyer questions that a template matches (`questions: true`). */
export async function runQuestionReplies(ctx: RuleContext): Promise<void> {
  const cfg = ctx.config.replies;
  if (!cfg?.questions) return;
  let items;
  try {
    items = (await ctx.client.questions.list({ onlyUnanswered: true, limit: 100 })).items;
  } catch (error) {
    ctx.emit({ rule: 'replies', type: 'error', ...says('cannotListQuestions', { reason: failureOf(error) }) });
    return;
  }
  let changed = false;
  for (const question of items) {
    if (ctx.state.questions[question.id] !== undefined) continue;
    const found = matchTemplate(question.text, cfg.templates);
    if (!found || hasContacts(found.template.text)) {
      ctx.state.questions[question.id] = 'left';
      changed = true;
      continue;
    }
    if (ctx.dryRun) {
      ctx.emit({ rule: 'replies', type: 'would-answer', card: question.number, dryRun: true, ...says('wouldAnswer', { question: question.id, card: question.number, name: found.name }) });
      continue;
    }
    try {
      await ctx.client.questions.answer(question.id, { text: found.template.text }, { idempotencyKey: idempotencyKey('replies', question.id) });
      ctx.state.questions[question.id] = found.name;
      changed = true;
      ctx.emit({ rule: 'replies', type: 'answered', card: question.number, ...says('answered', { question: question.id, card: question.number, name: found.name }), detail: { template: found.name, question: question.id } });
    } catch (error) {
      ctx.emit({ rule: 'replies', type: 'error', card: question.number, ...says('questionFailed', { question: question.id, reason: failureOf(error) }) });
    }
  }
  if (changed) await ctx.save();
}
