/**
 * What the contact filter found, for people: in English the SDK's one wording
 * (sdk/contact-words.ts `contactsSentence`), in Russian the same sentence from the catalogue
 * (`contacts.*`). The first contact is quoted only where the text's own writer reads it.
 */
import { contactsSentence, type ContactsFound } from '../../sdk/contact-words.ts';
import { has, language, t } from './index.ts';

export function contactsText(subject: string, found: Pick<ContactsFound, 'kinds'> & Partial<ContactsFound>, opts: { quote?: boolean } = {}): string {
  if (language() === 'en') return contactsSentence(subject, found, opts);
  const words = found.kinds.map((kind) => (has(`contacts.kind.${kind}`) ? t(`contacts.kind.${kind}`) : kind));
  if (opts.quote && found.first !== undefined) words[0] = t('contacts.quoted', { word: words[0], contact: found.first });
  const list = words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} ${t('words.and')} ${words.at(-1)!}`;
  return t('contacts.sentence', { subject, list });
}
