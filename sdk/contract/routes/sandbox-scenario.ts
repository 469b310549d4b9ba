/**
 * The sandbox routes scenario runs need (reference server only): the events recorded for a seller
 * with the webhook deliveries made of them (`expect: {webhook}`), the clock lease that keeps two
 * runs from moving the server's one clock at once, and the run lease a run's faults lapse with. No zod here (schemas: ../sandbox-scenario.ts).
 */
import { route } from '../route.ts';

/** The longest lease (the clock's, a run's), seconds of real time. */
export const CLOCK_LEASE_MAX_SECONDS = 3600;

export const sandboxScenarioRoutes = {
  'sandbox.sellerEvents': route({
    id: 'sandbox.sellerEvents',
    method: 'GET',
    path: '/sellers/{sellerId}/events',
    surface: 'sandbox',
    scope: null,
    summary: "The events recorded for a seller, oldest first, each with the webhook deliveries made of it (subscribed or not).",
  }),
  'sandbox.leaseClock': route({
    id: 'sandbox.leaseClock',
    method: 'POST',
    path: '/clock/lease',
    surface: 'sandbox',
    scope: null,
    summary: 'Take (or renew) the lease of the clock for a scenario run that moves it; refused while another run holds it.',
    status: 201,
    refusals: ['clock_leased'],
    input: 'json',
  }),
  'sandbox.releaseClock': route({
    id: 'sandbox.releaseClock',
    method: 'DELETE',
    path: '/clock/lease/{id}',
    surface: 'sandbox',
    scope: null,
    summary: 'Give the lease of the clock back (it also ends by itself when it expires).',
  }),
  'sandbox.leaseRun': route({
    id: 'sandbox.leaseRun',
    method: 'POST',
    path: '/run-leases',
    surface: 'sandbox',
    scope: null,
    summary: "Take (or renew) a run's lease: the faults added with it end when it lapses. Never refused: runs do not exclude each other.",
    status: 201,
    input: 'json',
  }),
  'sandbox.releaseRun': route({
    id: 'sandbox.releaseRun',
    method: 'DELETE',
    path: '/run-leases/{id}',
    surface: 'sandbox',
    scope: null,
    summary: "End a run's lease and the faults added with it.",
  }),
} as const;
