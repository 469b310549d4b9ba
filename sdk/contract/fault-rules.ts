/**
 * A fault's rules across its fields, written once: the contract's `AddFaultBody` (the server) and
 * the SDK's `faultBody` (the CLI's flags, a scenario's `fault:` step, the page's form) both ask
 * them. Exactly one effect; an operation with a call fault and none with webhook chaos; `delayMs`
 * with `hooks: 'delay'` only; a Telegram fault names a bot, not a seller; `retryAfterMs` with a status only. No zod here: `faultBody` runs in the SDK without it.
 */

/** The effects a fault may have, one per fault. */
export const FAULT_EFFECTS = ['status', 'latencyMs', 'drop', 'dropAfter', 'hooks'] as const;

/** What the rules look at: which fields are given (any value), the chaos kind, the operation. */
export interface FaultRuleShape {
  status?: unknown;
  latencyMs?: unknown;
  drop?: unknown;
  dropAfter?: unknown;
  /** The kind of webhook chaos (`delay`, …). */
  hooks?: unknown;
  op?: unknown;
  delayMs?: unknown;
  sellerId?: unknown;
  /** The Telegram bot of a `telegram.*` fault. */
  bot?: unknown;
  retryAfterMs?: unknown;
}

export interface FaultRuleProblem {
  /** The field, by its name in the body (`latencyMs`; `faultBody` says its flag). */
  path: keyof FaultRuleShape;
  code: 'missing' | 'conflict';
  message: string;
}

/**
 * Every rule the fault breaks, in this order: the effect, the operation, the delay, the bot, the retry. `name` says a
 * field as the writer knows it (a flag), for the messages.
 */
export function faultProblems(body: FaultRuleShape, name: (field: keyof FaultRuleShape) => string = (f) => f): FaultRuleProblem[] {
  const problems: FaultRuleProblem[] = [];
  const effects = FAULT_EFFECTS.filter((k) => body[k] !== undefined);
  if (effects.length === 0) problems.push({ path: 'status', code: 'missing', message: `name exactly one effect: ${FAULT_EFFECTS.map(name).join(', ')}` });
  if (effects.length > 1) problems.push({ path: effects[1]!, code: 'conflict', message: `one effect per fault, not ${effects.map(name).join(' and ')}` });
  if (body.hooks !== undefined && body.op !== undefined) problems.push({ path: 'op', code: 'conflict', message: 'webhook chaos names no operation' });
  if (body.hooks === undefined && effects.length > 0 && body.op === undefined) problems.push({ path: 'op', code: 'missing', message: 'required: a seller-API operation id (orders.deliver) or *, or a Telegram method (telegram.sendMessage)' });
  if (body.hooks === 'delay' && body.delayMs === undefined) problems.push({ path: 'delayMs', code: 'missing', message: `required with ${name('hooks')}: 'delay'` });
  if (body.delayMs !== undefined && body.hooks !== 'delay') problems.push({ path: 'delayMs', code: 'conflict', message: `only with ${name('hooks')}: 'delay'` });
  const telegram = typeof body.op === 'string' && body.op.startsWith('telegram.');
  if (telegram && body.sellerId !== undefined) problems.push({ path: 'sellerId', code: 'conflict', message: 'a Telegram fault names a bot, not a seller' });
  if (body.bot !== undefined && !telegram) problems.push({ path: 'bot', code: 'conflict', message: 'only with a Telegram operation (telegram.sendMessage, telegram.*)' });
  if (body.retryAfterMs !== undefined && body.status === undefined) problems.push({ path: 'retryAfterMs', code: 'conflict', message: `only with ${name('status')}` });
  return problems;
}
