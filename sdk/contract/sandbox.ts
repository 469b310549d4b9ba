/**
 * The reference server's sandbox (gaps.md): the marketplace and the buyer, under `/sandbox/v1`,
 * authenticated by the admin token, no idempotency keys. Server-only: not part of the seller API.
 */
import { z } from 'zod';
import { IdParam, intParam, prefixedId, Scope, Text, Timestamp } from './common.ts';
import { ClockLeaseHeld } from './sandbox-scenario.ts';
import { CatalogRequest } from './catalog.ts';
import { Question, Review } from './account.ts';
import { KeyMode, SellerType } from './enums.ts';
import { Message, OrderWithMessages } from './orders.ts';
import { op, type Route } from './operation.ts';
import { sandboxRoutes as R } from './routes/sandbox.ts';
import { MovedOrder, sandboxInspectOperations } from './sandbox-inspect.ts';
import { sandboxFaultOperations } from './sandbox-faults.ts';
import { sandboxScenarioOperations } from './sandbox-scenario.ts';
import { sandboxTelegramOperations } from './sandbox-telegram.ts';

const sellerParam = z.strictObject({ sellerId: z.string().min(1).max(80) });

export const SandboxSeller = z.object({ sellerId: z.string(), keyId: prefixedId('key'), apiKey: z.string() });

/** A buyer's or the marketplace's action on an order: the order comes back. */
const orderAction = <const Id extends string, const P extends string, B extends z.ZodType | undefined = undefined>(
  r: Route<Id, 'POST', P, 'state_moved'>,
  body?: B,
) => op(r, { params: IdParam, body: body as B, answer: OrderWithMessages });

export const sandboxOperations = {
  'sandbox.createSeller': op(R['sandbox.createSeller'], {
    body: z.strictObject({
      mode: KeyMode.optional(),
      sellerType: SellerType.optional(),
      admission: z.enum(['complete', 'none']).optional(),
      scopes: z.array(Scope).min(1).optional(),
    }),
    answer: SandboxSeller,
  }),
  'sandbox.setSellerStatus': op(R['sandbox.setSellerStatus'], {
    params: sellerParam,
    body: z.strictObject({ status: z.enum(['active', 'blocked', 'not_seller']) }),
    answer: z.object({ sellerId: z.string(), status: z.enum(['active', 'blocked', 'not_seller']) }),
  }),
  'sandbox.setAdmission': op(R['sandbox.setAdmission'], {
    params: sellerParam,
    body: z.strictObject({ complete: z.boolean(), sellerType: SellerType.optional() }),
    answer: z.object({ sellerId: z.string(), complete: z.boolean(), sellerType: SellerType.nullable() }),
  }),
  'sandbox.decideCatalogRequest': op(R['sandbox.decideCatalogRequest'], {
    params: IdParam,
    body: z.strictObject({ approve: z.boolean() }),
    answer: CatalogRequest,
  }),
  'sandbox.createOrder': op(R['sandbox.createOrder'], {
    body: z.strictObject({ number: intParam(1), testBuyer: z.boolean().optional() }),
    answer: OrderWithMessages,
  }),
  'sandbox.pay': orderAction(R['sandbox.pay']),
  'sandbox.cancel': orderAction(R['sandbox.cancel']),
  'sandbox.accept': orderAction(R['sandbox.accept']),
  'sandbox.message': op(R['sandbox.message'], {
    params: IdParam,
    body: z.strictObject({ text: Text(4000) }),
    answer: Message,
  }),
  'sandbox.vault': orderAction(R['sandbox.vault'], z.strictObject({ secret: z.string().min(1).max(4096) })),
  'sandbox.dispute': orderAction(R['sandbox.dispute'], z.strictObject({ text: Text(4000) })),
  'sandbox.resolve': orderAction(R['sandbox.resolve'], z.strictObject({ winner: z.enum(['seller', 'buyer']) })),
  'sandbox.review': op(R['sandbox.review'], {
    params: IdParam,
    body: z.strictObject({ stars: z.number().int().min(1).max(5), text: z.string().max(2000) }),
    answer: Review,
  }),
  'sandbox.createQuestion': op(R['sandbox.createQuestion'], {
    body: z.strictObject({ number: intParam(1), text: Text(2000) }),
    answer: Question,
  }),
  'sandbox.clock': op(R['sandbox.clock'], {
    /** `lease`: the scenario run that holds the clock now (its id stays with the run), or null. */
    answer: z.object({ now: Timestamp, lease: ClockLeaseHeld.nullable() }),
  }),
  'sandbox.advanceClock': op(R['sandbox.advanceClock'], {
    body: z.strictObject({
      seconds: z.number().int().min(0).max(10 * 365 * 86400),
      /** The lease of the run that moves it (`sandbox.leaseClock`): the holder's own moves pass. */
      lease: prefixedId('cll').optional(),
      /** Move it even while another run holds the lease (that run's measures by the clock go wrong). */
      force: z.boolean().optional(),
    }),
    /** `moved`: the orders whose deadlines ran on this advance. */
    answer: z.object({ now: Timestamp, moved: z.array(MovedOrder) }),
  }),
  ...sandboxInspectOperations,
  ...sandboxFaultOperations,
  ...sandboxScenarioOperations,
  ...sandboxTelegramOperations,
} as const;
