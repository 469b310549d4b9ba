/**
 * The types of what a tolerant client reads and sends (sdk/answers.ts). The contract's enums are
 * our guesses about the real marketplace (gaps.md), so a value it does not list must still fit:
 * a string-literal union `'a' | 'b'` becomes `'a' | 'b' | (string & {})`, which still offers `'a'`
 * and `'b'` in an editor, and accepts any other string.
 */

/**
 * `T` with every string-literal union opened to any string, deeply, and every object type joined
 * with `Rest` (`unknown`: nothing added).
 */
type Opened<T, Rest> = T extends string
  ? string extends T
    ? T
    : T | (string & {})
  : T extends number | boolean | bigint | symbol | null | undefined
    ? T
    : T extends readonly (infer Item)[]
      ? Opened<Item, Rest>[]
      : T extends object
        ? { [K in keyof T]: Opened<T[K], Rest> } & Rest
        : T;

/** `T` with every string-literal union opened to any string, deeply (requests: no index signature, so typos in field names are still caught). */
export type Widened<T> = Opened<T, unknown>;

/**
 * An answer as a tolerant client reads it: enums opened as in {@link Widened}, and every object
 * open to fields the contract does not know (`order.someNewField` is `unknown`, not an error).
 */
export type Tolerant<T> = Opened<T, { readonly [field: string]: unknown }>;
