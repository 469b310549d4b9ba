/**
 * One wording of what the contact filter (./contacts.ts) found, for every side that tells it: the
 * reference server's `contacts` refusal and `noteRejected`, the SDK's offline check, the CLI and the
 * autopilot. The refusal's `reason` is {@link ContactsFound.kind}; its `field` is the body field's
 * name (`text`, `reason`, `description`, `nickname`), like every other refusal's.
 */
import { findContacts, type ContactKind } from './contacts.ts';

/** Each kind in words. */
export const CONTACT_WORDS: Readonly<Record<ContactKind, string>> = {
  email: 'an e-mail address',
  phone: 'a phone number',
  messenger: 'a messenger contact',
  link: 'a social profile link',
};

/** What the contact filter found in a text. */
export interface ContactsFound {
  /** The first kind found (a refusal's `reason`). */
  kind: ContactKind;
  /** Every kind found, once each, in order of appearance. */
  kinds: ContactKind[];
  /** The first contact as written (for the writer's own eyes only: a server never echoes it). */
  first: string;
}

/** What the contact filter finds in `text`; null when the text is clean. */
export function contactsIn(text: string): ContactsFound | null {
  const found = findContacts(text);
  if (found.length === 0) return null;
  const kinds = [...new Set(found.map((f) => f.kind))];
  return { kind: kinds[0]!, kinds, first: found[0]!.match };
}

/**
 * The sentence: `<subject> contains a phone number; contacts are not allowed`. With `quote`, the
 * first contact is shown as written (`… contains a phone number "8 999 …"; …`): only where the text's
 * own writer reads it.
 */
export function contactsSentence(subject: string, found: Pick<ContactsFound, 'kinds'> & Partial<ContactsFound>, opts: { quote?: boolean } = {}): string {
  const words = found.kinds.map((kind) => CONTACT_WORDS[kind] ?? kind);
  // The first contact, shown as written, follows the word of its kind (the first kind found).
  if (opts.quote && found.first !== undefined) words[0] = `${words[0]} "${found.first}"`;
  return `${subject} contains ${contactList(words)}; contacts are not allowed`;
}

/** Contact words as one English list: `a phone number`, `an e-mail address and a phone number`, `a, b and c`. */
export function contactList(words: readonly string[]): string {
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}
