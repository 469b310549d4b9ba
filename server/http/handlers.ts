/**
 * Handler types, derived from the operation table: a handler gets the parsed inputs of its
 * operation and returns (the input type of) its answer schema.
 */
import type { z } from 'zod';
import type { AnyOperation, ApiOperations, NotFoundRecord, SandboxOperations } from '../../sdk/contract/index.ts';
import type { Caller } from '../auth.ts';
import type { ServerContext, UnitOfWork } from '../context.ts';
import type { Refusal } from '../domain/refusal.ts';
import type { ApiError } from './errors.ts';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<Op extends AnyOperation> {
  params: Out<Op['params']>;
  query: Out<Op['query']>;
  body: Out<Op['body']>;
  /** Raw bytes of a binary body (`bodyType: 'binary'`). */
  raw: Buffer | undefined;
  contentType: string | undefined;
}

export interface CallContext {
  svc: ServerContext;
  tx: UnitOfWork;
  now: Date;
  op: AnyOperation;
  /**
   * The error for a missing or foreign record (`throw ctx.notFound('card', 1002)`): 409 `not_found`
   * where the op lists it, else 404; both carry `record` and `id` (and `message` for developers).
   */
  notFound(record: NotFoundRecord, id?: string | number, message?: string): ApiError | Refusal;
}

export interface ApiContext extends CallContext {
  caller: Caller;
}

type Answer<Op extends AnyOperation> = z.input<Op['answer']>;

/**
 * A handler answers its operation's answer, or a domain refusal of a kind the contract lists for the
 * operation (the 409, server/http/errors.ts `toErrorAnswer`): the compiler refuses any other kind.
 */
type Outcome<Op extends AnyOperation> = Answer<Op> | Refusal<Op['refusals'][number]>;

export type ApiHandler<Op extends AnyOperation> = (ctx: ApiContext, input: HandlerInput<Op>) => Promise<Outcome<Op>> | Outcome<Op>;
export type SandboxHandler<Op extends AnyOperation> = (ctx: CallContext, input: HandlerInput<Op>) => Promise<Outcome<Op>> | Outcome<Op>;

export type ApiHandlers = { [Id in keyof ApiOperations]?: ApiHandler<ApiOperations[Id]> };
export type SandboxHandlers = { [Id in keyof SandboxOperations]?: SandboxHandler<SandboxOperations[Id]> };

/** Typed identity helpers for route modules. */
export const apiHandlers = (h: ApiHandlers): ApiHandlers => h;
export const sandboxHandlers = (h: SandboxHandlers): SandboxHandlers => h;
