/**
 * The records the CLI shows, as the SDK reads them by default (tolerant, sdk/records.ts): a status,
 * product type or field the contract does not know is shown as it came, never refused. Commands take
 * these types, not the contract's strict ones, so that the compiler finds every place a lookup by
 * a known value needs a fallback (cli/i18n/format.ts `word`).
 */
export type * from '../../sdk/records.ts';
