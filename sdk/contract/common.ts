/**
 * Shared building blocks of the contract: scopes, error codes and their HTTP statuses,
 * the error envelope, pagination, and the small schema helpers every section uses.
 */
import { z } from 'zod';
import { isCalendarDay } from './calendar.ts';
import { ERROR_STATUS, PAGE_LIMIT_MAX, SCOPES } from './constants.ts';
import { CREDENTIALS, ISSUE_CODES, NOT_FOUND_RECORDS } from './error-data.ts';

export { AUTH_CODES, ERROR_STATUS, SCOPES } from './constants.ts';
export * from './error-data.ts';
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCode = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/**
 * A rule refusal: `kind`, the `reason` (one of `REFUSAL_REASONS[kind]`, sdk/contract/error-data.ts)
 * and the values it needs (`REFUSAL_VALUES`). Loose: a newer service's values pass through.
 */
export const Refusal = z.looseObject({
  kind: z.string(),
  reason: z.string().optional(),
  field: z.string().optional(),
  allowed: z.array(z.union([z.string(), z.number()])).optional(),
  status: z.string().optional(),
  length: z.number().int().min(0).optional(),
  expected: z.array(z.number().int().min(0)).optional(),
  max: z.number().int().min(0).optional(),
  tail: z.string().optional(),
  record: z.enum(NOT_FOUND_RECORDS).optional(),
  id: z.string().optional(),
  holder: z.string().optional(),
  until: z.string().optional(),
});
export type Refusal = z.infer<typeof Refusal>;

/** One problem of a `bad_request`: where (`['body', 'priceRub']`), its `code` and the values it needs. */
export const RequestIssue = z.looseObject({
  path: z.array(z.union([z.string(), z.number()])),
  code: z.enum(ISSUE_CODES),
  /** `invalid_type`: the type expected (`string`, `number`, `int`, `boolean`, `array`, `object`…). */
  expected: z.string().optional(),
  /** `too_small` / `too_big`: the bound, and what it counts (`string` length, `number`, `array` items). */
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  origin: z.string().optional(),
  /** `invalid_value`: the accepted values. */
  values: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  /** `unrecognized_keys`: the unknown fields. */
  keys: z.array(z.string()).optional(),
  /** `invalid_format`: zod's format name (`regex`, `email`, …). */
  format: z.string().optional(),
  /** In English, for developers. */
  message: z.string(),
});
export type RequestIssue = z.infer<typeof RequestIssue>;

/**
 * The `detail` object of an error answer other than a refusal: an English `message` for developers,
 * and the data a client says in its own words: `needed` (`scope`), `record` and `id` (`not_found`),
 * `credential` (`no_key`, `bad_key`), `issues` (`bad_request`), `retryAfter` (`rate`).
 */
export const ErrorDetail = z.looseObject({
  message: z.string(),
  needed: z.string().optional(),
  record: z.enum(NOT_FOUND_RECORDS).optional(),
  id: z.string().optional(),
  credential: z.enum(CREDENTIALS).optional(),
  issues: z.array(RequestIssue).optional(),
  retryAfter: z.number().optional(),
  /** `method_not_allowed`: the methods the path takes (as in `Allow`). */
  allowed: z.array(z.string()).optional(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/**
 * The error envelope of every non-2xx answer. The reference server sends `detail` as an
 * {@link ErrorDetail} object, except beside a `refusal` (whose data is the refusal), where `detail`
 * is an English sentence for developers. Clients read a string `detail` of any code too (older services).
 */
export const ErrorBody = z.object({
  error: ErrorCode,
  detail: z.union([z.string(), ErrorDetail]).optional(),
  refusal: Refusal.optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

// ---------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------

/** ISO 8601 UTC timestamp with milliseconds: `2026-11-21T08:13:39.000Z`. */
export const Timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'an ISO 8601 UTC timestamp with milliseconds')
  .meta({ format: 'date-time' });

/** A real calendar date `YYYY-MM-DD`. */
export const DateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
  .refine(isCalendarDay, 'a real calendar date')
  .meta({ format: 'date' });

/** Integer roubles. */
export const Rub = z.number().int().min(0);

/** A slug of the catalogue: lower-case letters, digits and dashes. */
export const Slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a slug (a-z, 0-9, -)');

/** A prefixed record id such as `ord_…`. */
export const prefixedId = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`), `an id starting with ${prefix}_`);

/** Free text a seller writes; the contact filter applies on the server. */
export const Text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

// ---------------------------------------------------------------------------
// Query and path helpers: accept the typed value from the SDK or the string from a URL.
// ---------------------------------------------------------------------------

/** An integer in a query string or path. */
export const intParam = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  z
    .union([z.number(), z.string().regex(/^-?\d+$/, 'an integer').transform(Number)])
    .pipe(z.number().int('an integer').min(min).max(max));

/** A boolean in a query string: `true`/`false` (also `1`/`0`). */
export const boolParam = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/** The card number in a path. */
export const CardNumberParam = z.strictObject({ number: intParam(1) });
/** A string record id in a path. */
export const IdParam = z.strictObject({ id: z.string().min(1).max(80) });

// ---------------------------------------------------------------------------
// Pagination (gaps.md): `limit` 1–200 default 50, opaque `cursor`, `{items, nextCursor}`.
// ---------------------------------------------------------------------------

export { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './constants.ts';

export const pageQuery = {
  limit: intParam(1, PAGE_LIMIT_MAX).optional(),
  cursor: z.string().min(1).max(512).optional(),
};

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export type Page<T> = { items: T[]; nextCursor: string | null };
