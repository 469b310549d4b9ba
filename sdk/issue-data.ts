/**
 * A schema library's standard issue as data, without the input (which may hold a secret or a
 * buyer's words): zod's `code`, `expected`, `minimum`, `values`, `keys`, … A client says it in its
 * own language with zod's locales (the CLI: `zod/v4/locales/ru.js`), never by reading the English.
 */
import type { z } from 'zod';

/** Values that are data (JSON), not the input or the schema. */
const isData = (value: unknown): boolean =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value) || (Array.isArray(value) && value.every((item) => ['string', 'number'].includes(typeof item)));

/** The kind of a value, as zod's messages name it (`received string`): never the value. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The issue's data fields, less its input, path and English message; `received`, the input's kind. */
export function issueData(issue: z.core.$ZodIssue): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(issue)) if (name !== 'input' && name !== 'path' && name !== 'message' && isData(value)) data[name] = value;
  if (issue.code === 'invalid_type') data['received'] = kindOf(issue.input);
  return data;
}
