import type { AutopilotSay } from './words.ts';

/**
 * What the autopilot reports: one event per thing it did, decided not to do, or failed to do. The
 * CLI prints each as a status line (a terminal) or a JSON line (`--json`); SDK users get them
 * through `onEvent`. Events never hold a secret, a buyer's message text or any buyer identity.
 */

export type AutopilotRuleName = 'deliver' | 'deadline' | 'backlog' | 'stock' | 'reprice' | 'replies' | 'webhooks' | 'orders' | 'autopilot';

export interface AutopilotEvent {
  /** When it happened (this computer's clock, ISO). */
  at: string;
  rule: AutopilotRuleName;
  /**
   * What happened, e.g. `delivered`, `skipped`, `refused`, `failed`, `warned`, `engaged`, `restored`,
   * `low`, `reenabled`, `repriced`, `replied`, `capped`, `started`, `stopped`, `resumed`, `error`;
   * for rule `orders` (moved without the autopilot): `refunded`, `cancelled`, `disputed`; `missed`
   * (rule `deadline`): a deadline passed with no warning given.
   */
  type: string;
  /** One line for people, in English: made from `say` by the SDK's English templates (words.ts `AUTOPILOT_WORDS`). */
  message: string;
  /**
   * What the line says, as data: `form` (a key of `AUTOPILOT_WORDS`, stable: a rewording keeps it)
   * and the `values` its words name, raw (numbers, ISO times, enum values, a failure as its code and
   * refusal), so a client says it in its own language without reading the English. A client that
   * does not know the form (a newer SDK's) shows `message`. See words.ts.
   */
  say?: AutopilotSay | undefined;
  /** The order, when the event is about one. */
  order?: string | undefined;
  /** The card number, when the event is about one. */
  card?: number | undefined;
  /** Nothing was changed: `--dry-run`. */
  dryRun?: boolean | undefined;
  /** Machine-readable details (refusal kind, prices before and after, …). */
  detail?: Record<string, unknown> | undefined;
}

export type EventSink = (event: AutopilotEvent) => void;
