/**
 * Faults on demand (reference server only, issue #27): the sandbox makes the service misbehave for
 * one seller or all, on purpose. A call fault answers a seller-API operation with a status instead
 * (429, 500, 502, 503: the request is not executed), late (a latency, then the real answer), or
 * drops the connection before executing (`drop`) or after executing and committing (`dropAfter`:
 * the change is made, its answer lost). Webhook chaos (`hooks`) makes a seller's deliveries arrive
 * twice, out of order, late, or fail their first attempts. A fault lasts `times` matching calls (or
 * deliveries), `forMs` of the server clock, or until cleared; `every: N` makes it hit every Nth
 * matching call only. Server-only: not part of the seller API, left out of OpenAPI.
 */
import { z } from 'zod';
import { IdParam, prefixedId, Timestamp } from './common.ts';
import { faultProblems } from './fault-rules.ts';
import { op } from './operation.ts';
import { apiRouteTable } from './routes/index.ts';
import { FAULT_MAX_COUNT, FAULT_MAX_DELAY_MS, FAULT_MAX_FOR_MS, FAULT_MAX_RETRY_AFTER_MS, FAULT_STATUSES, HOOK_CHAOS, sandboxFaultRoutes as R } from './routes/sandbox-faults.ts';
import { TELEGRAM_FAULT_OPERATIONS } from './routes/sandbox-telegram.ts';

export { FAULT_MAX_COUNT, FAULT_MAX_DELAY_MS, FAULT_MAX_FOR_MS, FAULT_MAX_RETRY_AFTER_MS, FAULT_STATUSES, HOOK_CHAOS, TELEGRAM_FAULT_OPERATIONS };

/** The seller-API operation ids a fault may name (`*`: every one; never the sandbox's or `/api/mcp`). */
const FAULT_OPERATIONS = Object.keys(apiRouteTable);

export const FaultOperation = z.enum(['*', ...FAULT_OPERATIONS, ...TELEGRAM_FAULT_OPERATIONS] as [string, ...string[]]);
export const FaultStatus = z.union(FAULT_STATUSES.map((s) => z.literal(s)) as [z.ZodLiteral<429>, z.ZodLiteral<500>, z.ZodLiteral<502>, z.ZodLiteral<503>]);
export const HookChaos = z.enum(HOOK_CHAOS);
const delay = z.number().int().min(1).max(FAULT_MAX_DELAY_MS);

const faultFields = {
  /** The seller the fault is for; absent: every seller. */
  sellerId: z.string().min(1).max(80).optional(),
  /** The Telegram bot a `telegram.*` fault is for (its id); absent: every bot. */
  bot: z.number().int().min(1).optional(),
  /** A seller-API operation id of the contract (`orders.deliver`) or `*`, or a Telegram method (`telegram.sendMessage`) or `telegram.*`; required unless `hooks`. */
  op: FaultOperation.optional(),
  status: FaultStatus.optional(),
  /**
   * Only with `status`: the `Retry-After` the answer carries, in milliseconds (sent as whole seconds,
   * rounded up). A 429 says 1 s without it; a 500, 502 or 503 sends none without it.
   */
  retryAfterMs: z.number().int().min(1).max(FAULT_MAX_RETRY_AFTER_MS).optional(),
  latencyMs: delay.optional(),
  drop: z.literal(true).optional(),
  dropAfter: z.literal(true).optional(),
  hooks: HookChaos.optional(),
  /** Only with `hooks: 'delay'` (and required there): how late each delivery is sent, in real time. */
  delayMs: delay.optional(),
  /** How many matching calls (deliveries) the fault hits before it ends. */
  times: z.number().int().min(1).max(FAULT_MAX_COUNT).optional(),
  /** How long the fault lasts, in milliseconds of the server clock (a sandbox clock advance moves it). */
  forMs: z.number().int().min(1).max(FAULT_MAX_FOR_MS).optional(),
  /** Hit only every Nth matching call (the Nth, 2Nth, …). */
  every: z.number().int().min(2).max(FAULT_MAX_COUNT).optional(),
  /** The run lease (`sandbox.leaseRun`) the fault ends with: a scenario run's faults lapse with its run. */
  runLease: prefixedId('rnl').optional(),
};

/** The rules across fields (./fault-rules.ts): one set, asked by the server here and by the SDK's `faultBody`. */
export { faultProblems };

export const AddFaultBody = z.strictObject(faultFields).superRefine((body, ctx) => {
  for (const p of faultProblems(body)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
});
export type AddFaultBody = z.input<typeof AddFaultBody>;

/** A fault, in force or ended: its own fields first (the serializer writes required fields before optional ones), then the body's. */
export const Fault = z.object({
  id: z.string(),
  createdAt: Timestamp,
  /** When a `forMs` fault ends (server clock); null without `forMs`. */
  expiresAt: Timestamp.nullable(),
  /** Hits left of a `times` fault; null without `times`. */
  remaining: z.number().int().nullable(),
  /** How many calls (deliveries) the fault has hit so far. */
  hits: z.number().int(),
  /**
   * When the fault ended (server clock): its `times` used up, or its `forMs` run out; null while it
   * is in force. An ended fault is listed for an hour (real time) after it ended, then forgotten.
   */
  endedAt: Timestamp.nullable(),
  ...faultFields,
});
export type Fault = z.infer<typeof Fault>;

const Cleared = z.object({ cleared: z.number().int() });

export const sandboxFaultOperations = {
  'sandbox.addFault': op(R['sandbox.addFault'], { body: AddFaultBody, answer: Fault }),
  'sandbox.listFaults': op(R['sandbox.listFaults'], { answer: z.object({ items: z.array(Fault) }) }),
  'sandbox.clearFaults': op(R['sandbox.clearFaults'], { answer: Cleared }),
  'sandbox.clearFault': op(R['sandbox.clearFault'], { params: IdParam, answer: Cleared }),
} as const;
