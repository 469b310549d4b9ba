import { describe, expect, it } from 'vitest';
import { findContacts, hasContacts } from '../../sdk/contacts.ts';
import type { ContactKind } from '../../sdk/contacts.ts';

/** [text, expected kind of the (first) find, expected matched piece] */
const POSITIVE: ReadonlyArray<readonly [string, ContactKind, string]> = [
  // e-mail, plain and lightly disguised
  ['Пишите на ivan.petrov@mail.ru, отвечу быстро', 'email', 'ivan.petrov@mail.ru'],
  ['Support: John.Doe+shop@Example.co.uk', 'email', 'John.Doe+shop@Example.co.uk'],
  ['Почта: ivan @ mail.ru', 'email', 'ivan @ mail.ru'],
  ['mail me: ivan@ gmail.com', 'email', 'ivan@ gmail.com'],
  ['Контакт: name (at) mail.ru', 'email', 'name (at) mail.ru'],
  ['name[at]gmail[dot]com', 'email', 'name[at]gmail[dot]com'],
  ['почта name собака mail точка ru', 'email', 'name собака mail точка ru'],
  ['email: ivan_petrov (собака) yandex (точка) ru', 'email', 'ivan_petrov (собака) yandex (точка) ru'],
  ['write to ivan at gmail dot com', 'email', 'ivan at gmail dot com'],
  ['or john at gmail.com', 'email', 'john at gmail.com'],
  // phones
  ['Телефон +7 999 123-45-67', 'phone', '+7 999 123-45-67'],
  ['Звоните 8 (999) 123 45 67.', 'phone', '8 (999) 123 45 67'],
  ['мой номер 89991234567', 'phone', '89991234567'],
  ['+7(999)1234567', 'phone', '+7(999)1234567'],
  ['UK office: +44 20 7946 0958', 'phone', '+44 20 7946 0958'],
  ['Call +1 (212) 555-0199 anytime', 'phone', '+1 (212) 555-0199'],
  ['8.999.123.45.67', 'phone', '8.999.123.45.67'],
  ['Бесплатно: 8-800-555-35-35', 'phone', '8-800-555-35-35'],
  ['Москва 8 (495) 123-45-67', 'phone', '8 (495) 123-45-67'],
  ['сотовый (999) 123-45-67', 'phone', '(999) 123-45-67'],
  ['звоните 999 123 45 67', 'phone', '999 123 45 67'],
  ['8999 123 45 67', 'phone', '8999 123 45 67'],
  ['8 9 9 9 1 2 3 4 5 6 7', 'phone', '8 9 9 9 1 2 3 4 5 6 7'],
  ['тел. 123-45-67', 'phone', 'тел. 123-45-67'],
  ['Phone: 555 01 99 12', 'phone', 'Phone: 555 01 99 12'],
  ['whatsapp 89991234567', 'phone', '89991234567'],
  // messenger and social links
  ['Пишите в t.me/ivan_shop', 'messenger', 't.me/ivan_shop'],
  ['https://telegram.me/ivan', 'messenger', 'https://telegram.me/ivan'],
  ['Канал: t.me/+AbCdEf123.', 'messenger', 't.me/+AbCdEf123'],
  ['t . me / ivan', 'messenger', 't . me / ivan'],
  ['wa.me/79991234567', 'messenger', 'wa.me/79991234567'],
  ['https://api.whatsapp.com/send?phone=79991234567', 'messenger', 'https://api.whatsapp.com/send?phone=79991234567'],
  ['discord.gg/abc123', 'messenger', 'discord.gg/abc123'],
  ['viber://chat?number=79991234567', 'messenger', 'viber://chat?number=79991234567'],
  ['Моя страница vk.com/id12345', 'link', 'vk.com/id12345'],
  ['Follow https://instagram.com/shop.name!', 'link', 'https://instagram.com/shop.name'],
  ['ok.ru/profile/123456', 'link', 'ok.ru/profile/123456'],
  // handles and messenger words
  ['Пишите @ivan_petrov', 'messenger', '@ivan_petrov'],
  ['My telegram is @ivan_shop, write there', 'messenger', '@ivan_shop'],
  ['тг ivan_777', 'messenger', 'тг ivan_777'],
  ['tg: name', 'messenger', 'tg: name'],
  ['ТГ: @shopbot', 'messenger', 'ТГ: @shopbot'],
  ['ватсап 9991234567', 'messenger', 'ватсап 9991234567'],
  ['Вайбер: ivanpetrov', 'messenger', 'Вайбер: ivanpetrov'],
  ['skype: ivan.petrov', 'messenger', 'skype: ivan.petrov'],
  ['Дискорд: nick_1234', 'messenger', 'Дискорд: nick_1234'],
  ['Discord: ivan#1234', 'messenger', 'Discord: ivan#1234'],
  ['Мой ник в телеге - ivanpetrov', 'messenger', 'телеге - ivanpetrov'],
  ['Telegram ник ivanpetrov', 'messenger', 'Telegram ник ivanpetrov'],
  ['пиши в вк: id1234567', 'messenger', 'вк: id1234567'],
  ['Мой инстаграм: @shop_name', 'messenger', 'инстаграм: @shop_name'],
];

/** Ordinary product and order text: none of it is a contact. */
const NEGATIVE: readonly string[] = [
  'Подписка на 12 месяцев, цена 1990 руб',
  'Стоимость 2\u00A0990 ₽, со скидкой 2 490 ₽',
  'Стоимость: 1 290 ₽ / 3 490 ₽ / 11 990 ₽',
  'Цены: 8 990, 9 990, 12 990 руб',
  'Тарифы 899 1290 1990',
  'Цена за 1 шт: 7 999 ₽',
  'Access for 30 days, renews every 12 months',
  'Дата окончания: 2026-11-21',
  'Действует до 21.11.2026, продление в 12:00 по МСК',
  'Period 2026-01-01 – 2026-12-31',
  'Версия v2.3.1, сборка 20261121',
  'Тариф Premium Family на 6 человек',
  'Telegram Premium на 12 месяцев',
  'Telegram Premium Gift for 12 months',
  'Telegram Stars 10000 звёзд',
  'Telegram Stars 1 000 000',
  'Telegram: активация через официального бота',
  'Telegram - Premium',
  'Discord Nitro — 1 месяц',
  'Discord: Nitro Basic',
  'VK Combo на 3 месяца, VK Музыка и vk.com без рекламы',
  'Доступ к vk.com/music',
  'Works in Telegram, WhatsApp, Viber and Skype',
  'Доставка в телеграм-бот автоматически',
  'Заказ ord_abc123 выполнен',
  'Облако 1 TB / 2 TB / 5 TB',
  'Разрешение 1920x1080, 60 fps',
  'Официальный сайт https://www.example.com/pricing',
  'YouTube Premium — youtube.com/premium',
  'Активация на вашу почту @gmail.com',
  'ChatGPT Plus at chatgpt.com, activation at openai.com',
  'npm i @types/node@20',
  'icon@2x.png',
  'Поддержка 24/7, ответ в течение 15 минут',
  'Ответ в течение 8 часов, 7 дней в неделю',
  'Скидка 50% до 31.12.2026, промокод SALE2026',
  'Номер заказа: 1234567890, серийный номер 9876543210',
  'ИНН 7707083893, КПП 773601001',
  'Windows 10 Pro key: ABCDE-12345-FGHIJ',
  'Поддерживаемые модели: iPhone 8, 11, 12, 13, 14, 15',
  'Лимит 100 000 токенов, 1 000 000 в месяц',
  '+30 дней бесплатно, +1 месяц в подарок',
  '5000 тг за 12 мес',
  'Аккаунт ChatGPT Plus: логин и пароль придут в чат заказа',
  'Пишите в чат заказа — отвечу за 5 минут',
  'Instructions: https://help.example.com/telegram/setup',
  'IP 192.168.100.200, port 8080',
];

describe('findContacts: contacts are found', () => {
  it('has enough cases', () => {
    expect(POSITIVE.length).toBeGreaterThanOrEqual(25);
  });
  it.each(POSITIVE)('%s', (text, kind, match) => {
    const found = findContacts(text);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toMatchObject({ kind, match });
    expect(text.slice(found[0]!.index, found[0]!.index + match.length)).toBe(match);
    expect(hasContacts(text)).toBe(true);
  });
});

describe('findContacts: ordinary text passes', () => {
  it('has enough cases', () => {
    expect(NEGATIVE.length).toBeGreaterThanOrEqual(20);
  });
  it.each(NEGATIVE)('%s', (text) => {
    expect(findContacts(text)).toEqual([]);
    expect(hasContacts(text)).toBe(false);
  });
});

describe('findContacts: behaviour', () => {
  it('reports every contact once, in order of appearance', () => {
    const text = 'Звоните +7 999 123-45-67 или пишите ivan@mail.ru, а ещё t.me/ivan_shop и @ivan_petrov';
    expect(findContacts(text).map((c) => [c.kind, c.match])).toEqual([
      ['phone', '+7 999 123-45-67'],
      ['email', 'ivan@mail.ru'],
      ['messenger', 't.me/ivan_shop'],
      ['messenger', '@ivan_petrov'],
    ]);
  });
  it('does not report a phone inside a messenger link twice', () => {
    expect(findContacts('wa.me/+79991234567')).toEqual([{ kind: 'messenger', match: 'wa.me/+79991234567', index: 0 }]);
  });
  it('sees through zero-width characters and reports the original text', () => {
    const text = 'пиши: t.m\u200Be/ivan или 8\u200B999\u00AD1234567';
    const found = findContacts(text);
    expect(found.map((c) => c.kind)).toEqual(['messenger', 'phone']);
    expect(found[0]!.match).toBe('t.m\u200Be/ivan');
    expect(found[1]!.match).toBe('8\u200B999\u00AD1234567');
    expect(text.indexOf(found[1]!.match)).toBe(found[1]!.index);
  });
  it('answers nothing for empty text', () => {
    expect(findContacts('')).toEqual([]);
    expect(hasContacts('')).toBe(false);
  });
  it('stays fast on long hostile input', () => {
    const text = `${'a.'.repeat(20_000)} ${'8 9 '.repeat(5_000)} ${'@abcdefgh '.repeat(5_000)} ${'1 '.repeat(20_000)}`;
    const started = Date.now();
    findContacts(text);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
