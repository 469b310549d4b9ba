/** The event subscription, its delivery log and the probe receiver. Scope `hooks`. */
import { z } from 'zod';
import { intParam, page, pageQuery, prefixedId, Timestamp } from './common.ts';
import { EventKind } from './enums.ts';
import { op } from './operation.ts';
import { hooksRoutes as R } from './routes/hooks.ts';

export { URL_REFUSAL_REASONS } from './constants.ts';

export const Hooks = z.object({
  url: z.string().nullable(),
  events: z.array(EventKind),
  status: z.enum(['active', 'paused', 'off']),
  failures: z.number().int().min(0),
  pausedAt: Timestamp.nullable(),
});

export const HooksSet = z.strictObject({
  url: z.string().min(1).max(2000),
  /** Unknown kinds and duplicates are dropped from the answer; an empty result is `no_events`. */
  events: z.array(z.string().max(100)).max(100).meta({ examples: [['order.new', 'order.paid', 'order.message']] }),
});

export const Delivery = z.object({
  id: prefixedId('dlv'),
  event: EventKind,
  delivery: prefixedId('dlv'),
  attempts: z.number().int().min(0),
  lastStatus: z.number().int().min(0).max(599).nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: Timestamp.nullable(),
  deliveredAt: Timestamp.nullable(),
  test: z.boolean(),
});

export const ProbeHit = z.object({
  receivedAt: Timestamp,
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});

export const hookOperations = {
  'hooks.get': op(R['hooks.get'], {
    answer: Hooks,
  }),
  'hooks.set': op(R['hooks.set'], {
    body: HooksSet,
    answer: Hooks.extend({ secret: z.string().nullable() }),
  }),
  'hooks.delete': op(R['hooks.delete'], {
    answer: Hooks,
  }),
  'hooks.rotateSecret': op(R['hooks.rotateSecret'], {
    answer: z.object({ secret: z.string() }),
  }),
  'hooks.resume': op(R['hooks.resume'], {
    answer: Hooks,
  }),
  'hooks.test': op(R['hooks.test'], {
    body: z.strictObject({ event: EventKind.optional() }),
    answer: z.object({ delivery: prefixedId('dlv'), event: EventKind }),
  }),
  'hooks.deliveries': op(R['hooks.deliveries'], {
    query: z.strictObject({ ...pageQuery }),
    answer: page(Delivery),
  }),
  'hooks.createProbe': op(R['hooks.createProbe'], {
    answer: z.object({ url: z.string() }),
  }),
  'hooks.probe': op(R['hooks.probe'], {
    query: z.strictObject({ limit: intParam(1, 200).optional() }),
    answer: z.object({ items: z.array(ProbeHit) }),
  }),
} as const;
