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
  /** One line for people. */
  message: string;
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
