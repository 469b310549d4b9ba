/**
 * Strict mode's answer check (`new SellerClient({ strict: true })`, the CLI's `SELLER_STRICT=1`):
 * every answer parsed through its operation's zod schema, as the contract tests want it. Clients
 * load this module on their first strict call (`import()`), so a tolerant client, the default,
 * never loads zod or builds a schema to send a call.
 *
 * A mismatch is a `ResponseValidationError` naming the path of each issue. The parsed value is
 * what zod gives: fields the contract does not know are dropped.
 */
import { z } from 'zod';
import { apiOperations, sandboxOperations } from './contract/index.ts';
import type { AnyOperation } from './contract/operation.ts';
import type { Checked } from './checked.ts';

const byId = new Map<string, AnyOperation>(Object.values({ ...apiOperations, ...sandboxOperations }).map((op) => [op.id, op]));

/** Checks `answer` against the answer schema of operation `id` (API or sandbox). */
export function checkStrict(id: string, answer: unknown): Checked {
  const op = byId.get(id);
  if (op === undefined) throw new TypeError(`no operation ${id}`);
  const parsed = answerSchema(op.answer as z.ZodType).safeParse(answer);
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, issues: parsed.error.issues.map(({ path, message, code }) => ({ path, message, code })) };
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
