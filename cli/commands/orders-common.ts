/** Pieces shared by the `seller orders` verbs: times, text arguments, refusal hints, order lines. */
import { InvalidArgumentError } from 'commander';
import type { Order } from '../lib/records.ts';
import { RejectedError, SellerError } from '../../sdk/errors.ts';
import { EPOCH } from '../../sdk/watch.ts';
import type { Deps } from '../lib/deps.ts';
import { CliError, describeError, UsageError } from '../lib/errors.ts';
import { readAll } from '../lib/io.ts';
import { flagOrAsk } from '../lib/prompts.ts';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** `90`, `45s`, `15m`, `2h`, `3d`, `1w`, `1h30m` as seconds; `undefined` when it is none of these. */
export function durationSeconds(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^(\d+[smhdw])+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([smhdw])/g)) total += Number(amount) * UNIT_SECONDS[unit!]!;
  return total;
}

export const SINCE_HELP = 'an ISO time or date, "now", "all", or an age such as 30m, 2h, 3d';

/**
 * A `--since` value as an API timestamp: an ISO time or date, `now` (this computer's clock), `all`
 * (the beginning of time), or an age (`2h`: two hours ago).
 */
export function parseSince(value: string, now: number = Date.now()): string {
  const text = value.trim();
  if (text === 'now') return new Date(now).toISOString();
  if (text === 'all' || text === 'beginning') return EPOCH;
  const age = /^\d+$/.test(text) ? undefined : durationSeconds(text);
  if (age !== undefined) return new Date(now - age * 1000).toISOString();
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) throw new UsageError(`--since: "${value}" is not ${SINCE_HELP}`);
  return new Date(at).toISOString();
}

/** commander argParser for a positive number of seconds (`--interval 0.5`). */
export function positiveSeconds(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds > 0)) throw new InvalidArgumentError('Must be a positive number of seconds.');
  return seconds;
}

/** commander argParser for a date `YYYY-MM-DD`. */
export function isoDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError('Must be a date YYYY-MM-DD.');
  }
  return value;
}

/** Drops the one line break a file or `echo` leaves at the end. */
export const chompNewline = (text: string) => text.replace(/\r?\n$/, '');

/** A `--text` value: the flag (`-` reads stdin), else a question on a terminal, else a usage error. */
export async function textArg(deps: Deps, value: string | undefined, flag: string, question: string): Promise<string> {
  const text = value === '-' ? chompNewline(await readAll(deps.io.stdin)) : await flagOrAsk(deps, value, flag, (p) => p.text(question));
  if (!text.trim()) throw new UsageError(`${flag}: the text is empty`);
  return text;
}

/** Hints per refusal kind (or error code) of a call, printed under the error. */
export type Hints = Partial<Record<string, string>>;

/** Runs `call`; a refusal or error with a hint here fails with the usual report plus that hint. */
export async function withHints<T>(call: Promise<T>, hints: Hints): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof SellerError)) throw error;
    const hint = hints[error instanceof RejectedError ? error.refusal.kind : error.code];
    if (hint === undefined) throw error;
    const { lines, exitCode } = describeError(error);
    const [first = 'error', ...rest] = lines;
    throw new CliError(first.replace(/^error: /, ''), exitCode, [...rest, `hint: ${hint}`].join('\n'), error);
  }
}

/** The hint of `state_moved` for an order. */
export const stateMovedHint = (id: string) => `the order moved on; re-read it with \`seller orders show ${id}\``;

/** The columns an order shows in lists and watch lines. */
export function orderRow(order: Order): Record<'id' | 'card' | 'service' | 'price' | 'status' | 'action' | 'deliverBy' | 'updated', string> {
  return {
    id: order.id,
    card: `#${order.number}`,
    service: `${order.service}/${order.tariff}`,
    price: `${order.priceRub} RUB`,
    status: order.status,
    action: order.needsAction ? 'needs action' : '-',
    deliverBy: order.deliverBy ?? '-',
    updated: order.updatedAt,
  };
}
