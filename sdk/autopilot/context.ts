/** What every rule's executor gets from the runner. */
import type { SellerClient } from '../client.ts';
import type { AutopilotConfig } from './config.ts';
import type { AutopilotEvent, AutopilotRuleName } from './events.ts';
import type { AutopilotSay } from './words.ts';
import type { AutopilotState } from './state.ts';

/** An event as a rule emits it: the runner adds the time. */
export type EmittedEvent = Omit<AutopilotEvent, 'at' | 'say'> & { say: AutopilotSay };

export interface RuleContext {
  client: SellerClient;
  config: AutopilotConfig;
  state: AutopilotState;
  /** Puts the state on disk (a no-op in a dry run); resolves when it is there. */
  save(): Promise<void>;
  /** Reports an event; every event says its words as data (`say`, words.ts `says()`). */
  emit(event: EmittedEvent): void;
  /** Nothing is changed: no changing call, no action run, no audit line. */
  dryRun: boolean;
  /** The service's clock as best known (see clock.ts), in ms. */
  now(): number;
  /** Stops waiting work (a stop was asked for). */
  signal: AbortSignal;
}

/** An idempotency key for a rule's change: the same order and step give the same key, so a retry after a crash replays. */
export const idempotencyKey = (rule: AutopilotRuleName, ...parts: Array<string | number>): string => `autopilot:${rule}:${parts.join(':')}`.slice(0, 255);
