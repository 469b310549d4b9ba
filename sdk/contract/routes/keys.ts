/** The routes of the keys operations: what a client needs to send them (schemas: ../keys.ts). No zod here. */
import { route } from '../route.ts';

export const keysRoutes = {
  'keys.list': route({
    id: 'keys.list',
    method: 'GET',
    path: '/keys',
    scope: 'keys',
    summary: "List the seller's keys (never their values).",
    paging: 'cursor',
    input: 'query',
  }),
  'keys.create': route({
    id: 'keys.create',
    method: 'POST',
    path: '/keys',
    scope: 'keys',
    summary: 'Issue a key with some of the issuing key’s scopes; its value is shown only now.',
    status: 201,
    refusals: ['scope_escalation'],
    input: 'json',
  }),
  'keys.revoke': route({
    id: 'keys.revoke',
    method: 'DELETE',
    path: '/keys/{id}',
    scope: 'keys',
    summary: 'Revoke a key; it is refused at once everywhere.',
  }),
} as const;
