/**
 * Calendar days `YYYY-MM-DD`, zod-free: the contract's `DateString` checks its strings with
 * {@link isCalendarDay}, and the next-charge check (sdk/next-charge.ts) runs it offline.
 */

/** `YYYY-MM-DD` of a time, in UTC. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Whether `text` is `YYYY-MM-DD` and that day exists (`2026-02-30` does not). */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && dayOf(ms) === text;
}
