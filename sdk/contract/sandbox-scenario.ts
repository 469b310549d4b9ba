/**
 * Sandbox operations for scenario runs (reference server only, left out of OpenAPI like the rest of
 * the sandbox): a seller's events with their deliveries, the clock lease, and the run lease.
 */
import { z } from 'zod';
import { prefixedId, Timestamp } from './common.ts';
import { EventKind } from './enums.ts';
import { op } from './operation.ts';
import { CLOCK_LEASE_MAX_SECONDS, sandboxScenarioRoutes as R } from './routes/sandbox-scenario.ts';

/** A webhook delivery made of an event: its attempts so far and how the last one went. */
export const EventDelivery = z.object({
  id: prefixedId('dlv'),
  delivery: prefixedId('dlv'),
  attempts: z.number().int().min(0),
  lastStatus: z.number().int().nullable(),
  deliveredAt: Timestamp.nullable(),
});

/** An event recorded for a seller (the outbox keeps the latest 1000), with its deliveries. */
export const SellerEvent = z.object({
  id: prefixedId('evt'),
  kind: EventKind,
  data: z.record(z.string(), z.unknown()),
  at: Timestamp,
  deliveries: z.array(EventDelivery),
});

/** The lease of the server's clock, held by one scenario run; it ends at `expiresAt` (real time) unless renewed. */
export const ClockLease = z.object({
  id: prefixedId('cll'),
  holder: z.string(),
  expiresAt: Timestamp,
});

/** Who holds the lease and until when, as anyone may read it (`sandbox.clock`): without its id, which is the holder's. */
export const ClockLeaseHeld = ClockLease.omit({ id: true });

export { CLOCK_LEASE_MAX_SECONDS };

/**
 * A run's lease (one per run, any number at once): the faults added with it (`runLease`) end when
 * it does, at `expiresAt` (real time) unless renewed, or when it is released. A run killed outright
 * leaves no fault for ever.
 */
export const RunLease = z.object({
  id: prefixedId('rnl'),
  holder: z.string(),
  expiresAt: Timestamp,
});

export const sandboxScenarioOperations = {
  'sandbox.sellerEvents': op(R['sandbox.sellerEvents'], {
    params: z.strictObject({ sellerId: z.string().min(1).max(80) }),
    answer: z.object({ items: z.array(SellerEvent) }),
  }),
  'sandbox.leaseClock': op(R['sandbox.leaseClock'], {
    body: z.strictObject({
      /** Who holds it, for the refusal's sentence (`seller sandbox run day.yaml`). */
      holder: z.string().min(1).max(200),
      ttlSeconds: z.number().int().min(1).max(CLOCK_LEASE_MAX_SECONDS),
      /** The lease to renew (its holder's own); without it a new lease is taken. */
      lease: prefixedId('cll').optional(),
    }),
    answer: ClockLease,
  }),
  'sandbox.releaseClock': op(R['sandbox.releaseClock'], {
    params: z.strictObject({ id: prefixedId('cll') }),
    answer: z.object({ released: z.boolean() }),
  }),
  'sandbox.leaseRun': op(R['sandbox.leaseRun'], {
    body: z.strictObject({
      holder: z.string().min(1).max(200),
      ttlSeconds: z.number().int().min(1).max(CLOCK_LEASE_MAX_SECONDS),
      /** The lease to renew; without it (or when it has lapsed) a new lease is taken. */
      lease: prefixedId('rnl').optional(),
    }),
    answer: RunLease,
  }),
  'sandbox.releaseRun': op(R['sandbox.releaseRun'], {
    params: z.strictObject({ id: prefixedId('rnl') }),
    /** `cleared`: the faults that ended with it. */
    answer: z.object({ released: z.boolean(), cleared: z.number().int() }),
  }),
} as const;
