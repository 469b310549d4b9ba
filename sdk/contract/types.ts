/**
 * The contract's types as a client sees them, with no schema library in them: every resource,
 * request, answer, error and event type, and one table of the operations' types (route, the input
 * of the query and the body, the output of the answer). The SDK's entries (`service-seller`,
 * `…/webhooks`, `…/webhooks/web`) type themselves from this module only.
 *
 * Here they are derived from the zod schemas (`z.input`, `z.output`); the build replaces this
 * module's declarations with the same types written out (scripts/contract-types.mjs), so that an
 * application type-checks against the SDK without zod installed. The schemas themselves are
 * `service-seller/contract`.
 */
import type { z } from 'zod';
import type { ApiOperations, SandboxOperations } from './index.ts';
import type { AnyOperation as Schemas } from './operation.ts';

export type * from './public.ts';
/** The inspector's shapes (sandbox, reference server): the live change stream's events and what the inspector reads. */
export type { ChangeEvent, ChangeType, DeliveryAttempt, InspectDelivery, InspectHooks, InspectSeller, MovedOrder, Mover, OrderMove, OrderTimeline } from './sandbox-inspect.ts';

/** The input of a schema, or `undefined` where there is none. */
type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;

/** One operation's types: its route's literal fields and the types of its schemas. */
type TypesOf<Op extends Schemas> = {
  id: Op['id'];
  method: Op['method'];
  path: Op['path'];
  refusals: Op['refusals'];
  /** The query's input type, or `undefined` when the operation takes no query. */
  query: InputOf<Op['query']>;
  /** The JSON body's input type, or `undefined` when the operation takes none (or raw bytes). */
  body: InputOf<Op['body']>;
  /** The answer's output type (what a strict client hands out). */
  answer: z.output<Op['answer']>;
};

/** The types of one operation, as the client's method types read them. */
export interface OperationTypes {
  id: string;
  method: string;
  path: string;
  refusals: readonly string[];
  query: unknown;
  body: unknown;
  answer: unknown;
}

/** The types of every seller-API operation, keyed by operation id. */
export type ApiOperationTypes = { [Id in keyof ApiOperations]: TypesOf<ApiOperations[Id]> };

/** The types of every sandbox operation (reference server), keyed by operation id. */
export type SandboxOperationTypes = { [Id in keyof SandboxOperations]: TypesOf<SandboxOperations[Id]> };
