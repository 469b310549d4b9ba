/**
 * Build time: the answer schemas of the operation tables described as plain data (plain-check.ts),
 * and the source of the module that stands in for sdk/routes.ts in the CLI's bundle
 * (scripts/build.mjs), so that a command checks answers without loading zod or building a schema.
 *
 * It reads zod's schema definitions. A node it does not know (a transform, a default, a format
 * other than a pattern, a check it has no rule for) stops the build with the node's path: teach
 * plain-check.ts the node rather than letting the CLI check less than the SDK. A refinement is
 * carried as its function's source text, so it must use nothing but its argument and globals;
 * test/sdk/plain-routes.test.ts runs every answer through both checks.
 */
import type { z } from 'zod';
import { apiOperations, sandboxOperations } from './index.ts';
import { routeOf, type AnyOperation } from './operation.ts';
import type { PlainCheck, PlainNode, PlainSchemas } from './plain-check.ts';

interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  [key: string]: unknown;
}

interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  error?: (issue: object) => unknown;
  [key: string]: unknown;
}

type Schema = z.ZodType & { _zod: { def: Def; optin?: string; optout?: string; values?: Set<unknown> } };

/** Describes schemas into one shared node list; a schema met twice is described once. */
export class PlainCompiler {
  readonly nodes: PlainNode[] = [];
  readonly refinements: ((value: never) => unknown)[] = [];
  #indexOf = new Map<unknown, number>();

  /** The schemas of a table's answers: `{nodes, answers: {id: root}}` (the nodes are shared by every table). */
  table(ops: Record<string, AnyOperation>): PlainSchemas {
    const answers: Record<string, number> = {};
    for (const op of Object.values(ops)) answers[op.id] = this.node(op.answer as Schema, op.id);
    return { nodes: this.nodes, answers };
  }

  /** The index of `schema`'s node; `at` names it in errors. */
  node(schema: Schema, at: string): number {
    const known = this.#indexOf.get(schema);
    if (known !== undefined) return known;
    const index = this.nodes.length;
    this.#indexOf.set(schema, index);
    this.nodes.push({ type: 'unknown' });
    this.nodes[index] = this.#describe(schema, at);
    return index;
  }

  #describe(schema: Schema, at: string): PlainNode {
    const def = schema._zod.def;
    if ((def as { coerce?: boolean }).coerce) unsupported(at, `coerced ${def.type}`);
    switch (def.type) {
      case 'string':
      case 'number': {
        const checks = this.#checks(def, at);
        // A format schema (`z.int()`, `z.email()`) is its own first check.
        if (typeof def.check === 'string') checks.unshift(this.#check(def as unknown as CheckDef, at));
        return { type: def.type, checks };
      }
      case 'boolean':
      case 'null':
        this.#noChecks(def, at);
        return { type: def.type };
      case 'unknown':
      case 'any':
        return { type: 'unknown' };
      case 'enum':
        return { type: 'enum', values: Object.values(def.entries as Record<string, string | number>) };
      case 'literal':
        return { type: 'literal', values: [...(def.values as (string | number | boolean | null)[])] };
      case 'optional':
      case 'nullable':
        this.#noChecks(def, at);
        return { type: def.type, inner: this.node(def.innerType as Schema, at) };
      case 'array':
        return { type: 'array', element: this.node(def.element as Schema, `${at}[]`), checks: this.#checks(def, at) };
      case 'object':
        return this.#object(def, at);
      case 'record': {
        this.#noChecks(def, at);
        if (def.mode === 'loose') unsupported(at, 'a loose record');
        const key = def.keyType as Schema;
        const members = key._zod.values;
        return {
          type: 'record',
          key: this.node(key, `${at}{key}`),
          value: this.node(def.valueType as Schema, `${at}{}`),
          keys: members ? [...members].map(String) : null,
          partial: Boolean(def.partial),
        };
      }
      case 'union':
        this.#noChecks(def, at);
        return { type: 'union', options: (def.options as Schema[]).map((option, i) => this.node(option, `${at}|${i}`)) };
      default:
        return unsupported(at, `a ${def.type} schema`);
    }
  }

  #object(def: Def, at: string): PlainNode {
    this.#noChecks(def, at);
    const shape: Record<string, number> = {};
    const optional: string[] = [];
    for (const [key, child] of Object.entries(def.shape as Record<string, Schema>)) {
      shape[key] = this.node(child, `${at}.${key}`);
      const { optin, optout } = child._zod;
      if (optin === 'optional' && optout === 'optional') optional.push(key);
      else if (optin !== undefined || optout !== undefined) unsupported(`${at}.${key}`, `a property that is ${optin}/${optout}`);
    }
    const catchall = (def.catchall as Schema | undefined)?._zod.def.type;
    const unknownKeys = catchall === undefined ? 'strip' : catchall === 'never' ? 'strict' : catchall === 'unknown' || catchall === 'any' ? 'loose' : unsupported(at, `a ${catchall} catchall`);
    return { type: 'object', shape, optional, unknownKeys };
  }

  #noChecks(def: Def, at: string): void {
    if (def.checks?.length) unsupported(at, `checks on a ${def.type} schema`);
  }

  #checks(def: Def, at: string): PlainCheck[] {
    return (def.checks ?? []).map((check) => this.#check(check._zod.def, at));
  }

  #check(def: CheckDef, at: string): PlainCheck {
    const message = messageOf(def);
    const withMessage = <T extends PlainCheck>(check: T): T => (message === undefined ? check : { ...check, message });
    switch (def.check) {
      case 'min_length':
        return withMessage({ check: 'min_length', length: def.minimum as number });
      case 'max_length':
        return withMessage({ check: 'max_length', length: def.maximum as number });
      case 'length_equals':
        return withMessage({ check: 'length_equals', length: def.length as number });
      case 'greater_than':
      case 'less_than':
        return withMessage({ check: def.check, value: def.value as number, inclusive: Boolean(def.inclusive) });
      case 'number_format':
        if (def.format !== 'safeint') unsupported(at, `the number format ${def.format}`);
        return withMessage({ check: 'safeint' });
      case 'string_format':
        if (def.format !== 'regex' || !(def.pattern instanceof RegExp)) unsupported(at, `the string format ${def.format}`);
        return withMessage({ check: 'regex', source: def.pattern.source, flags: def.pattern.flags });
      case 'custom': {
        const fn = def.fn as (value: never) => unknown;
        if (typeof fn !== 'function' || (def as { params?: unknown }).params !== undefined) unsupported(at, 'a refinement with parameters');
        let index = this.refinements.indexOf(fn);
        if (index === -1) index = this.refinements.push(fn) - 1;
        return withMessage({ check: 'custom', fn: index });
      }
      default:
        return unsupported(at, `the check ${def.check}`);
    }
  }
}

/** A check's own message (`.regex(re, 'a slug')`), if it has one. */
function messageOf(def: CheckDef): string | undefined {
  if (typeof def.error !== 'function') return undefined;
  const text = def.error({});
  return typeof text === 'string' ? text : typeof text === 'object' && text !== null && typeof (text as { message?: unknown }).message === 'string' ? (text as { message: string }).message : undefined;
}

function unsupported(at: string, what: string): never {
  throw new Error(`plain-compile: ${at} is ${what}, which sdk/contract/plain-check.ts cannot check; teach it there`);
}

/**
 * The ES module that stands in for sdk/routes.ts: the same exports (`apiRoutes`, `sandboxRoutes`),
 * built by `plainTable` (imported from `runtime`, the path of plain-check.ts) from the routes, the
 * nodes and the refinements' source text.
 */
export function plainRoutesModule(runtime: string): string {
  const compiler = new PlainCompiler();
  const api = compiler.table(apiOperations);
  const sandbox = compiler.table(sandboxOperations);
  const routes = (ops: Record<string, AnyOperation>) => JSON.stringify(Object.values(ops).map(routeOf));
  const refinements = compiler.refinements.map((fn) => {
    const source = fn.toString();
    // A method's shorthand source (`f(x) {…}`) is not an expression; an arrow or a function is.
    try {
      new Function(`return (${source});`);
    } catch {
      throw new Error(`plain-compile: a refinement's source is not a function expression: ${source.slice(0, 80)}`);
    }
    return `  (${source})`;
  });
  return `// Generated by sdk/contract/plain-compile.ts from the operation tables; stands in for sdk/routes.ts.
import { plainTable } from ${JSON.stringify(runtime)};

const nodes = ${JSON.stringify(compiler.nodes)};

const refinements = [
${refinements.join(',\n')}
];

export const apiRoutes = plainTable(${routes(apiOperations)}, { nodes, answers: ${JSON.stringify(api.answers)} }, refinements);
export const sandboxRoutes = plainTable(${routes(sandboxOperations)}, { nodes, answers: ${JSON.stringify(sandbox.answers)} }, refinements);
`;
}
