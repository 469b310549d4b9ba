/**
 * Checks made before a call through which a seller could lose something, with their messages
 * (catalogue section `guards`): a next charge day in the past, a text for a buyer that the
 * marketplace's contact filter would refuse or withhold, a misspelt event kind. Each throws a
 * `CliError` saying what is wrong and what to do; nothing has been sent when it does.
 */
import { findContacts } from '../../sdk/contacts.ts';
import { nextChargeProblem } from '../../sdk/next-charge.ts';
import { contactWord } from '../i18n/contacts.ts';
import { t } from '../i18n/index.ts';
import { nearestWithin } from './edit-distance.ts';
import { CliError, EXIT, UsageError } from './errors.ts';

/** What a text for a buyer is, in the messages (`guards.what.<text>`). */
export type BuyerText = 'note' | 'message' | 'answer' | 'reply' | 'reason';

/** A contact kind in words (an unknown one as it is). */

/**
 * Refuses `text` (what: which text for a buyer it is) when the contact filter finds a contact in it,
 * naming the first found (exit 1). `hint`: how to go on (default: rewrite it).
 */
export function refuseContacts(text: string | undefined, what: BuyerText, hint: string = t('guards.contacts.rewrite')): void {
  if (text === undefined) return;
  const found = findContacts(text);
  if (found.length === 0) return;
  const first = found[0]!;
  const params = { what: t(`guards.what.${what}`), kind: contactWord(first.kind), match: first.match };
  const message = found.length === 1 ? t('guards.contacts.refused', params) : t('guards.contacts.refusedMore', { ...params, count: found.length - 1 });
  throw new CliError(message, EXIT.error, t('guards.hint', { hint }));
}

/** The hint of a refused delivery note: rewrite it, or deliver without the flag that gave it. */
export const dropNoteHint = (flag: string): string => t('guards.contacts.dropNote', { flag });

/** Refuses (exit 1) a next charge day that is not a real date or is before the service's today (`nowMs`). */
export function refuseNextCharge(day: string | undefined, nowMs: number): void {
  if (day === undefined) return;
  const problem = nextChargeProblem(day, nowMs);
  if (!problem) return;
  const valid = t('guards.nextCharge.valid', { today: problem.today });
  if (problem.kind === 'not_a_date') throw new CliError(t('guards.nextCharge.notADate', { day }), EXIT.error, valid);
  throw new CliError(t('guards.nextCharge.past', { day, today: problem.today }), EXIT.error, valid);
}

/**
 * Event kinds a seller asks for: one that is one or two edits from a kind we know is a typo and is
 * refused (exit 2) with the right spelling; one far from every known kind is let through (the real
 * service may know kinds this version does not).
 */
export function refuseMisspeltEvents(events: readonly string[], known: readonly string[]): void {
  for (const kind of events) {
    if (known.includes(kind)) continue;
    const near = nearestWithin(kind, known, 2);
    if (near !== undefined) throw new UsageError(t('guards.events.misspelt', { kind, near }), t('guards.events.kinds', { kinds: known.join(', ') }));
  }
}

/** The service's answer left out kinds the seller asked for: exit 1 naming them. */
export function missingEventsError(missing: readonly string[], subscribed: readonly string[]): CliError {
  return new CliError(
    t('guards.events.missing', { kinds: missing.map((k) => `"${k}"`).join(', '), count: missing.length, subscribed: subscribed.join(', ') || '-' }),
    EXIT.error,
    t('guards.events.missingHint'),
  );
}
