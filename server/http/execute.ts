/**
 * The one pipeline every call goes through, whatever the transport (HTTP route or MCP tool):
 * authenticate → scope → rate limit → idempotency key → validate → (replay | run) → answer schema → write.
 * The answer schema is applied by a compiled writer (server/http/answer-writer.ts) that checks and writes
 * the JSON in one pass; an unchanged list page read over HTTP is sent from kept bytes (answer-memo.ts),
 * for `GET /orders` without running the handler while the seller's order version is unchanged.
 */
import type { AnyOperation } from '../../sdk/contract/index.ts';
import { authenticate, requireScope, sameSecret, type Caller } from '../auth.ts';
import { UnitOfWork, type ServerContext } from '../context.ts';
import type { SellerDoc } from '../store/docs.ts';
import { orderVersion } from '../store/order-index.ts';
import { AnswerMemo } from './answer-memo.ts';
import { answerJson, writerOf } from './answer-writer.ts';
import { ApiError, Refused, toErrorAnswer } from './errors.ts';
import type { ApiContext, CallContext, HandlerInput } from './handlers.ts';
import { fingerprint, lookup, prune, remember, requireIdempotencyKey, storedAnswer, type StoredAnswer } from './idempotency.ts';
import { parseInput } from './validate.ts';

export interface ExecRequest {
  op: AnyOperation;
  /** The concrete path (placeholders filled), for the idempotency fingerprint. */
  path: string;
  /** The request's URL with its query (HTTP): the key under which a list answer's bytes are kept. */
  url?: string;
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
  /** The answer's value (MCP reads it; for a success it is parsed from `json` on first read). */
  body: unknown;
  /** A success answer's JSON text (or its UTF-8 bytes), written through the contract's schema: what HTTP sends. */
  json?: string | Buffer;
  headers: Record<string, string>;
  /** Set when an unexpected error became a 500, for the caller to log. */
  error?: unknown;
}

/**
 * A success answer as the answer schema wrote it. HTTP sends `json`; `body` (MCP, the sealed
 * idempotency record) is parsed from it when first read, so it holds exactly what was written.
 */
class JsonAnswer implements ExecResult {
  readonly status: number;
  readonly json: string | Buffer;
  headers: Record<string, string> = {};
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

/** Kept list answers, per server (server/http/answer-memo.ts). */
const memos = new WeakMap<ServerContext, AnswerMemo>();

function memoOf(svc: ServerContext): AnswerMemo {
  let memo = memos.get(svc);
  if (!memo) {
    memo = new AnswerMemo();
    memos.set(svc, memo);
  }
  return memo;
}

/** The kept list answers of a server (tests: their number and size). */
export const keptAnswers = (svc: ServerContext): { entries: number; bytes: number } => memoOf(svc).size;

/**
 * List operations whose answer is a function of the caller's data with a version, the query and
 * nothing else: a kept answer written at the current version is sent without running the handler.
 * `orders.list` reads only the seller's orders (no clock: it answers the stored state, which the
 * clock sweep changes through `touched`; no key mode: every key of the seller sees every order).
 * Its handler is synchronous, so the version read just before it runs is the one it answers.
 */
const VERSIONED: Readonly<Record<string, (doc: SellerDoc) => number>> = {
  'orders.list': orderVersion,
};

const withHeaders = (answer: StoredAnswer, headers: Record<string, string>): ExecResult => {
  if (!(answer instanceof JsonAnswer)) return { ...answer, headers };
  answer.headers = headers;
  return answer;
};

type AnyHandler = (ctx: any, input: HandlerInput<AnyOperation>) => unknown;

export async function execute(svc: ServerContext, handler: AnyHandler, req: ExecRequest): Promise<ExecResult> {
  const headers: Record<string, string> = {};
  try {
    if (req.op.surface === 'sandbox') return withHeaders(await runSandbox(svc, handler, req), headers);
    const now = svc.clock.now();
    const caller = await authenticate(svc.store, req.authorization, now);
    requireScope(caller.key, req.op.scope);
    Object.assign(headers, svc.limiter.take(caller.key.id, now.getTime(), caller.seller.id)); // per key and per seller (rate-limit.ts)
    const idemKey = req.op.changes ? requireIdempotencyKey(req.idempotencyKey) : undefined;
    // A list page read over HTTP may be answered with the bytes written for it last time, when unchanged.
    // The key holds every input of the answer besides the data: the seller, the key's mode, the URL.
    const keep =
      req.op.method === 'GET' && req.op.paging !== null && req.url !== undefined ? `${caller.seller.id}\n${caller.key.mode}\n${req.url}` : undefined;
    const versionOf = keep === undefined ? undefined : VERSIONED[req.op.id];
    if (versionOf !== undefined && keep !== undefined) {
      // Kept only after this very URL parsed and was answered; the query parse is a function of
      // the URL, so only a body (never part of the key) still has to be refused.
      noBody(req);
      const fresh = memoOf(svc).fresh(keep, versionOf(caller.doc));
      if (fresh !== undefined) return withHeaders(new JsonAnswer(req.op.status, fresh), headers);
    }
    const input = parseAll(req);
    const run = () => runHandler(svc, handler, req.op, input, { caller, now }, keep, versionOf);
    const answer = idemKey ? await withIdempotency(svc, caller, idemKey, req, run, headers) : await run().then(({ answer }) => answer);
    return withHeaders(answer, headers);
  } catch (err) {
    const e = toErrorAnswer(err);
    return { status: e.status, body: e.body, headers: { ...headers, ...e.headers }, ...(e.unexpected ? { error: err } : {}) };
  }
}

function noBody(req: ExecRequest): void {
  if (req.op.bodyType === 'none' && req.body !== undefined && req.body !== null && !isEmptyObject(req.body)) {
    throw new ApiError('bad_request', 'body: this operation takes no body');
  }
}

function parseAll(req: ExecRequest): HandlerInput<AnyOperation> {
  const { op } = req;
  noBody(req);
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
  keep?: string,
  versionOf?: (doc: SellerDoc) => number,
): Promise<HandlerRun> {
  const ctx: ApiContext = { ...callContext(svc, op, who.now), caller: who.caller };
  if (op.changes) ctx.tx.markSeller(who.caller.seller.id);
  try {
    // Read synchronously with the (synchronous) handler's reads: the version its answer is of.
    const version = versionOf?.(who.caller.doc);
    const result = await handler(ctx, input);
    const kept = keep === undefined ? undefined : memoOf(svc).bytes(keep, writerOf(op.answer), result, version);
    return { answer: kept ? new JsonAnswer(op.status, kept) : serialize(op, result), ctx };
  } catch (err) {
    if (err instanceof ApiError && err.code !== 'bad_request') {
      const e = toErrorAnswer(err);
      // Refusals and not-found answers are the handler's answers: stored for replay like successes.
      return { answer: { status: e.status, body: e.body }, ctx };
    }
    throw err;
  }
}

/**
 * The answer through the contract's schema, compiled (server/http/answer-writer.ts): unknown
 * fields (a buyer id, a secret) never leave, and a mismatch is an error (a 500).
 */
function serialize(op: AnyOperation, result: unknown): StoredAnswer {
  const json = answerJson(op.answer, result, op.id);
  // A schema that makes the answer `undefined` has no JSON text: an empty answer, as before.
  return json === undefined ? { status: op.status, body: undefined } : new JsonAnswer(op.status, json);
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

async function runSandbox(svc: ServerContext, handler: AnyHandler, req: ExecRequest): Promise<StoredAnswer> {
  const match = req.authorization ? /^Bearer\s+(\S+)\s*$/i.exec(req.authorization) : null;
  if (!match) throw new ApiError('no_key', 'send Authorization: Bearer <admin token>');
  if (!sameSecret(match[1]!, svc.adminToken)) throw new ApiError('bad_key', 'not the admin token of this server');
  const input = parseAll(req);
  const ctx = callContext(svc, req.op, svc.clock.now());
  const result = await handler(ctx, input);
  const answer = serialize(req.op, result);
  await ctx.tx.commit();
  return answer;
}
