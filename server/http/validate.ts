/**
 * Input validation from the contract's schemas; a failure is a `bad_request` whose `detail.issues`
 * name each field, its problem's code and the values it needs (sdk/contract/common.ts `RequestIssue`).
 */
import type { z } from 'zod';
import type { RequestIssue } from '../../sdk/contract/index.ts';
import { ApiError, badRequest } from './errors.ts';

export type Location = 'path' | 'query' | 'body';

const MAX_ISSUES = 5;

/** One zod issue as data: where, its code, the values a client needs to say it, and zod's English. */
export function issueOf(where: Location, issue: z.core.$ZodIssue): RequestIssue {
  const path = [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
  const field = path.join('.');
  switch (issue.code) {
    case 'unrecognized_keys':
      return { path, code: issue.code, keys: issue.keys, message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}` };
    case 'invalid_type':
      // zod says "expected …, received undefined" for a missing field: a client says "required".
      if (issue.input === undefined) return { path, code: 'required', expected: issue.expected, message: 'required' };
      return { path, code: issue.code, expected: issue.expected, message: issue.message };
    case 'too_small':
      return { path, code: issue.code, minimum: Number(issue.minimum), origin: issue.origin, message: issue.message };
    case 'too_big':
      return { path, code: issue.code, maximum: Number(issue.maximum), origin: issue.origin, message: issue.message };
    case 'invalid_value':
      return { path, code: issue.code, values: issue.values.map(plain), message: issue.message };
    case 'invalid_format':
      return { path, code: issue.code, format: issue.format, message: issue.message };
    default:
      return { path, code: issue.code, message: issue.message || `${field} is not valid` };
  }
}

/** A value zod lists as allowed, as JSON carries it. */
const plain = (value: unknown): string | number | boolean | null =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? value : String(value);

/** The `bad_request` of the first few issues; its message is `body.priceRub: expected int, …; …`. */
export function invalidInput(where: Location, issues: readonly z.core.$ZodIssue[]): ApiError {
  const data = issues.slice(0, MAX_ISSUES).map((issue) => issueOf(where, issue));
  return new ApiError('bad_request', data.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), { issues: data });
}

export function parseInput<S extends z.ZodType | undefined>(schema: S, value: unknown, where: Location): S extends z.ZodType ? z.output<S> : undefined {
  if (!schema) return undefined as never;
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) {
    if (where === 'body' && value === undefined) throw badRequest(['body'], 'required', 'a JSON body is required');
    throw invalidInput(where, result.error.issues);
  }
  return result.data as never;
}
