/**
 * What the contact filter found, for people: in English the SDK's one wording
 * (sdk/contact-words.ts `contactsSentence`), in Russian the same sentence from the catalogue
 * (`contacts.*`). The first contact is quoted only where the text's own writer reads it.
 */
import { CONTACT_WORDS, contactsSentence, type ContactsFound } from '../../sdk/contact-words.ts';
import { language, t, tOr } from './index.ts';
import { listed } from './format.ts';

/** A contact kind in words: the SDK's in English, the catalogue's (`contacts.kind.*`) otherwise; an unknown kind as it is. */
export function contactWord(kind: string): string {
  if (language() === 'en') return Object.hasOwn(CONTACT_WORDS, kind) ? CONTACT_WORDS[kind as keyof typeof CONTACT_WORDS] : kind;
  return tOr(`contacts.kind.${kind}`, kind);
}

export function contactsText(subject: string, found: Pick<ContactsFound, 'kinds'> & Partial<ContactsFound>, opts: { quote?: boolean } = {}): string {
  if (language() === 'en') return contactsSentence(subject, found, opts);
  const words = found.kinds.map(contactWord);
  if (opts.quote && found.first !== undefined) words[0] = t('contacts.quoted', { word: words[0], contact: found.first });
  const list = listed(words);
  return t('contacts.sentence', { subject, list });
}
