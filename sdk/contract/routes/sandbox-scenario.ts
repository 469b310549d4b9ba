/**
 * The sandbox routes scenario runs need (reference server only): the events recorded for a seller
 * with the webhook deliveries made of them (`expect: {webhook}`), and the clock lease that keeps two
 * runs from moving the server's one clock at once. No zod here (schemas: ../sandbox-scenario.ts).
 */
import { route } from '../route.ts';

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
} as const;
