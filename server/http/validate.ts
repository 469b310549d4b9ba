/** Input validation from the contract's schemas; failures are `bad_request` naming the field. */
import type { z } from 'zod';
import { badRequest } from './errors.ts';

export type Location = 'path' | 'query' | 'body';

/** Human text for the first few zod issues: `body.priceRub: expected an integer`. */
export function describeIssues(where: Location, issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const field = [where, ...issue.path.map(String)].join('.');
      if (issue.code === 'unrecognized_keys') return `${field}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}

export function parseInput<S extends z.ZodType | undefined>(schema: S, value: unknown, where: Location): S extends z.ZodType ? z.output<S> : undefined {
  if (!schema) return undefined as never;
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) {
    if (where === 'body' && value === undefined) throw badRequest('body: a JSON body is required');
    throw badRequest(describeIssues(where, result.error.issues));
  }
  return result.data as never;
}
