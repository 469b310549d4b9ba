/** Pieces shared by the `seller orders` verbs: times, text arguments, refusal hints, order lines. */
import { cardNo, dateTime, money, word } from '../i18n/format.ts';
import { orderDeadline } from '../lib/order-deadline.ts';
import { t } from '../i18n/index.ts';
import { InvalidArgumentError } from 'commander';
import type { Order } from '../lib/records.ts';
import { RejectedError, SellerError } from '../../sdk/errors.ts';
import { EPOCH } from '../../sdk/watch.ts';
import type { Deps } from '../lib/deps.ts';
import { CliError, describeError, UsageError, withoutErrorPrefix } from '../lib/errors.ts';
import { readAll } from '../lib/io.ts';
import { flagOrAsk } from '../lib/prompts.ts';
import { parseDuration as durationSeconds } from '../../sdk/duration.ts';
import type { SellerClient } from '../../sdk/client.ts';
import { serviceNowMs } from '../lib/service-clock.ts';
import { readDay } from '../lib/typed-values.ts';

/** `90`, `45s`, `15m`, `2h`, `3d`, `1w`, `1h30m`, `2ч`, `30мин` as seconds (sdk/duration.ts); `undefined` when it is none of these. */
export { parseDuration as durationSeconds } from '../../sdk/duration.ts';

export const sinceHelp = (): string => t('ordersCommon.anIsoTimeOr');

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
  const day = readDay(text);
  const at = 'value' in day ? Date.parse(day.value) : /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) throw new UsageError(t('ordersCommon.sinceIsNot', { value, help: sinceHelp() }));
  return new Date(at).toISOString();
}

/** Whether a `--since` value counts back from now (`now`, `2h`): it is then read by the service's clock. */
export function sinceFromNow(value: string): boolean {
  const text = value.trim();
  return text === 'now' || (!/^\d+$/.test(text) && durationSeconds(text) !== undefined);
}

/**
 * A `--since` that counts back from now, by the service's clock (its `Date` header, which the
 * sandbox moves): one cheap read tells it when no answer has yet. `afterLatestChange` (a watch
 * from `now`): since `Date` has whole seconds, start no earlier than just after the latest change
 * the service lists in that second, so nothing changed before the start is replayed. Should a read
 * fail, this computer's clock stands in (the command's own call then reports the failure).
 */
export async function sinceByServiceClock(client: SellerClient, value: string, afterLatestChange = false): Promise<string> {
  let latest = Number.NEGATIVE_INFINITY;
  try {
    if (serviceNowMs(client) === undefined) await client.orders.list({ limit: 1 });
    const second = serviceNowMs(client);
    if (second !== undefined && afterLatestChange) {
      const recent = await client.orders.list({ updatedSince: new Date(second).toISOString(), limit: 100 });
      for (const order of recent.items) latest = Math.max(latest, Date.parse(order.updatedAt) + 1);
    }
  } catch {
    // this computer's clock below
  }
  const now = serviceNowMs(client) ?? Date.now();
  return parseSince(value, Math.max(now, latest));
}

/** commander argParser for a positive number of seconds (`--interval 0.5`). */
export function positiveSeconds(value: string): number {
  // `0.5`, `0,5`, or a duration with units (`30с`, `1m`).
  const text = value.trim().replace(',', '.');
  const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : durationSeconds(text);
  if (seconds === undefined || !(seconds > 0)) throw new InvalidArgumentError(t('ordersCommon.mustBeAPositive'));
  return seconds;
}

/** Drops the one line break a file or `echo` leaves at the end. */
export const chompNewline = (text: string) => text.replace(/\r?\n$/, '');

/** A `--text` value: the flag (`-` reads stdin), else a question on a terminal, else a usage error. */
export async function textArg(deps: Deps, value: string | undefined, flag: string, question: string): Promise<string> {
  const text = value === '-' ? chompNewline(await readAll(deps.io.stdin)) : await flagOrAsk(deps, value, flag, (p) => p.text(question));
  if (!text.trim()) throw new UsageError(t('ordersCommon.theTextIsEmpty', { flag }));
  return text;
}

/** Hints per refusal kind (or error code; `<kind>:<reason>` for one reason of a kind) of a call, printed under the error. */
export type Hints = Partial<Record<string, string>>;

/** Runs `call`; a refusal or error with a hint here fails with the usual report plus that hint. */
export async function withHints<T>(call: Promise<T>, hints: Hints): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof SellerError)) throw error;
    const reason = error instanceof RejectedError ? error.refusal.reason : undefined;
    const hint =
      error instanceof RejectedError ? (typeof reason === 'string' ? hints[`${error.refusal.kind}:${reason}`] : undefined) ?? hints[error.refusal.kind] : hints[error.code];
    if (hint === undefined) throw error;
    const { lines, exitCode } = describeError(error);
    const [first = 'error', ...rest] = lines;
    throw new CliError(withoutErrorPrefix(first), exitCode, [...rest, t('guards.hint', { hint })].join('\n'), error);
  }
}

/** The hint of `state_moved` for an order. */
export const stateMovedHint = (id: string) => t('ordersCommon.theOrderMovedOn', { id });

/** The columns an order shows in lists and watch lines. */
export function orderRow(order: Order): Record<'id' | 'card' | 'service' | 'price' | 'status' | 'action' | 'deliverBy' | 'updated', string> {
  return {
    id: order.id,
    card: cardNo(order.number),
    service: `${order.service}/${order.tariff}`,
    price: money(order.priceRub),
    status: word('orderStatus', order.status),
    action: order.needsAction ? t('ordersCommon.needsAction') : '-',
    deliverBy: orderDeadline(order) ?? '-',
    updated: dateTime(order.updatedAt) ?? '-',
  };
}
