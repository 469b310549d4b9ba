/**
 * `seller hooks listen`: a local webhook receiver for development, on 127.0.0.1 only.
 *
 * - Reads each request's RAW body and verifies it with the signing secret (`--secret-file` or
 *   `SERVICE_WEBHOOK_SECRET`: the service shows a secret only once, so it cannot be fetched).
 * - Answers at once: 200 when valid, 400 with the reason when not, 405 for anything but POST.
 * - With `--forward-to URL` it then sends each valid delivery on UNCHANGED (the same body bytes,
 *   the `x-service-*` headers and the content type) and reports that answer's status; a delivery
 *   that comes again after a forward answered 2xx is not forwarded twice (./hooks-forwarded.ts).
 * - Prints one line per delivery (time, event, delivery id, attempt, valid or the reason, and the
 *   forward's status); tab-separated when piped; NDJSON with `--json`.
 * - Says `listening on http://127.0.0.1:PORT` on stderr once ready (`--port 0` takes a free port).
 * - Runs until Ctrl-C / SIGTERM (exit 0), or until `--count N` valid deliveries have come.
 */
import { invalidVerdict } from './hooks-reasons.ts';
import { t } from '../i18n/index.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { WEBHOOK_TOLERANCE_SECONDS } from '../../sdk/contract/events.ts';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/webhooks/index.ts';
import { positiveInt, type App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, UsageError } from '../lib/errors.ts';
import { note } from '../lib/output.ts';
import { ForwardedDeliveries } from './hooks-forwarded.ts';
import { deliveryFacts, failureText, loadSecrets, portNumber, positiveNumber, SECRET_ENV, shortTime } from './hooks-common.ts';

export interface HooksListenOptions {
  port: number;
  forwardTo?: string | undefined;
  secretFile?: string | undefined;
  toleranceSeconds?: number | undefined;
  /** Stop after this many valid deliveries. */
  count?: number | undefined;
}

/** Largest body accepted; deliveries are a few hundred bytes. */
export const LISTEN_BODY_LIMIT = 1024 * 1024;
/** Time limit of a forward, as the service's own delivery attempts. */
export const FORWARD_TIMEOUT_MS = 10_000;

export const LISTEN_HOST = '127.0.0.1';

export function registerListen(noun: Command, app: App): void {
  noun
    .command('listen')
    .description(t('hooks.receiveDeliveriesLocallyVerify'))
    .option('--port <n>', t('hooks.portOnAnyFree'), portNumber, 0)
    .option('--forward-to <url>', t('hooks.sendEachValidDelivery'))
    .option('--secret-file <file>', t('hooks.theSigningSecretOne', { env: SECRET_ENV }))
    .option('--tolerance <seconds>', t('hooks.refuseTimestampsThisFar', { seconds: WEBHOOK_TOLERANCE_SECONDS }), positiveNumber)
    .option('--count <n>', t('hooks.exitAfterThisMany'), positiveInt)
    .addHelpText('after', t('hooks.listenHelp', { env: SECRET_ENV }))
    .action(
      app.run(
        (o: { port: number; forwardTo?: string; secretFile?: string; tolerance?: number; count?: number }): HooksListenOptions => ({
          port: o.port,
          forwardTo: o.forwardTo,
          secretFile: o.secretFile,
          toleranceSeconds: o.tolerance,
          count: o.count,
        }),
        runHooksListen,
      ),
    );
}

/** What happened to one request, as printed (and as the NDJSON line). */
export interface ListenRecord {
  receivedAt: string;
  valid: boolean;
  /** Why it was refused (`WebhookVerificationError.reason`, or `method_not_allowed`, `too_large`). */
  reason?: string | undefined;
  message?: string | undefined;
  status: number;
  event: string | null;
  delivery: string | null;
  attempt: number | null;
  test?: boolean | undefined;
  forward?: { url: string; status: number } | { url: string; error: string; timeoutMs?: number } | undefined;
  /** The same delivery came before and was forwarded then with a 2xx: not forwarded again (./hooks-forwarded.ts). */
  duplicate?: true | undefined;
}

export interface RunningListener {
  url: string;
  port: number;
  /** Resolves once the listener has stopped (after `stop()`, or after `--count` deliveries). */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Checks `--forward-to`: an absolute http(s) address. */
export function forwardUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(t('hooks.forwardToIsNot', { value }));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(t('hooks.forwardToUseAn'));
  return url.href;
}

export async function runHooksListen(opts: HooksListenOptions, deps: Deps): Promise<void> {
  const listener = await startHooksListener(opts, deps);
  const stop = () => void listener.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await listener.done;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Starts the receiver; prints `listening on …` once it is ready. */
export async function startHooksListener(opts: HooksListenOptions, deps: Deps): Promise<RunningListener> {
  const { io } = deps;
  const secrets = await loadSecrets(deps, opts, false);
  const forwardTo = opts.forwardTo === undefined ? undefined : forwardUrl(opts.forwardTo);
  if (opts.count !== undefined && !(Number.isInteger(opts.count) && opts.count > 0)) {
    throw new UsageError(t('hooks.countMustBeA'));
  }
  const json = wantsJson(deps);
  const verifyOptions = opts.toleranceSeconds === undefined ? {} : { toleranceSeconds: opts.toleranceSeconds };
  const pending = new Set<Promise<void>>();
  const forwarded = new ForwardedDeliveries();
  let valid = 0;
  let stopping: Promise<void> | undefined;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const print = (record: ListenRecord) => {
    if (json) {
      io.stdout.write(`${JSON.stringify(record)}\n`);
      return;
    }
    io.stdout.write(`${formatRecord(record, io.stdoutIsTTY)}\n`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const receivedAt = new Date().toISOString();
    const facts = deliveryFacts(req.headers);
    const base = {
      receivedAt,
      event: facts.event ?? null,
      delivery: facts.delivery ?? null,
      attempt: facts.attempt !== undefined && /^\d+$/.test(facts.attempt) ? Number(facts.attempt) : null,
    };
    const refuse = (status: number, reason: string, message: string, headers: Record<string, string> = {}) => {
      answer(res, status, { error: reason, detail: message }, headers);
      print({ ...base, valid: false, reason, message, status });
    };
    if (req.method !== 'POST') {
      req.resume();
      // i18next-instrument-ignore-next-line: the HTTP answer to the sender and its record (--json), not a line for the person
      refuse(405, 'method_not_allowed', `${req.method ?? '?'} is not a delivery; deliveries are POST requests`, { allow: 'POST' });
      return;
    }
    const body = await readBody(req, LISTEN_BODY_LIMIT);
    if (body === null) {
      // i18next-instrument-ignore-next-line: the HTTP answer to the sender and its record (--json), not a line for the person
      refuse(413, 'too_large', `the body is over ${LISTEN_BODY_LIMIT} bytes`, { connection: 'close' });
      return;
    }
    let event;
    try {
      event = verifyWebhook(body, req.headers, secrets, verifyOptions);
    } catch (error) {
      if (error instanceof WebhookVerificationError) refuse(400, error.reason, error.message);
      else refuse(500, 'internal', error instanceof Error ? error.message : String(error));
      return;
    }
    answer(res, 200, { ok: true, delivery: event.delivery });
    const record: ListenRecord = { ...base, valid: true, status: 200, event: event.event, delivery: event.delivery, attempt: event.attempt };
    if (event.test) record.test = true;
    if (forwardTo) {
      const sent = await forwarded.forward(event.delivery, () => forward(forwardTo, req, body), (r) => 'status' in r && r.status >= 200 && r.status < 300);
      if (sent === 'duplicate') record.duplicate = true;
      else record.forward = sent;
    }
    print(record);
    valid += 1;
    if (opts.count !== undefined && valid >= opts.count) void stop();
  };

  const server: Server = createServer((req, res) => {
    const task = handle(req, res).catch((error: unknown) => {
      // A request that broke off mid-body (or any other failure) must not end the listener.
      try {
        if (!res.headersSent) answer(res, 500, { error: 'internal' });
      } catch {
        res.destroy();
      }
      note(io, t('errors.prefix', { message: error instanceof Error ? error.message : String(error) }));
    });
    pending.add(task);
    void task.finally(() => pending.delete(task));
  });

  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Lines of deliveries whose forward is still running are printed before the end.
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      await closed;
      resolveDone();
    })());

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? t('hooks.portIsAlreadyIn', { port: opts.port }) : error.code === 'EACCES' ? t('hooks.portIsNotAllowed', { port: opts.port }) : error.message;
      reject(new CliError(t('hooks.cannotListenOn', { host: LISTEN_HOST, port: opts.port, why }), 1, t('hooks.chooseAnotherPortTakes')));
    };
    server.once('error', onError);
    server.listen(opts.port, LISTEN_HOST, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${LISTEN_HOST}:${port}`;
  note(io, t('hooks.listeningOn', { url }));
  if (!json) {
    const source = opts.secretFile !== undefined ? opts.secretFile : SECRET_ENV;
    note(io, forwardTo ? t('hooks.checkingAndForwarding', { source, forwardTo }) : t('hooks.checkingSignatures', { source }));
    note(io, t('hooks.subscribeItSellerHooks', { url }));
  }
  return { url, port, done, stop };
}

/** Reads the whole body as bytes; null when it passes `limit`. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.once('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The headers passed on: the `x-service-*` ones and the content type, values unchanged. */
export function forwardedHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name.startsWith('x-service-') || name === 'content-type') out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Sends the delivery on, byte for byte; redirects are not followed (as the service does not). */
async function forward(url: string, req: IncomingMessage, body: Buffer): Promise<NonNullable<ListenRecord['forward']>> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: forwardedHeaders(req.headers),
      body: new Uint8Array(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { url, status: res.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const name = error instanceof Error ? error.name : '';
    // i18next-instrument-ignore-next-line: the record's English (--json); failureText says it for people
    const text = name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : (cause ?? (error instanceof Error ? error.message : String(error)));
    return name === 'TimeoutError' ? { url, error: text, timeoutMs: FORWARD_TIMEOUT_MS } : { url, error: text };
  }
}

/** A delivery's line: aligned on a terminal, tab-separated when piped. */
export function formatRecord(record: ListenRecord, tty: boolean): string {
  const verdict = record.valid ? t(record.test ? 'hooks.validTest' : 'hooks.validMark') : invalidVerdict(record.reason);
  const forward =
    // i18next-instrument-ignore-next-line: an arrow before an HTTP status
    record.duplicate ? t('hooks.duplicateNotForwarded') : record.forward === undefined ? '' : 'status' in record.forward ? `→ ${record.forward.status}` : t('hooks.forwardFailed', { error: failureText(record.forward) });
  const cells = [
    shortTime(record.receivedAt, tty),
    record.event ?? '-',
    record.delivery ?? '-',
    record.attempt === null ? '-' : `#${record.attempt}`,
    verdict,
    forward,
  ];
  if (!tty) return cells.join('\t').replace(/\t$/, '');
  const widths = [8, 15, 20, 3, 18];
  return cells
    .map((cell, i) => (widths[i] === undefined ? cell : cell.padEnd(widths[i]!)))
    .join('  ')
    .trimEnd();
}
