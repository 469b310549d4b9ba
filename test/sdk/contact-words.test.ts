/** One wording of the contact filter's findings (sdk/contact-words.ts), shared by the server, the SDK, the CLI and the autopilot. */
import { describe, expect, it } from 'vitest';
import { contactsIn, contactsSentence } from '../../sdk/index.ts';
import { contactsRefusal, noteRejection } from '../../server/domain/contacts-rule.ts';
import { contactsProblem } from '../../cli/commands/cards-create.ts';
import { defineAutopilot } from '../../sdk/autopilot/index.ts';

const MIXED = 'mail ivan@example.ru or call +7 912 345-67-89, again ivan@example.ru';

describe('contact words', () => {
  it('a clean text finds nothing', () => {
    expect(contactsIn('YouTube Premium 12 месяцев за 1990 ₽')).toBeNull();
    expect(contactsRefusal('YouTube Premium 12 месяцев за 1990 ₽', 'text')).toBeNull();
    expect(contactsRefusal(undefined, 'description')).toBeNull();
  });

  it('names every kind once, in order of appearance, and the first as written only when asked', () => {
    const found = contactsIn(MIXED)!;
    expect(found).toEqual({ kind: 'email', kinds: ['email', 'phone'], first: 'ivan@example.ru' });
    expect(contactsSentence('the text', found)).toBe('the text contains an e-mail address and a phone number; contacts are not allowed');
    expect(contactsSentence('a description', found, { quote: true })).toBe('a description contains an e-mail address "ivan@example.ru" and a phone number; contacts are not allowed');
  });

  it("the server's refusal: the body field's name, the first kind, the SDK's sentence, no contact echoed", () => {
    const refusal = contactsRefusal(MIXED, 'text')!;
    expect(refusal).toMatchObject({ kind: 'contacts', field: 'text', reason: 'email' });
    expect(refusal.detail).toBe(`text: ${contactsSentence('the text', contactsIn(MIXED)!)}`);
    expect(JSON.stringify(refusal)).not.toMatch(/ivan|912/);
    expect(noteRejection(MIXED, 'ord_1')).toBe(
      'contacts: the note contains an e-mail address and a phone number; contacts are not allowed, send it without them through POST /orders/ord_1/messages',
    );
  });

  it('the CLI and the autopilot say the same sentence', () => {
    expect(contactsProblem(MIXED)).toBe(contactsSentence('a description', contactsIn(MIXED)!, { quote: true }));
    expect(() => defineAutopilot({ replies: { templates: [{ keywords: ['when'], text: MIXED }] } })).toThrow(
      `${contactsSentence('the text', contactsIn(MIXED)!)}: the marketplace would refuse it`,
    );
  });
});
