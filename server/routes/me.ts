/** `GET /me`: who this key belongs to. */
import { admissionComplete } from '../domain/admission.ts';
import { apiHandlers } from '../http/handlers.ts';

export const meHandlers = apiHandlers({
  'me.get': ({ caller }) => ({
    sellerId: caller.seller.id,
    nickname: caller.doc.papers.nickname,
    sellerType: caller.doc.papers.sellerType,
    mode: caller.key.mode,
    key: { id: caller.key.id, prefix: caller.key.prefix, scopes: [...caller.key.scopes] },
    admissionComplete: admissionComplete(caller.doc.papers),
  }),
});
