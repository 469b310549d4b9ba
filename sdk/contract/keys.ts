/** API keys. Scope `keys`. */
import { z } from 'zod';
import { IdParam, page, pageQuery, prefixedId, Scope, Timestamp } from './common.ts';
import { KeyMode } from './enums.ts';
import { op } from './operation.ts';
import { keysRoutes as R } from './routes/keys.ts';

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
  'keys.list': op(R['keys.list'], {
    query: z.strictObject({ ...pageQuery }),
    answer: page(ApiKey),
  }),
  'keys.create': op(R['keys.create'], {
    body: z.strictObject({
      name: z.string().trim().min(1).max(100),
      scopes: z.array(Scope).min(1, 'at least one scope'),
    }),
    answer: IssuedKey,
  }),
  'keys.revoke': op(R['keys.revoke'], {
    params: IdParam,
    answer: z.object({ id: prefixedId('key'), revoked: z.literal(true) }),
  }),
} as const;
