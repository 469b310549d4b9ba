import { describe, expect, it } from 'vitest';
import { findContacts, hasContacts } from '../../sdk/contacts.ts';
import { foldText, nicknameKey } from '../../sdk/text-fold.ts';
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

/**
 * Unicode tricks (issue 13): each hides a contact behind code points a reader does not see, or sees
 * as something else. [description, text, kind, the original piece reported]
 */
const ZW = '\u200B';
const UNICODE_TRICKS: ReadonlyArray<readonly [string, string, ContactKind, string]> = [
  // invisible characters
  ['zero-width space inside an e-mail', `ivan${ZW}@${ZW}mail.ru`, 'email', `ivan${ZW}@${ZW}mail.ru`],
  ['zero-width joiner and non-joiner inside a phone', '+7\u200D999\u200C123 45 67', 'phone', '+7\u200D999\u200C123 45 67'],
  ['word joiner and BOM inside t.me', 't\u2060.\uFEFFme/ivan_shop', 'messenger', 't\u2060.\uFEFFme/ivan_shop'],
  ['bidi marks inside wa.me', 'wa\u200E.me/\u200F79991234567', 'messenger', 'wa\u200E.me/\u200F79991234567'],
  ['bidi isolates around the @ of a handle', 'пиши \u2066@ivan_petrov\u2069', 'messenger', '@ivan_petrov'],
  ['Mongolian vowel separator and Hangul filler in an e-mail', 'ivan\u180E@gmail\u3164.com', 'email', 'ivan\u180E@gmail\u3164.com'],
  ['combining strike-through over t.me', 't\u0336.\u0336m\u0336e\u0336/ivan', 'messenger', 't\u0336.\u0336m\u0336e\u0336/ivan'],
  ['variation selectors inside a phone', '8\uFE0F999\uFE0F1234567', 'phone', '8\uFE0F999\uFE0F1234567'],
  ['tag characters inside an e-mail', 'ivan@\u{E0061}mail.ru', 'email', 'ivan@\u{E0061}mail.ru'],
  // full-width and compatibility forms
  ['full-width e-mail', 'ｉｖａｎ＠ｍａｉｌ．ｒｕ', 'email', 'ｉｖａｎ＠ｍａｉｌ．ｒｕ'],
  ['full-width phone', '＋７ ９９９ １２３－４５－６７', 'phone', '＋７ ９９９ １２３－４５－６７'],
  ['full-width t.me link', 'ｔ．ｍｅ／ivan_shop', 'messenger', 'ｔ．ｍｅ／ivan_shop'],
  ['mathematical bold digits', 'звоните 𝟖𝟗𝟗𝟗𝟏𝟐𝟑𝟒𝟓𝟔𝟕', 'phone', '𝟖𝟗𝟗𝟗𝟏𝟐𝟑𝟒𝟓𝟔𝟕'],
  ['circled digits', 'тел: ⑧⑨⑨⑨①②③④⑤⑥⑦', 'phone', '⑧⑨⑨⑨①②③④⑤⑥⑦'],
  ['mathematical letters in a handle', '@𝐢𝐯𝐚𝐧_𝐬𝐡𝐨𝐩', 'messenger', '@𝐢𝐯𝐚𝐧_𝐬𝐡𝐨𝐩'],
  ['small full stop in an e-mail', 'ivan@mail﹒ru', 'email', 'ivan@mail﹒ru'],
  // digits of other scripts
  ['Arabic-Indic digits', 'мой номер +٧ ٩٩٩ ١٢٣ ٤٥ ٦٧', 'phone', '+٧ ٩٩٩ ١٢٣ ٤٥ ٦٧'],
  ['Persian digits', '۸۹۹۹۱۲۳۴۵۶۷', 'phone', '۸۹۹۹۱۲۳۴۵۶۷'],
  ['Devanagari digits', 'whatsapp ८९९९१२३४५६७', 'phone', '८९९९१२३४५६७'],
  ['Bengali digits in wa.me', 'wa.me/৭৯৯৯১২৩৪৫৬৭', 'messenger', 'wa.me/৭৯৯৯১২৩৪৫৬৭'],
  ['mixed scripts within one number', '+7 ٩٩٩ १२३ ４５ 67', 'phone', '+7 ٩٩٩ १२३ ４５ 67'],
  // look-alike letters
  ['Cyrillic т and е in t.me', 'пиши в т.mе/ivan_shop', 'messenger', 'т.mе/ivan_shop'],
  ['all-Cyrillic т.ме', 'т.ме/ivan_shop', 'messenger', 'т.ме/ivan_shop'],
  ['capital Cyrillic Т.МЕ', 'Т.МЕ/IVAN_SHOP', 'messenger', 'Т.МЕ/IVAN_SHOP'],
  ['Cyrillic а in wa.me', 'wа.me/79991234567', 'messenger', 'wа.me/79991234567'],
  ['Greek ο and Cyrillic к in ok.ru', 'οк.ru/profile/123456', 'link', 'οк.ru/profile/123456'],
  ['Cyrillic о in vk.com', 'vk.cоm/id12345', 'link', 'vk.cоm/id12345'],
  ['Cyrillic look-alikes in t.me with a full-width slash', 'т.mе／ivan', 'messenger', 'т.mе／ivan'],
  ['Cyrillic а and о in a mailbox domain', 'ivan@gmаil.cоm', 'email', 'ivan@gmаil.cоm'],
  ['Cyrillic letters in the local part and the domain', 'іvаn.реtrоv@mаil.ru', 'email', 'іvаn.реtrоv@mаil.ru'],
  ['Cyrillic а and е in telegram.me', 'telegrаm.mе/ivan', 'messenger', 'telegrаm.mе/ivan'],
  ['Greek ο in a handle', '@ivan_sh\u03BFp', 'messenger', '@ivan_sh\u03BFp'],
  ['Cyrillic handle spelling a Latin one', 'пиши @сорок_shop', 'messenger', '@сорок_shop'],
  ['Armenian օ in a handle', '@ivan_sh\u0585p', 'messenger', '@ivan_sh\u0585p'],
  ['Cyrillic З and б for digits in a phone', '8 9ЗЗ 12З-4б-67', 'phone', '8 9ЗЗ 12З-4б-67'],
  ['look-alikes in a disguised e-mail', 'ivan (at) gmаil (dot) com', 'email', 'ivan (at) gmаil (dot) com'],
  // non-ASCII domains
  ['Cyrillic domain', 'почта: иван@почта.рф', 'email', 'иван@почта.рф'],
  ['Cyrillic domain with a Latin local part', 'ivan@магазин.рус', 'email', 'ivan@магазин.рус'],
  ['accented Latin domain', 'hans@müller.de', 'email', 'hans@müller.de'],
  ['punycode domain', 'ivan@xn--80a1acny.xn--p1ai', 'email', 'ivan@xn--80a1acny.xn--p1ai'],
  ['Cyrillic domain, disguised @ and dot', 'иван собака почта точка рф', 'email', 'иван собака почта точка рф'],
  ['Chinese domain', 'wang@例子.中国', 'email', 'wang@例子.中国'],
  // several tricks at once
  ['full-width, zero-width and Cyrillic in one e-mail', `ｉｖ${ZW}аn＠gmаil．com`, 'email', `ｉｖ${ZW}аn＠gmаil．com`],
  ['zero-width and Arabic digits after a messenger word', `ватсап ٨${ZW}٩٩٩١٢٣٤٥٦٧`, 'phone', `٨${ZW}٩٩٩١٢٣٤٥٦٧`],
];

/** Ordinary text in Russian and English with numbers, and with the characters the tricks use. */
const UNICODE_HONEST: readonly string[] = [
  'Netflix 4K',
  'Netflix 4K Ultra HD на 4 экрана',
  'YouTube Premium 12 месяцев за 1990 ₽',
  'YouTube Premium 12 месяцев за 1 990 ₽, продление 12.01.2027',
  'Spotify Premium — 3 месяца за 599 ₽, заказ №48213 оформлен 21.11.2026',
  'Заказ ord_8f2k19 от 2026-11-21 оплачен: 2 490 ₽',
  'Order #1048576 paid on 21 Nov 2026, total $19.99',
  'Цена：１９９０ ₽（полная）', // full-width digits and punctuation in a price
  'Скидка ５０％ до ３１．１２．２０２６',
  'Цена ١٩٩٠ ₽ за 12 месяцев', // Arabic-Indic digits in a price
  'Код активации придёт в чат заказа в течение 5 минут',
  'Доступ на 30 дней, 4 устройства, 1080p',
  'т.е. подписка продлевается сама, см. п. 3.2 условий',
  'г. Москва, ул. Тверская, д. 7, с 10:00 до 19:00',
  'Сорок минут на активацию, мама разберётся',
  'Поддержка: в чат заказа, ответ в течение 2 ч.',
  'Версия 3.14.2 (сборка 20261121), Windows/macOS/Linux',
  'Размер: 1920×1080, 60 fps, HDR10+',
  'Пакет «Всё включено»: ТВ, кино, музыка — 399 ₽/мес',
  'Netflix Premium UHD на 12 мес. — 8 990 ₽',
  'Каталог: сайт.рф без логина',
  'C\u00ADom\u00ADbo sub\u00ADscrip\u00ADtion for 12 months, 2\u202F990 ₽', // soft hyphens and a narrow no-break space
  'ChatGPT Plus на 1 месяц — 2 290 ₽; ключ ABCDE-FGHIJ-12345',
  'Premium at 50% off until 31.12.2026',
  'Арабский: مرحبا ١٢٣, हिन्दी: नमस्ते १२३',
  'Telegram Premium на 12 месяцев: 2 990 ₽ (подарком на ваш аккаунт)',
];

describe('findContacts: unicode tricks are caught', () => {
  it('has the cases of issue 13 and more', () => {
    expect(UNICODE_TRICKS.length).toBeGreaterThanOrEqual(40);
  });
  it.each(UNICODE_TRICKS)('%s', (_what, text, kind, match) => {
    const found = findContacts(text);
    expect(found.length, text).toBeGreaterThan(0);
    expect(found[0]).toMatchObject({ kind, match });
    expect(text.slice(found[0]!.index, found[0]!.index + match.length)).toBe(match);
  });
  it('the plain (unfolded) reading keeps Cyrillic words: a Cyrillic marker and a look-alike domain together', () => {
    expect(findContacts('пишите на ivan собака gmаil.com')).toMatchObject([{ kind: 'email', match: 'ivan собака gmаil.com' }]);
    expect(findContacts('тел: +7 ９９９ 123-45-67')).toMatchObject([{ kind: 'phone' }]);
  });
});

describe('findContacts: ordinary text with numbers and other scripts passes', () => {
  it.each(UNICODE_HONEST)('%s', (text) => {
    expect(findContacts(text)).toEqual([]);
  });
});

describe('foldText and nicknameKey', () => {
  it('folds for reading and keeps a map back to the original', () => {
    const text = 'ｔ\u200B.ме/٨';
    const f = foldText(text);
    expect(f.plain).toBe('t.ме/8');
    expect(f.latin).toBe('t.me/8');
    expect(f.plain.length).toBe(f.latin.length);
    expect(f.from).toEqual([0, 2, 3, 4, 5, 6]);
    expect(f.to).toEqual([1, 3, 4, 5, 6, 7]);
  });
  it('leaves Cyrillic prose alone in the Latin reading', () => {
    expect(foldText('Сорок минут, мама').latin).toBe('Сорок минут, мама');
  });
  it('nicknames that look alike share a key; different letters do not', () => {
    const key = nicknameKey('ivan_shop');
    for (const twin of ['Ivan_Shop', 'іvаn_shор', 'ＩＶＡＮ_ｓｈｏｐ', 'iv\u200Ban_sh\u00ADop', 'iva\u0336n_shop']) expect(nicknameKey(twin), twin).toBe(key);
    expect(nicknameKey('сорок')).toBe(nicknameKey('copok'));
    expect(nicknameKey('Иван')).not.toBe(nicknameKey('ivan'));
    expect(nicknameKey('Иван')).toBe(nicknameKey('иван'));
    expect(nicknameKey('seller1')).not.toBe(nicknameKey('sellerl'));
    expect(nicknameKey('shop٣')).toBe(nicknameKey('shop3'));
  });
});

/** Phones behind letters for digits and behind slashes (issue "Never silent", item 11): [text, match]. */
const DIGIT_TRICKS: ReadonlyArray<readonly [string, string]> = [
  ['Звоните 8 999 I23 45 67', '8 999 I23 45 67'],
  ['call 8 9O0 123-45-67 after six', '8 9O0 123-45-67'],
  ['номер: 8 9OO I23 45 67', '8 9OO I23 45 67'],
  ['8999I234567', '8999I234567'],
  ['+7 9l2 345 67 89', '+7 9l2 345 67 89'],
  ['Cyrillic О for zero: 8 9О0 123 45 67', '8 9О0 123 45 67'],
  ['Ukrainian і for one: 8 999 і23 45 67', '8 999 і23 45 67'],
  ['пишите 8/999/123/45/67', '8/999/123/45/67'],
  ['tel 8/999/123/4567', '8/999/123/4567'],
  ['+7/999/123/45/67', '+7/999/123/45/67'],
  ['мобильный 999/123/45/67', '999/123/45/67'],
  ['8 / 999 / 123 / 45 / 67', '8 / 999 / 123 / 45 / 67'],
];

/** Prose with numbers, prices, dates, order numbers — and the letters I and O and slashes near them. */
const DIGIT_HONEST: readonly string[] = [
  'I ordered 3 codes for 1 990 ₽ on 21.11.2026, order #1048576',
  'Order 1234567 is OK, I checked it at 12:30',
  'IP 192.168.100.200, port 8080, I/O errors: 0',
  'Цены: 299 / 599 / 999 ₽, скидка 10%',
  'Дата 21/11/2026, время 18/30, заказ 48213',
  'Размеры 120/80/45 см, вес 2/3 кг',
  'OK 100 I 200 O 300 — three lots',
  'Windows 10 Pro, Office 2021, iOS 17 and Android 14',
  'Заказ №10045678 оплачен 2026-11-21, I think it is fine',
  'Pack O2 for 1 500 ₽, lot I-45, batch 2026/11',
  'Тарифы 899 I290 1990',
  'Order ord_8f2k19 (№ 48 213) paid 21 Nov 2026: 2 490 ₽, 1 of 10 left',
  'Сезоны 1/2/3, серии 10/12/8 — всё доступно',
  'Спасибо за заказ 1234 5678! Код придёт в течение 15 минут, I promise.',
];

describe('findContacts: letters for digits and slash-split phones', () => {
  it.each(DIGIT_TRICKS)('%s', (text, match) => {
    const found = findContacts(text);
    expect(found[0], text).toMatchObject({ kind: 'phone', match });
    expect(text.slice(found[0]!.index, found[0]!.index + match.length)).toBe(match);
  });
  it.each(DIGIT_HONEST)('passes: %s', (text) => {
    expect(findContacts(text)).toEqual([]);
  });
});
