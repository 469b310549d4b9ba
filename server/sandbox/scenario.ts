/**
 * Sandbox: what scenario runs read and hold. A seller's events (the outbox in the seller's
 * document, server/domain/events.ts) joined with the webhook deliveries made of them (the delivery
 * log, server/webhooks/outbox.ts), and the clock lease (./clock-lease.ts).
 */
import { refuse } from '../domain/refusal.ts';
import { sandboxHandlers } from '../http/handlers.ts';
import type { DeliveryRecord } from '../store/records/hooks.ts';

const deliveryView = (d: DeliveryRecord) => ({
  id: d.id,
  delivery: d.id,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  deliveredAt: d.deliveredAt,
});

const leaseView = (lease: { id: string; holder: string; expiresAt: number }) => ({
  id: lease.id,
  holder: lease.holder,
  expiresAt: new Date(lease.expiresAt).toISOString(),
});

export const scenarioSandboxHandlers = sandboxHandlers({
  'sandbox.sellerEvents': async (ctx, { params }) => {
    if (!Object.hasOwn(ctx.svc.store.shared.sellers, params.sellerId)) throw ctx.notFound('seller', params.sellerId);
    const doc = await ctx.svc.store.seller(params.sellerId);
    const byEvent = new Map<string, DeliveryRecord[]>();
    for (const d of doc.deliveries) {
      if (d.eventId === null) continue;
      const list = byEvent.get(d.eventId);
      if (list) list.push(d);
      else byEvent.set(d.eventId, [d]);
    }
    return {
      items: doc.events.map((e) => ({ id: e.id, kind: e.kind, data: e.data, at: e.at, deliveries: (byEvent.get(e.id) ?? []).map(deliveryView) })),
    };
  },

  'sandbox.leaseClock': (ctx, { body }) => {
    const result = ctx.svc.clockLeases.take(body.holder, body.ttlSeconds * 1000, Date.now(), body.lease);
    if ('heldBy' in result) {
      const until = new Date(result.heldBy.expiresAt).toISOString();
      // Who holds it and until when, as data: a client says them in its own words.
      return refuse('clock_leased', { reason: 'held', holder: result.heldBy.holder, until }, `another scenario run that moves the clock is running on this server (${result.heldBy.holder}, lease until ${until} unless renewed)`);
    }
    return leaseView(result.taken);
  },

  'sandbox.releaseClock': (ctx, { params }) => ({ released: ctx.svc.clockLeases.release(params.id, Date.now()) }),
});
