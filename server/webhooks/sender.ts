/**
 * One delivery attempt (gaps.md, "Delivery ladder"): the body and the signed `x-service-*` headers,
 * then a POST over node:http / node:https to the subscriber. Before the attempt the address is
 * checked again (the static rules, then the host is resolved and every address it resolves to must
 * be public) and the connection goes to the checked address, with no second DNS query. Only a 2xx
 * answer is a success; a redirect is not followed; the attempt times out.
 */
import http from 'node:http';
import https from 'node:https';
import { signWebhook } from '../../sdk/webhooks/sign.ts';
import type { DeliveryRecord } from '../store/records/hooks.ts';
import { checkHookUrl, pinnedRequestOptions, resolveAndCheck, type ResolveLookup } from './address.ts';

/** Default time one attempt may take (gaps.md: 10 s). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** The User-Agent of every delivery. */
export const WEBHOOK_USER_AGENT = 'service-seller-webhooks/1';

/** Bytes of a receiver's answer read (and thrown away) before the connection is cut. */
const ANSWER_READ_LIMIT = 64 * 1024;

export interface SignedDelivery {
  /** The exact body text that was signed. */
  body: string;
  /** Every request header to send (lowercase names), the `x-service-*` ones included. */
  headers: Record<string, string>;
}

export interface AttemptResult {
  ok: boolean;
  /** The receiver's HTTP status, null when none came (refused address, network error, timeout). */
  status: number | null;
  /** Why the attempt failed, null on success. Never holds the secret. */
  error: string | null;
}

/**
 * The body and headers of attempt number `attempt` of a delivery, signed with `secret` at `nowMs`
 * (wall-clock milliseconds: the receiver checks freshness against its own clock):
 * `{event, at, data, delivery, attempt, test?}`, `at` being the event's time on the server clock.
 */
export function signDelivery(d: DeliveryRecord, attempt: number, secret: string, nowMs: number): SignedDelivery {
  const signed = signWebhook(deliveryBody(d, attempt), secret, {
    timestamp: Math.floor(nowMs / 1000),
    attempt,
    delivery: d.id,
    event: d.event,
  });
  return {
    body: signed.body,
    headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, ...signed.headers },
  };
}

/** The exact body text of attempt number `attempt` of a delivery (what {@link signDelivery} signs and sends). */
export function deliveryBody(d: DeliveryRecord, attempt: number): string {
  const payload: Record<string, unknown> = { event: d.event, at: d.at, data: d.data, delivery: d.id, attempt };
  if (d.test) payload.test = true;
  return JSON.stringify(payload);
}

export interface SendOptions {
  /** `--allow-local-hooks`: loopback hosts (and http:// to them) are allowed. */
  allowLocal: boolean;
  /** @default ATTEMPT_TIMEOUT_MS */
  timeoutMs?: number;
  /** The DNS lookup (tests inject one); default `dns.promises.lookup`. */
  lookup?: ResolveLookup;
}

/** Sends one attempt to `url`. Never throws: every failure is an `AttemptResult`. */
export async function sendAttempt(url: string, delivery: SignedDelivery, options: SendOptions): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const started = Date.now();
  const check = checkHookUrl(url, { allowLocal: options.allowLocal });
  if (!check.ok) return fail(`address refused: ${check.message}`);
  const resolved = await withDeadline(
    resolveAndCheck(check.url.hostname, { allowLoopback: options.allowLocal, ...(options.lookup ? { lookup: options.lookup } : {}) }),
    timeoutMs,
  );
  if (resolved === 'timeout') return fail(timedOut(timeoutMs));
  if (!resolved.ok) {
    return fail(resolved.reason === 'denied' ? `address refused: ${resolved.message}` : `address not resolved: ${resolved.message}`);
  }
  const left = Math.max(1, timeoutMs - (Date.now() - started));
  return post(check.url, resolved, delivery, left, timeoutMs);
}

const fail = (error: string): AttemptResult => ({ ok: false, status: null, error });

const timedOut = (ms: number) => `timed out after ${ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`}`;

/** The verdict on a receiver's status code. */
export function judgeStatus(status: number): AttemptResult {
  if (status >= 200 && status < 300) return { ok: true, status, error: null };
  if (status >= 300 && status < 400) return { ok: false, status, error: 'redirect not followed' };
  return { ok: false, status, error: `receiver answered ${status}` };
}

async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function describeError(err: NodeJS.ErrnoException): string {
  const code = typeof err.code === 'string' ? err.code : '';
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      if (/^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) return `tls error (${code})`;
      return code ? `connection failed (${code})` : 'connection failed';
  }
}

function post(
  url: URL,
  resolved: { address: string; family: 4 | 6 },
  delivery: SignedDelivery,
  timeoutMs: number,
  nominalTimeoutMs: number,
): Promise<AttemptResult> {
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const options = {
      ...pinnedRequestOptions(url, resolved),
      method: 'POST',
      headers: { ...delivery.headers, 'content-length': String(Buffer.byteLength(delivery.body, 'utf8')) },
    };
    const transport = url.protocol === 'https:' ? https : http;
    let req: http.ClientRequest;
    try {
      req = transport.request(options, (res) => {
        res.on('error', () => {});
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_READ_LIMIT) res.destroy();
        });
        res.on('end', () => req.destroy());
        finish(judgeStatus(res.statusCode ?? 0));
      });
    } catch (err) {
      finish(fail(describeError(err as NodeJS.ErrnoException)));
      return;
    }
    // One deadline for the whole attempt (connect, TLS, headers); after it the request is cut.
    const timer = setTimeout(() => {
      finish(fail(timedOut(nominalTimeoutMs)));
      req.destroy();
    }, timeoutMs);
    timer.unref();
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err) => finish(fail(describeError(err))));
    req.end(delivery.body);
  });
}
