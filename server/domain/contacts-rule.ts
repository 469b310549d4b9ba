/**
 * The contact rule of every free text a seller sends (card description, nickname, messages,
 * decline reason, delivery note, answers, replies, complaints): the marketplace's contact filter
 * (sdk/contacts.ts), worded once (sdk/contact-words.ts).
 */
import { contactsIn, contactsSentence } from '../../sdk/contact-words.ts';
import { refuse, type Refusal } from './refusal.ts';

/** `contacts` with the body field's name and the first kind found; null when the text is clean. The contact itself is never echoed. */
export function contactsRefusal(text: string | undefined, field: string): Refusal<'contacts'> | null {
  const found = text ? contactsIn(text) : null;
  return found ? refuse('contacts', { field, reason: found.kind }, `${field}: ${contactsSentence('the text', found)}`) : null;
}

/** Why a delivery note was not sent (`noteRejected`), or null when it is clean. */
export function noteRejection(note: string, orderId: string): string | null {
  const found = contactsIn(note);
  return found ? `contacts: ${contactsSentence('the note', found)}, send it without them through POST /orders/${orderId}/messages` : null;
}
