/** The routes of the catalog operations: what a client needs to send them (schemas: ../catalog.ts). No zod here. */
import { route } from '../route.ts';

export const catalogRoutes = {
  'catalog.list': route({
    id: 'catalog.list',
    method: 'GET',
    path: '/catalog/services',
    scope: 'catalog',
    summary: 'List catalogue positions, filtered by text and category.',
    paging: 'cursor',
    input: 'query',
  }),
  'catalog.get': route({
    id: 'catalog.get',
    method: 'GET',
    path: '/catalog/services/{slug}',
    scope: 'catalog',
    summary: 'Read one catalogue position with its product types, delivery methods and choices.',
  }),
  'catalog.usualPrice': route({
    id: 'catalog.usualPrice',
    method: 'GET',
    path: '/catalog/usual-price',
    scope: 'catalog',
    summary: 'Median price of live cards of a service and product type (null under three cards).',
    input: 'query',
  }),
  'catalog.demand': route({
    id: 'catalog.demand',
    method: 'GET',
    path: '/catalog/demand',
    scope: 'catalog',
    summary: 'The most ordered positions of the last 30 days.',
    input: 'query',
  }),
  'catalogRequests.list': route({
    id: 'catalogRequests.list',
    method: 'GET',
    path: '/catalog/requests',
    scope: 'catalog',
    summary: "List the seller's requests for new catalogue positions.",
    paging: 'cursor',
    input: 'query',
  }),
  'catalogRequests.create': route({
    id: 'catalogRequests.create',
    method: 'POST',
    path: '/catalog/requests',
    scope: 'catalog',
    summary: 'Ask the marketplace to add a missing catalogue position (a human reviews it).',
    status: 201,
    input: 'json',
  }),
} as const;
