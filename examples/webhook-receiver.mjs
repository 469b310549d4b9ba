#!/usr/bin/env node
/**
 * Receives the service's webhooks: checks each delivery's signature over the raw body, answers 204
 * at once (or 400 with the reason when the check fails), then handles the event. The node:http
 * recipe of docs/webhooks.md, runnable.
 *
 *   SERVICE_WEBHOOK_SECRET=whsec_… PORT=3000 node examples/webhook-receiver.mjs
 *   seller hooks set --url https://your-host/webhooks --event order.paid --secret-file .hook-secret
 *
 * (A local seller-server started with --allow-local-hooks also delivers to http://127.0.0.1:PORT.)
 */
import { createServer } from 'node:http';
import { verifyWebhook, WebhookVerificationError } from 'service-seller/webhooks';

const secret = process.env.SERVICE_WEBHOOK_SECRET;
if (!secret) {
  console.error('set SERVICE_WEBHOOK_SECRET to the secret `seller hooks set` gave you');
  process.exit(2);
}
/** Deliveries are a few hundred bytes; anything far larger is not one. */
const MAX_BODY = 1024 * 1024;

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/webhooks') {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY) {
      res.writeHead(413).end();
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks); // the exact bytes that were signed
    let event;
    try {
      event = verifyWebhook(rawBody, req.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      console.log(`refused a delivery: ${error.reason}`);
      res.writeHead(400, { 'content-type': 'text/plain' }).end(error.reason);
      return;
    }
    res.writeHead(204).end();
    setImmediate(() => handle(event));
  });
});

/** The work: here, a line per event (a delivery can come twice: `delivery` identifies it). */
function handle(event) {
  const test = event.test ? ' (test)' : '';
  if (event.event === 'order.paid') console.log(`order ${event.data.order} paid; deliver within ${event.data.slaMinutes} min${test}`);
  else console.log(`${event.event} ${event.delivery}${test}`);
}

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/webhooks`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
