/**
 * Checking answers without zod: a plain description of an answer schema (a `PlainSchema`, made from
 * the zod schema at build time by plain-compile.ts) and the walk that checks a JSON value against
 * it. The verdict and the parsed value are zod's (unknown object fields dropped, strict objects
 * refusing them, loose ones keeping them; code-point lengths; safe integers; finite numbers; a
 * refinement is the schema's own function); the issue texts are shorter than zod's, their paths
 * and codes the same for the first issue. test/sdk/plain-routes.test.ts holds the two equal.
 *
 * Values are what `JSON.parse` gives: the walk does not look for getters, symbols or prototypes.
 */
import type { AnswerIssue } from '../errors.ts';
import type { Checked, Route, RouteTable } from './operation.ts';

/** A check of a string, a number or an array, in the schema's order. */
export type PlainCheck = { message?: string | undefined } & (
  | { check: 'min_length' | 'max_length' | 'length_equals'; length: number }
  | { check: 'regex'; source: string; flags: string }
  | { check: 'greater_than' | 'less_than'; value: number; inclusive: boolean }
  | { check: 'safeint' }
  /** A refinement: `fn` indexes the table's list of refinement functions (the schema's own). */
  | { check: 'custom'; fn: number }
);

/** A node; children are indexes into `PlainSchemas.nodes`, so shared schemas are described once. */
export type PlainNode =
  | { type: 'string' | 'number'; checks: PlainCheck[] }
  | { type: 'boolean' | 'null' | 'unknown' }
  | { type: 'enum' | 'literal'; values: (string | number | boolean | null)[] }
  | { type: 'object'; shape: Record<string, number>; optional: string[]; unknownKeys: 'strip' | 'strict' | 'loose' }
  | { type: 'array'; element: number; checks: PlainCheck[] }
  /** `keys`: the key schema's members when it has some (an enum); `partial`: not all of them needed. */
  | { type: 'record'; key: number; value: number; keys: string[] | null; partial: boolean }
  | { type: 'optional' | 'nullable'; inner: number }
  | { type: 'union'; options: number[] };

/** The nodes of every answer schema of a table, and each operation's root node. */
export interface PlainSchemas {
  nodes: PlainNode[];
  answers: Record<string, number>;
}

type Refinement = (value: never) => unknown;

const FAIL: unique symbol = Symbol('fail');
type Out = unknown;

/** A route table whose answer checks walk `schemas` (what the generated module of sdk/routes.ts exports). */
export function plainTable(routes: Route[], schemas: PlainSchemas, refinements: readonly Refinement[]): RouteTable {
  const checker = new PlainChecker(schemas.nodes, refinements);
  return {
    routes,
    check(id: string, answer: unknown): Checked {
      const root = schemas.answers[id];
      if (root === undefined) throw new TypeError(`no operation ${id}`);
      return checker.check(root, answer);
    },
  };
}

/** Checks values against the nodes of one `PlainSchemas`. */
class PlainChecker {
  #patterns = new Map<PlainCheck, RegExp>();
  #issues: AnswerIssue[] = [];
  #path: PropertyKey[] = [];

  constructor(
    private readonly nodes: readonly PlainNode[],
    private readonly refinements: readonly Refinement[],
  ) {}

  check(root: number, value: unknown): Checked {
    this.#issues = [];
    this.#path = [];
    const data = this.#walk(root, value);
    const issues = this.#issues;
    this.#issues = [];
    return issues.length === 0 ? { success: true, data } : { success: false, issues };
  }

  #issue(code: string, message: string, key?: PropertyKey): void {
    this.#issues.push({ path: key === undefined ? [...this.#path] : [...this.#path, key], message, code });
  }

  /** `#walk` at `key` of the current path (a throw leaves the path as it is: `check` starts afresh). */
  #walkAt(key: PropertyKey, index: number, value: unknown): Out {
    this.#path.push(key);
    const out = this.#walk(index, value);
    this.#path.pop();
    return out;
  }

  /** The parsed value; issues go to `#issues` (the value is then meaningless). */
  #walk(index: number, value: unknown): Out {
    const node = this.nodes[index]!;
    switch (node.type) {
      case 'string':
        if (typeof value !== 'string') return this.#invalidType('string', value);
        this.#checks(node.checks, value);
        return value;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) return this.#invalidType('number', value);
        this.#checks(node.checks, value);
        return value;
      case 'boolean':
        return typeof value === 'boolean' ? value : this.#invalidType('boolean', value);
      case 'null':
        return value === null ? value : this.#invalidType('null', value);
      case 'unknown':
        return value;
      case 'enum':
      case 'literal':
        if (node.values.includes(value as string)) return value;
        this.#issue('invalid_value', `Invalid option: expected one of ${node.values.map((v) => JSON.stringify(v)).join('|')}`);
        return FAIL;
      case 'optional':
        return value === undefined ? undefined : this.#walk(node.inner, value);
      case 'nullable':
        return value === null ? null : this.#walk(node.inner, value);
      case 'array': {
        if (!Array.isArray(value)) return this.#invalidType('array', value);
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) out[i] = this.#walkAt(i, node.element, value[i]);
        this.#checks(node.checks, value);
        return out;
      }
      case 'object':
        return this.#object(node, value);
      case 'record':
        return this.#record(node, value);
      case 'union':
        return this.#union(node.options, value);
    }
  }

  #invalidType(expected: string, value: unknown): typeof FAIL {
    const received = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && !Number.isFinite(value) ? String(value) : typeof value;
    this.#issue('invalid_type', `Invalid input: expected ${expected}, received ${received}`);
    return FAIL;
  }

  #object(node: Extract<PlainNode, { type: 'object' }>, value: unknown): Out {
    if (!isPlainObject(value)) return this.#invalidType('object', value);
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key in node.shape) {
      const present = key in input;
      if (!present && node.optional.includes(key)) continue;
      const before = this.#issues.length;
      const parsed = this.#walkAt(key, node.shape[key]!, input[key]);
      if (!present) {
        // An absent key whose schema took `undefined` (unknown) is still missing.
        if (this.#issues.length === before) this.#issue('invalid_type', 'Invalid input: expected nonoptional, received undefined', key);
        continue;
      }
      out[key] = parsed;
    }
    if (node.unknownKeys === 'strip') return out;
    const unknown = Object.keys(input).filter((key) => !Object.hasOwn(node.shape, key));
    if (node.unknownKeys === 'loose') {
      for (const key of unknown) if (key !== '__proto__') out[key] = input[key];
    } else if (unknown.length > 0) {
      this.#issue('unrecognized_keys', `Unrecognized key${unknown.length > 1 ? 's' : ''}: ${unknown.map((k) => `"${k}"`).join(', ')}`);
    }
    return out;
  }

  #record(node: Extract<PlainNode, { type: 'record' }>, value: unknown): Out {
    if (!isPlainObject(value)) return this.#invalidType('record', value);
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    if (node.keys !== null && !node.partial) {
      // An exhaustive record: every member is a key (a missing one fails its value schema).
      for (const key of node.keys) {
        if (key === '__proto__') continue;
        out[key] = this.#walkAt(key, node.value, input[key]);
      }
      const unknown = Object.keys(input).filter((key) => !node.keys!.includes(key));
      if (unknown.length > 0) this.#issue('unrecognized_keys', `Unrecognized key${unknown.length > 1 ? 's' : ''}: ${unknown.map((k) => `"${k}"`).join(', ')}`);
      return out;
    }
    const unknown: string[] = [];
    for (const key of Object.keys(input)) {
      if (key === '__proto__') continue;
      if (this.#quietly(() => this.#walk(node.key, key)).length > 0) {
        // A key outside the members of an enumerable key schema is unrecognised; any other bad key is invalid.
        if (node.keys !== null) unknown.push(key);
        else this.#issue('invalid_key', 'Invalid key in record', key);
        continue;
      }
      out[key] = this.#walkAt(key, node.value, input[key]);
    }
    if (unknown.length > 0) this.#issue('unrecognized_keys', `Unrecognized key${unknown.length > 1 ? 's' : ''}: ${unknown.map((k) => `"${k}"`).join(', ')}`);
    return out;
  }

  #union(options: number[], value: unknown): Out {
    for (const option of options) {
      let parsed: Out;
      const issues = this.#quietly(() => {
        parsed = this.#walk(option, value);
      });
      if (issues.length === 0) return parsed;
    }
    this.#issue('invalid_union', 'Invalid input');
    return FAIL;
  }

  /** Runs `walk` with its issues kept aside; returns them. */
  #quietly(walk: () => unknown): AnswerIssue[] {
    const outer = this.#issues;
    this.#issues = [];
    try {
      walk();
      return this.#issues;
    } finally {
      this.#issues = outer;
    }
  }

  #checks(checks: readonly PlainCheck[], value: string | number | unknown[]): void {
    for (const check of checks) {
      const problem = this.#problem(check, value);
      if (problem === undefined) continue;
      this.#issue(problem[0], check.message ?? problem[1]);
      // A number that is not an integer stops the checks after `int` (zod aborts there).
      if (check.check === 'safeint' && problem[0] === 'invalid_type') return;
    }
  }

  /** `[code, default message]` when `check` refuses `value`. */
  #problem(check: PlainCheck, value: string | number | unknown[]): [string, string] | undefined {
    switch (check.check) {
      case 'min_length':
        return lengthOf(value) >= check.length ? undefined : ['too_small', `Too small: expected at least ${check.length} characters or items`];
      case 'max_length':
        return lengthOf(value) <= check.length ? undefined : ['too_big', `Too big: expected at most ${check.length} characters or items`];
      case 'length_equals':
        return lengthOf(value) === check.length ? undefined : [lengthOf(value) > check.length ? 'too_big' : 'too_small', `Expected exactly ${check.length} characters or items`];
      case 'regex': {
        let pattern = this.#patterns.get(check);
        if (pattern === undefined) this.#patterns.set(check, (pattern = new RegExp(check.source, check.flags)));
        pattern.lastIndex = 0;
        return pattern.test(value as string) ? undefined : ['invalid_format', `Invalid string: must match pattern ${pattern}`];
      }
      case 'greater_than': {
        const n = value as number;
        return (check.inclusive ? n >= check.value : n > check.value) ? undefined : ['too_small', `Too small: expected number to be ${check.inclusive ? '>=' : '>'}${check.value}`];
      }
      case 'less_than': {
        const n = value as number;
        return (check.inclusive ? n <= check.value : n < check.value) ? undefined : ['too_big', `Too big: expected number to be ${check.inclusive ? '<=' : '<'}${check.value}`];
      }
      case 'safeint':
        if (!Number.isInteger(value)) return ['invalid_type', 'Invalid input: expected int, received number'];
        return Number.isSafeInteger(value) ? undefined : [(value as number) > 0 ? 'too_big' : 'too_small', 'Integers must be within the safe integer range'];
      case 'custom':
        return this.refinements[check.fn]!(value as never) ? undefined : ['custom', 'Invalid input'];
    }
  }
}

/** zod's length of a string (code points) or an array. */
function lengthOf(value: string | number | unknown[]): number {
  if (typeof value !== 'string') return (value as unknown[]).length;
  let length = 0;
  for (const _ of value) length++;
  return length;
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
