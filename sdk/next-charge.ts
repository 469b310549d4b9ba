/**
 * The next charge day of a delivery (`nextChargeDay`, `YYYY-MM-DD`): a day of the calendar, not
 * before the service's today. A past day would be delivered as it is and the buyer's subscription
 * would look lapsed, so the CLI and the autopilot check it before any changing call. "Today" is the
 * service's (its `Date` answer header, which follows the sandbox's moved clock), in UTC.
 */

export type NextChargeProblem = { kind: 'not_a_date'; today: string } | { kind: 'past'; today: string };

/** `YYYY-MM-DD` of a time, in UTC. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Whether `text` is `YYYY-MM-DD` and that day exists (`2026-02-30` does not). */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && dayOf(ms) === text;
}

/** What is wrong with `day` as a next charge day when the service's time is `nowMs`; `undefined` when nothing. */
export function nextChargeProblem(day: string, nowMs: number): NextChargeProblem | undefined {
  const today = dayOf(nowMs);
  if (!isCalendarDay(day)) return { kind: 'not_a_date', today };
  if (day < today) return { kind: 'past', today };
  return undefined;
}
