/**
 * `seller sandbox run FILE|-`: runs a scenario file (YAML or JSON; sdk/scenario) against the local
 * seller-server's sandbox, with its admin token. Prints a table of what was made (sellers with
 * their ids and keys, cards, orders, requests, questions, reviews, faults with their hits, webhook deliveries), or with
 * `--json` one document: every result and the events logged.
 *
 * Exit 0 when every step went as written; 1 when a step did not (an expectation, a refused call:
 * the step's number, path and line, what was expected and found); 2 when the file is not a valid
 * scenario (every problem by path and line; nothing was made); 130 when Ctrl-C stopped it, after
 * its faults were cleared and its leases released (a second Ctrl-C exits at once; the leases then
 * lapse by themselves after `--lease`).
 */
import type { Command } from 'commander';
import { CLOCK_LEASE_MAX_SECONDS } from '../../sdk/contract/routes/sandbox-scenario.ts';
import { parseDuration } from '../../sdk/duration.ts';
import { RejectedError } from '../../sdk/errors.ts';
import type { LoggedEvent, Made, ScenarioIssue, ScenarioResult, StepFailure, StepPlace } from '../../sdk/scenario/index.ts';
import { word } from '../i18n/format.ts';
import { has, t } from '../i18n/index.ts';
import { reasonWords, refusalWords } from '../i18n/error-words.ts';
import { zodIssueWords, zodWords, type LocaleError } from '../i18n/zod-words.ts';
import type { App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, EXIT, refusalValueLines, UsageError } from '../lib/errors.ts';
import { readTextInput } from '../lib/input.ts';
import { nodeFetch } from '../lib/http.ts';
import { note, printJson, printTable } from '../lib/output.ts';
import { printSteps } from './sandbox-run-steps.ts';
import { faultProblemKey, nearestOp } from './fault-words.ts';
import type { FaultFlagsCode } from '../../sdk/sandbox-faults.ts';

export function registerRun(noun: Command, app: App): void {
  noun
    .command('run')
    .description(t('scenario.description'))
    .argument('[file]', t('scenario.file'))
    .option('--lease <duration>', t('scenario.lease'))
    .option('--steps [verb]', t('scenario.steps.option'))
    .addHelpText('after', t('scenario.help'))
    .action(
      app.run(
        (file: string | undefined, o: { lease?: string; steps?: string | true }) => ({ file, steps: o.steps, leaseSeconds: leaseSeconds(o.lease) }),
        runOrSteps,
      ),
    );
}

/** `--steps [VERB]` prints the reference of the steps; else the file runs (one of them is needed). */
async function runOrSteps(opts: { file: string | undefined; steps?: string | true | undefined; leaseSeconds?: number | undefined }, deps: Deps): Promise<void> {
  if (opts.steps !== undefined) return printSteps(opts.steps === true ? undefined : opts.steps, deps);
  if (opts.file === undefined) throw new UsageError(t('scenario.steps.needFileOrSteps'), t('scenario.steps.needFileOrStepsHint'));
  return runScenarioCommand({ file: opts.file, leaseSeconds: opts.leaseSeconds }, deps);
}

/** `--lease 30s` in seconds, 1 s to the contract's longest lease. */
function leaseSeconds(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = parseDuration(text);
  if (seconds === undefined || seconds < 1 || seconds > CLOCK_LEASE_MAX_SECONDS) throw new UsageError(t('scenario.leaseInvalid'));
  return seconds;
}

/** The admin token and the address of a sandbox run, as every `seller sandbox` command takes them. */
function sandboxSettings(deps: Deps) {
  const adminToken = (deps.globals as { adminToken?: string }).adminToken ?? deps.io.env.SERVICE_ADMIN_TOKEN;
  if (!adminToken) throw new UsageError(t('sandbox.noAdminTokenPass'), t('sandbox.sellerServerPrintsIts'));
  const { baseUrl, strict, apiKey } = deps.settings();
  // The seller's key (the profile's, or SERVICE_API_KEY) reads the catalogue for the pre-check of the cards' choices; none: skipped.
  return { adminToken, baseUrl, strict, catalogKey: apiKey };
}

export async function runScenarioCommand(opts: { file: string; leaseSeconds?: number | undefined }, deps: Deps): Promise<void> {
  // Ctrl-C stops the run, which clears its faults and gives its leases back before the exit (130); a second one exits at once.
  const controller = new AbortController();
  let stops = 0;
  const stop = () => {
    if (++stops > 1) process.exit(EXIT.interrupted);
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', stop);
  try {
    await runWith(opts, deps, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) throw new CliError(t('scenario.interrupted'), EXIT.interrupted);
    throw error;
  } finally {
    process.off('SIGINT', stop);
  }
}

async function runWith(opts: { file: string; leaseSeconds?: number | undefined }, deps: Deps, signal: AbortSignal): Promise<void> {
  const settings = sandboxSettings(deps);
  const text = await readTextInput(deps, opts.file);
  const source = opts.file === '-' ? t('scenario.stdin') : opts.file;
  const { runScenario, ScenarioFailedError, ScenarioInvalidError } = await import('../../sdk/scenario/index.ts');
  const json = wantsJson(deps);
  try {
    // i18next-instrument-ignore-next-line: a label in the service's refusal detail (English, like every detail)
    const holder = `seller sandbox run ${source}`;
    const run = { ...settings, userAgent: 'seller-cli', holder, fetch: nodeFetch as typeof globalThis.fetch, signal, leaseSeconds: opts.leaseSeconds };
    const result = await runScenario(text, run);
    if (json) printJson(deps.io, result);
    else printResult(deps, result);
    note(deps.io, t('scenario.done', { count: result.stepsRun, name: result.name ?? source }));
  } catch (error) {
    if (error instanceof ScenarioInvalidError) {
      if (json) printJson(deps.io, { issues: error.issues });
      const zod = await zodWords();
      for (const issue of error.issues) note(deps.io, issueText(source, issue, zod));
      throw new UsageError(t('scenario.invalid', { count: error.issues.length, file: source }), t('scenario.nothingMade'));
    }
    if (error instanceof ScenarioFailedError) {
      if (json) printJson(deps.io, { ...error.result, failure: { step: error.step, ...error.failure } });
      else printResult(deps, error.result);
      const values = error.failure.kind === 'error' && error.failure.refusal ? refusalValueLines(refusalOf(error.failure)) : [];
      throw new CliError(failureText(error.step, error.failure), EXIT.error, [...values, t('scenario.laterStepsSkipped')].join('\n'), error.cause);
    }
    if (error instanceof RejectedError && error.refusal.kind === 'clock_leased') {
      // The hint from the refusal's reason (`held`), in the catalogue's words, not the service's English detail.
      throw new CliError(t('scenario.clockLeased'), EXIT.error, reasonWords(error.refusal), error);
    }
    throw error;
  }
}

/** The catalogue key of an issue's words: `scenario.issues.<code>`, a rule's `scenario.rules.<rule>` (a fault's by its problem), with `Near` when a nearest is named. */
function issueKey(issue: ScenarioIssue): string {
  const params = issue.params ?? {};
  const near = params['near'] ? 'Near' : '';
  if (issue.code !== 'rule') return `scenario.issues.${issue.code ?? ''}${near}`;
  if (params['rule'] !== 'fault') return `scenario.rules.${params['rule'] ?? ''}`;
  return `scenario.rules.fault.${faultProblemKey(params['field'] ?? '', (params['problem'] ?? 'invalid') as FaultFlagsCode)}${near}`;
}

/** A fault step's unknown operation with the nearest known one, like `seller sandbox fault add --op`. */
function withNearOp(issue: ScenarioIssue): ScenarioIssue {
  const params = issue.params ?? {};
  if (issue.code !== 'rule' || params['problem'] !== 'unknown_op' || params['value'] === undefined) return issue;
  const near = nearestOp(params['value']);
  return near ? { ...issue, params: { ...params, near } } : issue;
}

/** `day.yaml:9: steps[3].pay.order: no step before this one is named o7` (the sentence from the catalogue when its code is known). */
function issueText(source: string, given: ScenarioIssue, zod: LocaleError | undefined): string {
  const issue = withNearOp(given);
  const key = issueKey(issue);
  const params = { ...issue.params };
  for (const field of ['kind', 'want'] as const) if (params[field]) params[field] = t(`scenario.aKind.${params[field]}`);
  // A value the schema refuses: zod's issue in zod's words for the language.
  const message = issue.code && has(key) ? t(key, params) : (zodIssueWords(issue.issue, zod) ?? issue.message);
  return t(issue.line === undefined ? 'scenario.issueAt' : 'scenario.issueAtLine', { file: source, line: issue.line, path: issue.path, message });
}

/**
 * A refusal inside a scenario: where the CLI's words name a flag (`--next-charge`), the scenario's
 * own (`scenario.reasons.<kind>.<reason>`, `scenario.refusals.<kind>`: the step's key,
 * `nextChargeDay`); else the CLI's.
 */
function scenarioRefusalWords(refusal: { kind: string; reason?: unknown } & Record<string, unknown>): string | undefined {
  const reason = typeof refusal.reason === 'string' ? `scenario.reasons.${refusal.kind}.${refusal.reason}` : undefined;
  if (reason && has(reason)) return t(reason);
  if (has(`scenario.refusals.${refusal.kind}`)) return t(`scenario.refusals.${refusal.kind}`);
  return refusalWords(refusal);
}

/** The refusal of a failed call, as the service sent it: kind, reason and values. */
const refusalOf = (failure: Extract<StepFailure, { kind: 'error' }>) => ({ ...failure.values, kind: failure.refusal ?? '', ...(failure.reason ? { reason: failure.reason } : {}) });

function failureText(step: StepPlace, failure: StepFailure): string {
  const where = t(step.line === undefined ? 'scenario.step' : 'scenario.stepAtLine', { number: step.number, path: step.path, line: step.line, verb: step.verb });
  if (failure.kind === 'expectation') {
    const waited = failure.waitedMs > 0 ? t('scenario.waited', { seconds: failure.waitedMs / 1000 }) : '';
    const { subject, checks } = failure;
    const about = t(subject.about === undefined ? `scenario.subject.${subject.kind}` : `scenario.subject.${subject.kind}About`, { ...subject });
    const values = (side: 'expected' | 'found') => checks.map((c) => t('scenario.check', { field: c.field, value: String(c[side]) })).join(', ');
    return t('scenario.expectationFailed', { where, subject: about, expected: values('expected'), found: values('found'), waited });
  }
  // A refusal said by its reason (else its kind) from the catalogue, with its values; the service's English only for one this CLI does not know.
  const detail = (failure.refusal ? scenarioRefusalWords(refusalOf(failure)) : undefined) ?? failure.detail;
  return t('scenario.stepFailed', { where, code: failure.refusal ? `${failure.code} (${failure.refusal})` : failure.code, detail });
}

interface Row {
  what: string;
  name: string;
  id: string;
  details: string;
}

const madeRow = (m: Made): Row => {
  const what = t(`scenario.kinds.${m.kind}`);
  switch (m.kind) {
    case 'seller':
      return { what, name: m.name, id: m.id, details: t('scenario.details.seller', { key: m.key }) };
    case 'card':
      return { what, name: m.name, id: String(m.number), details: t('scenario.details.card', { seller: m.seller }) };
    case 'order':
      return { what, name: m.name, id: m.id, details: t('scenario.details.order', { card: m.card, status: word('orderStatus', m.status) }) };
    case 'request':
      return { what, name: m.name, id: m.id, details: t('scenario.details.request', { status: m.status }) };
    case 'question':
      return { what, name: m.name, id: m.id, details: t('scenario.details.question', { number: m.number }) };
    case 'review':
      return { what, name: m.name, id: m.id, details: t('scenario.details.review', { order: m.order, count: m.stars }) };
    case 'fault':
      return { what, name: m.name, id: m.id, details: t('scenario.details.fault', { what: m.what, seller: m.seller ?? t('scenario.everySeller'), count: m.hits }) };
    case 'bot':
      return { what, name: m.name, id: String(m.id), details: `@${m.username}` };
  }
};

const deliveryRows = (e: LoggedEvent): Row[] =>
  e.deliveries.map((d) => ({
    what: t('scenario.kinds.delivery'),
    name: e.seller,
    id: d.id,
    details: t(d.deliveredAt ? 'scenario.details.delivered' : 'scenario.details.pending', { event: e.kind, count: d.attempts, status: d.lastStatus ?? '-' }),
  }));

function printResult(deps: Deps, result: ScenarioResult): void {
  const rows = [...result.made.map(madeRow), ...result.events.flatMap(deliveryRows)];
  printTable(deps.io, rows, [
    { header: t('scenario.columns.what'), value: (r) => r.what },
    { header: t('scenario.columns.name'), value: (r) => r.name },
    { header: t('scenario.columns.id'), value: (r) => r.id },
    { header: t('scenario.columns.details'), value: (r) => r.details },
  ]);
}
