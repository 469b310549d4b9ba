/**
 * The part of Unicode's confusables table (UTS #39, as packaged by `unhomoglyph`) that text folding
 * reads (./text-fold.ts): a character of one UTF-16 unit that stands for one ASCII letter, digit or
 * `. @ / : _ -`. A few hundred of the table's ~6,300 entries. The build runs this module and ships
 * only its data (scripts/build-time-data.mjs), so a bundle neither carries nor evaluates the whole
 * table when it loads; from the sources it is computed when it loads.
 */
import confusables from 'unhomoglyph/data.json' with { type: 'json' };

/** ASCII a look-alike may fold to. */
const FOLD_TARGET = /^[a-z0-9.@/:_-]$/i;

/** Look-alike → the ASCII character it imitates (as the table writes it: upper or lower case). */
export const FOLDABLE: Record<string, string> = Object.fromEntries(
  Object.entries(confusables as Record<string, string>).filter(([from, to]) => from.length === 1 && FOLD_TARGET.test(to)),
);
