/**
 * The contact filter, shared by the reference server and the SDK (and so the CLI and its prompts).
 * The marketplace forbids contact details (e-mail, phone, messenger, social profile) in card descriptions, messages, delivery notes, answers, replies and complaints; the
 * server refuses such text with kind `contacts` (or sets `noteRejected` on a delivery).
 *
 * Design: precision first, since a false positive blocks an honest seller. What counts:
 *   - e-mail addresses, also lightly disguised: `name (at) mail.ru`, `name[at]gmail[dot]com`,
 *     `name собака mail точка ru`, `name @ mail.ru`. A bare English ` at ` only counts together with
 *     a disguised dot or a well-known mailbox domain (`Plus at chatgpt.com` is ordinary text), and
 *     `@gmail.com` with nothing before it (“activation on your @gmail.com address”) is not an address;
 *   - phone numbers, by a scan of the digits (./contact-phones.ts): Russian (`+7 …`, `7`/`8 …` with an
 *     area code 3xx–9xx, and 10-digit `9xx` mobiles written in groups), international (`+` and 10–15
 *     digits), and any number of 6+ digits right after `тел.`/`phone:`-like words, however the digits
 *     are grouped and whatever runs of characters that are neither letters nor digits part them;
 *   - messenger links (`t.me/…`, `telegram.me/…`, `wa.me/…`, `discord.gg/…`, `viber://…`, …, kind
 *     `messenger`) and social-profile links (`vk.com/…`, `instagram.com/…`, …, kind `link`) that carry a
 *     path — a bare `vk.com` names the service, not a person;
 *   - `@handle` (5–32 Latin letters, digits, `_`, beginning with a letter) that is not part of a
 *     domain (`@gmail.com`) or a package name (`@types/node`);
 *   - a messenger word (`telegram`, `телеграм`, `тг`, `tg`, `whatsapp`, `ватсап`, `viber`, `вайбер`,
 *     `skype`, `discord`, `инст`, `vk`, …) followed by a handle or a number: always when the handle has
 *     a digit or `_` or an `@`, or it is a run of 8+ digits (an id); a plain word only after `:`/`-`/`ник`
 *     (`tg: name`), and never a product word (`Telegram Premium`, `Discord: Nitro`).
 * Generic URLs (the vendor's own site, `youtube.com/premium`) are not contacts. Prices, dates,
 * durations, versions, resolutions, sizes and order ids are never matched.
 *
 * The text is folded before matching (./text-fold.ts): NFKC (full-width `ｔ．ｍｅ`, `＋７`), invisible
 * characters dropped (zero-width, soft hyphen, bidi marks, stray combining marks), digits of any script
 * as ASCII (`٨٩٩٩…`), and, in a second reading, look-alike letters of other scripts as Latin inside
 * address-like tokens (`т.ме/ivan`, `ivan@gmаil.com` with a Cyrillic `а`). E-mail domains may be
 * non-ASCII (`ivan@почта.рф`, `xn--…` punycode). The reported `match` is the original text, with its
 * tricks. Letters for digits (`8 999 I23 45 67`, `8 9O0 …`) are read as digits inside runs that hold
 * six real digits or more (text-fold.ts, the `digits` reading), and a phone may be split by any run of
 * non-alphanumeric characters (`8/999/123/45/67`, `8_____916_____555_____44_____33`). Not covered (left open): numbers spelled in words (`восемь девятьсот…`), and
 * spaced-out e-mails without any `@`/`at`/`собака` marker.
 */

import { findPhones } from './contact-phones.ts';
import { foldText } from './text-fold.ts';
import type { ContactKind } from './contract/error-data.ts';

/** What the filter finds: the contract's `CONTACT_KINDS` (the `reason` of a `contacts` refusal). */
export type { ContactKind };

export interface ContactMatch {
  kind: ContactKind;
  /** The matched piece of the original text. */
  match: string;
  /** Offset of `match` in the original text (UTF-16 code units). */
  index: number;
}

// ---------------------------------------------------------------------------------------------
// Shared regex pieces (all regexes use the `u` and `i` flags)

/**
 * A regex built on first use. Building these (Unicode classes, case-insensitive) costs ~2 ms, which
 * a program that imports the filter without using it (a CLI command that only lists cards) must not pay.
 */
function lazyRegExp(pattern: string, flags: string): () => RegExp {
  let built: RegExp | undefined;
  return () => (built ??= new RegExp(pattern, flags));
}

/** Not preceded by a letter, digit or underscore of any script (JS `\b` knows only ASCII). */
const NOT_AFTER_WORD = String.raw`(?<![\p{L}\p{N}_])`;
/** Not followed by a letter, digit or underscore of any script. */
const NOT_BEFORE_WORD = String.raw`(?![\p{L}\p{N}_])`;

// ---------------------------------------------------------------------------------------------
// E-mail

const AT_BRACKETED = String.raw`\s?[(\[{<]\s?(?:at|собака|собачка)\s?[)\]}>]\s?`;
const AT_WORD = String.raw`\s(?:at|собака|собачка)\s`;
const AT = String.raw`(?<at>@\s?|\s@\s|${AT_BRACKETED}|${AT_WORD})`;
const DOT_DISGUISED = String.raw`\s?[(\[{<]\s?(?:dot|точка|тчк)\s?[)\]}>]\s?|\s(?:dot|точка|тчк)\s|\s\.\s`;
const DOT = String.raw`(?:\.|${DOT_DISGUISED})`;
/** A domain label of any script (`почта`, `müller`); punycode labels are ASCII. */
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}\-]{0,61}[\p{L}\p{N}])?`;
const TLD = String.raw`\p{L}{2,24}|xn--[a-z0-9\-]{1,59}`;
const EMAIL_RE = lazyRegExp(
  String.raw`(?<![\p{L}\p{N}._%+\-])(?<local>[\p{L}\p{N}](?:[\p{L}\p{N}._%+\-]{0,63}[\p{L}\p{N}_])?)${AT}` +
    String.raw`(?<domain>(?:${LABEL}${DOT})+(?<tld>${TLD}))(?![\p{L}\p{N}_\-])`,
  'giu',
);
const DISGUISED_DOT_TEST = lazyRegExp(DOT_DISGUISED, 'iu');

/** Mailbox providers: with these, even a bare ` at ` is an e-mail (`ivan at gmail.com`). */
const MAILBOX_DOMAINS = new Set([
  'gmail', 'googlemail', 'mail', 'bk', 'inbox', 'list', 'rambler', 'yandex', 'hotmail', 'outlook', 'yahoo', 'icloud',
  'proton', 'protonmail', 'tutanota', 'gmx', 'aol',
]);
/** Top-level domains in other scripts, taken with a disguised `@` too. */
const IDN_TLDS = new Set(['рф', 'рус', 'москва', 'дети', 'онлайн', 'сайт', 'орг', 'ком', 'бел', 'укр', 'срб', 'мкд', 'қаз', 'мон', 'бг', 'ею', 'ελ', 'ευ']);
/** File extensions are not top-level domains here (`icon@2x.png`). */
const FILE_TLDS = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'bmp', 'ico', 'pdf', 'zip', 'txt', 'js', 'ts', 'json']);

function acceptEmail(m: RegExpExecArray): boolean {
  const g = m.groups ?? {};
  const at = (g['at'] ?? '').trim().toLowerCase();
  const domain = g['domain'] ?? '';
  const tld = (g['tld'] ?? '').toLowerCase();
  if (FILE_TLDS.has(tld)) return false;
  // A top-level domain in another script must be a real one unless the `@` itself is there
  // (`кот собака мышь точка ру` is prose; `name собака почта точка рф` is not).
  if (!/^[a-z]/u.test(tld) && at !== '@' && !IDN_TLDS.has(tld)) return false;
  if (at === 'at') {
    // A bare English "at" is everyday prose; need a disguised dot or a mailbox provider.
    const first = (domain.split(/[\s.([{<]/u)[0] ?? '').toLowerCase();
    return DISGUISED_DOT_TEST().test(domain) || MAILBOX_DOMAINS.has(first);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Messenger and social links

interface LinkHost {
  host: string;
  kind: 'messenger' | 'link';
  /** First path segments that are the service's own pages, not a person. */
  servicePaths?: readonly string[];
}

const LINK_HOSTS: readonly LinkHost[] = [
  { host: 't.me', kind: 'messenger' },
  { host: 'telegram.me', kind: 'messenger' },
  { host: 'telegram.dog', kind: 'messenger' },
  { host: 'wa.me', kind: 'messenger' },
  { host: 'api.whatsapp.com', kind: 'messenger' },
  { host: 'chat.whatsapp.com', kind: 'messenger' },
  { host: 'whatsapp.com', kind: 'messenger', servicePaths: ['download', 'business', 'legal', 'privacy', 'security', 'features', 'contact'] },
  { host: 'vk.me', kind: 'messenger' },
  { host: 'm.me', kind: 'messenger' },
  { host: 'discord.gg', kind: 'messenger' },
  { host: 'discord.com/invite', kind: 'messenger' },
  { host: 'discordapp.com/invite', kind: 'messenger' },
  { host: 'discord.com/users', kind: 'messenger' },
  { host: 'icq.im', kind: 'messenger' },
  { host: 'signal.me', kind: 'messenger' },
  { host: 'join.skype.com', kind: 'messenger' },
  {
    host: 'vk.com',
    kind: 'link',
    servicePaths: ['music', 'combo', 'settings', 'vkpay', 'feed', 'apps', 'support', 'audio', 'video', 'services', 'terms', 'legal', 'help', 'faq', 'about', 'im', 'login', 'join', 'restore', 'dev', 'blog', 'press', 'jobs'],
  },
  { host: 'vkontakte.ru', kind: 'link' },
  { host: 'ok.ru', kind: 'link', servicePaths: ['music', 'video', 'games', 'help', 'settings', 'feed'] },
  { host: 'instagram.com', kind: 'link', servicePaths: ['accounts', 'explore', 'about', 'legal', 'help', 'reels', 'direct'] },
  { host: 'instagr.am', kind: 'link' },
  { host: 'facebook.com', kind: 'link', servicePaths: ['help', 'legal', 'policies', 'privacy', 'settings', 'login', 'business', 'watch', 'gaming', 'marketplace'] },
  { host: 'fb.com', kind: 'link' },
  { host: 'fb.me', kind: 'link' },
  { host: 'twitter.com', kind: 'link', servicePaths: ['home', 'explore', 'settings', 'i', 'tos', 'privacy', 'login', 'search'] },
  { host: 'x.com', kind: 'link', servicePaths: ['home', 'explore', 'settings', 'i', 'tos', 'privacy', 'login', 'search', 'premium'] },
  { host: 'tiktok.com', kind: 'link', servicePaths: ['legal', 'about', 'foryou', 'explore', 'login', 'upload', 'live', 'coins'] },
  { host: 'linkedin.com/in', kind: 'link' },
  { host: 'threads.net', kind: 'link' },
];

const LINK_DOT = String.raw`(?:\s?\.\s?|\s?[(\[]\s?(?:dot|точка)\s?[)\]]\s?)`;
const escapeHost = (host: string): string =>
  host
    .split('/')
    .map((part) => part.split('.').map((label) => label.replace(/[-]/g, '\\-')).join(LINK_DOT))
    .join(String.raw`\s?/\s?`);

const LINK_RE = lazyRegExp(
  String.raw`(?<![\p{L}\p{N}_.\-@])(?:https?\s?:\s?//\s?)?(?:www\.|m\.|mobile\.)?` +
    `(?<host>${LINK_HOSTS.map((h) => escapeHost(h.host)).join('|')})` +
    // The path is bounded: a refused match (a service page) is searched again one character later,
    // and an unbounded path would make that quadratic on a long run of `x.com/i/x.com/i/…`.
    String.raw`\s?/\s?(?<path>[\p{L}\p{N}_@+~\-][^\s<>"'()\[\]{},;!]{0,255})`,
  'giu',
);

/** Custom URL schemes of messengers. */
const SCHEME_RE = lazyRegExp(
  String.raw`${NOT_AFTER_WORD}(?:(?:viber|tg|whatsapp|discord|skype)://\S+|skype:[\w.:\-]+\?(?:chat|call|add)\S*)`,
  'giu',
);

function hostInfo(raw: string): LinkHost | undefined {
  const norm = raw
    .toLowerCase()
    .replace(/\s/g, '')
    .replace(/[(\[](?:dot|точка)[)\]]/gu, '.');
  return LINK_HOSTS.find((h) => h.host === norm);
}

// ---------------------------------------------------------------------------------------------
// Phones

/**
 * Phone words: after one, a number of six digits or more is a phone (`тел. 555-44-33`). The match
 * ends where the number's first digit is; the number itself is read by ./contact-phones.ts.
 */
const PHONE_WORD_RE = lazyRegExp(
  NOT_AFTER_WORD +
    String.raw`(?:(?:тел|tel|моб|mob)\.|(?:телефон\p{L}*|тел|tel|phone|моб|мобильн\p{L}*|сотов\p{L}*|mobile|whats\s?app|ватс?апп?|вацапп?|viber|вайбер)\s*:|(?:позвоните|звоните|звонить|call\s+me|call\s+us|call)${NOT_BEFORE_WORD}\s*:?)` +
    String.raw`\s*[\-\u2013\u2014]?\s*\+?\(?\s*(?=\d)`,
  'giu',
);

// ---------------------------------------------------------------------------------------------
// Messenger words and handles

const MESSENGER_WORD = String.raw`(?:telegram|tlg|tg|тг|тлг|телеграм\p{L}*|телег[аеуи]|whats\s?app|вотс?ап\p{L}*|ватс?ап\p{L}*|вацап\p{L}*|viber|вайбер\p{L}*|вибер\p{L}*|skype|скайп\p{L}*|discord|дискорд\p{L}*|insta|instagram|инст|инста|инстаграм\p{L}*|vk|вк|icq|аськ\p{L}*)`;
const HANDLE_FILLER = String.raw`(?:ник|никнейм|nick|nickname|username|юзернейм|юзер|логин|login|id|айди)`;
const MESSENGER_RE = lazyRegExp(
  NOT_AFTER_WORD +
    MESSENGER_WORD +
    NOT_BEFORE_WORD +
    String.raw`(?<sep>\s*[:=]\s*|\s*[\-\u2013\u2014>]+\s*|\s+)` +
    String.raw`(?:(?<filler>${HANDLE_FILLER})\s*[:=\-]?\s*)?` +
    String.raw`(?:(?<num>\+?\d{8,15})(?!\p{N})|(?<handle>@?[a-z][a-z0-9_.]{2,31}(?:#\d{4})?)(?![\p{L}\p{N}_@]))`,
  'giu',
);

/** Words that follow a messenger's name in product text; never taken for a handle. */
const PRODUCT_WORDS = new Set([
  'premium', 'stars', 'star', 'nitro', 'basic', 'classic', 'business', 'plus', 'pro', 'gold', 'boost', 'boosts',
  'gift', 'gifts', 'credit', 'credits', 'number', 'numbers', 'account', 'accounts', 'desktop', 'web', 'app', 'apps',
  'android', 'ios', 'iphone', 'ipad', 'mobile', 'windows', 'macos', 'mac', 'linux', 'bot', 'bots', 'channel',
  'channels', 'group', 'groups', 'chat', 'chats', 'official', 'combo', 'music', 'video', 'play', 'family',
  'individual', 'duo', 'student', 'subscription', 'manager', 'beta', 'lite', 'light', 'team', 'teams', 'server',
  'servers', 'unlimited', 'month', 'months', 'year', 'years', 'days', 'day', 'week', 'weeks', 'gifting', 'code',
  'codes', 'key', 'keys', 'voucher', 'login', 'user', 'users', 'stories', 'reels', 'ads', 'out', 'phone', 'calls',
  'call', 'support', 'store', 'version', 'update', 'client', 'link', 'links', 'invite', 'emoji', 'stickers',
  'sticker', 'theme', 'themes', 'with', 'for', 'and', 'the', 'via', 'from',
]);

function acceptMessenger(m: RegExpExecArray): boolean {
  const g = m.groups ?? {};
  if (g['num'] !== undefined) return true;
  const handle = (g['handle'] ?? '').replace(/\.+$/u, '');
  if (handle.startsWith('@')) return handle.length >= 4;
  const bare = handle.toLowerCase();
  if (PRODUCT_WORDS.has(bare)) return false;
  if (/[\d_]/u.test(bare)) return true;
  const sep = g['sep'] ?? '';
  const marked = /[:=\-\u2013\u2014>]/u.test(sep) || g['filler'] !== undefined;
  return marked && bare.length >= 4;
}

const HANDLE_RE = lazyRegExp(
  String.raw`(?<![\p{L}\p{N}_.@/\\])@(?<h>[a-z][a-z0-9_]{4,31})(?![\p{L}\p{N}_@/\-]|\.[\p{L}\p{N}])`,
  'giu',
);
/** `@words` that are not people in product text. */
const NOT_HANDLES = new Set(['everyone', 'here', 'channel', 'latest', 'types', 'media', 'import', 'username', 'handle', 'example']);

// ---------------------------------------------------------------------------------------------
// Matching

interface PatternDetector {
  re: () => RegExp;
  kind: ContactKind | ((m: RegExpExecArray) => ContactKind | null);
  accept?: (m: RegExpExecArray) => boolean;
}

/** A detector that scans the reading itself and answers its finds (phones: ./contact-phones.ts). */
interface ScanDetector {
  /** `plain` is the first reading (the same offsets), with words as written. */
  find: (text: string, plain: string) => readonly { start: number; end: number }[];
  kind: ContactKind;
}

type Detector = PatternDetector | ScanDetector;

/** In priority order: an earlier detector's span wins over a later overlapping one. */
const DETECTORS: readonly Detector[] = [
  { re: EMAIL_RE, kind: 'email', accept: acceptEmail },
  {
    re: LINK_RE,
    kind: (m) => {
      const info = hostInfo(m.groups?.['host'] ?? '');
      if (!info) return null;
      const first = (m.groups?.['path'] ?? '').split(/[/?#]/u)[0]?.toLowerCase() ?? '';
      if (info.servicePaths?.includes(first)) return null;
      return info.kind;
    },
  },
  { re: SCHEME_RE, kind: 'messenger' },
  { find: (text, plain) => findPhones(text, PHONE_WORD_RE(), plain), kind: 'phone' },
  { re: MESSENGER_RE, kind: 'messenger', accept: acceptMessenger },
  { re: HANDLE_RE, kind: 'messenger', accept: (m) => !NOT_HANDLES.has((m.groups?.['h'] ?? '').toLowerCase()) },
];

interface Span {
  start: number;
  end: number;
  kind: ContactKind;
}

/** Whether [start, end) overlaps a span of `spans` (sorted by start, pairwise disjoint). */
function overlapsAny(spans: readonly Span[], start: number, end: number): boolean {
  // First span whose end is past `start`; being disjoint and sorted, ends ascend with starts.
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spans[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  const next = spans[lo];
  return next !== undefined && next.start < end;
}

/** Trailing characters that end a sentence rather than a contact. */
const TRAILING = /[\s.,;:!?)\]}»"'…]+$/u;

/**
 * Every contact detail found in `text`, in order of appearance. Overlapping finds are reported once
 * (e-mail before link before phone before messenger word before handle).
 */
export function findContacts(text: string): ContactMatch[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  const { plain, latin, digits, from, to } = foldText(text);
  // Spans accepted by earlier detectors: sorted, never overlapping each other.
  let taken: Span[] = [];
  // The plain reading first (Cyrillic words such as `телефон:` and `собака` intact), then the one with
  // look-alike letters as Latin (same length, same offsets): it only adds what the first missed; then
  // the one with letters for digits inside long runs of digits read as digits (`8 999 I23 45 67`).
  const readings = [...new Set([plain, latin, digits])];
  for (const reading of readings) {
    for (const det of DETECTORS) {
      const found = scan(det, reading, taken, plain);
      if (found.length > 0) taken = [...taken, ...found].sort((a, b) => a.start - b.start);
    }
  }

  return taken.map((t) => {
    const start = from[t.start]!;
    const end = to[t.end - 1]!;
    return { kind: t.kind, match: text.slice(start, end), index: start };
  });
}

/** One detector's accepted finds in `clean` that overlap none of `taken`. */
function scan(det: Detector, clean: string, taken: readonly Span[], plain: string): Span[] {
  if ('find' in det) {
    const kind = det.kind;
    return det.find(clean, plain).filter((f) => !overlapsAny(taken, f.start, f.end)).map((f) => ({ start: f.start, end: f.end, kind }));
  }
  const found: Span[] = [];
  const re = det.re();
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(clean)) !== null) {
    const raw = m[0];
    const lead = raw.length - raw.replace(/^\s+/u, '').length;
    const trimmed = raw.slice(lead).replace(TRAILING, '');
    const start = m.index + lead;
    const end = start + trimmed.length;
    const kind = typeof det.kind === 'function' ? det.kind(m) : det.kind;
    if (kind !== null && trimmed.length > 0 && (det.accept?.(m) ?? true) && !overlapsAny(taken, start, end) && !overlapsAny(found, start, end)) {
      // A detector's own accepted matches never overlap: the next search starts at this one's end.
      found.push({ start, end, kind });
    } else {
      // Give a shorter match starting inside this one a chance.
      re.lastIndex = m.index + 1;
    }
  }
  return found;
}

/** Whether `text` holds any contact detail (see {@link findContacts}). */
export function hasContacts(text: string): boolean {
  return findContacts(text).length > 0;
}
