/**
 * What a scenario run made and saw: every seller (with its key), card, order, catalogue request,
 * question and review, under its name (`as`) or, unnamed, as `#<step number>`; and the events
 * recorded for its sellers with the webhook deliveries made of them. Plain data, JSON as it is.
 */

export interface MadeSeller { kind: 'seller'; name: string; id: string; keyId: string; key: string }
export interface MadeCard { kind: 'card'; name: string; number: number; seller: string; sellerId: string }
export interface MadeOrder { kind: 'order'; name: string; id: string; number: number; card: string; seller: string; status: string }
export interface MadeRequest { kind: 'request'; name: string; id: string; seller: string; status: string }
export interface MadeQuestion { kind: 'question'; name: string; id: string; number: number }
export interface MadeReview { kind: 'review'; name: string; id: string; order: string; stars: number }

/** A fault the run added (`fault:`), with how many calls (deliveries) it hit by the run's end; the run clears it at its end. */
export interface MadeFault { kind: 'fault'; name: string; id: string; seller: string | null; what: string; hits: number }

/** A bot of the Telegram emulator (`telegram: {as}`); its token is a secret, for the autopilot's config. */
export interface MadeBot { kind: 'bot'; name: string; id: number; username: string; token: string }

export type Made = MadeSeller | MadeCard | MadeOrder | MadeRequest | MadeQuestion | MadeReview | MadeFault | MadeBot;

/** An event recorded for one of the run's sellers, and the deliveries made of it. */
export interface LoggedEvent {
  /** The seller's name in the scenario. */
  seller: string;
  id: string;
  kind: string;
  data: Record<string, unknown>;
  at: string;
  deliveries: Array<{ id: string; delivery: string; attempts: number; lastStatus: number | null; deliveredAt: string | null }>;
}

export interface ScenarioResult {
  /** The scenario's `name`, if it has one. */
  name: string | null;
  /** Steps that ran to the end. */
  stepsRun: number;
  /** Everything made, in the order it was made. */
  made: Made[];
  /** The named ones, by name. */
  results: Record<string, Made>;
  events: LoggedEvent[];
}
