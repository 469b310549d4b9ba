/** The routes of the sandbox's fault operations (reference server only; schemas: ../sandbox-faults.ts). No zod here. */
import { route } from '../route.ts';

/** The statuses a fault may answer instead of running the call. */
export const FAULT_STATUSES = [429, 500, 502, 503] as const;
/** The kinds of webhook chaos. */
export const HOOK_CHAOS = ['duplicate', 'reorder', 'delay', 'fail'] as const;
/** The longest latency or webhook delay, in milliseconds. */
export const FAULT_MAX_DELAY_MS = 60_000;
/** The longest `Retry-After` a status fault may ask for, in milliseconds: an hour. */
export const FAULT_MAX_RETRY_AFTER_MS = 3_600_000;
/** The longest `forMs`: a year. */
export const FAULT_MAX_FOR_MS = 365 * 86_400_000;
/** The largest `times` and `every`. */
export const FAULT_MAX_COUNT = 1_000_000;

export const sandboxFaultRoutes = {
  'sandbox.addFault': route({
    id: 'sandbox.addFault',
    method: 'POST',
    path: '/faults',
    surface: 'sandbox',
    scope: null,
    summary: 'Make the service misbehave on purpose: a status, a latency or a dropped connection for seller-API calls, or webhook chaos.',
    status: 201,
    input: 'json',
  }),
  'sandbox.listFaults': route({
    id: 'sandbox.listFaults',
    method: 'GET',
    path: '/faults',
    surface: 'sandbox',
    scope: null,
    summary: 'The faults in force, oldest first, then those that ended within the hour (with when they ended).',
  }),
  'sandbox.clearFaults': route({
    id: 'sandbox.clearFaults',
    method: 'DELETE',
    path: '/faults',
    surface: 'sandbox',
    scope: null,
    summary: 'Clear every fault.',
  }),
  'sandbox.clearFault': route({
    id: 'sandbox.clearFault',
    method: 'DELETE',
    path: '/faults/{id}',
    surface: 'sandbox',
    scope: null,
    summary: 'Clear one fault.',
  }),
} as const;
