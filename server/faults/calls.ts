/**
 * A fault's effect on one seller-API call over HTTP (issue #27), applied by the pipeline
 * (server/http/execute.ts) after the key is recognised (so a fault can be one seller's) and before
 * the rate limit, the idempotency key and the handler. The tool endpoint (`/api/mcp`) and the
 * sandbox never meet a fault.
 *
 * - a status (429, 500, 502, 503): answered instead, the call not executed (a failing front door
 *   has no effect). 429 carries `Retry-After` (the fault's `retryAfterMs`, 1 s by default) and the
 *   rate headers; 500 and 503 the contract's error envelope (code `internal` for 500, `unavailable`
 *   for 503); 502 an HTML page, as a failing proxy in front of the service answers.
 *   A 500, 502 or 503 carries `Retry-After` only when the fault gives `retryAfterMs`;
 * - a latency: a real-time wait, then the call runs as usual;
 * - `drop`: the connection is destroyed before the call runs; `dropAfter`: the call runs and
 *   commits (its idempotency record with it), then the connection is destroyed unanswered.
 */
import type { ServerContext } from '../context.ts';
import type { FaultTarget } from './table.ts';
import type { Fault } from '../../sdk/contract/index.ts';

/** Seconds a fault's 429 asks the client to wait when the fault names no `retryAfterMs`. */
export const FAULT_RETRY_AFTER_S = 1;

/** What the HTTP route does about a fault. */
export interface FaultAnswer {
  status: number;
  /** A JSON envelope, or an HTML page (502). */
  body: unknown;
  headers: Record<string, string>;
}

export interface CallFault {
  /** Answer this instead of running the call. */
  instead?: FaultAnswer;
  /** Destroy the connection: before running the call, or after it ran and committed. */
  drop?: 'before' | 'after';
}

/** The fault (if any) that hits this call, its latency already waited. */
export function callFault(svc: ServerContext, sellerId: string, op: string): Promise<CallFault | undefined> {
  return faultOn(svc, { sellerId, op }, (fault) => statusAnswer(svc, fault));
}

/** The fault (if any) that hits a call of `target` (a seller's, or a Telegram bot's), a status answered by `answer`. */
export async function faultOn(svc: ServerContext, target: FaultTarget, answer: (fault: Fault) => FaultAnswer): Promise<CallFault | undefined> {
  if (svc.faults.size === 0) return undefined;
  const fault = svc.faults.hit(target, svc.clock.nowMs());
  if (!fault) return undefined;
  if (fault.latencyMs !== undefined) {
    // Cut short by the server closing: the call does not run on a closing server.
    return (await svc.faults.wait(fault.latencyMs)) ? undefined : { drop: 'before' };
  }
  if (fault.drop) return { drop: 'before' };
  if (fault.dropAfter) return { drop: 'after' };
  return { instead: answer(fault) };
}

/** The `Retry-After` of a status fault, in whole seconds (rounded up); undefined: none is sent. */
export function faultRetryAfterS(fault: Pick<Fault, 'status' | 'retryAfterMs'>): number | undefined {
  if (fault.retryAfterMs !== undefined) return Math.ceil(fault.retryAfterMs / 1000);
  return fault.status === 429 ? FAULT_RETRY_AFTER_S : undefined;
}

function statusAnswer(svc: ServerContext, fault: Fault): FaultAnswer {
  const why = `sandbox fault ${fault.id}`;
  const retryAfter = faultRetryAfterS(fault);
  const wait: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  switch (fault.status) {
    case 429:
      return {
        status: 429,
        body: { error: 'rate', detail: { message: `rate limit exceeded (${why}); retry in ${retryAfter} s`, retryAfter } },
        headers: { ...wait, 'ratelimit-policy': svc.limiter.policy, ratelimit: `"per-key";r=0;t=${retryAfter}` },
      };
    case 502:
      return { ...BAD_GATEWAY, headers: { ...BAD_GATEWAY.headers, ...wait } };
    case 503:
      return { status: 503, body: { error: 'unavailable', detail: { message: `service unavailable (${why}); nothing was done, retry later` } }, headers: wait };
    default:
      return { status: 500, body: { error: 'internal', detail: { message: `internal error (${why}); nothing was done` } }, headers: wait };
  }
}

const BAD_GATEWAY_PAGE = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>seller-server (sandbox fault)</center>
</body>
</html>
`;

/** A failing proxy's 502 page: what a fault of status 502 answers, on the seller API and the Telegram emulator alike. */
export const BAD_GATEWAY: FaultAnswer = { status: 502, body: BAD_GATEWAY_PAGE, headers: { 'content-type': 'text/html; charset=utf-8' } };
