/**
 * The seller's phone, its pure parts: commands read from a text (Latin, `/cmd@bot`, and the Russian
 * words only under a Russian seller), `/deliver ORDER [DATE] TEXT` read, an event as a message (its
 * line in the seller's language, HTML-escaped, the buttons an act fits), and the token taken out of
 * anything said.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseDeliverArgs, parsePhoneCommand } from '../../cli/commands/autopilot-phone.ts';
import { phoneMessage } from '../../cli/commands/autopilot-phone-words.ts';
import { joinedMessage, redactor } from '../../cli/commands/autopilot-telegram.ts';
import { useLanguage } from '../../cli/i18n/index.ts';
import { orderLink } from '../../sdk/autopilot/index.ts';
import { says } from '../../sdk/autopilot/words.ts';

afterEach(async () => {
  await useLanguage('en');
});

describe('phone commands', () => {
  it('reads the Latin commands, with arguments and a bot name; /start is help; a plain text is none', async () => {
    await useLanguage('en');
    expect(parsePhoneCommand('/status')).toEqual({ name: 'status', args: '' });
    expect(parsePhoneCommand('/Pause@my_shop_bot')).toEqual({ name: 'pause', args: '' });
    expect(parsePhoneCommand('/reply ord_1 Hello,\nthere')).toEqual({ name: 'reply', args: 'ord_1 Hello,\nthere' });
    expect(parsePhoneCommand('/start')).toEqual({ name: 'help', args: '' });
    expect(parsePhoneCommand('/launch')).toEqual({ name: 'unknown', args: '' });
    expect(parsePhoneCommand('31.01.2031 ready')).toBeUndefined();
    expect(parsePhoneCommand('/пауза')).toEqual({ name: 'unknown', args: '' });
  });

  it('takes the Russian words beside the Latin ones under a Russian seller', async () => {
    await useLanguage('ru');
    expect(parsePhoneCommand('/пауза')).toEqual({ name: 'pause', args: '' });
    expect(parsePhoneCommand('/Продолжить')).toEqual({ name: 'resume', args: '' });
    expect(parsePhoneCommand('/выдать ord_1 Готово')).toEqual({ name: 'deliver', args: 'ord_1 Готово' });
    expect(parsePhoneCommand('/status')).toEqual({ name: 'status', args: '' });
  });

  it('reads /deliver ORDER [DATE] TEXT: a day in either form, else all of it the note', () => {
    expect(parseDeliverArgs('ord_1 31.01.2031 Ready, enjoy')).toEqual({ order: 'ord_1', day: '2031-01-31', text: 'Ready, enjoy' });
    expect(parseDeliverArgs('ord_1 2031-01-31')).toEqual({ order: 'ord_1', day: '2031-01-31', text: '' });
    expect(parseDeliverArgs('ord_1 Ready 31.01.2031')).toEqual({ order: 'ord_1', text: 'Ready 31.01.2031' });
    expect(parseDeliverArgs('ord_1')).toEqual({ order: 'ord_1', text: '' });
    expect(parseDeliverArgs('  ')).toBeUndefined();
  });
});

describe('phone messages', () => {
  const needsHand = { at: '2026-11-28T10:00:00.000Z', rule: 'orders' as const, type: 'needs-hand', order: 'ord_1', card: 12, ...says('needsHand', { id: 'ord_1', number: 12, productType: 'subscription', price: 1500 }) };

  it('says an order that needs a hand in the seller\'s language, with Deliver and Reply', async () => {
    await useLanguage('ru');
    expect(phoneMessage(needsHand)).toEqual({
      text: '<b>ord_1</b> (№12 подписка, 1\u00a0500\u00a0₽) оплачен, и ни одно правило его не выдаёт: выдайте вручную',
      buttons: [[{ text: 'Выдать', callback_data: 'deliver:ord_1' }, { text: 'Ответить', callback_data: 'reply:ord_1' }]],
    });
  });

  it('escapes what Telegram would read as HTML; an event about no order has no buttons', async () => {
    await useLanguage('en');
    const refused = { at: needsHand.at, rule: 'webhooks' as const, type: 'refused', ...says('webhookRefused', { check: '<mismatch> & co' }) };
    expect(phoneMessage(refused).text).toContain('&lt;mismatch&gt; &amp; co');
    expect(phoneMessage(refused).buttons).toBeUndefined();
    const disputed = { ...needsHand, type: 'disputed', ...says('disputedByBuyer', { id: 'ord_1', number: 12 }) };
    expect(phoneMessage(disputed).buttons).toEqual([[{ text: 'Reply', callback_data: 'reply:ord_1' }]]);
  });
});

describe('the Timeline link (notify.telegram.orderUrl)', () => {
  const needsHand = { at: '2026-11-28T10:00:00.000Z', rule: 'orders' as const, type: 'needs-hand', order: 'ord_1', card: 12, ...says('needsHand', { id: 'ord_1', number: 12, productType: 'subscription', price: 1500 }) };
  const orderUrl = 'https://shop.example/orders/{order}?from=phone';

  it('follows the acts of a message about an order, its id put in the template, labelled in the seller\'s language', async () => {
    await useLanguage('ru');
    expect(phoneMessage(needsHand, orderUrl).buttons).toEqual([
      [
        { text: 'Выдать', callback_data: 'deliver:ord_1' },
        { text: 'Ответить', callback_data: 'reply:ord_1' },
        { text: 'Хронология', url: 'https://shop.example/orders/ord_1?from=phone' },
      ],
    ]);
    await useLanguage('en');
    expect(phoneMessage(needsHand, orderUrl).buttons![0]![2]).toEqual({ text: 'Timeline', url: 'https://shop.example/orders/ord_1?from=phone' });
  });

  it('is the only button of a message about an order with no act (a sale); none without the template or an order', async () => {
    await useLanguage('en');
    const paid = { ...needsHand, type: 'paid', ...says('paid', { id: 'ord_1', number: 12, productType: 'subscription', price: 1500 }) };
    expect(phoneMessage(paid, orderUrl).buttons).toEqual([[{ text: 'Timeline', url: 'https://shop.example/orders/ord_1?from=phone' }]]);
    expect(phoneMessage(paid).buttons).toBeUndefined();
    const refused = { at: needsHand.at, rule: 'webhooks' as const, type: 'refused', ...says('webhookRefused', { check: 'mismatch' }) };
    expect(phoneMessage(refused, orderUrl).buttons).toBeUndefined();
  });

  it('puts the id in URL-encoded, at every {order}', () => {
    expect(orderLink('https://a.example/{order}/t?o={order}', 'ord 1&x')).toBe('https://a.example/ord%201%26x/t?o=ord%201%26x');
  });
});

describe('the token', () => {
  it('is taken out of any text, whole, as its secret half, or URL-encoded', () => {
    const redact = redactor('123456:AAH-secret_part');
    const said = 'GET http://127.0.0.1/sandbox/telegram/bot123456:AAH-secret_part/getMe, bot123456%3AAAH-secret_part, AAH-secret_part';
    expect(redact(said)).toBe('GET http://127.0.0.1/sandbox/telegram/bot<token>/getMe, bot<token>, <token>');
  });
});

describe('what waits for a chat, joined', () => {
  const line = (n: number) => ({ text: `ord_${n} paid` });
  it('joins lines without buttons, in order, until one has buttons or the text would not fit', () => {
    const buttons = [[{ text: 'Deliver', callback_data: 'deliver:ord_9' }]];
    expect(joinedMessage([line(1), line(2), { text: 'ord_9 needs a hand', buttons }, line(3)])).toEqual({ message: { text: 'ord_1 paid\nord_2 paid' }, count: 2 });
    expect(joinedMessage([{ text: 'ord_9 needs a hand', buttons }, line(1)])).toEqual({ message: { text: 'ord_9 needs a hand', buttons }, count: 1 });
    const long = { text: 'x'.repeat(2500) };
    expect(joinedMessage([long, long, line(1)]).count).toBe(1);
    expect(() => joinedMessage([])).toThrow(TypeError);
  });
});
