/**
 * The reference server's sandbox (gaps.md): the marketplace and the buyer, under `/sandbox/v1`,
 * authenticated by the admin token, no idempotency keys. Server-only: not part of the seller API.
 */
import { z } from 'zod';
import { IdParam, intParam, prefixedId, Scope, Text, Timestamp } from './common.ts';
import { CatalogRequest } from './catalog.ts';
import { Question, Review } from './account.ts';
import { KeyMode, SellerType } from './enums.ts';
import { Message, OrderWithMessages } from './orders.ts';
import { op } from './operation.ts';

const sellerParam = z.strictObject({ sellerId: z.string().min(1).max(80) });

export const SandboxSeller = z.object({ sellerId: z.string(), keyId: prefixedId('key'), apiKey: z.string() });

const orderAction = <const Id extends string, const Action extends string, B extends z.ZodType | undefined = undefined>(
  id: Id,
  action: Action,
  summary: string,
  body?: B,
) =>
  op({
    id,
    method: 'POST',
    path: `/orders/{id}/${action}`,
    surface: 'sandbox',
    scope: null,
    summary,
    params: IdParam,
    body: body as B,
    answer: OrderWithMessages,
    refusals: ['state_moved'],
  });

export const sandboxOperations = {
  'sandbox.createSeller': op({
    id: 'sandbox.createSeller',
    method: 'POST',
    path: '/sellers',
    surface: 'sandbox',
    scope: null,
    summary: 'Create a seller and its first key (all scopes by default).',
    body: z.strictObject({
      mode: KeyMode.optional(),
      sellerType: SellerType.optional(),
      admission: z.enum(['complete', 'none']).optional(),
      scopes: z.array(Scope).min(1).optional(),
    }),
    answer: SandboxSeller,
    status: 201,
  }),
  'sandbox.setSellerStatus': op({
    id: 'sandbox.setSellerStatus',
    method: 'PUT',
    path: '/sellers/{sellerId}/status',
    surface: 'sandbox',
    scope: null,
    summary: 'Block, unblock or demote a seller.',
    params: sellerParam,
    body: z.strictObject({ status: z.enum(['active', 'blocked', 'not_seller']) }),
    answer: z.object({ sellerId: z.string(), status: z.enum(['active', 'blocked', 'not_seller']) }),
  }),
  'sandbox.setAdmission': op({
    id: 'sandbox.setAdmission',
    method: 'PUT',
    path: '/sellers/{sellerId}/admission',
    surface: 'sandbox',
    scope: null,
    summary: 'Fill the papers with fixture values, or clear them.',
    params: sellerParam,
    body: z.strictObject({ complete: z.boolean(), sellerType: SellerType.optional() }),
    answer: z.object({ sellerId: z.string(), complete: z.boolean(), sellerType: SellerType.nullable() }),
  }),
  'sandbox.decideCatalogRequest': op({
    id: 'sandbox.decideCatalogRequest',
    method: 'POST',
    path: '/catalog/requests/{id}/decide',
    surface: 'sandbox',
    scope: null,
    summary: 'Approve or reject a catalogue request.',
    params: IdParam,
    body: z.strictObject({ approve: z.boolean() }),
    answer: CatalogRequest,
    refusals: ['already_decided'],
  }),
  'sandbox.createOrder': op({
    id: 'sandbox.createOrder',
    method: 'POST',
    path: '/orders',
    surface: 'sandbox',
    scope: null,
    summary: 'A buyer presses buy on a card: an order awaiting payment with a price snapshot.',
    body: z.strictObject({ number: intParam(1), testBuyer: z.boolean().optional() }),
    answer: OrderWithMessages,
    status: 201,
    refusals: ['test_card', 'real_card', 'inactive', 'capacity', 'do_not_disturb'],
  }),
  'sandbox.pay': orderAction('sandbox.pay', 'pay', 'The buyer pays; the SLA clock starts.'),
  'sandbox.cancel': orderAction('sandbox.cancel', 'cancel', 'The buyer cancels an unpaid or undelivered order.'),
  'sandbox.accept': orderAction('sandbox.accept', 'accept', 'The buyer confirms receipt.'),
  'sandbox.message': op({
    id: 'sandbox.message',
    method: 'POST',
    path: '/orders/{id}/message',
    surface: 'sandbox',
    scope: null,
    summary: 'The buyer writes to the seller.',
    params: IdParam,
    body: z.strictObject({ text: Text(4000) }),
    answer: Message,
    refusals: ['state_moved'],
  }),
  'sandbox.vault': orderAction(
    'sandbox.vault',
    'vault',
    "The buyer puts credentials into the buyer's vault.",
    z.strictObject({ secret: z.string().min(1).max(4096) }),
  ),
  'sandbox.dispute': orderAction('sandbox.dispute', 'dispute', 'The buyer opens a dispute.', z.strictObject({ text: Text(4000) })),
  'sandbox.resolve': orderAction(
    'sandbox.resolve',
    'resolve',
    'The marketplace resolves a dispute.',
    z.strictObject({ winner: z.enum(['seller', 'buyer']) }),
  ),
  'sandbox.review': op({
    id: 'sandbox.review',
    method: 'POST',
    path: '/orders/{id}/review',
    surface: 'sandbox',
    scope: null,
    summary: 'The buyer reviews a completed order.',
    params: IdParam,
    body: z.strictObject({ stars: z.number().int().min(1).max(5), text: z.string().max(2000) }),
    answer: Review,
    refusals: ['state_moved'],
  }),
  'sandbox.createQuestion': op({
    id: 'sandbox.createQuestion',
    method: 'POST',
    path: '/questions',
    surface: 'sandbox',
    scope: null,
    summary: 'A buyer asks a question about a card.',
    body: z.strictObject({ number: intParam(1), text: Text(2000) }),
    answer: Question,
    status: 201,
  }),
  'sandbox.clock': op({
    id: 'sandbox.clock',
    method: 'GET',
    path: '/clock',
    surface: 'sandbox',
    scope: null,
    summary: "The server clock's current time.",
    answer: z.object({ now: Timestamp }),
  }),
  'sandbox.advanceClock': op({
    id: 'sandbox.advanceClock',
    method: 'POST',
    path: '/clock/advance',
    surface: 'sandbox',
    scope: null,
    summary: 'Move the clock forward; deadlines, guarantee ends and webhook retries due by then run.',
    body: z.strictObject({ seconds: z.number().int().min(0).max(10 * 365 * 86400) }),
    answer: z.object({ now: Timestamp }),
  }),
} as const;
