/**
 * The reference server's fixture tax registry, keyed by INN (gaps.md, "Papers read" → Registry).
 *
 * Listed INNs carry their registered names. An INN with valid check digits that is not listed gets a
 * deterministic made-up name derived from the INN. INN validation (length, check digits) lives
 * elsewhere: nothing here checks an INN.
 *
 * Every listed INN has valid check digits (computed once and hard-coded; test/server/seed.test.ts
 * re-checks them): 10 digits for a company, 12 digits for a sole trader or a self-employed person.
 */
import { createHash } from 'node:crypto';
import type { SellerType } from '../../sdk/contract/enums.ts';

export interface RegistryEntry {
  name: string;
  sellerType: SellerType;
}

export const REGISTRY: Record<string, RegistryEntry> = {
  // companies (10 digits)
  '7701234560': { name: 'ООО «Цифровые Подписки»', sellerType: 'company' },
  '7810456789': { name: 'ООО «Игровые Ключи»', sellerType: 'company' },
  '5403123452': { name: 'ООО «Облачный Сервис»', sellerType: 'company' },
  // sole traders (12 digits)
  '771234567859': { name: 'ИП Петров Иван Сергеевич', sellerType: 'ip' },
  '501234567802': { name: 'ИП Кузнецова Мария Андреевна', sellerType: 'ip' },
  '660123456729': { name: 'ИП Соколов Дмитрий Олегович', sellerType: 'ip' },
  // self-employed (12 digits)
  '165512345632': { name: 'Смирнова Анна Викторовна', sellerType: 'self_employed' },
  '780123456724': { name: 'Волков Алексей Николаевич', sellerType: 'self_employed' },
};

/** [male, female] surname forms. */
const SURNAMES: readonly (readonly [string, string])[] = [
  ['Иванов', 'Иванова'],
  ['Орлов', 'Орлова'],
  ['Лебедев', 'Лебедева'],
  ['Морозов', 'Морозова'],
  ['Новиков', 'Новикова'],
  ['Фёдоров', 'Фёдорова'],
  ['Захаров', 'Захарова'],
  ['Белов', 'Белова'],
  ['Гусев', 'Гусева'],
  ['Ершов', 'Ершова'],
  ['Ильин', 'Ильина'],
  ['Комаров', 'Комарова'],
  ['Титов', 'Титова'],
  ['Жуков', 'Жукова'],
  ['Медведев', 'Медведева'],
  ['Тарасов', 'Тарасова'],
];
const MALE_NAMES = ['Андрей', 'Борис', 'Виктор', 'Григорий', 'Евгений', 'Кирилл', 'Максим', 'Никита', 'Павел', 'Роман', 'Степан', 'Юрий'];
const FEMALE_NAMES = ['Алина', 'Вера', 'Дарья', 'Екатерина', 'Ирина', 'Ксения', 'Людмила', 'Наталья', 'Ольга', 'Полина', 'Светлана', 'Юлия'];
/** [male, female] patronymic forms. */
const PATRONYMICS: readonly (readonly [string, string])[] = [
  ['Александрович', 'Александровна'],
  ['Владимирович', 'Владимировна'],
  ['Геннадьевич', 'Геннадьевна'],
  ['Дмитриевич', 'Дмитриевна'],
  ['Игоревич', 'Игоревна'],
  ['Михайлович', 'Михайловна'],
  ['Петрович', 'Петровна'],
  ['Сергеевич', 'Сергеевна'],
  ['Юрьевич', 'Юрьевна'],
  ['Олегович', 'Олеговна'],
];
const COMPANY_STEMS = ['Цифро', 'Софт', 'Гейм', 'Медиа', 'Инфо', 'Техно', 'Нео', 'Мега', 'Вектор', 'Альфа', 'Сигма', 'Квант'];
const COMPANY_ENDINGS = ['Маркет', 'Трейд', 'Сервис', 'Лайн', 'Плюс', 'Систем', 'Групп', 'Сфера', 'Лаб', 'Про', 'Логик', 'Стор'];

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

/** A deterministic made-up name for an INN the registry does not list. */
function madeUpName(inn: string, sellerType: SellerType): string {
  const h = createHash('sha256').update(`registry:${inn}`).digest();
  if (sellerType === 'company') {
    return `ООО «${pick(COMPANY_STEMS, h.readUInt16BE(0))}${pick(COMPANY_ENDINGS, h.readUInt16BE(2))}»`;
  }
  const female = (h[4] as number) % 2 === 1;
  const g = female ? 1 : 0;
  const surname = pick(SURNAMES, h.readUInt16BE(5))[g];
  const given = pick(female ? FEMALE_NAMES : MALE_NAMES, h.readUInt16BE(7));
  const patronymic = pick(PATRONYMICS, h.readUInt16BE(9))[g];
  const person = `${surname} ${given} ${patronymic}`;
  return sellerType === 'ip' ? `ИП ${person}` : person;
}

/**
 * The registry name for an INN: the listed name, or, for an unlisted INN, a deterministic made-up
 * one shaped by the seller type (`ООО «…»`, `ИП …`, or a bare full name for the self-employed).
 */
export function registryName(inn: string, sellerType: SellerType): string {
  const listed = REGISTRY[inn];
  return listed ? listed.name : madeUpName(inn, sellerType);
}

/** The bank of the fixture payout accounts (a Moscow BIK; not a settlement-centre BIK). */
export const FIXTURE_BIK = '044525225';

/**
 * Fixture settlement accounts, valid for {@link FIXTURE_BIK} under the Bank of Russia control-digit
 * rule (BIK digits 7–9 + account = 23 digits, weights 7,1,3 repeating, sum ≡ 0 mod 10).
 * Balance accounts: 40817 (individual), 40802 (sole trader), 40702 (company).
 */
export const FIXTURE_ACCOUNTS: Record<SellerType, string> = {
  self_employed: '40817810438000012345',
  ip: '40802810838000012345',
  company: '40702810938000012345',
};

/** The listed INN used by the fixture papers of each seller type. */
export const FIXTURE_INNS: Record<SellerType, string> = {
  company: '7701234560',
  ip: '771234567859',
  self_employed: '165512345632',
};

export const FIXTURE_KPP = '773601001';

export interface FixturePapers {
  /** A base nickname; the caller makes it unique. */
  nickname?: string;
  sellerType: SellerType;
  inn: string;
  registryName: string;
  bankAccount: { bik: string; account: string; name: string };
  /** Companies only. */
  kpp?: string;
}

/** A complete set of admission papers for the sandbox's "admission complete". */
export function FIXTURE_PAPERS(sellerType: SellerType): FixturePapers {
  const inn = FIXTURE_INNS[sellerType];
  const name = registryName(inn, sellerType);
  const papers: FixturePapers = {
    nickname: 'sandbox-seller',
    sellerType,
    inn,
    registryName: name,
    bankAccount: { bik: FIXTURE_BIK, account: FIXTURE_ACCOUNTS[sellerType], name },
  };
  if (sellerType === 'company') papers.kpp = FIXTURE_KPP;
  return papers;
}
