/**
 * Answer writers: an operation's answer schema compiled once into a function that checks a
 * handler's result against the schema and writes its JSON in the same pass.
 *
 * What it guarantees is what parsing the result through the schema and `JSON.stringify`-ing the
 * parsed value guaranteed (test/server/answer-writer.test.ts holds the two equal, byte for byte,
 * on every operation):
 * - only the schema's properties are written: the writer reads each declared property by name and
 *   never enumerates the result, so an unknown field (a buyer id, a sealed secret) cannot leave;
 * - every written value was checked as zod checks it (types, `null` where nullable, enum members,
 *   integers, ranges, patterns, refinements, lengths, required properties).
 *
 * The writer never decides a refusal alone: when it does not accept a value, the caller asks zod
 * (`answerJson`), whose verdict and error text stand. A schema node the compiler does not know (a
 * record, a union, a transform, a strict or loose object, an unknown check) is compiled as a call
 * of zod's own `safeParse` for that node, so such a node costs what it cost before and means what
 * it meant before; `fallbacks` lists them.
 */
import type { z } from 'zod';
import { DateString } from '../../sdk/contract/common.ts';

/**
 * JSON text of an accepted value, or `undefined` when the value was not accepted. With `leaves`,
 * also appends to it every value the text was written from (see `same`).
 */
export type AnswerWriter = (value: unknown, leaves?: unknown[]) => string | undefined;

export interface CompiledAnswer {
  write: AnswerWriter;
  /**
   * Whether `value` holds exactly the leaves a `write` recorded (the same primitives at the same
   * places, the same array lengths, the same nulls and absent properties): then `write` would write
   * the same text. Absent when that does not hold by construction (a node written through zod, a
   * refinement not known to be pure).
   */
  same?: (value: unknown, leaves: readonly unknown[]) => boolean;
  /** Paths of the nodes written through zod's `safeParse` (`items[].detail`), for tests. */
  fallbacks: string[];
  /** The generated source, for debugging. */
  source: string;
}

interface Def {
  type: string;
  checks?: Check[];
  coerce?: boolean;
  check?: string;
  [key: string]: unknown;
}

interface Check {
  _zod: {
    def: { check: string; format?: string; pattern?: RegExp; when?: unknown; value?: unknown; inclusive?: boolean; type?: string; fn?: unknown };
    check: (payload: { value: unknown; issues: unknown[] }) => unknown;
    traits: Set<string>;
  };
}

type Schema = z.ZodType & { _zod: { def: Def; traits: Set<string>; optin?: string; values?: Set<unknown> } };

/** Checks whose verdict is the check's own function, called as zod calls it (they never change the value). */
const GENERIC_CHECKS = new Set(['min_length', 'max_length', 'length_equals', 'multiple_of', 'greater_than', 'less_than', 'number_format']);
const GENERIC_STRING_FORMATS = new Set(['lowercase', 'uppercase', 'includes', 'starts_with', 'ends_with']);

/** A string's JSON text: most answer strings need no escaping, and the test is cheaper than the native call. */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;
const quote = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

/**
 * Whether every string a pattern accepts is made of characters JSON writes as they are (no
 * control character, quote, backslash or surrogate): then a checked string needs no escape test.
 * Conservative: the pattern must be anchored (`^…$`, no flags, no alternation) and made only of
 * literal letters, digits and a few punctuation marks, `\d`, `\w`, escaped punctuation, classes of
 * those (ranges within a-z, A-Z or 0-9, a `-` only first or last), groups and quantifiers. Every character a match consumes
 * comes from one of those atoms.
 */
const SAFE_PATTERN =
  /^\^(?:[A-Za-z0-9_:,;\/@=+ -]|\\[dw.\-_:/]|\[-?(?:[A-Za-z0-9_:,.\/@=+ ]|\\[dw.\-_]|[a-z]-[a-z]|[A-Z]-[A-Z]|[0-9]-[0-9])+-?\]|\(\?:|[()?*+]|\{\d+(?:,\d*)?\})*\$$/;
export const safeAlphabet = (pattern: RegExp): boolean => pattern.flags === '' && SAFE_PATTERN.test(pattern.source);

/**
 * Refinements known to be pure functions of their string: their verdicts are remembered (a
 * calendar-date check builds a Date and an ISO string, ~1 µs; an order page has one per order).
 */
const PURE_REFINEMENTS = new Set<unknown>(refinementsOf(DateString as unknown as Schema));
const MEMO_MAX = 4096;

function refinementsOf(s: Schema): unknown[] {
  return (s._zod.def.checks ?? []).filter((ch) => ch._zod.def.check === 'custom').map((ch) => (ch._zod.def as { fn?: unknown }).fn);
}

function remembered(fn: (s: string) => unknown): (s: string) => unknown {
  const memo = new Map<string, boolean>();
  return (s) => {
    let verdict = memo.get(s);
    if (verdict === undefined) {
      const r = fn(s);
      if (r instanceof Promise) return r;
      verdict = Boolean(r);
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(s, verdict);
    }
    return verdict;
  };
}

/** Thrown while compiling: this node is written through zod. */
class Unsupported extends Error {}

class Gen {
  readonly lines: string[] = [];
  readonly consts: unknown[] = [];
  readonly fallbacks: string[] = [];
  /** The comparer's lines (`same`), written alongside; meaningful only while `memo` holds. */
  readonly same: string[] = [];
  memo = true;
  /** Output not yet appended (constant text and expressions): appended by one call. */
  #pending: { text?: string; expr?: string }[] = [];
  #vars = 0;

  constructor() {
    this.const(quote);
  }

  /** A closure constant of the generated function: `k0`, `k1`, … (`k0` is `quote`). */
  const(value: unknown): string {
    this.consts.push(value);
    return `k${this.consts.length - 1}`;
  }

  var(): string {
    return `v${this.#vars++}`;
  }

  line(code: string): void {
    this.#flush();
    this.lines.push(code);
  }

  /** Appends constant text to the output. */
  text(s: string): void {
    const last = this.#pending.at(-1);
    if (last?.text !== undefined) last.text += s;
    else this.#pending.push({ text: s });
  }

  /** Appends the string value of an expression to the output. */
  emit(expr: string): void {
    this.#pending.push({ expr });
  }

  /** Records a leaf the text depends on (`write`), and compares it (`same`). */
  leaf(expr: string): void {
    this.line(`if (l !== undefined) l.push(${expr});`);
    this.same.push(`if ((${expr}) !== l[i++]) return false;`);
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    const args = this.#pending.map((p) => (p.text !== undefined ? JSON.stringify(p.text) : p.expr!));
    this.lines.push(`o += ${args.join(' + ')};`);
    this.#pending = [];
  }

  source(): string {
    this.#flush();
    return this.lines.join('\n');
  }

  mark(): () => void {
    const [lines, consts, fallbacks, pending] = [this.lines.length, this.consts.length, this.fallbacks.length, this.#pending.map((p) => ({ ...p }))];
    return () => {
      this.lines.length = lines;
      this.consts.length = consts;
      this.fallbacks.length = fallbacks;
      this.#pending = pending;
    };
  }
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const member = (v: string, key: string): string => (IDENT.test(key) ? `${v}.${key}` : `${v}[${JSON.stringify(key)}]`);

const defOf = (s: Schema): Def => s._zod.def;
const isPlainOptional = (s: Schema): boolean =>
  defOf(s).type === 'optional' &&
  !s._zod.traits.has('$ZodExactOptional') &&
  (defOf(s).innerType as Schema)._zod.optin !== 'defaulted';

export function compileAnswer(schema: z.ZodType): CompiledAnswer {
  const g = new Gen();
  g.line("let o = '';");
  value(g, schema as Schema, 'v', '');
  g.line('return o;');
  const names = g.consts.map((_, i) => `k${i}`);
  const source = `return function write(v, l) {\n${g.source()}\n};`;
  const write = new Function(...names, source)(...g.consts) as AnswerWriter;
  if (!g.memo) return { write, fallbacks: g.fallbacks, source };
  const sameSource = `return function same(v, l) {\nlet i = 0;\n${g.same.join('\n')}\nreturn i === l.length;\n};`;
  const same = new Function(...names, sameSource)(...g.consts) as CompiledAnswer['same'];
  return { write, same, fallbacks: g.fallbacks, source: `${source}\n${sameSource}` };
}

/**
 * Checks the value in variable `v` against `s` (the writer returns `undefined` when it fails) and
 * appends its JSON. `present` is the code telling whether a property holding `v` exists.
 */
function value(g: Gen, s: Schema, v: string, path: string, present?: string): void {
  const rollback = g.mark();
  try {
    compiled(g, s, v, path, present);
  } catch (err) {
    if (!(err instanceof Unsupported)) throw err;
    rollback();
    throughZod(g, s, v, path, present);
  }
}

/** The node through zod's own parse, its parsed value through `JSON.stringify`. */
function throughZod(g: Gen, s: Schema, v: string, path: string, present: string | undefined): void {
  const k = g.const(s);
  const r = g.var();
  g.fallbacks.push(path || '(answer)');
  g.memo = false;
  // zod's rules on absent properties are subtle (optional, defaulted, nonoptional): an absent
  // property, or a node parsed to `undefined`, is left to zod's verdict on the whole answer.
  if (present) g.line(`if (${v} === undefined && !(${present})) return;`);
  g.line(`const ${r} = ${k}.safeParse(${v});`);
  g.line(`if (!${r}.success || ${r}.data === undefined) return;`);
  g.line(`const ${r}t = JSON.stringify(${r}.data);`);
  g.line(`if (${r}t === undefined) return;`);
  g.emit(`${r}t`);
}

function compiled(g: Gen, s: Schema, v: string, path: string, present: string | undefined): void {
  const def = defOf(s);
  // A schema that is also a check (`z.int()`, `z.email()`), or coerces, is not one of the plain kinds.
  if (def.coerce || def.check !== undefined) throw new Unsupported();
  switch (def.type) {
    case 'string':
      g.line(`if (typeof ${v} !== 'string') return;`);
      if (checks(g, def, v)) {
        g.text('"');
        g.emit(v);
        g.text('"');
      } else g.emit(`k0(${v})`);
      g.leaf(v);
      return;
    case 'number':
      g.line(`if (typeof ${v} !== 'number' || !Number.isFinite(${v})) return;`);
      checks(g, def, v);
      g.emit(`String(${v})`);
      g.leaf(v);
      return;
    case 'boolean':
      if (def.checks?.length) throw new Unsupported();
      g.line(`if (typeof ${v} !== 'boolean') return;`);
      g.emit(`(${v} ? 'true' : 'false')`);
      g.leaf(v);
      return;
    case 'null':
      if (def.checks?.length) throw new Unsupported();
      g.line(`if (${v} !== null) return;`);
      g.text('null');
      g.leaf(v);
      return;
    case 'enum':
    case 'literal': {
      if (def.checks?.length) throw new Unsupported();
      // zod's own member set; each member's JSON text, looked up in one step with the check.
      const members = s._zod.values;
      if (!members) throw new Unsupported();
      const texts = new Map<unknown, string>();
      for (const m of members) {
        if (typeof m !== 'string' && typeof m !== 'number' && typeof m !== 'boolean' && m !== null) throw new Unsupported();
        texts.set(m, JSON.stringify(m));
      }
      const k = g.const(texts);
      const t = g.var();
      g.line(`const ${t} = ${k}.get(${v});`);
      g.line(`if (${t} === undefined) return;`);
      g.emit(t);
      g.leaf(v);
      return;
    }
    case 'nullable':
      if (def.checks?.length) throw new Unsupported();
      g.leaf(`${v} === null`);
      g.line(`if (${v} === null) o += 'null'; else {`);
      g.same.push(`if (${v} !== null) {`);
      value(g, def.innerType as Schema, v, path, present);
      g.line('}');
      g.same.push('}');
      return;
    case 'array': {
      g.line(`if (!Array.isArray(${v})) return;`);
      g.same.push(`if (!Array.isArray(${v})) return false;`);
      checks(g, def, v);
      g.leaf(`${v}.length`);
      const i = g.var();
      const e = g.var();
      g.text('[');
      g.line(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`);
      g.line(`if (${i} !== 0) o += ',';`);
      g.line(`const ${e} = ${v}[${i}];`);
      g.same.push(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, `const ${e} = ${v}[${i}];`);
      value(g, def.element as Schema, e, `${path}[]`);
      g.line('}');
      g.same.push('}');
      g.text(']');
      return;
    }
    case 'object':
      object(g, def, v, path);
      return;
    default:
      throw new Unsupported();
  }
}

/**
 * A `z.object` (unknown keys stripped): each declared property read by name, in the order zod's
 * parse assigns them. Strict and loose objects (a catchall) and symbol or `__proto__` keys are
 * left to zod.
 */
function object(g: Gen, def: Def, v: string, path: string): void {
  if (def.catchall !== undefined || def.checks?.length) throw new Unsupported();
  const shape = def.shape as Record<string, Schema>;
  if (Object.getOwnPropertySymbols(shape).length > 0 || Object.hasOwn(shape, '__proto__')) throw new Unsupported();
  // zod assigns in shape order; JSON lists an object's own keys in their order (integer-like first).
  const keys = Object.keys(Object.fromEntries(Object.keys(shape).map((key) => [key, true])));
  g.line(`if (typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})) return;`);
  g.same.push(`if (typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})) return false;`);
  g.text('{');
  // Whether a property was written before this one: at compile time, or in a variable at run time
  // (when only optional properties came before).
  let written: boolean | string = false;
  const name = (key: string) => `${JSON.stringify(key)}:`;
  const separate = (key: string) => {
    if (typeof written === 'string') {
      g.line(`if (${written}) o += ','; else ${written} = true;`);
      g.text(name(key));
    } else g.text(`${written ? ',' : ''}${name(key)}`);
  };
  for (const key of keys) {
    const prop = shape[key]!;
    const pv = g.var();
    const p = path ? `${path}.${key}` : key;
    g.line(`const ${pv} = ${member(v, key)};`);
    g.same.push(`const ${pv} = ${member(v, key)};`);
    if (isPlainOptional(prop)) {
      // Absent or undefined: not written (zod leaves it out or sets it to undefined, which JSON drops).
      if (written === false) {
        written = g.var();
        g.line(`let ${written} = false;`);
      }
      g.leaf(`${pv} !== undefined`);
      g.line(`if (${pv} !== undefined) {`);
      g.same.push(`if (${pv} !== undefined) {`);
      separate(key);
      value(g, defOf(prop).innerType as Schema, pv, p);
      g.line('}');
      g.same.push('}');
    } else {
      separate(key);
      written = true;
      value(g, prop, pv, p, `${JSON.stringify(key)} in ${v}`);
    }
  }
  g.text('}');
}

/** Writes the checks of a node; answers whether a pattern among them makes escaping needless. */
function checks(g: Gen, def: Def, v: string): boolean {
  let plain = false;
  for (const ch of def.checks ?? []) {
    const cdef = ch._zod.def;
    if (cdef.check === 'string_format' && cdef.format === 'regex' && cdef.pattern instanceof RegExp && !cdef.when) {
      plain ||= safeAlphabet(cdef.pattern);
      const k = g.const(cdef.pattern);
      const reset = cdef.pattern.global || cdef.pattern.sticky ? `(${k}.lastIndex = 0), ` : '';
      g.line(`if (!(${reset}${k}.test(${v}))) return;`);
    } else if (cdef.check === 'number_format' && cdef.format === 'safeint' && !cdef.when) {
      g.line(`if (!Number.isSafeInteger(${v})) return;`);
    } else if ((cdef.check === 'greater_than' || cdef.check === 'less_than') && typeof cdef.value === 'number' && !cdef.when) {
      const op = cdef.check === 'greater_than' ? (cdef.inclusive ? '>=' : '>') : cdef.inclusive ? '<=' : '<';
      g.line(`if (!(${v} ${op} ${String(cdef.value)})) return;`);
    } else if (cdef.check === 'custom' && cdef.type === 'custom' && typeof cdef.fn === 'function' && !cdef.when) {
      // A refinement (`.refine(fn)`): truthy passes; a promise is zod's error in a synchronous parse.
      const pure = PURE_REFINEMENTS.has(cdef.fn) && def.type === 'string';
      // An unknown refinement may depend on more than the value: its verdict is not remembered,
      // and a text written through it is not reused (`same`).
      if (!pure) g.memo = false;
      const k = g.const(pure ? remembered(cdef.fn as (s: string) => unknown) : cdef.fn);
      const r = g.var();
      g.line(`const ${r} = ${k}(${v});`);
      g.line(`if (!${r} || ${r} instanceof Promise) return;`);
    } else if (GENERIC_CHECKS.has(cdef.check) || (cdef.check === 'string_format' && GENERIC_STRING_FORMATS.has(cdef.format ?? ''))) {
      // The check's own function on a payload as zod builds it; it must add no issue and keep the value.
      const k = g.const(ch);
      const p = g.var();
      g.line(`const ${p} = { value: ${v}, issues: [] };`);
      g.line(`if (${k}._zod.def.when === undefined || ${k}._zod.def.when(${p})) {`);
      g.line(`${k}._zod.check(${p});`);
      g.line(`if (${p}.issues.length !== 0 || ${p}.value !== ${v}) return;`);
      g.line('}');
    } else {
      throw new Unsupported();
    }
  }
  return plain;
}

const writers = new WeakMap<z.ZodType, CompiledAnswer>();

/** The compiled writer of an answer schema (compiled on first use, once per schema). */
export function writerOf(schema: z.ZodType): CompiledAnswer {
  let compiled = writers.get(schema);
  if (!compiled) {
    compiled = compileAnswer(schema);
    writers.set(schema, compiled);
  }
  return compiled;
}

/**
 * The answer's JSON text, through the contract's schema: unknown fields (a buyer id, a secret)
 * never leave, and an answer that does not match the contract is an error (a 500 for the caller).
 * `undefined` only when the schema parses the answer to `undefined` (no JSON text).
 */
export function answerJson(schema: z.ZodType, result: unknown, what: string): string | undefined {
  const json = writerOf(schema).write(result);
  if (json !== undefined) return json;
  // Not accepted by the writer: zod's verdict, and zod's value, stand.
  const parsed = schema.safeParse(result);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`answer of ${what} does not match the contract: ${issues}`);
  }
  return JSON.stringify(parsed.data);
}
