/**
 * A wrong autopilot configuration in the seller's language. The SDK's `AutopilotConfigError` carries
 * each problem as data (sdk/autopilot/config.ts `AutopilotConfigIssue`): the autopilot's own checks
 * and the file's by a `check` id, said from the catalogue (`autopilot.config.checks.*`); the schema
 * library's standard checks as zod's issue, said by zod's own locale for the language (zod ships
 * them: `zod/v4/locales/ru.js`, loaded only when a Russian seller's file is wrong). In English, and
 * for a problem neither knows, the SDK's English message.
 */
import type { AutopilotConfigError, AutopilotConfigIssue } from '../../sdk/autopilot/config.ts';
import { has, t } from '../i18n/index.ts';
import { zodIssueWords, zodWords, type LocaleError } from '../i18n/zod-words.ts';
import { contactWord } from '../i18n/contacts.ts';
import { listed } from '../i18n/format.ts';



/** A check's values as the language shows them (contact kinds in words, lists joined). */
function shown(values: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === 'kinds' && Array.isArray(value)) out[name] = listed(value.map((kind) => contactWord(String(kind))));
    else out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** One problem in words. */
function problem(issue: AutopilotConfigIssue, zod: LocaleError | undefined): string {
  if (issue.check !== undefined && has(`autopilot.config.checks.${issue.check}`)) return t(`autopilot.config.checks.${issue.check}`, shown(issue.values));
  return zodIssueWords(issue.issue, zod) ?? issue.message;
}

/** A path as written in the file; the SDK's `(file)` and `(top level)` in words. */
const pathWords = (path: string): string => (path === '(file)' ? t('autopilot.config.file') : path === '(top level)' ? t('autopilot.config.top') : path);

/** The whole error: a first line naming the file and the count, then each wrong value by its path. */
export async function configErrorWords(error: AutopilotConfigError): Promise<string> {
  const zod = await zodWords();
  const lines = error.issues.map((issue) => `  ${pathWords(issue.path)}: ${problem(issue, zod)}`);
  return [t('autopilot.config.errors', { source: error.source, count: error.issues.length }), ...lines].join('\n');
}
