/**
 * Faults as people write them (CLI flags, a scenario's `fault:` step) turned into the sandbox's
 * `AddFaultBody`: `faultBody({ seller: 'slr_…', op: 'orders.deliver', status: '503', times: 2 })`.
 * One conversion for every front end; a problem throws a `FaultFlagsError` naming the flag.
 * Durations are read by `parseDuration` (sdk/duration.ts); a latency or a delay may also be written
 * in milliseconds (`250ms`), since a network is slow by fractions of a second.
 */
import { apiRouteTable } from './contract/routes/index.ts';
import { FAULT_MAX_COUNT, FAULT_MAX_DELAY_MS, FAULT_MAX_FOR_MS, FAULT_MAX_RETRY_AFTER_MS, FAULT_STATUSES, HOOK_CHAOS } from './contract/routes/sandbox-faults.ts';
import { TELEGRAM_FAULT_OPERATIONS } from './contract/routes/sandbox-telegram.ts';
import type { SandboxOperationTypes } from './contract/types.ts';
import { parseDuration } from './duration.ts';

/** The body of `sandbox.addFault` (`sb.addFault(body)`). */
export type AddFaultBody = NonNullable<SandboxOperationTypes['sandbox.addFault']['body']>;

/** The operation ids a fault may name besides `*`: every seller-API operation of the contract, and the Telegram emulator's (`telegram.sendMessage`, `telegram.*`). */
export const FAULT_OPERATIONS: readonly string[] = [...Object.keys(apiRouteTable), ...TELEGRAM_FAULT_OPERATIONS];

/** A fault as the CLI's flags (and a scenario step's keys) name it. */
export interface FaultFlags {
  /** A seller id; absent: every seller. */
  seller?: string | undefined;
  /** A Telegram bot's id, for a `telegram.*` fault; absent: every bot. */
  bot?: number | string | undefined;
  /** A seller-API operation id of the contract (`orders.deliver`) or `*`; a Telegram method (`telegram.sendMessage`) or `telegram.*`. */
  op?: string | undefined;
  status?: number | string | undefined;
  /** With `status` only: the `Retry-After` it sends, a duration (`5s`, `1m`). */
  retryAfter?: string | undefined;
  /** A duration: `2s`, `1m`, `250ms`. */
  latency?: string | undefined;
  drop?: boolean | undefined;
  dropAfter?: boolean | undefined;
  /** `duplicate`, `reorder`, `fail`, or `delay:DUR` (`delay:2s`). */
  hooks?: string | undefined;
  times?: number | string | undefined;
  /** A duration of the server clock: `30s`, `10m`. */
  for?: string | undefined;
  every?: number | string | undefined;
}

export type FaultFlagsCode = 'missing' | 'conflict' | 'invalid' | 'unknown_op';

/** A fault that cannot be sent: `field` is the flag's name, `code` what is wrong, `detail` in words. */
export class FaultFlagsError extends Error {
  readonly field: string;
  readonly code: FaultFlagsCode;
  readonly detail: string;

  constructor(field: string, code: FaultFlagsCode, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'FaultFlagsError';
    this.field = field;
    this.code = code;
    this.detail = detail;
  }
}

const EFFECT_FLAGS = ['status', 'latency', 'drop', 'dropAfter', 'hooks'] as const;

/** The sandbox body of a fault written as flags; throws `FaultFlagsError` naming the first problem. */
export function faultBody(flags: FaultFlags): AddFaultBody {
  const given = EFFECT_FLAGS.filter((k) => flags[k] !== undefined && flags[k] !== false);
  if (given.length === 0) throw new FaultFlagsError('status', 'missing', `name one effect: ${EFFECT_FLAGS.join(', ')}`);
  if (given.length > 1) throw new FaultFlagsError(given[1]!, 'conflict', `one effect per fault, not ${given.join(' and ')}`);
  const body: AddFaultBody = {};
  if (flags.seller !== undefined) {
    if (typeof flags.seller !== 'string' || flags.seller.trim() === '') throw new FaultFlagsError('seller', 'invalid', 'a seller id');
    body.sellerId = flags.seller.trim();
  }
  const effect = given[0]!;
  if (effect === 'hooks') {
    if (flags.op !== undefined) throw new FaultFlagsError('op', 'conflict', 'webhook chaos names no operation');
    Object.assign(body, hookChaos(flags.hooks!));
  } else {
    body.op = operation(flags.op);
    if (effect === 'status') body.status = status(flags.status!);
    if (effect === 'latency') body.latencyMs = millis('latency', flags.latency!, FAULT_MAX_DELAY_MS);
    if (effect === 'drop') body.drop = flag('drop', flags.drop);
    if (effect === 'dropAfter') body.dropAfter = flag('dropAfter', flags.dropAfter);
  }
  if (flags.bot !== undefined) {
    if (!body.op?.startsWith('telegram.')) throw new FaultFlagsError('bot', 'conflict', 'a bot only with a Telegram operation (telegram.sendMessage, telegram.*)');
    body.bot = botId(flags.bot);
  }
  if (body.sellerId !== undefined && body.op?.startsWith('telegram.')) throw new FaultFlagsError('seller', 'conflict', 'a Telegram fault names a bot, not a seller');
  if (flags.retryAfter !== undefined) {
    if (effect !== 'status') throw new FaultFlagsError('retryAfter', 'conflict', 'only with a status');
    body.retryAfterMs = millis('retryAfter', flags.retryAfter, FAULT_MAX_RETRY_AFTER_MS);
  }
  if (flags.times !== undefined) body.times = count('times', flags.times, 1);
  if (flags.for !== undefined) body.forMs = millis('for', flags.for, FAULT_MAX_FOR_MS);
  if (flags.every !== undefined) body.every = count('every', flags.every, 2);
  return body;
}

function operation(op: string | undefined): string {
  if (op === undefined || op.trim() === '') throw new FaultFlagsError('op', 'missing', 'name a seller-API operation id (orders.deliver), or *; or telegram.METHOD');
  const id = op.trim();
  if (id !== '*' && !FAULT_OPERATIONS.includes(id)) {
    throw new FaultFlagsError('op', 'unknown_op', `${id} is not an operation of the seller API`);
  }
  return id;
}

function status(value: number | string): 429 | 500 | 502 | 503 {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!(FAULT_STATUSES as readonly number[]).includes(n)) throw new FaultFlagsError('status', 'invalid', `one of ${FAULT_STATUSES.join(', ')}`);
  return n as 429 | 500 | 502 | 503;
}

function flag(field: string, value: unknown): true {
  if (value !== true) throw new FaultFlagsError(field, 'invalid', 'true or absent');
  return true;
}

function hookChaos(value: string): Pick<AddFaultBody, 'hooks' | 'delayMs'> {
  const text = String(value).trim();
  const [kind, arg] = text.split(/:(.*)/s) as [string, string | undefined];
  if (!(HOOK_CHAOS as readonly string[]).includes(kind)) {
    throw new FaultFlagsError('hooks', 'invalid', `one of duplicate, reorder, fail, delay:DUR; not ${text || 'empty'}`);
  }
  if (kind === 'delay') {
    if (arg === undefined || arg.trim() === '') throw new FaultFlagsError('hooks', 'missing', 'delay:DUR names how late, e.g. delay:2s');
    return { hooks: 'delay', delayMs: millis('hooks', arg, FAULT_MAX_DELAY_MS) };
  }
  if (arg !== undefined) throw new FaultFlagsError('hooks', 'invalid', `${kind} takes no value`);
  return { hooks: kind as 'duplicate' | 'reorder' | 'fail' };
}

/** A duration in milliseconds: `250ms`, or anything `parseDuration` reads; at least 1 ms, at most `max`. */
function millis(field: string, text: string, max: number): number {
  const source = String(text).trim();
  const ms = /^(\d+)\s*ms$/i.exec(source);
  const seconds = ms ? undefined : parseDuration(source);
  const value = ms ? Number(ms[1]) : seconds === undefined ? NaN : seconds * 1000;
  if (!Number.isSafeInteger(value)) throw new FaultFlagsError(field, 'invalid', `a duration such as 2s, 500ms, 1m; not ${source || 'empty'}`);
  if (value < 1 || value > max) throw new FaultFlagsError(field, 'invalid', `between 1 ms and ${max / 1000} s`);
  return value;
}

function botId(value: number | string): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new FaultFlagsError('bot', 'invalid', "a bot's id (the number its token starts with)");
  return n;
}

function count(field: string, value: number | string, min: number): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > FAULT_MAX_COUNT) throw new FaultFlagsError(field, 'invalid', `a whole number from ${min}`);
  return n;
}
