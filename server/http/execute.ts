/**
 * The one pipeline every call goes through, whatever the transport (HTTP route or MCP tool):
 * authenticate → scope → rate limit → idempotency key → validate → (replay | run) → answer schema → write.
 */
import type { AnyOperation } from '../../sdk/contract/index.ts';
import { authenticate, requireScope, sameSecret, type Caller } from '../auth.ts';
import { UnitOfWork, type ServerContext } from '../context.ts';
import { ApiError, Refused, toErrorAnswer } from './errors.ts';
import type { ApiContext, CallContext, HandlerInput } from './handlers.ts';
import { fingerprint, lookup, prune, remember, requireIdempotencyKey, storedAnswer, type StoredAnswer } from './idempotency.ts';
import { parseInput } from './validate.ts';

export interface ExecRequest {
  op: AnyOperation;
  /** The concrete path (placeholders filled), for the idempotency fingerprint. */
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  params: unknown;
  query: unknown;
  body: unknown;
  raw?: Buffer;
  contentType?: string;
}

export interface ExecResult {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** Set when an unexpected error became a 500, for the caller to log. */
  error?: unknown;
}

type AnyHandler = (ctx: any, input: HandlerInput<AnyOperation>) => unknown;

export async function execute(svc: ServerContext, handler: AnyHandler, req: ExecRequest): Promise<ExecResult> {
  const headers: Record<string, string> = {};
  try {
    if (req.op.surface === 'sandbox') {
      const result = await runSandbox(svc, handler, req);
      return { ...result, headers };
    }
    const now = svc.clock.now();
    const caller = await authenticate(svc.store, req.authorization, now);
    requireScope(caller.key, req.op.scope);
    Object.assign(headers, svc.limiter.take(caller.key.id, now.getTime()));
    const idemKey = req.op.changes ? requireIdempotencyKey(req.idempotencyKey) : undefined;
    const input = parseAll(req);
    const run = () => runHandler(svc, handler, req.op, input, { caller, now });
    const answer = idemKey ? await withIdempotency(svc, caller, idemKey, req, run, headers) : await run().then(({ answer }) => answer);
    return { ...answer, headers };
  } catch (err) {
    const e = toErrorAnswer(err);
    return { status: e.status, body: e.body, headers: { ...headers, ...e.headers }, ...(e.unexpected ? { error: err } : {}) };
  }
}

function parseAll(req: ExecRequest): HandlerInput<AnyOperation> {
  const { op } = req;
  if (op.bodyType === 'none' && req.body !== undefined && req.body !== null && !isEmptyObject(req.body)) {
    throw new ApiError('bad_request', 'body: this operation takes no body');
  }
  return {
    params: parseInput(op.params, req.params, 'path'),
    query: parseInput(op.query, req.query, 'query'),
    body: op.bodyType === 'json' ? parseInput(op.body, req.body ?? (allOptional(op) ? {} : undefined), 'body') : undefined,
    raw: req.raw,
    contentType: req.contentType,
  };
}

const isEmptyObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
/** A body whose fields are all optional may be omitted. */
const allOptional = (op: AnyOperation) => op.body?.safeParse({}).success === true;

function callContext(svc: ServerContext, op: AnyOperation, now: Date): CallContext {
  return {
    svc,
    tx: new UnitOfWork(svc),
    now,
    op,
    notFound(what?: string): ApiError {
      return op.refusals.includes('not_found') ? new Refused('not_found', {}, what) : new ApiError('not_found', what);
    },
  };
}

interface HandlerRun {
  answer: StoredAnswer;
  ctx: CallContext;
}

async function runHandler(
  svc: ServerContext,
  handler: AnyHandler,
  op: AnyOperation,
  input: HandlerInput<AnyOperation>,
  who: { caller: Caller; now: Date },
): Promise<HandlerRun> {
  const ctx: ApiContext = { ...callContext(svc, op, who.now), caller: who.caller };
  if (op.changes) ctx.tx.markSeller(who.caller.seller.id);
  try {
    const result = await handler(ctx, input);
    return { answer: { status: op.status, body: serialize(op, result) }, ctx };
  } catch (err) {
    if (err instanceof ApiError && err.code !== 'bad_request') {
      const e = toErrorAnswer(err);
      // Refusals and not-found answers are the handler's answers: stored for replay like successes.
      return { answer: { status: e.status, body: e.body }, ctx };
    }
    throw err;
  }
}

/** The answer through the contract's schema: unknown fields (a buyer id, a secret) never leave. */
function serialize(op: AnyOperation, result: unknown): unknown {
  const parsed = op.answer.safeParse(result);
  if (!parsed.success) {
    throw new Error(`answer of ${op.id} does not match the contract: ${parsed.error.issues.map((i: { path: PropertyKey[]; message: string }) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

async function withIdempotency(
  svc: ServerContext,
  caller: Caller,
  key: string,
  req: ExecRequest,
  run: () => Promise<HandlerRun>,
  headers: Record<string, string>,
): Promise<StoredAnswer> {
  const fp = fingerprint(req.op.method, req.path, req.body, req.raw);
  const slot = `${caller.seller.id}\u0000${key}`;
  for (;;) {
    const nowMs = svc.clock.nowMs();
    const record = lookup(caller.doc, key, nowMs);
    if (record) {
      if (record.fingerprint !== fp) {
        throw new ApiError('idempotency_mismatch', 'this Idempotency-Key was used with a different request; use a new key for a new request');
      }
      headers['idempotent-replayed'] = 'true';
      return storedAnswer(caller.doc, key, record, svc.sealer);
    }
    const running = svc.inflight.wait(slot);
    if (!running) break;
    await running;
  }
  const done = svc.inflight.start(slot);
  try {
    const { answer, ctx } = await run();
    const nowMs = svc.clock.nowMs();
    remember(caller.doc, key, fp, answer, nowMs, svc.sealer);
    prune(caller.doc, nowMs, svc.lastPrune);
    await ctx.tx.commit();
    return answer;
  } finally {
    done();
  }
}

async function runSandbox(svc: ServerContext, handler: AnyHandler, req: ExecRequest): Promise<Omit<ExecResult, 'headers'>> {
  const match = req.authorization ? /^Bearer\s+(\S+)\s*$/i.exec(req.authorization) : null;
  if (!match) throw new ApiError('no_key', 'send Authorization: Bearer <admin token>');
  if (!sameSecret(match[1]!, svc.adminToken)) throw new ApiError('bad_key', 'not the admin token of this server');
  const input = parseAll(req);
  const ctx = callContext(svc, req.op, svc.clock.now());
  const result = await handler(ctx, input);
  const body = serialize(req.op, result);
  await ctx.tx.commit();
  return { status: req.op.status, body };
}
