/** What every rule's executor gets from the runner. */
import type { SellerClient } from '../client.ts';
import type { AutopilotConfig } from './config.ts';
import type { AutopilotEvent, AutopilotRuleName } from './events.ts';
import type { AutopilotState } from './state.ts';

export interface RuleContext {
  client: SellerClient;
  config: AutopilotConfig;
  state: AutopilotState;
  /** Puts the state on disk (a no-op in a dry run); resolves when it is there. */
  save(): Promise<void>;
  emit(event: Omit<AutopilotEvent, 'at'>): void;
  /** Nothing is changed: no changing call, no action run, no audit line. */
  dryRun: boolean;
  /** The service's clock as best known (see clock.ts), in ms. */
  now(): number;
  /** Stops waiting work (a stop was asked for). */
  signal: AbortSignal;
}

/** An idempotency key for a rule's change: the same order and step give the same key, so a retry after a crash replays. */
export const idempotencyKey = (rule: AutopilotRuleName, ...parts: Array<string | number>): string => `autopilot:${rule}:${parts.join(':')}`.slice(0, 255);

/** A short reason from an error, without anything a buyer wrote. */
export function reason(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0]!.slice(0, 300);
  return String(error).slice(0, 300);
}
