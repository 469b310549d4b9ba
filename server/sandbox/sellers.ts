/** Sandbox: sellers, their status and admission (the marketplace's side of a seller). */
import { SCOPES, type NotFoundRecord, type KeyMode, type Scope, type SellerType } from '../../sdk/contract/index.ts';
import { issueKey } from '../auth.ts';
import type { ServerContext, UnitOfWork } from '../context.ts';
import { sandboxHandlers } from '../http/handlers.ts';
import { base62 } from '../ids.ts';
import { nicknameKey } from '../../sdk/text-fold.ts';
import { FIXTURE_PAPERS } from '../seed/registry.ts';
import { newSellerDoc, type SellerDoc } from '../store/docs.ts';

export interface NewSeller {
  mode?: KeyMode;
  sellerType?: SellerType;
  admission?: 'complete' | 'none';
  scopes?: Scope[];
  keyName?: string;
}

/**
 * Creates a seller and its first key; used by the sandbox route and the demo seller. `same` gives
 * the ids and key of a seller created before (the msw mock's reset keeps its seller's identity).
 */
export async function createSeller(svc: ServerContext, tx: UnitOfWork, opts: NewSeller, now: Date, same?: { sellerId: string; keyId: string; apiKey: string }) {
  const sellerId = same?.sellerId ?? `sel_${base62(12)}`;
  const mode = opts.mode ?? 'live';
  tx.shared().sellers[sellerId] = { id: sellerId, status: 'active', mode, createdAt: now.toISOString() };
  const doc = await tx.seller(sellerId);
  Object.assign(doc, newSellerDoc(sellerId));
  if (opts.sellerType) doc.papers.sellerType = opts.sellerType;
  if (opts.admission === 'complete') fillPapers(svc, doc, opts.sellerType ?? 'ip', now);
  const { record, key } = issueKey(svc.store, doc, {
    name: opts.keyName ?? 'first key',
    scopes: opts.scopes ?? [...SCOPES],
    mode,
    now,
    ...(same ? { same: { id: same.keyId, key: same.apiKey } } : {}),
  });
  return { sellerId, keyId: record.id, apiKey: key };
}

/** Fills the papers with fixture values: a complete admission. */
export function fillPapers(svc: ServerContext, doc: SellerDoc, sellerType: SellerType, now: Date): void {
  const fixture = FIXTURE_PAPERS(sellerType);
  clearPapers(svc, doc);
  const nickname = `${fixture.nickname ?? 'seller'}-${doc.sellerId.slice(4, 10).toLowerCase()}`;
  svc.store.shared.nicknames[nicknameKey(nickname)] = doc.sellerId;
  doc.papers = {
    nickname,
    offerAcceptedAt: now.toISOString(),
    sellerType,
    inn: fixture.inn,
    registryName: fixture.registryName,
    registryConfirmed: true,
    payout: {
      method: 'account',
      sealed: null,
      accountTail: fixture.bankAccount.account.slice(-4),
      bik: fixture.bankAccount.bik,
      name: fixture.bankAccount.name,
      kpp: fixture.kpp ?? null,
    },
  };
}

export function clearPapers(svc: ServerContext, doc: SellerDoc): void {
  if (doc.papers.nickname) delete svc.store.shared.nicknames[nicknameKey(doc.papers.nickname)];
  doc.papers = newSellerDoc(doc.sellerId).papers;
}

async function existingSeller(ctx: { svc: ServerContext; tx: UnitOfWork; notFound(record: NotFoundRecord, id?: string): unknown }, sellerId: string) {
  // Own keys only: `__proto__` or `constructor` must not find Object.prototype (and pollute it).
  if (!Object.hasOwn(ctx.svc.store.shared.sellers, sellerId)) throw ctx.notFound('seller', sellerId);
  return ctx.tx.seller(sellerId);
}

export const sellerSandboxHandlers = sandboxHandlers({
  'sandbox.createSeller': (ctx, { body }) => createSeller(ctx.svc, ctx.tx, body, ctx.now),

  'sandbox.setSellerStatus': async (ctx, { params, body }) => {
    await existingSeller(ctx, params.sellerId);
    ctx.tx.shared().sellers[params.sellerId]!.status = body.status;
    ctx.svc.market.sellerStatusSet(params.sellerId); // the market aggregates follow the status
    return { sellerId: params.sellerId, status: body.status };
  },

  'sandbox.setAdmission': async (ctx, { params, body }) => {
    // The nickname index is derived from the seller documents: only the seller's is written.
    const doc = await existingSeller(ctx, params.sellerId);
    if (body.complete) fillPapers(ctx.svc, doc, body.sellerType ?? doc.papers.sellerType ?? 'ip', ctx.now);
    else {
      clearPapers(ctx.svc, doc);
      if (body.sellerType) doc.papers.sellerType = body.sellerType;
    }
    return { sellerId: params.sellerId, complete: body.complete, sellerType: doc.papers.sellerType };
  },
});
