/** Sandbox: the marketplace's decisions and the clock. */
import { refuse } from '../domain/refusal.ts';
import { sandboxHandlers } from '../http/handlers.ts';

export const marketplaceSandboxHandlers = sandboxHandlers({
  'sandbox.decideCatalogRequest': async (ctx, { params, body }) => {
    const index = ctx.svc.store.shared.requestIndex;
    const sellerId = Object.hasOwn(index, params.id) ? index[params.id] : undefined;
    const requests = sellerId ? (await ctx.tx.seller(sellerId)).catalogRequests : {};
    const request = Object.hasOwn(requests, params.id) ? requests[params.id] : undefined;
    if (!request) throw ctx.notFound('catalog_request', params.id);
    if (request.status !== 'pending') return refuse('already_decided', { reason: request.status }, `the request is already ${request.status}`);
    request.status = body.approve ? 'approved' : 'rejected';
    request.decidedAt = ctx.now.toISOString();
    return request;
  },

  'sandbox.clock': (ctx) => ({ now: ctx.now.toISOString() }),

  'sandbox.advanceClock': async (ctx, { body }) => {
    const now = await ctx.svc.clock.advance(body.seconds);
    ctx.tx.shared().clock.offsetMs = ctx.svc.clock.offsetMs;
    return { now: now.toISOString() };
  },
});
