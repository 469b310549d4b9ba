/**
 * The next charge day of a delivery (`nextChargeDay`, `YYYY-MM-DD`): a day of the calendar, not
 * before the service's today. A past day would be delivered as it is and the buyer's subscription
 * would look lapsed, so the CLI and the autopilot check it before any changing call. "Today" is the
 * service's (its `Date` answer header, which follows the sandbox's moved clock), in UTC.
 */
import { dayOf, isCalendarDay } from './contract/calendar.ts';

export { dayOf, isCalendarDay };

export type NextChargeProblem = { kind: 'not_a_date'; today: string } | { kind: 'past'; today: string };

/** What is wrong with `day` as a next charge day when the service's time is `nowMs`; `undefined` when nothing. */
export function nextChargeProblem(day: string, nowMs: number): NextChargeProblem | undefined {
  const today = dayOf(nowMs);
  if (!isCalendarDay(day)) return { kind: 'not_a_date', today };
  if (day < today) return { kind: 'past', today };
  return undefined;
}
