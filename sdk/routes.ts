/**
 * The operation tables as the clients use them at run time (`deriveMethods`, `OperationCaller`):
 * each operation's route, and the check of its answer through the operation's zod schema.
 *
 * The CLI's bundle swaps this module for one generated from the same tables at build time
 * (`plainRoutesModule` in sdk/contract/plain-compile.ts, used by scripts/build.mjs): the same
 * routes, and answer checks that walk a plain description of each schema (sdk/contract/plain-check.ts)
 * with the same verdicts and parsed values, so a command loads no zod and builds no schema to
 * start. test/sdk/plain-routes.test.ts holds the two equal.
 */
import { z } from 'zod';
import { apiOperations, sandboxOperations } from './contract/index.ts';
import { routeOf, type AnyOperation, type Checked, type RouteTable } from './contract/operation.ts';

export const apiRoutes: RouteTable = tableOf(apiOperations);
export const sandboxRoutes: RouteTable = tableOf(sandboxOperations);

function tableOf(ops: Record<string, AnyOperation>): RouteTable {
  const byId = new Map(Object.values(ops).map((op) => [op.id, op]));
  return {
    routes: [...byId.values()].map(routeOf),
    check(id: string, answer: unknown): Checked {
      const op = byId.get(id);
      if (op === undefined) throw new TypeError(`no operation ${id}`);
      const parsed = answerSchema(op.answer as z.ZodType).safeParse(answer);
      if (parsed.success) return { success: true, data: parsed.data };
      return { success: false, issues: parsed.error.issues.map(({ path, message, code }) => ({ path, message, code })) };
    },
  };
}

/**
 * An operation called this many times is in a loop (paging, polling, a sync job): its answer
 * schema is then compiled (zod's `z.compile`: a generated parser, ~4× faster on a page of 50
 * orders, which falls back to the ordinary parser, with the same issues, whenever the fast path
 * cannot decide). Compiling costs a few milliseconds once, more than one parse saves, so one-shot
 * calls keep the ordinary parser.
 */
const COMPILE_AFTER_CALLS = 8;

interface AnswerCheck {
  schema: z.ZodType;
  calls: number;
}

/** Per answer schema, shared by every client of the process. */
const answerChecks = new WeakMap<z.ZodType, AnswerCheck>();

/** The schema to check an answer with: the operation's, compiled once the operation is hot. */
function answerSchema(schema: z.ZodType): z.ZodType {
  let check = answerChecks.get(schema);
  if (check === undefined) {
    check = { schema, calls: 0 };
    answerChecks.set(schema, check);
  }
  if (++check.calls === COMPILE_AFTER_CALLS) check.schema = compiled(schema);
  return check.schema;
}

/** `z.compile(schema)` where generated code may run (not under `jitless` or a no-eval CSP), else the schema. */
function compiled(schema: z.ZodType): z.ZodType {
  if (z.config().jitless || !z.util.allowsEval.value) return schema;
  try {
    return z.compile(schema);
  } catch {
    return schema;
  }
}
