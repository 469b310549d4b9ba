/**
 * Phone numbers for the contact filter (./contacts.ts): a scan of the digits, not a pattern of
 * groupings. A phone is its digits, however they are grouped and whatever runs of characters that
 * are neither letters nor digits part them (spaces, commas, dots, dashes, underscores, slashes,
 * brackets, of any length: `8_____916_____555`, `8 91 65 55 44 33`, `8-916-55-544-33`).
 *
 * The text is cut into chains: digit groups linked by separator runs. A chain ends at a letter, at a
 * `+` that begins a number, at a mark that makes the number before it an amount or an id (a currency
 * sign, `%`, `№`), at list punctuation (a run that is only a comma or semicolon and spaces after it:
 * `7, 300, 500` is a list), and at a date, a time or a version (`12.03.2025`, `2025-03-12`, `12:30`,
 * `1.2.3`: a lone `.`/`/`/`-` or `:` between a day, month and year, an hour and its minutes, or a
 * version's numbers, reads as such). A chain followed by a currency or a unit (`₽`, `руб`, `шт`, `%`)
 * holds amounts, no phone. Else a chain, from one of its groups to its end (or to the next phone
 * in it: `8 916 555 44 33 / 8 916 555 44 34` is two), is a phone when its digits are:
 *   - `+` and 10 to 15 digits (international, `+7` included);
 *   - 7 or 8, an area code digit 3 to 9, and nine more (eleven in all): a Russian number; its first
 *     group is the prefix alone (`8 …`), with the area code (`8916 …`), or more; the prefix with part
 *     of an area code only in four groups or more (`89 16 555 44 33`: `899 1290 1990` is three prices);
 *   - 9 and nine more, grouped as a mobile number is written (`916 555 44 33`, `(916) 555-44-33`):
 *     a bare run of ten digits is as likely an id or an INN;
 *   - six to fifteen digits right after a phone word (`тел.`, `phone:`, `звоните`): see contacts.ts.
 * A group glued to a word (`ord_8…`, `v8`) or after an id mark (`#`, `№`) starts no phone; a phone
 * inside a chain starts after a run that holds a space. Dates, prices, quantities, times, versions,
 * order and card numbers, and lists of small numbers so stay prose.
 */

/** A piece of the text found to be a phone: [start, end) in the reading's offsets. */
export interface PhoneSpan {
  start: number;
  end: number;
}

interface Group {
  start: number;
  end: number;
}

/** Characters that end a chain: letters, digits of other kinds, currency signs, `%`, `‰`, `№`. */
const BREAKER = /[\p{L}\p{N}\p{Sc}%\u2030\u2116]/u;
/** A separator run that is list punctuation: only a comma or semicolon, with spaces after it. */
const LIST_GAP = /^\s*[,;]\s+$/u;
const SPACE = /\s/u;
/** Not a start: a group glued to a word by a run with no space (`ord_8…`, `A-8…`), unless `:` or `(` opens the number. */
const OPENER = /[:(]/u;
/** Marks of an id: the digits after them are a number of something, not a phone. */
const ID_MARK = /[#\u2116]\s*$/u;

/** The groupings of a mobile number written without its prefix (digit-group lengths). */
const MOBILE_SHAPES = new Set(['3,7', '3,3,4', '3,3,2,2', '3,2,2,3']);

/**
 * Dates, times and versions, which end a chain: day.month.year (`.`, `/` or `-`, one character, the
 * same twice; a four-digit year), year-month-day, hour:minutes (a lone colon), and a version
 * (`1.2.3`, `10.0.19045`: lone dots, two small numbers first). Built on first use.
 */
let datesAndTimes: RegExp | undefined;
const DATE_TIME = (): RegExp =>
  (datesAndTimes ??= new RegExp(
    [
      String.raw`(?<![\d./\-])(?:0?[1-9]|[12]\d|3[01])([./\-])(?:0?[1-9]|1[0-2])\1(?:19|20)\d\d(?![\d]|[./\-]\d)`,
      String.raw`(?<![\d./\-])(?:19|20)\d\d-(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])(?![\d]|[./\-]\d)`,
      String.raw`(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d:])`,
      String.raw`(?<![\d.])\d{1,2}\.\d{1,2}\.\d{1,4}(?:\.\d{1,4})?(?!\d|\.\d)`,
    ].join('|'),
    'gu',
  ));

/** Each chain of `text`: its digit groups, in order (dates, times and versions are in none). */
function chainsOf(text: string): Group[][] {
  // Offsets inside a date, a time or a version: they belong to no chain and end the one before them.
  const masked = new Uint8Array(text.length + 1);
  const re = DATE_TIME();
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) masked.fill(1, m.index, m.index + m[0].length);

  const chains: Group[][] = [];
  let chain: Group[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && !masked[i]) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57 && !masked[j]) j++;
      const last = chain.at(-1);
      if (last && !linked(text, masked, last.end, i)) {
        chains.push(chain);
        chain = [];
      }
      chain.push({ start: i, end: j });
      i = j;
    } else i++;
  }
  if (chain.length > 0) chains.push(chain);
  return chains;
}

/** A currency or a unit right after a chain: its numbers are amounts (`7 990 / 12 990 / 19 990 ₽`). */
const AMOUNT = /^[^\p{L}\p{N}\p{Sc}%\u2030]{0,3}(?:[\p{Sc}%\u2030]|(?:руб|р|rub|usd|eur|коп|тыс|млн|млрд|шт|pcs)(?![\p{L}\p{N}]))/iu;

function amountFollows(text: string, end: number): boolean {
  return AMOUNT.test(text.slice(end, end + 12));
}

/**
 * Whether the run text[from, to) between two digit groups links them into one chain. A `+` after
 * another separator begins a number (`…44 33, +7 916…`); right after a digit it parts one (`8+916`).
 */
function linked(text: string, masked: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (masked[k] || BREAKER.test(text[k]!) || (text[k] === '+' && k > from)) return false;
  return !LIST_GAP.test(text.slice(from, to));
}

/** Where a `+` stands right before `at` (spaces between allowed), not glued to a word; else -1. */
function plusBefore(text: string, at: number, floor: number): number {
  let k = at - 1;
  while (k >= floor && SPACE.test(text[k]!)) k--;
  if (k < floor || text[k] !== '+') return -1;
  const before = text[k - 1];
  return before !== undefined && /[\p{L}\p{N}_]/u.test(before) ? -1 : k;
}

/** Whether a phone may start at group `i` of `chain` (see the module comment). */
function mayStart(text: string, chain: readonly Group[], i: number): boolean {
  const g = chain[i]!;
  if (i > 0) return SPACE.test(text.slice(chain[i - 1]!.end, g.start));
  // The run of non-alphanumeric characters right before the chain, and what stands before it.
  let k = g.start - 1;
  while (k >= 0 && !/[\p{L}\p{N}]/u.test(text[k]!)) k--;
  const lead = text.slice(k + 1, g.start);
  if (ID_MARK.test(lead)) return false;
  if (k < 0) return true;
  // After a word: a space or an opener (`номер:8…`, `(8…`); after a number outside the chain (a date, an amount): a space.
  return SPACE.test(lead) || (/\p{L}/u.test(text[k]!) && OPENER.test(lead));
}

/**
 * The phones of `text` (a reading of contacts.ts), in order, never overlapping: each a chain's tail,
 * and, where `words` (a global regex) matches a phone word whose number starts at the match's end
 * (6 to 15 digits to its chain's end), the word with its number. `plain` is the reading with its
 * words as written (same offsets), where a unit after a number is read (`шт.` stays Cyrillic).
 */
export function findPhones(text: string, words: RegExp, plain = text): PhoneSpan[] {
  const chains = chainsOf(text);
  const found: PhoneSpan[] = [];
  /** Group start → the digits from that group to its chain's end, and that end. */
  const fromGroup = new Map<number, { digits: number; end: number }>();
  for (const chain of chains) {
    // Phones end the chain, or end right before the next phone of the chain (`… 44 33 / 8 916 …`).
    if (!amountFollows(plain, chain.at(-1)!.end)) {
      for (let upto = chain.length, hit = phoneOf(text, chain, upto); hit; hit = upto > 0 ? phoneOf(text, chain, upto) : null) {
        found.push(hit.span);
        upto = hit.from;
      }
    }
    const end = chain.at(-1)!.end;
    let digits = 0;
    for (let i = chain.length - 1; i >= 0; i--) {
      digits += chain[i]!.end - chain[i]!.start;
      fromGroup.set(chain[i]!.start, { digits, end });
    }
  }
  words.lastIndex = 0;
  for (let m = words.exec(text); m !== null; m = words.exec(text)) {
    const at = m.index + m[0].length;
    const number = fromGroup.get(at);
    if (!number || number.digits < 6 || number.digits > 15) continue;
    const word = { start: m.index, end: number.end };
    // A phone the chains found stands for itself, unless the word's number begins before it (`тел.8 916…`).
    const overlapped = found.findIndex((f) => f.start < word.end && word.start < f.end);
    if (overlapped < 0) found.push(word);
    else if (at < found[overlapped]!.start) found[overlapped] = word;
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The phone that ends with group `upto - 1` of the chain: from the first group where one starts (the
 * longest), with that group's index; null when none does. Only the last fifteen digits are looked at.
 */
function phoneOf(text: string, chain: readonly Group[], upto: number): { span: PhoneSpan; from: number } | null {
  const end = chain[upto - 1]!.end;
  let best: { span: PhoneSpan; from: number } | null = null;
  let count = 0;
  for (let i = upto - 1; i >= 0; i--) {
    const g = chain[i]!;
    const length = g.end - g.start;
    count += length;
    if (count > 15) break;
    if (count < 10) continue;
    const floor = i > 0 ? chain[i - 1]!.end : 0;
    const plus = plusBefore(text, g.start, floor);
    if (plus >= 0 && text[g.start] !== '0') {
      best = { span: { start: plus, end }, from: i };
      continue;
    }
    if (!mayStart(text, chain, i)) continue;
    const first = text[g.start]!;
    const second = length > 1 ? text[g.start + 1]! : text[chain[i + 1]!.start]!;
    // The prefix fused with part of an area code (`899 1290 1990`) reads as prices, unless the rest is grouped on (`89 16 555 44 33`).
    const fused = (length === 2 || length === 3) && upto - i < 4;
    if (count === 11 && (first === '7' || first === '8') && second >= '3' && second <= '9' && !fused) {
      best = { span: { start: g.start, end }, from: i };
    } else if (count === 10 && first === '9' && upto - i <= 4 && MOBILE_SHAPES.has(chain.slice(i, upto).map((x) => x.end - x.start).join(','))) {
      // An area code in brackets: the phone starts at the bracket.
      let open = g.start - 1;
      while (open >= floor && SPACE.test(text[open]!)) open--;
      best = { span: { start: open >= floor && text[open] === '(' ? open : g.start, end }, from: i };
    }
  }
  return best;
}
