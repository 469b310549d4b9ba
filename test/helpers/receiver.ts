/**
 * A webhook receiver for tests: a local HTTP server that verifies each delivery with the SDK's
 * `verifyWebhook` and answers 204, or 400 `refused: <reason>`; what came is kept in `got`, in order.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookVerificationError } from '../../sdk/webhooks/index.ts';

export interface Received {
  headers: Record<string, string>;
  body: string;
  verified: boolean;
  /** The event kind, when it verified. */
  event?: string;
  /** The verifier's message, when it did not. */
  why?: string;
}

export interface Receiver {
  url: string;
  got: Received[];
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at `/hooks` that verifies with `secret()` (read at each delivery). */
export async function startReceiver(secret: () => string): Promise<Receiver> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      try {
        const event = verifyWebhook(body, headers, secret());
        got.push({ headers, body, verified: true, event: event.event });
        res.writeHead(204).end();
      } catch (error) {
        got.push({ headers, body, verified: false, why: (error as Error).message });
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`refused: ${(error as WebhookVerificationError).reason}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, got, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
