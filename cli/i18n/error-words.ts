/**
 * Errors are data, said in the run's language: a refusal (kind, reason and the values beside them),
 * an error answer's detail (`record`, `credential`, `issues`…) and a failed offline check of the SDK
 * are said from the catalogue by their codes, never by reading English text. The service's English
 * (`detail`, `detail.message`) is shown only where the catalogue has no words for a code: a newer
 * service's kind, reason or error code.
 *
 * Catalogue groups: `refusals.<kind>` (what a kind means), `reasons.<kind>.<reason>` (why, with the
 * refusal's values), `checks.<code>.<reason>` (the SDK's own checks), `errors.detail.<code>`,
 * `errors.notFound.<record>`, `errors.adminToken.<code>`, `errors.issue.<code>`.
 * test/cli/error-words.test.ts holds that every code of the contract has words in both catalogues.
 */
import type { CheckFailure } from '../../sdk/validate/bank.ts';
import { has, t } from './index.ts';

/** The values a refusal or check may carry, as a catalogue text fills them in. */
function valuesOf(data: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    values[name] = Array.isArray(value) ? value.map(String).join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return values;
}

/** A refusal's `reason` in words, if the catalogue has them for its kind. */
export function reasonWords(refusal: { kind: string; reason?: unknown } & Record<string, unknown>): string | undefined {
  const { kind, reason } = refusal;
  if (typeof reason !== 'string') return undefined;
  const key = `reasons.${kind}.${reason}`;
  return has(key) ? t(key, { field: '', allowed: '', ...valuesOf(refusal) }) : undefined;
}

/** What a refusal kind means, if the catalogue knows the kind. */
export const kindWords = (kind: string): string | undefined => (has(`refusals.${kind}`) ? t(`refusals.${kind}`) : undefined);

/** A refusal in words: its reason's, else its kind's; undefined for a kind and reason this CLI does not know. */
export const refusalWords = (refusal: { kind: string } & Record<string, unknown>): string | undefined => reasonWords(refusal) ?? kindWords(refusal.kind);

/** A failed check of the SDK's bank and tax validators (sdk/validate) in words: the same words as the server's refusal. */
export function checkWords(check: CheckFailure): string {
  const { ok: _ok, detail, ...refusal } = check;
  if (refusal.kind === 'payout_method') return t('checks.payout_method.not_allowed');
  return refusalWords(refusal) ?? detail;
}

/** The value a check names, as the person typed it (`45`, `"gold"` without quotes). */
const shown = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

/** A `CardChoiceError` of the card builder (sdk/card-builder.ts) in words: `checks.card_choice.<reason>`. */
export function cardChoiceWords(error: { reason: string; value?: unknown }): string {
  const key = `checks.card_choice.${error.reason}`;
  return has(key) ? t(key, { value: shown(error.value) }) : error.reason;
}

/** The detail object of an error answer (sdk/contract/common.ts `ErrorDetail`), or undefined for a string (an older service). */
export function detailData(detail: unknown): Record<string, unknown> | undefined {
  return typeof detail === 'object' && detail !== null && !Array.isArray(detail) ? (detail as Record<string, unknown>) : undefined;
}

/** What a `not_found` says was not found, in words; undefined when it names no record this CLI knows. */
export function notFoundWords(data: Record<string, unknown>): string | undefined {
  const { record, id } = data;
  if (typeof record !== 'string' || !has(`errors.notFound.${record}.noId`)) return undefined;
  return typeof id === 'string' && id !== '' ? t(`errors.notFound.${record}.withId`, { id }) : t(`errors.notFound.${record}.noId`);
}

/** One issue of a `bad_request` in words (one of a code this CLI does not know: where, and that it is not valid). */
function issueWords(issue: unknown): string | undefined {
  const data = detailData(issue);
  if (!data) return undefined;
  const path = Array.isArray(data['path']) ? data['path'].map(String).join('.') : '';
  // An issue code of a newer service: where, and that the value is not valid.
  const code = typeof data['code'] === 'string' && has(`errors.issue.${data['code']}`) ? data['code'] : 'custom';
  return t(`errors.issue.${code}`, { expected: '', minimum: '', maximum: '', values: '', keys: '', ...valuesOf(data), path });
}

/** The issues of a `bad_request` in words, `; `-joined; undefined when there are none. */
export function issuesWords(data: Record<string, unknown>): string | undefined {
  const { issues } = data;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const said = issues.map(issueWords);
  return said.every((s) => s !== undefined) ? said.join('; ') : undefined;
}

/**
 * The detail of an error answer of a code the contract knows, in words from its data: what was not
 * found, the admin token, the request's issues. Undefined when the data says nothing this CLI knows.
 */
export function detailWords(code: string, detail: unknown): string | undefined {
  const data = detailData(detail);
  if (!data) return undefined;
  if (code === 'not_found') return notFoundWords(data);
  if ((code === 'no_key' || code === 'bad_key') && data['credential'] === 'admin_token') return t(`errors.adminToken.${code}`);
  // No key in the CLI's own settings (cli/lib/client.ts): the profile it looked in.
  if (code === 'no_key' && typeof data['profile'] === 'string') return t('client.noApiKeyFor', { profile: data['profile'] });
  if (code === 'bad_request') return issuesWords(data);
  return undefined;
}
