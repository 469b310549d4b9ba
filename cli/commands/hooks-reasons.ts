/**
 * Why a webhook delivery did not verify, in the seller's language. The SDK's
 * `WebhookVerificationError` carries the reason as data (`reason`, `header`, `skewSeconds`, the body's
 * `cause`) beside its English `message`; the CLI says it from the catalogue: a few words for a column
 * (`hooks listen`, `hooks probe`, the autopilot's webhook line) and a whole sentence for the first
 * line of `hooks verify`'s error. A reason this CLI does not know (a newer SDK's) is shown as its
 * code, or as the SDK's message.
 */
import { WEBHOOK_TOLERANCE_SECONDS, type WebhookVerificationError } from '../../sdk/webhooks/index.ts';
import { has, t, tOr } from '../i18n/index.ts';

/** A few words for a refusal reason (`mismatch` → `signature does not match`); the code when it is not known here. */
export const reasonWords = (reason: string): string => tOr(`hooks.reasons.${reason}`, reason);

/** The verdict on a refused delivery in a line: `invalid: mismatch (signature does not match)`; the code alone when it has no words here. */
export function invalidVerdict(reason: string | undefined): string {
  if (reason === undefined) return t('hooks.invalid', { reason: t('hooks.unknownReason') });
  return has(`hooks.reasons.${reason}`) ? t('hooks.invalidWhy', { code: reason, words: reasonWords(reason) }) : t('hooks.invalid', { reason });
}

/** The path of a schema issue (`data.order.id`), when the body's cause is one. */
function issuePath(cause: unknown): string | undefined {
  const path = (cause as { path?: unknown } | null)?.path;
  return Array.isArray(path) ? path.join('.') || 'body' : undefined;
}

/** What failed, as a sentence in the active language (the SDK's English message for a reason not known here). */
export function verificationWords(error: WebhookVerificationError, toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS): string {
  switch (error.reason) {
    case 'missing_header':
    case 'malformed_signature':
    case 'malformed_timestamp':
      return error.header === undefined ? reasonWords(error.reason) : t(`hooks.verifyWords.${error.reason}`, { header: error.header });
    case 'stale_timestamp': {
      if (error.skewSeconds === undefined) return reasonWords(error.reason);
      const seconds = Math.round(Math.abs(error.skewSeconds));
      return t(error.skewSeconds < 0 ? 'hooks.verifyWords.stalePast' : 'hooks.verifyWords.staleFuture', { seconds, tolerance: toleranceSeconds });
    }
    case 'malformed_body': {
      const path = issuePath(error.cause);
      return path === undefined ? t('hooks.verifyWords.malformedJson') : t('hooks.verifyWords.malformedEvent', { path });
    }
    case 'mismatch':
    case 'body_not_raw':
      return t(`hooks.verifyWords.${error.reason}`);
    default:
      return has(`hooks.reasons.${String(error.reason)}`) ? reasonWords(error.reason) : error.message;
  }
}
