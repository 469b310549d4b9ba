/**
 * service-seller/scenario: a day at the marketplace as a file, run against the reference server's
 * sandbox (`seller-server`). The steps play the marketplace and the buyer (`buy`, `pay`, `dispute`,
 * `clock`…), the seller with its own key (`card`, `stock`, `deliver`, `hooks`…), and check what
 * happened (`expect`). `seller sandbox run FILE` is this runner with a table of what was made.
 *
 * The format is data checked by zod, and a file's text is YAML (JSON is YAML too): zod is an optional
 * peer of the SDK, loaded with the runner's first use (an error names it when it is missing); the
 * YAML parser is bundled.
 *
 * @example
 * import { runScenario } from 'service-seller/scenario';
 * const result = await runScenario(`
 * steps:
 *   - seller: { as: shop }
 *   - card: { as: codes, seller: shop, service: spotify, tariff: individual, productType: code,
 *             deliveryMethod: code, priceRub: 300, slaMinutes: 60, guaranteeDays: 7, active: true }
 *   - buy: { as: o1, card: codes }
 *   - pay: { order: o1 }
 *   - expect: { order: o1, status: awaiting_delivery }
 * `, { baseUrl: 'http://127.0.0.1:8080', adminToken: 'dev-admin' });
 * console.log(result.results.o1); // { kind: 'order', id: 'ord_…', status: 'awaiting_delivery', … }
 */
import { loadPeer } from '../peer.ts';
import { SandboxClient } from '../sandbox.ts';
import { ScenarioInvalidError, type StepPlace } from './errors.ts';
import type { ScenarioResult } from './result.ts';

export { ScenarioFailedError, ScenarioInvalidError, issueLine } from './errors.ts';
export type { ScenarioIssue, ScenarioIssueCode, StepFailure, StepPlace } from './errors.ts';
export type { LoggedEvent, Made, MadeBot, MadeCard, MadeFault, MadeOrder, MadeQuestion, MadeRequest, MadeReview, MadeSeller, ScenarioResult } from './result.ts';

export interface ScenarioOptions {
  /** The seller-server's address (`http://127.0.0.1:8080`). */
  baseUrl: string;
  /** Its admin token (`seller-server --admin-token`). */
  adminToken: string;
  /** A fetch of your own (a test's, a proxy's). @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Check every answer against the contract (as `SellerClient`'s `strict`). @default false */
  strict?: boolean | undefined;
  /** Appended to the clients' User-Agent. */
  userAgent?: string | undefined;
  /** Called as each step starts. */
  onStep?: ((step: StepPlace) => void) | undefined;
  /** Who holds the clock lease while a run that moves the clock runs (a second run's refusal names it). */
  holder?: string | undefined;
  /**
   * Stops the run (between steps, or inside one: its call is cut, an expectation's wait ends): its
   * faults are cleared and its leases released, then `runScenario` rejects with the signal's reason.
   * @example { signal: AbortSignal.timeout(30_000) }
   */
  signal?: AbortSignal | undefined;
  /**
   * The length of the run's leases on the server (the clock's, and the one its faults end with), in
   * seconds of real time; they are renewed at half of it while the run lives, so a run killed
   * outright leaves its faults at most this long.
   * @default 120
   */
  leaseSeconds?: number | undefined;
  /**
   * A seller's API key (scope `catalog`) to read the catalogue with before the run: each `card:`
   * step's service, tariff, product type, delivery method, SLA, guarantee and credits type is then
   * checked against its position, and a wrong choice is a `ScenarioInvalidError` (`not_in_catalog`,
   * `unknown_service`; nothing made). Without it, or when the catalogue cannot be read, the check is
   * skipped (the server still refuses a wrong card at its step).
   * @example { catalogKey: process.env.SERVICE_API_KEY }
   */
  catalogKey?: string | undefined;
}

/** `fetch` whose calls the signal cuts too (the steps' clients). */
const cutBy = (signal: AbortSignal, own: typeof fetch | undefined): typeof fetch => (input, init) =>
  (own ?? globalThis.fetch)(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });

const loadEngine = () => loadPeer(() => import('./engine.ts'), 'zod', 'the scenario runner (service-seller/scenario)');

/**
 * Checks a scenario without running it: throws `ScenarioInvalidError` naming every problem (by its
 * path, and by its line when text is given).
 */
export async function checkScenario(input: string | object): Promise<{ name: string | null; steps: number; movesClock: boolean }> {
  const checked = (await loadEngine()).checkScenario(input);
  return { name: checked.name, steps: checked.steps.length, movesClock: checked.movesClock };
}

/**
 * Runs a scenario (its YAML or JSON text, or the object) against a seller-server's sandbox.
 *
 * - Not a valid scenario: `ScenarioInvalidError` (every problem named), before anything is made;
 *   with `catalogKey`, a card's choice the catalogue does not offer too.
 * - Another run that moves the clock is running on the server, and this one moves it too: a
 *   `RejectedError` of kind `clock_leased`, before anything is made.
 * - A step did not go as written (an expectation that does not hold, a call refused):
 *   `ScenarioFailedError` naming the step (number, path, line) and what was expected and found,
 *   with what the run made until then; later steps do not run.
 *
 * - `signal` aborted: the run stops, clears its faults, releases its leases, and rejects with the
 *   signal's reason.
 *
 * Each run makes new sellers: runs repeat without colliding.
 */
export async function runScenario(input: string | object, options: ScenarioOptions): Promise<ScenarioResult> {
  const engine = await loadEngine();
  const scenario = engine.checkScenario(input);
  const { signal } = options;
  const fetch = signal ? cutBy(signal, options.fetch) : options.fetch;
  const settings = { baseUrl: options.baseUrl, fetch, strict: options.strict, userAgent: options.userAgent };
  const catalog = await engine.readCatalog(settings, options.catalogKey);
  const wrong = catalog ? engine.catalogIssues(scenario, catalog) : [];
  if (wrong.length > 0) throw new ScenarioInvalidError(wrong);
  const sb = new SandboxClient({ ...settings, adminToken: options.adminToken });
  // The leases and the clean-up go through a client the signal does not cut.
  const control = signal ? new SandboxClient({ ...settings, fetch: options.fetch, adminToken: options.adminToken }) : sb;
  const { onStep, holder, leaseSeconds } = options;
  return engine.runChecked(scenario, sb, settings, { onStep, holder, signal, leaseSeconds, control });
}
