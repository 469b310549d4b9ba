/** The event subscription, its delivery log and the probe receiver. Scope `hooks`. */
import { z } from 'zod';
import { intParam, page, pageQuery, prefixedId, Timestamp } from './common.ts';
import { EventKind } from './enums.ts';
import { op } from './operation.ts';

export const Hooks = z.object({
  url: z.string().nullable(),
  events: z.array(EventKind),
  status: z.enum(['active', 'paused', 'off']),
  failures: z.number().int(),
  pausedAt: Timestamp.nullable(),
});

export const HooksSet = z.strictObject({
  url: z.string().min(1).max(2000),
  /** Unknown kinds and duplicates are dropped from the answer; an empty result is `no_events`. */
  events: z.array(z.string().max(100)).max(100),
});

/** Reason codes of the `url` refusal. */
export const URL_REFUSAL_REASONS = ['malformed', 'https_only', 'credentials', 'public_host_only'] as const;

export const Delivery = z.object({
  id: prefixedId('dlv'),
  event: EventKind,
  delivery: prefixedId('dlv'),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
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
  'hooks.get': op({
    id: 'hooks.get',
    method: 'GET',
    path: '/hooks',
    scope: 'hooks',
    summary: 'The current event subscription (status `off` when there is none).',
    answer: Hooks,
  }),
  'hooks.set': op({
    id: 'hooks.set',
    method: 'PUT',
    path: '/hooks',
    scope: 'hooks',
    summary: 'Subscribe an https address to events; the signing secret is returned only at creation.',
    body: HooksSet,
    answer: Hooks.extend({ secret: z.string().nullable() }),
    refusals: ['url', 'no_events', 'vault_off'],
  }),
  'hooks.delete': op({
    id: 'hooks.delete',
    method: 'DELETE',
    path: '/hooks',
    scope: 'hooks',
    summary: 'Switch event delivery off.',
    answer: Hooks,
  }),
  'hooks.rotateSecret': op({
    id: 'hooks.rotateSecret',
    method: 'POST',
    path: '/hooks/secret',
    scope: 'hooks',
    summary: 'Rotate the signing secret; the new one is returned once.',
    answer: z.object({ secret: z.string() }),
    refusals: ['vault_off'],
  }),
  'hooks.resume': op({
    id: 'hooks.resume',
    method: 'POST',
    path: '/hooks/resume',
    scope: 'hooks',
    summary: 'Resume a paused subscription.',
    answer: Hooks,
  }),
  'hooks.test': op({
    id: 'hooks.test',
    method: 'POST',
    path: '/hooks/test',
    scope: 'hooks',
    summary: 'Send a test event the same way as real ones (signature, log, ladder), with test:true.',
    body: z.strictObject({ event: EventKind.optional() }),
    answer: z.object({ delivery: prefixedId('dlv'), event: EventKind }),
    status: 202,
  }),
  'hooks.deliveries': op({
    id: 'hooks.deliveries',
    method: 'GET',
    path: '/hooks/deliveries',
    scope: 'hooks',
    summary: 'The delivery log: event, attempts, last answer code and error.',
    query: z.strictObject({ ...pageQuery }),
    answer: page(Delivery),
    paging: 'cursor',
  }),
  'hooks.createProbe': op({
    id: 'hooks.createProbe',
    method: 'POST',
    path: '/hooks/probe',
    scope: 'hooks',
    summary: 'Get the address of a test receiver hosted by the service.',
    answer: z.object({ url: z.string() }),
    status: 201,
  }),
  'hooks.probe': op({
    id: 'hooks.probe',
    method: 'GET',
    path: '/hooks/probe',
    scope: 'hooks',
    summary: 'What the test receiver got, newest first, raw bodies included.',
    query: z.strictObject({ limit: intParam(1, 200).optional() }),
    answer: z.object({ items: z.array(ProbeHit) }),
  }),
} as const;
