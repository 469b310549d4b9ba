/** The event subscription, delivery log, test event and probe receiver (scope `hooks`). */
import { EVENT_KINDS, type EventDataOf, type EventKind } from '../../sdk/contract/index.ts';
import { refuse } from '../domain/refusal.ts';
import { apiHandlers } from '../http/handlers.ts';
import { pageOf } from '../http/paging.ts';
import { base62, newId } from '../ids.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { DeliveryRecord } from '../store/records/hooks.ts';
import { checkHookUrl } from '../webhooks/address.ts';
import { addDelivery, kick, normaliseEvents, queueDelivery, rescheduleNow, secretAad, stopPending } from '../webhooks/outbox.ts';
import { ensureProbe, probeTarget, probeUrl } from '../webhooks/probe.ts';

/** A new signing secret: `whsec_` + 32 base62 characters. */
const newSecret = () => `whsec_${base62(32)}`;

/** The seller's subscription as `hooks.get` answers it (the sandbox's inspector adds to it). */
export const hookView = (doc: SellerDoc) => {
  const h = doc.hooks;
  if (!h) return { url: null, events: [], status: 'off' as const, failures: 0, pausedAt: null };
  return { url: h.url, events: h.events, status: h.status, failures: h.failures, pausedAt: h.pausedAt };
};

/** A delivery as `hooks.deliveries` lists it (the sandbox's inspector adds its attempts and body). */
export const deliveryView = (d: DeliveryRecord) => ({
  id: d.id,
  event: d.event,
  delivery: d.id,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  nextAttemptAt: d.nextAttemptAt,
  deliveredAt: d.deliveredAt,
  test: d.test,
});

const vaultOff = () => refuse('vault_off', {}, 'the secret storage for signing secrets is not configured on this server');

/** Realistic `data` of a test event of each kind (on the seller's first card when there is one). */
function sampleData(doc: SellerDoc, kind: EventKind, now: Date): Record<string, unknown> {
  const card = Object.values(doc.cards).sort((a, b) => a.number - b.number)[0];
  const number = card?.number ?? 1001;
  const order = (status: EventDataOf<'order.new'>['status']) => ({ order: newId('ord'), number, status });
  const samples: { [K in EventKind]: () => EventDataOf<K> } = {
    'order.new': () => order('awaiting_payment'),
    'order.paid': () => ({ ...order('awaiting_delivery'), slaMinutes: card?.slaMinutes ?? 60 }),
    'order.message': () => ({
      ...order('awaiting_delivery'),
      message: { id: newId('msg'), text: 'Hello! Is the order on its way?', at: now.toISOString() },
    }),
    'order.dispute': () => order('disputed'),
    'order.cancelled': () => order('cancelled'),
    'order.completed': () => order('completed'),
    'stock.out': () => ({ number }),
    'review.new': () => ({ review: newId('rev'), number }),
    'question.new': () => ({ question: newId('q'), number }),
  };
  return samples[kind]() as Record<string, unknown>;
}

export const hookHandlers = apiHandlers({
  'hooks.get': ({ caller }) => hookView(caller.doc),

  'hooks.set': ({ svc, caller, now }, { body }) => {
    const doc = caller.doc;
    // This server's own probe address of this seller is always allowed.
    if (probeTarget(svc, doc, body.url) === null) {
      const check = checkHookUrl(body.url, { allowLocal: svc.options.allowLocalHooks });
      if (!check.ok) return refuse('url', { field: 'url', reason: check.reason }, check.message);
    }
    const events = normaliseEvents(body.events);
    if (events.length === 0) {
      return refuse('no_events', { field: 'events', allowed: [...EVENT_KINDS] }, 'subscribe to at least one known event kind');
    }
    if (!svc.options.hookSecrets) return vaultOff();

    const existing = doc.hooks;
    if (!existing) {
      const secret = newSecret();
      doc.hooks = {
        url: body.url,
        events,
        sealedSecret: svc.sealer.seal(secret, secretAad(doc.sellerId)),
        status: 'active',
        failures: 0,
        pausedAt: null,
      };
      return { ...hookView(doc), secret };
    }
    const wasPaused = existing.status === 'paused';
    existing.url = body.url;
    existing.events = events;
    existing.status = 'active';
    existing.failures = 0;
    existing.pausedAt = null;
    if (wasPaused) rescheduleNow(svc, doc, now);
    return { ...hookView(doc), secret: null };
  },

  'hooks.delete': ({ svc, caller }) => {
    const doc = caller.doc;
    if (doc.hooks) {
      doc.hooks = null;
      stopPending(svc, doc);
    }
    return hookView(doc);
  },

  'hooks.rotateSecret': (ctx) => {
    const doc = ctx.caller.doc;
    if (!doc.hooks) throw ctx.notFound('hook');
    if (!ctx.svc.options.hookSecrets) return vaultOff();
    const secret = newSecret();
    doc.hooks.sealedSecret = ctx.svc.sealer.seal(secret, secretAad(doc.sellerId));
    return { secret };
  },

  'hooks.resume': (ctx) => {
    const doc = ctx.caller.doc;
    const hook = doc.hooks;
    if (!hook) throw ctx.notFound('hook');
    hook.status = 'active';
    hook.failures = 0;
    hook.pausedAt = null;
    rescheduleNow(ctx.svc, doc, ctx.now);
    return hookView(doc);
  },

  'hooks.test': (ctx, { body }) => {
    const doc = ctx.caller.doc;
    if (!doc.hooks) throw ctx.notFound('hook');
    const event = body.event ?? 'order.paid';
    const at = ctx.now.toISOString();
    const d = addDelivery(doc, { event, data: sampleData(doc, event, ctx.now), at, eventId: null, test: true });
    queueDelivery(ctx.svc, doc.sellerId, d);
    kick(ctx.svc);
    return { delivery: d.id, event };
  },

  'hooks.deliveries': ({ caller }, { query }) => {
    const page = pageOf(caller.doc.deliveries, query, { key: (d) => String(d.seq).padStart(12, '0'), desc: true });
    return { items: page.items.map(deliveryView), nextCursor: page.nextCursor };
  },

  'hooks.createProbe': ({ svc, caller }) => ({ url: probeUrl(svc, ensureProbe(svc, caller.doc)) }),

  'hooks.probe': ({ caller }, { query }) => ({
    items: (caller.doc.probe?.hits ?? []).slice(0, query.limit ?? 50).map((h) => ({ receivedAt: h.receivedAt, headers: h.headers, body: h.body })),
  }),
});
