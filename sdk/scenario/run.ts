/**
 * Runs a checked scenario: the steps in order, each named in the failure that ends the run. A run
 * that moves the clock holds the server's clock lease from before its first step to its end (the
 * clock is the server's: a second such run is refused while one is running). At the end it reads
 * the events of every seller it made, and its orders' last status.
 */
import { detailMessage, isSellerError, type SellerError } from '../errors.ts';
import type { SandboxClient } from '../sandbox.ts';
import { ACTS } from './acts.ts';
import type { CheckedScenario, CheckedStep } from './check.ts';
import { ScenarioFailedError, type StepFailure, type StepPlace } from './errors.ts';
import { checkExpectation } from './expect.ts';
import type { LoggedEvent, Made, ScenarioResult } from './result.ts';
import { RunState, type ClientSettings } from './state.ts';

export interface RunHooks {
  /** Called before each step. */
  onStep?: ((step: StepPlace) => void) | undefined;
  /** Who holds the clock lease, for a refused second run's message. @default `scenario "<name>"` */
  holder?: string | undefined;
  /** Waits between the readings of an expectation. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

/** The clock lease: taken for this long (real time) and renewed when half of it is gone. */
const LEASE_SECONDS = 120;

const place = (step: CheckedStep): StepPlace => ({ number: step.number, path: step.path, verb: step.verb, ...(step.line === undefined ? {} : { line: step.line }) });

function errorFailure(error: SellerError): StepFailure {
  const { kind: refusal, reason, ...values } = (error as { refusal?: { kind?: string; reason?: string } & Record<string, unknown> }).refusal ?? {};
  const detail = detailMessage(error.detail) ?? error.message;
  const hasValues = Object.keys(values).length > 0;
  return { kind: 'error', code: error.code, ...(refusal ? { refusal } : {}), ...(reason ? { reason } : {}), ...(hasValues ? { values } : {}), detail };
}

const newRunId = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `run${Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('')}`;
};

class ClockLease {
  #id: string | undefined;
  #renewAt = 0;
  constructor(
    private readonly sb: SandboxClient,
    private readonly holder: string,
  ) {}
  async take(): Promise<void> {
    const lease = await this.sb.leaseClock({ holder: this.holder, ttlSeconds: LEASE_SECONDS, ...(this.#id ? { lease: this.#id } : {}) });
    this.#id = lease.id;
    this.#renewAt = Date.now() + (LEASE_SECONDS * 1000) / 2;
  }
  async keep(): Promise<void> {
    if (this.#id && Date.now() >= this.#renewAt) await this.take();
  }
  async release(): Promise<void> {
    if (this.#id) await this.sb.releaseClock(this.#id).catch(() => undefined);
  }
}

export async function runChecked(scenario: CheckedScenario, sb: SandboxClient, settings: ClientSettings, hooks: RunHooks = {}): Promise<ScenarioResult> {
  const state = new RunState(newRunId(), settings);
  const sleep = hooks.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const lease = scenario.movesClock ? new ClockLease(sb, hooks.holder ?? `scenario "${scenario.name ?? 'unnamed'}"`) : undefined;
  // Refused before anything is made: the refusal (clock_leased) is the caller's to report.
  await lease?.take();
  let stepsRun = 0;
  try {
    for (const step of scenario.steps) {
      hooks.onStep?.(place(step));
      await lease?.keep();
      const failure = await runStep(step, sb, state, sleep, () => lease?.keep() ?? Promise.resolve());
      if (failure) throw new ScenarioFailedError(place(step), failure.failure, await resultOf(scenario, sb, state, stepsRun), failure.cause === undefined ? undefined : { cause: failure.cause });
      stepsRun++;
    }
    return await resultOf(scenario, sb, state, stepsRun);
  } finally {
    await clearFaults(sb, state);
    await lease?.release();
  }
}

async function runStep(
  step: CheckedStep,
  sb: SandboxClient,
  state: RunState,
  sleep: (ms: number) => Promise<void>,
  keepLease: () => Promise<void>,
): Promise<{ failure: StepFailure; cause?: unknown } | undefined> {
  const args = state.fill(step.args);
  try {
    if (step.verb === 'expect') {
      const outcome = await checkExpectation(sb, state, args, sleep, keepLease);
      const { holds, expected, found, waitedMs, subject, checks } = outcome;
      return holds ? undefined : { failure: { kind: 'expectation', expected, found, waitedMs, subject, checks } };
    }
    if (step.verb === 'clock') {
      await sb.advanceClock({ seconds: args.advance as number });
      return undefined;
    }
    await ACTS[step.verb]({ sb, state, name: (args.as as string | undefined) ?? `#${step.number}` }, args);
    return undefined;
  } catch (error) {
    if (isSellerError(error)) return { failure: errorFailure(error), cause: error };
    throw error;
  }
}

/** What the run made, the last status of its orders and its sellers' events. */
async function resultOf(scenario: CheckedScenario, sb: SandboxClient, state: RunState, stepsRun: number): Promise<ScenarioResult> {
  const events: LoggedEvent[] = [];
  for (const seller of state.sellers()) {
    try {
      const { items } = await sb.sellerEvents(seller.id);
      events.push(...items.map((e) => ({ seller: seller.name, ...e })));
      await refreshOrders(state, seller.name);
    } catch (error) {
      if (!isSellerError(error)) throw error; // a blocked seller's orders cannot be read: their last known status stays
    }
  }
  const results: Record<string, Made> = {};
  for (const made of state.made) if (!made.name.startsWith('#')) results[made.name] = made;
  return { name: scenario.name, stepsRun, made: state.made, results, events };
}

/** The faults the run added end with it (a fault for every seller would otherwise meet the next run). */
async function clearFaults(sb: SandboxClient, state: RunState): Promise<void> {
  for (const made of state.made) if (made.kind === 'fault') await sb.clearFault(made.id).catch(() => undefined);
}

async function refreshOrders(state: RunState, seller: string): Promise<void> {
  const orders = state.made.filter((m) => m.kind === 'order' && m.seller === seller);
  if (orders.length === 0) return;
  const status = new Map<string, string>();
  for await (const order of state.client(seller).orders.list({ limit: 100 })) status.set(order.id, order.status);
  for (const made of orders) if (made.kind === 'order') made.status = status.get(made.id) ?? made.status;
}
