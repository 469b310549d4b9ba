/**
 * Checks made before a call through which a seller could lose something, and their messages (in
 * one place, to move into the message catalogues): a next charge day in the past, a text for a
 * buyer that the marketplace's contact filter would refuse or withhold, a misspelt event kind. Each throws a `CliError`
 * (exit 1) saying what is wrong and what to do; nothing has been sent when it does.
 */
import { findContacts, type ContactKind } from '../../sdk/contacts.ts';
import { nextChargeProblem } from '../../sdk/next-charge.ts';
import { nearestWithin } from './edit-distance.ts';
import { CliError, UsageError } from './errors.ts';

const CONTACT_KIND: Record<ContactKind, string> = {
  email: 'an e-mail address',
  phone: 'a phone number',
  messenger: 'a messenger contact',
  link: 'a social profile link',
};

/** A contact kind in words (an unknown one as it is). */
export const contactKindText = (kind: string): string => CONTACT_KIND[kind as ContactKind] ?? kind;

/**
 * Refuses `text` (for a buyer: `what` names it, `the note`) when the contact filter finds a contact
 * in it, naming the first found; `hint` says how to go on.
 */
export function refuseContacts(text: string | undefined, what: string, hint: string): void {
  if (text === undefined) return;
  const found = findContacts(text);
  if (found.length === 0) return;
  const first = found[0]!;
  const more = found.length > 1 ? ` (and ${found.length - 1} more)` : '';
  throw new CliError(
    `${what} holds ${contactKindText(first.kind)} "${first.match}"${more}: the marketplace forbids contacts in texts for buyers; nothing was sent`,
    1,
    `hint: ${hint}`,
  );
}

/** The hint of a refused text that can only be rewritten. */
export const REWRITE_HINT = 'rewrite it without e-mail addresses, phone numbers, messenger handles or profile links, then send again';

/** Refuses a next charge day that is not a real date or is before the service's today (`nowMs`). */
export function refuseNextCharge(day: string | undefined, nowMs: number): void {
  if (day === undefined) return;
  const problem = nextChargeProblem(day, nowMs);
  if (!problem) return;
  const valid = `a valid next charge day is a real date YYYY-MM-DD, today (${problem.today} by the service's clock) or later`;
  if (problem.kind === 'not_a_date') throw new CliError(`--next-charge: "${day}" is not a real date; nothing was sent`, 1, valid);
  throw new CliError(`--next-charge: ${day} is in the past (the service's today is ${problem.today}); nothing was sent`, 1, valid);
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
    if (near !== undefined) {
      throw new UsageError(`--event: unknown event kind "${kind}"; did you mean "${near}"? Nothing was changed`, `kinds: ${known.join(', ')}`);
    }
  }
}

/** The service's answer left out kinds the seller asked for: exit 1 naming them. */
export function missingEventsError(missing: readonly string[], subscribed: readonly string[]): CliError {
  return new CliError(
    `the service did not subscribe to ${missing.map((k) => `"${k}"`).join(', ')} (it does not offer ${missing.length > 1 ? 'them' : 'it'}); the subscription holds: ${subscribed.join(', ') || 'nothing'}`,
    1,
    'check the spelling with `seller hooks set --help`; the other kinds were saved',
  );
}
