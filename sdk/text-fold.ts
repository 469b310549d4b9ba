/**
 * Text folding for the contact filter ({@link findContacts} in ./contacts.ts) and for nickname
 * uniqueness: what a reader sees, not the code points someone chose to hide it behind.
 *
 * - NFKC: full-width and other compatibility forms become plain ones (`ｔ．ｍｅ` → `t.me`,
 *   `＋７` → `+7`, `𝟖` → `8`, `①` → `1`);
 * - invisible characters are dropped: every format character (`\p{Cf}`: zero-width space and joiners,
 *   soft hyphen, bidi marks and isolates, word joiner, BOM, tag characters), Hangul fillers, and
 *   combining marks left over after composition (`t̶.me`, variation selectors, the grapheme joiner);
 * - every decimal digit of any script is its ASCII digit (`٨٩٩٩…`, `८९९९…`);
 * - look-alike letters of other scripts become the Latin letter they imitate (Cyrillic `аеорсух`,
 *   Greek `ορν`, …; `т`, `м`, `н`, `к`, `в` through their capitals `Т М Н К В`), from Unicode's
 *   confusables table (UTS #39) as packaged by `unhomoglyph` (nodeca); only characters that stand for
 *   one ASCII letter, digit or `. @ / : - _` are folded. ASCII itself is never changed (`l`/`1`/`I`
 *   stay apart: telling them apart is the reader's job, and folding them would turn prices into words).
 *
 * - letters that stand for digits (`O`, `I`, `l`) are read as digits only inside long runs of digits
 *   (the `digits` reading, see {@link digitsReading}): `8 999 I23 45 67` is a phone, `IP 192…` stays.
 *
 * The contact filter gets strings of the same length with one offset map back to the original:
 * `plain` (the first three steps: Russian words keep their letters, so `телефон:` and `собака` still
 * read), `latin` (also look-alikes folded, but only inside tokens that hold an ASCII letter or
 * digit, `@`, `.` or `/` — where a disguised address lives — so ordinary Cyrillic prose is left as
 * it is) and `digits` (`latin` with letters for digits read as digits inside long runs of digits).
 */
import { FOLDABLE as TABLE } from './confusables.derived.ts';

/** Characters that are dropped: format characters, combining marks, Hangul fillers. */
const INVISIBLE = /[\p{Cf}\p{M}\u115F\u1160\u3164\uFFA0]/u;
const DECIMAL = /\p{Nd}/u;
const MARK = /\p{M}/u;
const digitCache = new Map<number, string>();

/**
 * The ASCII digit of a decimal digit of any script. Unicode encodes each script's digits 0–9 as one
 * ascending run, so the digit is the distance from the run's start (mod 10 for the mathematical
 * runs that follow each other).
 */
function asciiDigit(cp: number): string {
  let digit = digitCache.get(cp);
  if (digit === undefined) {
    let start = cp;
    while (start > 0 && DECIMAL.test(String.fromCodePoint(start - 1))) start--;
    digit = String((cp - start) % 10);
    digitCache.set(cp, digit);
  }
  return digit;
}

const latinCache = new Map<string, string | null>();

/** The lower-case ASCII character a non-ASCII BMP character imitates, or null. */
function latinOf(ch: string): string | null {
  let found = latinCache.get(ch);
  if (found !== undefined) return found;
  found = null;
  const direct = TABLE[ch];
  if (direct !== undefined) found = direct.toLowerCase();
  else {
    // Lower-case Cyrillic т м н к в imitate small capitals; their capitals imitate T M H K B.
    const upper = ch.toUpperCase();
    if (upper !== ch && upper.length === 1) {
      const viaUpper = /^[A-Z]$/.test(upper) ? upper : TABLE[upper];
      if (viaUpper !== undefined && /^[A-Za-z]$/.test(viaUpper)) found = viaUpper.toLowerCase();
    }
  }
  latinCache.set(ch, found);
  return found;
}

export interface FoldedText {
  /** NFKC, invisible characters dropped, digits as ASCII. */
  plain: string;
  /** `plain` with look-alike letters folded to lower-case Latin inside address-like tokens; same length. */
  latin: string;
  /** `latin` with letters standing for digits (`O`→0, `I`/`l`→1) inside long runs of digits (see {@link digitsReading}); same length. */
  digits: string;
  /** For each code unit of `plain` (and `latin`, `digits`), where its source starts in the original text. */
  from: number[];
  /** For each code unit of `plain` (and `latin`, `digits`), where its source ends in the original text. */
  to: number[];
}

/** Tokens of `plain` that may hide an address: they hold an ASCII letter or digit, `@`, `.` or `/`. */
const ADDRESS_LIKE = /[a-z0-9@./]/i;

/** Folds `text` for matching (see the module comment); offsets map back to the original. */
export function foldText(text: string): FoldedText {
  let plain = '';
  const from: number[] = [];
  const to: number[] = [];
  let i = 0;
  while (i < text.length) {
    // A base character with the combining marks that follow it, normalised together.
    const start = i;
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    while (i < text.length) {
      const next = String.fromCodePoint(text.codePointAt(i)!);
      if (!MARK.test(next)) break;
      i += next.length;
    }
    for (const ch of text.slice(start, i).normalize('NFKC')) {
      if (INVISIBLE.test(ch)) continue;
      const cp = ch.codePointAt(0)!;
      const out = cp > 0x7f && DECIMAL.test(ch) ? asciiDigit(cp) : ch;
      plain += out;
      for (let k = 0; k < out.length; k++) {
        from.push(start);
        to.push(i);
      }
    }
  }

  let latin = '';
  for (const token of plain.split(/(\s+)/u)) {
    if (!ADDRESS_LIKE.test(token)) {
      latin += token;
      continue;
    }
    for (const ch of token) {
      latin += ch.length === 1 && ch.charCodeAt(0) > 0x7f ? (latinOf(ch) ?? ch) : ch;
    }
  }
  return { plain, latin, digits: digitsReading(latin), from, to };
}

/** Letters (after the Latin fold: Cyrillic `О`, `І` are `o`, `i` by then) that stand in for digits. */
const DIGIT_LOOKALIKE: Record<string, string> = { O: '0', o: '0', I: '1', i: '1', l: '1', '|': '1' };
/**
 * A run of number-like tokens: digits and digit look-alikes, parted by runs of any length of characters
 * that are neither letters nor digits (as a phone's separators, sdk/contact-phones.ts), neither after nor before a letter or digit (`I` in `IP` or `is` is a word, not a 1).
 */
const NUMBER_RUN = /(?<![\p{L}\p{N}])[0-9OoIil|]+(?:(?:(?![,;]\s)[^\p{L}\p{N}|])+[0-9OoIil|]+)*(?![\p{L}\p{N}])/gu;
/** Real digits a run needs before its letters are read as digits: a phone is most of the way there. */
const MIN_REAL_DIGITS = 6;

/**
 * The reading of a phone number hidden behind letters for digits (`8 999 I23 45 67`, `8 9O0 …`):
 * inside a run of number-like tokens that already holds at least six real digits, `O`/`o` read as 0
 * and `I`/`i`/`l`/`|` as 1. Elsewhere nothing changes, so words and prices keep their letters (the
 * contact filter's shape checks still decide what a phone is).
 */
export function digitsReading(text: string): string {
  return text.replace(NUMBER_RUN, (run) => {
    const real = run.replace(/[^0-9]/g, '').length;
    if (real < MIN_REAL_DIGITS || real === run.replace(/[^0-9OoIil|]/g, '').length) return run;
    return run.replace(/[OoIil|]/g, (ch) => DIGIT_LOOKALIKE[ch]!);
  });
}

/**
 * The key under which a nickname is unique: folded as the contact filter reads text (NFKC, invisible
 * characters dropped, digits as ASCII, look-alike letters of any script as Latin), in lower case.
 * `Ivan`, `ivan`, `іvаn` (Ukrainian і, Cyrillic а), `ｉｖａｎ` and `iv\u200Ban` are one nickname;
 * `Иван` (no Latin look-alike of `И`) is another.
 */
export function nicknameKey(nickname: string): string {
  let key = '';
  for (const ch of foldText(nickname).plain) {
    key += ch.length === 1 && ch.charCodeAt(0) > 0x7f ? (latinOf(ch) ?? ch) : ch;
  }
  return key.toLowerCase();
}
