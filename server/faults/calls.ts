/**
 * A fault's effect on one seller-API call over HTTP (issue #27), applied by the pipeline
 * (server/http/execute.ts) after the key is recognised (so a fault can be one seller's) and before
 * the rate limit, the idempotency key and the handler. The tool endpoint (`/api/mcp`) and the
 * sandbox never meet a fault.
 *
 * - a status (429, 500, 502, 503): answered instead, the call not executed (a failing front door
 *   has no effect). 429 carries `Retry-After` and the rate headers; 500 and 503 the contract's
 *   error envelope (code `internal` for 500, `unavailable` for 503); 502 an HTML
 *   page, as a failing proxy in front of the service answers;
 * - a latency: a real-time wait, then the call runs as usual;
 * - `drop`: the connection is destroyed before the call runs; `dropAfter`: the call runs and
 *   commits (its idempotency record with it), then the connection is destroyed unanswered.
 */
import type { ServerContext } from '../context.ts';
import type { Fault } from '../../sdk/contract/index.ts';

/** Seconds a fault's 429 asks the client to wait. */
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
export async function callFault(svc: ServerContext, sellerId: string, op: string): Promise<CallFault | undefined> {
  if (svc.faults.size === 0) return undefined;
  const fault = svc.faults.hit({ sellerId, op }, svc.clock.nowMs());
  if (!fault) return undefined;
  if (fault.latencyMs !== undefined) {
    // Cut short by the server closing: the call does not run on a closing server.
    return (await svc.faults.wait(fault.latencyMs)) ? undefined : { drop: 'before' };
  }
  if (fault.drop) return { drop: 'before' };
  if (fault.dropAfter) return { drop: 'after' };
  return { instead: statusAnswer(svc, fault) };
}

function statusAnswer(svc: ServerContext, fault: Fault): FaultAnswer {
  const why = `sandbox fault ${fault.id}`;
  switch (fault.status) {
    case 429:
      return {
        status: 429,
        body: { error: 'rate', detail: { message: `rate limit exceeded (${why}); retry in ${FAULT_RETRY_AFTER_S} s`, retryAfter: FAULT_RETRY_AFTER_S } },
        headers: { 'retry-after': String(FAULT_RETRY_AFTER_S), 'ratelimit-policy': svc.limiter.policy, ratelimit: `"per-key";r=0;t=${FAULT_RETRY_AFTER_S}` },
      };
    case 502:
      return { status: 502, body: BAD_GATEWAY_PAGE, headers: { 'content-type': 'text/html; charset=utf-8' } };
    case 503:
      return { status: 503, body: { error: 'unavailable', detail: { message: `service unavailable (${why}); nothing was done, retry later` } }, headers: {} };
    default:
      return { status: 500, body: { error: 'internal', detail: { message: `internal error (${why}); nothing was done` } }, headers: {} };
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
