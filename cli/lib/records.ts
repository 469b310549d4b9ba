/**
 * The records the CLI shows, as the SDK reads them by default (tolerant, sdk/records.ts): a status,
 * product type or field the contract does not know is shown as it came, never refused. Commands take
 * these types, not the contract's strict ones, so that the compiler finds every place a lookup by
 * a known value needs a fallback (see `labelOf`).
 */
export type * from '../../sdk/records.ts';

/** The label of a known value, or the value itself (one the contract does not know yet). */
export function labelOf(labels: Readonly<Record<string, string>>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value]! : value;
}
