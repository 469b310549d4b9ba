/**
 * The one pipeline every call goes through, whatever the transport (HTTP route or MCP tool), read
 * top to bottom: authenticate → scope → rate limit → idempotency key → validate → run → serialize.
 * The answer is serialized from the contract's schema (server/http/answer-json.ts) into JSON text,
 * which HTTP sends, MCP parses and an idempotency record seals. One exception to "run": a
 * `GET /orders` page unchanged since it was last written is sent as it was (server/http/kept-pages.ts).
 */
import type { AnyOperation, NotFoundRecord } from '../../sdk/contract/index.ts';
import { authenticate, requireScope, sameSecret, type Caller } from '../auth.ts';
import { callFault } from '../faults/calls.ts';
import { UnitOfWork, type ServerContext } from '../context.ts';
import { checkAnswer, serializerOf } from './answer-json.ts';
import { noteCall } from '../domain/call-notices.ts';
import { Refusal } from '../domain/refusal.ts';
import { ApiError, badRequest, notFoundMessage, toErrorAnswer } from './errors.ts';
import type { ApiContext, CallContext, HandlerInput } from './handlers.ts';
import { fingerprint, lookup, prune, remember, requireIdempotencyKey, storedAnswer, type StoredAnswer } from './idempotency.ts';
import { parseInput } from './validate.ts';

export interface ExecRequest {
  op: AnyOperation;
  /** The concrete path (placeholders filled), for the idempotency fingerprint. */
  path: string;
  /** The request's URL with its query (HTTP): the key a kept `GET /orders` page is found under. */
  url?: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  params: unknown;
  query: unknown;
  body: unknown;
  raw?: Buffer;
  contentType?: string;
  /** Whether the sandbox's faults apply (seller-API calls over HTTP; never MCP): server/faults/calls.ts. */
  faults?: boolean;
}

export interface ExecResult {
  status: number;
  /** The answer's value (MCP reads it; for a success it is parsed from `json` on first read). */
  body: unknown;
  /** A success answer's JSON text (or its UTF-8 bytes), written through the contract's schema: what HTTP sends. */
  json?: string | Buffer;
  headers: Record<string, string>;
  /** Set when an unexpected error became a 500, for the caller to log. */
  error?: unknown;
  /** A sandbox fault: destroy the connection instead of answering (the call ran when 'after'). */
  drop?: 'before' | 'after';
}

/**
 * An answer as JSON text: what HTTP sends and the idempotency record seals. `body` (MCP, a replay)
 * is parsed from the text when first read, so it holds exactly what was written.
 */
export class JsonAnswer implements StoredAnswer {
  readonly status: number;
  readonly json: string | Buffer;
  #body: unknown;
  #parsed = false;

  constructor(status: number, json: string | Buffer) {
    this.status = status;
    this.json = json;
  }

  get body(): unknown {
    if (!this.#parsed) {
      this.#body = JSON.parse(typeof this.json === 'string' ? this.json : this.json.toString('utf8'));
      this.#parsed = true;
    }
    return this.#body;
  }
}

type AnyHandler = (ctx: any, input: HandlerInput<AnyOperation>) => unknown;

export async function execute(svc: ServerContext, handler: AnyHandler, req: ExecRequest): Promise<ExecResult> {
  const headers: Record<string, string> = {};
  try {
    if (req.op.surface === 'sandbox') return answered(await runSandbox(svc, handler, req), headers);
    const epoch = svc.store.epoch;
    const now = svc.clock.now();
    const caller = await authenticate(svc.store, req.authorization, now);
    requireScope(caller.key, req.op.scope);
    const fault = req.faults ? await callFault(svc, caller.seller.id, req.op.id) : undefined;
    if (fault?.instead) return fault.instead;
    if (fault?.drop === 'before') return { status: 0, body: undefined, headers, drop: 'before' };
    Object.assign(headers, svc.limiter.take(caller.key.id, now.getTime(), caller.seller.id)); // per key and per seller (rate-limit.ts)
    const idemKey = req.op.changes ? requireIdempotencyKey(req.idempotencyKey) : undefined;
    const input = parseAll(req);
    const page = keptPage(svc, req, caller);
    const run = () => runHandler(svc, handler, req.op, input, { caller, now, epoch }, page);
    const answer = idemKey ? await withIdempotency(svc, caller, idemKey, req, run, headers) : (page?.fresh() ?? (await run()).answer);
    const result = answered(answer, headers);
    if (fault?.drop) result.drop = fault.drop;
    return result;
  } catch (err) {
    const e = toErrorAnswer(err);
    return { status: e.status, body: e.body, headers: { ...headers, ...e.headers }, ...(e.unexpected ? { error: err } : {}) };
  }
}

/**
 * The kept page of a `GET /orders` call over HTTP: its answer depends on the seller's orders, the
 * key's mode and the URL, nothing else (no clock: the clock changes orders through `touched`).
 */
function keptPage(svc: ServerContext, req: ExecRequest, caller: Caller): { fresh(): JsonAnswer | undefined; begin(): (json: string) => Buffer } | undefined {
  if (req.op.id !== 'orders.list' || req.url === undefined) return undefined;
  const page = svc.keptPages.page(`${caller.seller.id}\n${caller.key.mode}\n${req.url}`, caller.doc);
  return {
    fresh: () => {
      const bytes = page.fresh();
      return bytes === undefined ? undefined : new JsonAnswer(req.op.status, bytes);
    },
    begin: page.begin,
  };
}

const answered = (answer: StoredAnswer, headers: Record<string, string>): ExecResult =>
  answer instanceof JsonAnswer ? { status: answer.status, json: answer.json, get body() { return answer.body; }, headers } : { ...answer, headers };

function noBody(req: ExecRequest): void {
  if (req.op.bodyType === 'none' && req.body !== undefined && req.body !== null && !isEmptyObject(req.body)) {
    throw badRequest(['body'], 'no_body', 'this operation takes no body');
  }
}

function parseAll(req: ExecRequest): HandlerInput<AnyOperation> {
  const { op } = req;
  noBody(req);
  return {
    params: parseInput(op.params, req.params, 'path'),
    query: parseInput(op.query, req.query, 'query'),
    // Only an absent body stands for `{}`: a JSON `null` is a body that is not an object, refused like any other.
    body: op.bodyType === 'json' ? parseInput(op.body, req.body === undefined && allOptional(op) ? {} : req.body, 'body') : undefined,
    raw: req.raw,
    contentType: req.contentType,
  };
}

const isEmptyObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
/** A body whose fields are all optional may be omitted. */
const allOptional = (op: AnyOperation) => op.body?.safeParse({}).success === true;

function callContext(svc: ServerContext, op: AnyOperation, now: Date, epoch?: number): CallContext {
  return {
    svc,
    tx: new UnitOfWork(svc, epoch),
    now,
    op,
    notFound(record: NotFoundRecord, id?: string | number, message?: string): ApiError | Refusal {
      const data = id === undefined ? { record } : { record, id: String(id) };
      const text = message ?? notFoundMessage(record, id);
      return op.refusals.includes('not_found') ? new Refusal('not_found', data, text) : new ApiError('not_found', text, data);
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
  who: { caller: Caller; now: Date; epoch: number },
  page?: { begin(): (json: string) => Buffer },
): Promise<HandlerRun> {
  const ctx: ApiContext = { ...callContext(svc, op, who.now, who.epoch), caller: who.caller };
  if (op.changes) ctx.tx.markSeller(who.caller.seller.id);
  try {
    // The version of a kept page is read before the handler runs: a change meanwhile makes it stale.
    const keep = page?.begin();
    const result = refusedOr(await handler(ctx, input));
    if (op.changes) noteCall(svc, op.id, who.caller.seller.id, input.params, result, who.now);
    const answer = serialize(svc, op, result);
    return { answer: keep ? new JsonAnswer(answer.status, keep(answer.json as string)) : answer, ctx };
  } catch (err) {
    if (err instanceof Refusal || (err instanceof ApiError && err.code !== 'bad_request')) {
      const e = toErrorAnswer(err);
      // Refusals and not-found answers are the handler's answers: stored for replay like successes.
      return { answer: { status: e.status, body: e.body }, ctx };
    }
    throw err;
  }
}

/** A handler's result; a refusal it answered goes the way of a thrown one (to `toErrorAnswer`). */
function refusedOr(result: unknown): unknown {
  if (result instanceof Refusal) throw result;
  return result;
}

/**
 * The answer through the contract's schema (server/http/answer-json.ts): only declared properties
 * are written, so unknown fields (a buyer id, a secret) never leave; with the development check on,
 * zod checks the result and the text too (a mismatch is a 500).
 */
function serialize(svc: ServerContext, op: AnyOperation, result: unknown): JsonAnswer {
  const json = serializerOf(op.answer)(result);
  if (svc.options.checkAnswers) checkAnswer(op, result, json);
  return new JsonAnswer(op.status, json);
}

/**
 * Commit, then remember, then answer. A twin (same seller and key) first waits for the call still
 * running under that key, then looks the record up: so it replays only what was committed. The
 * record is written into the seller's idempotency section before the commit and goes to disk in
 * the same journaled write as the changes it answers for (server/store/seller-files.ts): both or
 * neither. Twins see it only once the commit succeeded (they wait for it); a failed commit reopens
 * the seller from disk (`UnitOfWork.commit`), record and changes gone, so a retry runs anew.
 */
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
  for (let running = svc.inflight.wait(slot); running; running = svc.inflight.wait(slot)) await running;
  const done = svc.inflight.start(slot);
  try {
    // The seller's documents as they are now: reopened after a failed write, this call's copy is stale.
    if ((await svc.store.seller(caller.seller.id)) !== caller.doc) throw new Error('the seller was reopened after a failed write; retry');
    const record = lookup(caller.doc, key, svc.clock.nowMs());
    if (record) {
      if (record.fingerprint !== fp) {
        throw new ApiError('idempotency_mismatch', 'this Idempotency-Key was used with a different request; use a new key for a new request');
      }
      headers['idempotent-replayed'] = 'true';
      const stored = storedAnswer(caller.doc, key, record, svc.sealer);
      return new JsonAnswer(stored.status, stored.json);
    }
    const { answer, ctx } = await run();
    const nowMs = svc.clock.nowMs();
    remember(caller.doc, key, fp, { status: answer.status, json: answer instanceof JsonAnswer ? answer.json.toString() : JSON.stringify(answer.body ?? null) }, nowMs, svc.sealer);
    prune(caller.doc, nowMs, svc.lastPrune);
    await ctx.tx.commit();
    return answer;
  } finally {
    done();
  }
}

/** The sandbox's check of the admin token (every sandbox call, and the change stream). */
export function checkAdmin(svc: ServerContext, authorization: string | undefined): void {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!match) throw new ApiError('no_key', 'send Authorization: Bearer <admin token>', { credential: 'admin_token' });
  if (!sameSecret(match[1]!, svc.adminToken)) throw new ApiError('bad_key', 'not the admin token of this server', { credential: 'admin_token' });
}

async function runSandbox(svc: ServerContext, handler: AnyHandler, req: ExecRequest): Promise<StoredAnswer> {
  checkAdmin(svc, req.authorization);
  const input = parseAll(req);
  const ctx = callContext(svc, req.op, svc.clock.now());
  const result = refusedOr(await handler(ctx, input));
  if (req.op.changes) noteCall(svc, req.op.id, undefined, input.params, result, ctx.now);
  const answer = serialize(svc, req.op, result);
  await ctx.tx.commit();
  return answer;
}
