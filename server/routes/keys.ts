/** API keys: list, issue (never beyond the issuer's scopes), revoke (refused at once everywhere). */
import { issueKey } from '../auth.ts';
import { refuse } from '../domain/refusal.ts';
import { apiHandlers } from '../http/handlers.ts';
import { pageOf } from '../http/paging.ts';
import type { KeyRecord } from '../store/docs.ts';

/** A key as `keys.list` answers it: never its secret or hash. */
export const keyView = (k: KeyRecord) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  mode: k.mode,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revoked: k.revoked,
});

export const keyHandlers = apiHandlers({
  'keys.list': ({ caller }, { query }) => {
    const page = pageOf(Object.values(caller.doc.keys), query, { key: (k) => `${k.createdAt}|${k.id}`, desc: true });
    return { items: page.items.map(keyView), nextCursor: page.nextCursor };
  },

  // The key index is derived from the seller documents: issuing a key writes only the seller's.
  'keys.create': ({ svc, caller, now }, { body }) => {
    const beyond = body.scopes.filter((s) => !caller.key.scopes.includes(s));
    if (beyond.length > 0) {
      return refuse('scope_escalation', { allowed: caller.key.scopes }, `the issuing key lacks: ${beyond.join(', ')}`);
    }
    const { record, key } = issueKey(svc.store, caller.doc, { name: body.name, scopes: body.scopes, mode: caller.key.mode, now });
    return { id: record.id, name: record.name, prefix: record.prefix, scopes: record.scopes, mode: record.mode, createdAt: record.createdAt, key };
  },

  'keys.revoke': (ctx, { params }) => {
    const key = Object.hasOwn(ctx.caller.doc.keys, params.id) ? ctx.caller.doc.keys[params.id] : undefined;
    if (!key) throw ctx.notFound('key');
    if (!key.revoked) {
      key.revoked = true;
      key.revokedAt = ctx.now.toISOString();
    }
    return { id: key.id, revoked: true as const };
  },
});
