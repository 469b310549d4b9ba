/**
 * Runs a checked scenario: the steps in order, each named in the failure that ends the run. A run
 * that moves the clock holds the server's clock lease from before its first step to its end (the
 * clock is the server's: a second such run is refused while one is running); a run that adds faults
 * holds a run lease they end with (./leases.ts). An abort (`signal`) ends the run between two steps
 * or inside one, its faults cleared and its leases released before it rejects. At the end it reads
 * the events of every seller it made, its orders' last status and its faults' hits. The runner's own
 * reads (these and the expectations') are the sandbox's admin reads: the run's faults never touch them.
 */
import { detailMessage, isSellerError, type SellerError } from '../errors.ts';
import type { SandboxClient } from '../sandbox.ts';
import { ACTS } from './acts.ts';
import type { CheckedScenario, CheckedStep } from './check.ts';
import { ScenarioFailedError, type StepFailure, type StepPlace } from './errors.ts';
import { checkExpectation } from './expect.ts';
import type { LoggedEvent, Made, MadeFault, MadeSeller, ScenarioResult } from './result.ts';
import { clockLease, LEASE_SECONDS, runLease } from './leases.ts';
import { RunState, type ClientSettings } from './state.ts';

export interface RunHooks {
  /** Called before each step. */
  onStep?: ((step: StepPlace) => void) | undefined;
  /** Who holds the clock lease, for a refused second run's message. @default `scenario "<name>"` */
  holder?: string | undefined;
  /** Waits between the readings of an expectation. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Ends the run: its faults cleared and its leases released first, then it rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The length of the run's leases, seconds of real time. @default 120 */
  leaseSeconds?: number | undefined;
  /** The sandbox client of the leases and of the clean-up (one the signal does not cut). @default the steps' */
  control?: SandboxClient | undefined;
}

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

/** `work`, or the signal's reason as soon as it aborts (what `work` does after that is no one's). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

export async function runChecked(scenario: CheckedScenario, sb: SandboxClient, settings: ClientSettings, hooks: RunHooks = {}): Promise<ScenarioResult> {
  const { signal } = hooks;
  signal?.throwIfAborted();
  const state = new RunState(newRunId(), settings);
  const sleep = hooks.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const control = hooks.control ?? sb;
  const holder = hooks.holder ?? `scenario "${scenario.name ?? 'unnamed'}"`;
  const seconds = hooks.leaseSeconds ?? LEASE_SECONDS;
  const clock = scenario.movesClock ? clockLease(control, holder, seconds) : undefined;
  const run = scenario.steps.some((s) => s.verb === 'fault') ? runLease(control, holder, seconds) : undefined;
  // Refused before anything is made: the refusal (clock_leased) is the caller's to report.
  await clock?.take();
  let stepsRun = 0;
  try {
    await run?.take();
    state.runLease = run?.id;
    for (const step of scenario.steps) {
      signal?.throwIfAborted();
      hooks.onStep?.(place(step));
      const failure = await untilAborted(runStep(step, sb, state, sleep, signal, clock?.id), signal);
      if (failure) throw new ScenarioFailedError(place(step), failure.failure, await resultOf(scenario, sb, state, stepsRun), failure.cause === undefined ? undefined : { cause: failure.cause });
      stepsRun++;
    }
    return await untilAborted(resultOf(scenario, sb, state, stepsRun), signal);
  } finally {
    // Ended, failed or aborted: the run's faults end with its lease, and the clock is given back.
    await run?.release();
    await clock?.release();
  }
}

async function runStep(
  step: CheckedStep,
  sb: SandboxClient,
  state: RunState,
  sleep: (ms: number) => Promise<void>,
  signal: AbortSignal | undefined,
  /** The id of the clock lease the run holds: its clock steps name it (every other move is refused while it is held). */
  lease: string | undefined,
): Promise<{ failure: StepFailure; cause?: unknown } | undefined> {
  const args = state.fill(step.args);
  try {
    if (step.verb === 'expect') {
      // Each reading first asks whether the run was aborted: an expectation's wait ends with it.
      const outcome = await checkExpectation(sb, state, args, sleep, async () => signal?.throwIfAborted());
      const { holds, expected, found, waitedMs, subject, checks } = outcome;
      return holds ? undefined : { failure: { kind: 'expectation', expected, found, waitedMs, subject, checks } };
    }
    if (step.verb === 'clock') {
      await sb.advanceClock({ seconds: args.advance as number, ...(lease ? { lease } : {}) });
      return undefined;
    }
    await ACTS[step.verb]({ sb, state, name: (args.as as string | undefined) ?? `#${step.number}` }, args);
    return undefined;
  } catch (error) {
    if (isSellerError(error) && !signal?.aborted) return { failure: errorFailure(error), cause: error };
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
      await refreshOrders(sb, state, seller);
    } catch (error) {
      if (!isSellerError(error)) throw error; // a seller the sandbox cannot read: its orders' last known status stays
    }
  }
  await refreshFaults(sb, state);
  const results: Record<string, Made> = {};
  for (const made of state.made) if (!made.name.startsWith('#')) results[made.name] = made;
  return { name: scenario.name, stepsRun, made: state.made, results, events };
}

/** How many calls (deliveries) each fault of the run hit, before the run's end ends them (an ended one is still listed). */
async function refreshFaults(sb: SandboxClient, state: RunState): Promise<void> {
  const made = state.made.filter((m): m is MadeFault => m.kind === 'fault');
  if (made.length === 0) return;
  const hits = new Map((await sb.listFaults()).items.map((f) => [f.id, f.hits]));
  for (const fault of made) fault.hits = hits.get(fault.id) ?? fault.hits;
}

/** The last status of a seller's orders, read as the sandbox's admin (the run's faults never touch it). */
async function refreshOrders(sb: SandboxClient, state: RunState, seller: MadeSeller): Promise<void> {
  const orders = state.made.filter((m) => m.kind === 'order' && m.seller === seller.name);
  if (orders.length === 0) return;
  const status = new Map<string, string>();
  for await (const order of sb.sellerOrders(seller.id, { limit: 100 })) status.set(order.id, order.status);
  for (const made of orders) if (made.kind === 'order') made.status = status.get(made.id) ?? made.status;
}
