/** Sandbox: the marketplace's decisions and the clock. */
import type { MovedOrder } from '../../sdk/contract/index.ts';
import { refuse } from '../domain/refusal.ts';
import { sandboxHandlers } from '../http/handlers.ts';
import { leasedRefusal } from './clock-lease.ts';

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

  'sandbox.clock': (ctx) => {
    const lease = ctx.svc.clockLeases.current(Date.now());
    return { now: ctx.now.toISOString(), lease: lease && { holder: lease.holder, expiresAt: new Date(lease.expiresAt).toISOString() } };
  },

  'sandbox.advanceClock': async (ctx, { body }) => {
    // A scenario run holds the clock: only its own moves go, or one that says force (./clock-lease.ts).
    const held = body.force ? null : ctx.svc.clockLeases.refusing(Date.now(), body.lease);
    if (held) return leasedRefusal(held);
    // The orders whose deadlines ran while the clock moved, as the change bus tells them (written).
    const moved: MovedOrder[] = [];
    const stop = ctx.svc.changes.on((n) => {
      if (n.type === 'order' && n.change === 'status' && n.by === 'clock' && n.from !== null && n.action !== null) {
        moved.push({ order: n.orderId, sellerId: n.sellerId, number: n.number, action: n.action, from: n.from, to: n.to });
      }
    });
    let now: Date;
    try {
      now = await ctx.svc.clock.advance(body.seconds);
    } finally {
      stop();
    }
    ctx.tx.shared().clock.offsetMs = ctx.svc.clock.offsetMs;
    const at = now.toISOString();
    ctx.svc.changes.publish([{ type: 'clock', now: at, moved, at }]);
    return { now: at, moved };
  },
});
