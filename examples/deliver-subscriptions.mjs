#!/usr/bin/env node
/**
 * Delivers paid subscription orders as they come in.
 *
 * For each order awaiting delivery of a card sold as a subscription, it activates the subscription
 * (`activate`: replace it with your vendor's API) and delivers the order with the next charge day and
 * a note for the buyer. The first run looks at every order; its position is then kept in a watermark
 * file, so a restart resumes where it stopped and sees every change once. Ctrl-C (or SIGTERM) stops it.
 *
 *   SERVICE_API_KEY=service_live_… SERVICE_BASE_URL=http://127.0.0.1:8787 node examples/deliver-subscriptions.mjs
 *
 * Environment: SERVICE_API_KEY, SERVICE_BASE_URL (read by the SDK), WATERMARK_FILE (default
 * `.deliver-subscriptions.watermark` in the working directory), POLL_SECONDS (default 5).
 */
import { fileWatermarkStore, isRejected, SellerClient } from 'service-seller';

const client = new SellerClient();
const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stop.abort());

/** Activates the subscription at the vendor; returns the day it will next charge (`YYYY-MM-DD`). */
async function activate(order) {
  console.log(`activating ${order.service}/${order.tariff} for order ${order.id}`);
  return new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
}

const changes = client.orders.watch({
  store: fileWatermarkStore(process.env.WATERMARK_FILE ?? '.deliver-subscriptions.watermark'),
  intervalMs: Number(process.env.POLL_SECONDS ?? 5) * 1000,
  signal: stop.signal,
});

for await (const order of changes) {
  if (order.status !== 'awaiting_delivery' || order.productType !== 'subscription') continue;
  const nextChargeDay = await activate(order);
  try {
    const { noteRejected } = await client.orders.deliver(order.id, { nextChargeDay, note: 'Activated on your account. Enjoy!' });
    console.log(`delivered ${order.id}, next charge ${nextChargeDay}${noteRejected ? ' (the note was filtered)' : ''}`);
  } catch (error) {
    // Cancelled or refunded meanwhile: nothing to deliver any more.
    if (isRejected(error, 'orders.deliver') && error.refusal.kind === 'state_moved') {
      console.log(`skipped ${order.id}: ${error.message}`);
      continue;
    }
    throw error;
  }
}
console.log('stopped');
