/**
 * Faults as people write them (CLI flags, a scenario's `fault:` step) turned into the sandbox's
 * `AddFaultBody`: `faultBody({ seller: 'slr_…', op: 'orders.deliver', status: '503', times: 2 })`.
 * One conversion for every front end, by the contract's own rules; a `FaultFlagsError` names every
 * problem by its flag.
 * Durations are read by `parseDuration` (sdk/duration.ts); a latency or a delay may also be written
 * in milliseconds (`250ms`), since a network is slow by fractions of a second.
 */
import { apiRouteTable } from './contract/routes/index.ts';
import { FAULT_MAX_COUNT, FAULT_MAX_DELAY_MS, FAULT_MAX_FOR_MS, FAULT_MAX_RETRY_AFTER_MS, FAULT_STATUSES, HOOK_CHAOS } from './contract/routes/sandbox-faults.ts';
import { TELEGRAM_FAULT_OPERATIONS } from './contract/routes/sandbox-telegram.ts';
import { faultProblems, type FaultRuleShape } from './contract/fault-rules.ts';
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

/** One problem of a fault written as flags: `field` is the flag's name, `code` what is wrong, `detail` in words. */
export interface FaultFlagsProblem {
  field: string;
  code: FaultFlagsCode;
  detail: string;
}

/** A fault that cannot be sent: every problem in `problems`; `field`, `code` and `detail` are the first's. */
export class FaultFlagsError extends Error {
  readonly field: string;
  readonly code: FaultFlagsCode;
  readonly detail: string;
  readonly problems: readonly FaultFlagsProblem[];

  constructor(problems: readonly FaultFlagsProblem[]) {
    super(problems.map((p) => `${p.field}: ${p.detail}`).join('; '));
    this.name = 'FaultFlagsError';
    this.problems = problems;
    ({ field: this.field, code: this.code, detail: this.detail } = problems[0]!);
  }
}

/** A problem of one flag's value, thrown by the readers below and collected by `faultBody`. */
class FlagProblem {
  constructor(readonly problem: FaultFlagsProblem) {}
}
function fail(field: string, code: FaultFlagsCode, detail: string): never {
  throw new FlagProblem({ field, code, detail });
}

/** The flag that says a field of the body (`latencyMs` is written `latency`, `delayMs` inside `hooks`). */
const FLAG_OF: Record<keyof FaultRuleShape, string> = {
  status: 'status',
  latencyMs: 'latency',
  drop: 'drop',
  dropAfter: 'dropAfter',
  hooks: 'hooks',
  op: 'op',
  delayMs: 'hooks',
  sellerId: 'seller',
  bot: 'bot',
  retryAfterMs: 'retryAfter',
};

/**
 * The sandbox body of a fault written as flags; throws `FaultFlagsError` naming every problem: the
 * rules across fields (sdk/contract/fault-rules.ts, the server's own), then each flag's value.
 */
export function faultBody(flags: FaultFlags): AddFaultBody {
  const given = (value: unknown) => (value !== undefined && value !== false ? true : undefined);
  const chaos = flags.hooks === undefined ? undefined : String(flags.hooks).trim().split(':')[0];
  const op = flags.op === undefined || String(flags.op).trim() === '' ? undefined : flags.op;
  const rules = faultProblems(
    // The delay of `delay:DUR` is the hooks flag's own value, read (and its absence named) below.
    {
      status: given(flags.status),
      latencyMs: given(flags.latency),
      drop: given(flags.drop),
      dropAfter: given(flags.dropAfter),
      hooks: chaos,
      op: op?.trim(),
      delayMs: chaos === 'delay' ? true : undefined,
      sellerId: flags.seller,
      bot: flags.bot,
      retryAfterMs: flags.retryAfter,
    },
    (field) => FLAG_OF[field],
  );
  const problems: FaultFlagsProblem[] = rules.map((p) => ({ field: FLAG_OF[p.path], code: p.code, detail: p.message }));
  const body: AddFaultBody = {};
  const read = (convert: () => void) => {
    try {
      convert();
    } catch (error) {
      if (!(error instanceof FlagProblem)) throw error;
      problems.push(error.problem);
    }
  };
  read(() => {
    if (flags.seller === undefined) return;
    if (typeof flags.seller !== 'string' || flags.seller.trim() === '') fail('seller', 'invalid', 'a seller id');
    body.sellerId = flags.seller.trim();
  });
  if (op !== undefined && chaos === undefined) read(() => (body.op = operation(op)));
  if (given(flags.status)) read(() => (body.status = status(flags.status!)));
  if (given(flags.latency)) read(() => (body.latencyMs = millis('latency', flags.latency!, FAULT_MAX_DELAY_MS)));
  if (given(flags.drop)) read(() => (body.drop = flag('drop', flags.drop)));
  if (given(flags.dropAfter)) read(() => (body.dropAfter = flag('dropAfter', flags.dropAfter)));
  if (given(flags.hooks)) read(() => Object.assign(body, hookChaos(flags.hooks!)));
  if (flags.bot !== undefined) read(() => (body.bot = botId(flags.bot!)));
  if (flags.retryAfter !== undefined) read(() => (body.retryAfterMs = millis('retryAfter', flags.retryAfter!, FAULT_MAX_RETRY_AFTER_MS)));
  if (flags.times !== undefined) read(() => (body.times = count('times', flags.times!, 1)));
  if (flags.for !== undefined) read(() => (body.forMs = millis('for', flags.for!, FAULT_MAX_FOR_MS)));
  if (flags.every !== undefined) read(() => (body.every = count('every', flags.every!, 2)));
  if (problems.length > 0) throw new FaultFlagsError(problems);
  return body;
}

function operation(op: string): string {
  const id = op.trim();
  if (id !== '*' && !FAULT_OPERATIONS.includes(id)) {
    fail('op', 'unknown_op', `${id} is not an operation of the seller API`);
  }
  return id;
}

function status(value: number | string): 429 | 500 | 502 | 503 {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!(FAULT_STATUSES as readonly number[]).includes(n)) fail('status', 'invalid', `one of ${FAULT_STATUSES.join(', ')}`);
  return n as 429 | 500 | 502 | 503;
}

function flag(field: string, value: unknown): true {
  if (value !== true) fail(field, 'invalid', 'true or absent');
  return true;
}

function hookChaos(value: string): Pick<AddFaultBody, 'hooks' | 'delayMs'> {
  const text = String(value).trim();
  const [kind, arg] = text.split(/:(.*)/s) as [string, string | undefined];
  if (!(HOOK_CHAOS as readonly string[]).includes(kind)) {
    fail('hooks', 'invalid', `one of duplicate, reorder, fail, delay:DUR; not ${text || 'empty'}`);
  }
  if (kind === 'delay') {
    if (arg === undefined || arg.trim() === '') fail('hooks', 'missing', 'delay:DUR names how late, e.g. delay:2s');
    return { hooks: 'delay', delayMs: millis('hooks', arg, FAULT_MAX_DELAY_MS) };
  }
  if (arg !== undefined) fail('hooks', 'invalid', `${kind} takes no value`);
  return { hooks: kind as 'duplicate' | 'reorder' | 'fail' };
}

/** A duration in milliseconds: `250ms`, or anything `parseDuration` reads; at least 1 ms, at most `max`. */
function millis(field: string, text: string, max: number): number {
  const source = String(text).trim();
  const ms = /^(\d+)\s*ms$/i.exec(source);
  const seconds = ms ? undefined : parseDuration(source);
  const value = ms ? Number(ms[1]) : seconds === undefined ? NaN : seconds * 1000;
  if (!Number.isSafeInteger(value)) fail(field, 'invalid', `a duration such as 2s, 500ms, 1m; not ${source || 'empty'}`);
  if (value < 1 || value > max) fail(field, 'invalid', `between 1 ms and ${max / 1000} s`);
  return value;
}

function botId(value: number | string): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) fail('bot', 'invalid', "a bot's id (the number its token starts with)");
  return n;
}

function count(field: string, value: number | string, min: number): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > FAULT_MAX_COUNT) fail(field, 'invalid', `a whole number from ${min}`);
  return n;
}
