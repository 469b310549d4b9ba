/**
 * What a scenario run can end in besides success, as data: the file is not a valid scenario
 * (every problem with its path, and its line when the scenario was given as text), or a step did
 * not go as written (an expectation that does not hold, a call the service refused). No zod here:
 * the entry loads it before it knows whether zod is installed.
 */
import type { ScenarioResult } from './result.ts';

/** One problem of a scenario: where (`steps[3].pay.order`, line 9 of the text) and what. */
export interface ScenarioIssue {
  /** The value's path, `steps[3].pay.order`; `(top level)` for the whole document. */
  path: string;
  /** 1-based line in the scenario's text; absent when an object was given. */
  line?: number;
  /** A machine-readable word for the problems the runner finds itself (`unknown_name`, `wrong_kind`, …); absent for a value the schema refuses. */
  code?: ScenarioIssueCode;
  /** The values the code's sentence names (`name`, `kind`, `want`, `verbs`…). */
  params?: Record<string, string>;
  /** A sentence for developers, in English. */
  message: string;
  /** For a value the schema refuses: zod's issue as data, without the input (`code`, `expected`, …), which zod's locales say in other languages. */
  issue?: Record<string, unknown>;
}

export type ScenarioIssueCode =
  | 'not_yaml'
  | 'one_verb'
  | 'unknown_verb'
  | 'unknown_name'
  | 'wrong_kind'
  | 'name_taken'
  | 'unknown_field'
  | 'expect_what'
  /** A card's choice the catalogue's position does not offer (`field`, `value`, `allowed`, `service`). */
  | 'not_in_catalog'
  /** A card's service the catalogue has no position for (`value`, `allowed`, `near`). */
  | 'unknown_service'
  /** A rule of the schema across fields or values (`rule`: `fault`, `duration`, `within_max`, `stock_one_of`, `expect_whose`, `telegram_*`; a `fault` one with `problem` and `field`). */
  | 'rule';

/** `path (line N): message`, or `path: message` without a line. */
export const issueLine = (i: ScenarioIssue): string => `${i.line === undefined ? i.path : `line ${i.line}, ${i.path}`}: ${i.message}`;

/** The scenario is not valid: nothing ran, nothing was created. */
export class ScenarioInvalidError extends Error {
  override name = 'ScenarioInvalidError';
  constructor(readonly issues: ScenarioIssue[]) {
    super(`not a valid scenario: ${issues.length === 1 ? 'a problem' : `${issues.length} problems`}\n${issues.map((i) => `  ${issueLine(i)}`).join('\n')}`);
  }
}

/** Where a step is: its 1-based number, its path and its line in the text (when text was given). */
export interface StepPlace {
  number: number;
  path: string;
  line?: number;
  verb: string;
}

export type ExpectedValue = string | number | boolean;

/**
 * What an expectation was about and each value it checked, as data (the CLI says it in the run's
 * language): an order (`name`, its `id`), a card's stock (`id`: the card number), a webhook event
 * kind (`name`) of a seller, about an order or a card, a fault (`name`, its `id`), or a Telegram chat
 * (`name`: the bot, `id`: the chat).
 */
export interface ExpectationFinding {
  subject: { kind: 'order' | 'stock' | 'webhook' | 'fault' | 'telegram'; name: string; id?: string | number; seller?: string; about?: string };
  /** `field` as the step writes it (`status`, `free`, `messages`, `hits`…; `events`/`delivered`: how many such events). */
  checks: Array<{ field: string; expected: ExpectedValue; found: ExpectedValue }>;
}

/** Why a run stopped at a step: an expectation that did not hold (`expected`/`found` in English too), or a call that failed. */
export type StepFailure =
  | ({ kind: 'expectation'; expected: string; found: string; waitedMs: number } & ExpectationFinding)
  | {
      kind: 'error';
      code: string;
      refusal?: string;
      reason?: string;
      /** The refusal's values beside its kind and reason: `{ field: 'slaMinutes', allowed: [30, 120, 1440] }`. */
      values?: Record<string, unknown>;
      detail: string;
    };

/** A refusal's values in English: ` (field slaMinutes; allowed: 30, 120, 1440)`. */
function valuesText(values: Record<string, unknown> | undefined): string {
  if (values === undefined) return '';
  const said = Object.entries(values).map(([name, value]) => (name === 'field' ? `field ${String(value)}` : `${name}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`));
  return ` (${said.join('; ')})`;
}

/** A step did not go as written; later steps did not run. `result` is what the run made until then. */
export class ScenarioFailedError extends Error {
  override name = 'ScenarioFailedError';
  constructor(
    readonly step: StepPlace,
    readonly failure: StepFailure,
    readonly result: ScenarioResult,
    options?: { cause?: unknown },
  ) {
    const where = `step ${step.number} (${step.path}${step.line === undefined ? '' : `, line ${step.line}`}, ${step.verb})`;
    const what =
      failure.kind === 'expectation'
        ? `expected ${failure.expected}, found ${failure.found}${failure.waitedMs > 0 ? ` (waited ${failure.waitedMs / 1000}s)` : ''}`
        : `${failure.code}${failure.refusal ? ` (${failure.refusal})` : ''}: ${failure.detail}${valuesText(failure.values)}`;
    super(`${where}: ${what}`, options);
  }
}
