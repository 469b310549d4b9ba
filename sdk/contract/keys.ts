/** API keys. Scope `keys`. */
import { z } from 'zod';
import { IdParam, page, pageQuery, prefixedId, Scope, Timestamp } from './common.ts';
import { KeyMode } from './enums.ts';
import { op } from './operation.ts';

/** `service_live_` or `service_test_` followed by 40 base62 characters. */
export const API_KEY_PATTERN = /^service_(live|test)_[0-9A-Za-z]{40}$/;
export const KEY_PREFIX_LENGTH = 18;

export const ApiKey = z.object({
  id: prefixedId('key'),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(Scope),
  mode: KeyMode,
  createdAt: Timestamp,
  lastUsedAt: Timestamp.nullable(),
  revoked: z.boolean(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const IssuedKey = ApiKey.omit({ lastUsedAt: true, revoked: true }).extend({ key: z.string() });

export const keyOperations = {
  'keys.list': op({
    id: 'keys.list',
    method: 'GET',
    path: '/keys',
    scope: 'keys',
    summary: "List the seller's keys (never their values).",
    query: z.strictObject({ ...pageQuery }),
    answer: page(ApiKey),
    paging: 'cursor',
  }),
  'keys.create': op({
    id: 'keys.create',
    method: 'POST',
    path: '/keys',
    scope: 'keys',
    summary: 'Issue a key with some of the issuing key’s scopes; its value is shown only now.',
    body: z.strictObject({
      name: z.string().trim().min(1).max(100),
      scopes: z.array(Scope).min(1, 'at least one scope'),
    }),
    answer: IssuedKey,
    status: 201,
    refusals: ['scope_escalation'],
  }),
  'keys.revoke': op({
    id: 'keys.revoke',
    method: 'DELETE',
    path: '/keys/{id}',
    scope: 'keys',
    summary: 'Revoke a key; it is refused at once everywhere.',
    params: IdParam,
    answer: z.object({ id: prefixedId('key'), revoked: z.literal(true) }),
  }),
} as const;
