/**
 * `mock.calls`: every request the mock answered for the code under test, in order, with the
 * operation of the contract it reached (found from the operation table: method and path pattern).
 */
import { allOperations, BASE_PATH, type AnyOperation } from '../../sdk/contract/index.ts';

/** One request the mock answered. */
export interface MockCall {
  method: string;
  /** The path, without the query (`/api/v1/orders/ord_…/deliver`). */
  path: string;
  /** The operation id of the contract (`orders.deliver`), or null for a path that is none (`/api/v1/nowhere`). */
  operation: string | null;
  /** The request's `Idempotency-Key`, or null. */
  idempotencyKey: string | null;
  /** The answer's status, or null when the connection was dropped unanswered (a `drop` or `dropAfter` fault). */
  status: number | null;
}

interface Pattern {
  method: string;
  regex: RegExp;
  /** Fewer placeholders first: `/orders/export` before `/orders/{id}`. */
  params: number;
  id: string;
}

let patterns: Pattern[] | undefined;

function patternOf(op: AnyOperation): Pattern {
  const path = BASE_PATH[op.surface] + op.path;
  const source = path.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+');
  return { method: op.method, regex: new RegExp(`^${source}$`), params: (path.match(/\{/g) ?? []).length, id: op.id };
}

/** The operation a request reaches, by the table's method and path. */
export function operationOf(method: string, path: string): string | null {
  patterns ??= Object.values(allOperations)
    .map(patternOf)
    .sort((a, b) => a.params - b.params);
  return patterns.find((p) => p.method === method && p.regex.test(path))?.id ?? null;
}

/** The record of one answered request. */
export function callOf(request: Request, response: Response): MockCall {
  const path = new URL(request.url).pathname;
  return {
    method: request.method,
    path,
    operation: operationOf(request.method, path),
    idempotencyKey: request.headers.get('idempotency-key'),
    status: response.type === 'error' ? null : response.status,
  };
}
