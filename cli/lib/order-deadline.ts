/**
 * When an order's delivery deadline still runs: while it waits for the seller's confirmation or
 * delivery. A delivered, completed, cancelled, declined, disputed or refunded order has no deadline
 * left to count down, so it is shown as a moment only, never "через 12 мин." (cli/commands/orders*.ts).
 */
import { dateTime, deadline } from '../i18n/format.ts';

/** Statuses in which the delivery deadline runs. */
export const DEADLINE_RUNS: readonly string[] = ['awaiting_confirmation', 'awaiting_delivery'];

export const deadlineRuns = (status: string): boolean => DEADLINE_RUNS.includes(status);

/** An order's `deliverBy` for people: with the time left while it runs, the moment only after. */
export function orderDeadline(order: { status: string; deliverBy: string | null }): string | null | undefined {
  return deadlineRuns(order.status) ? deadline(order.deliverBy) : dateTime(order.deliverBy);
}
