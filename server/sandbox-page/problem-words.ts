/**
 * A refusal or failure in the page's words (as the CLI says them: cli/i18n/error-words.ts): the
 * refusal kind's words, else the error code's, with the raw code and kind after them in parentheses.
 * The server's English (`detail`) is shown only for a code or kind this page has no words for yet.
 */
import { has, t } from './i18n.ts';

interface Failure {
  code?: unknown;
  refusal?: { kind?: unknown } | null;
  detail?: unknown;
  message?: string;
}

/** The status line's text for a failed act. */
export function problemLine(err: unknown): string {
  const e = (err ?? {}) as Failure;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const kind = typeof e.refusal?.kind === 'string' ? e.refusal.kind : undefined;
  if (kind && has(`problem.kinds.${kind}`)) return t('problem.words', { words: t(`problem.kinds.${kind}`), raw: code ? `${code}: ${kind}` : kind });
  if (code && has(`problem.codes.${code}`)) return t('problem.words', { words: t(`problem.codes.${code}`), raw: code });
  return t('error', { detail: englishDetail(e) });
}

/** The server's own English, for what the catalogue does not know. */
function englishDetail(e: Failure): string {
  // The contract's detail object carries its English in `message`; an older answer's is a string.
  const detail = typeof e.detail === 'object' && e.detail !== null ? (e.detail as { message?: unknown }).message : e.detail;
  if (typeof detail === 'string' && detail) return detail;
  return e.message ?? String(e);
}
