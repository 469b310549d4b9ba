/**
 * The autopilot's webhook receiver (config `webhooks`): a small `node:http` server that checks
 * each delivery's signature with the seller's secret (sdk/webhooks, the raw body as it came) and,
 * for a genuine one, makes the autopilot poll at once instead of at its next interval. Events are a
 * convenience (spec rule 6): the poll by `updatedSince` still decides what is done, so a lost,
 * late or repeated delivery changes nothing but the delay.
 *
 * Point it at the marketplace's deliveries with a tunnel, or without one through the probe relay:
 * `seller hooks probe --forward-to http://127.0.0.1:<port>/hooks`.
 *
 * It answers 204 to a genuine delivery before anything else is done (the spec: answer at once, work
 * afterwards), 400 with the reason to one whose signature, timestamp or body does not verify, 404
 * off its path, 405 to anything but POST, 413 to a body over 1 MiB.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../webhooks/verify.ts';
import { WebhookVerificationError } from '../webhooks/errors.ts';

/** Where the receiver listens. */
export interface ListenConfig {
  port: number;
  host: string;
  path: string;
}

export interface EventReceiver {
  /** `http://host:port/path`: the address to forward deliveries to. */
  url: string;
  close(): Promise<void>;
}

/** What the receiver tells its owner. */
export interface ReceiverCallbacks {
  /** A delivery whose signature verified (kind and delivery id). */
  genuine(event: string, delivery: string): void;
  /** A delivery refused, with the reason (`signature`, `timestamp`, …). */
  refused(reason: string): void;
}

const BODY_MAX = 1024 * 1024;

/** Starts the receiver; resolves once it listens. */
export async function startEventReceiver(config: ListenConfig, secret: string, on: ReceiverCallbacks): Promise<EventReceiver> {
  const server = createServer((req, res) => {
    handle(req, res, config.path, secret, on).catch(() => answer(res, 500, 'the receiver failed'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}${config.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, path: string, secret: string, on: ReceiverCallbacks): Promise<void> {
  if ((req.url ?? '').split('?')[0] !== path) return answer(res, 404, `deliveries go to ${path}`);
  if (req.method !== 'POST') return answer(res, 405, 'POST only');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_MAX) return answer(res, 413, 'body over 1 MiB');
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  let event: { event: string; delivery: string };
  try {
    event = verifyWebhook(raw, req.headers, secret);
  } catch (error) {
    const reason = error instanceof WebhookVerificationError ? error.reason : 'malformed';
    on.refused(reason);
    return answer(res, 400, `not verified: ${reason}`);
  }
  res.writeHead(204).end();
  on.genuine(event.event, event.delivery);
}

function answer(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
}
