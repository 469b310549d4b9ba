/**
 * The code under test in these examples: what a seller's script does with the SDK. The three test
 * files test it three ways (see README.md, "Testing your integration").
 */
import type { Order, SellerClient } from 'service-seller';
import { verifyWebhookAsync } from 'service-seller/webhooks/web';

/** Delivers every paid code order waiting for the seller; answers the ids delivered. */
export async function deliverWaiting(client: SellerClient): Promise<string[]> {
  const delivered: string[] = [];
  for await (const order of client.orders.list({ status: 'awaiting_delivery' })) {
    if (order.productType !== 'code') continue;
    await client.orders.deliver(order.id, { note: 'Thank you! Your code is in the order.' });
    delivered.push(order.id);
  }
  return delivered;
}

/** A webhook receiver: verifies the delivery and answers what it would do. */
export async function onWebhook(body: string, headers: Record<string, string>, secret: string): Promise<string> {
  const event = await verifyWebhookAsync(body, headers, secret);
  if (event.event === 'order.paid') return `deliver ${event.data.order}`;
  if (event.event === 'stock.out') return `refill card ${event.data.number}`;
  return `ignore ${event.event}`;
}

/** The orders still awaiting delivery after their deadline. */
export function overdue(orders: readonly Order[], now: Date): string[] {
  return orders.filter((o) => o.status === 'awaiting_delivery' && o.deliverBy !== null && Date.parse(o.deliverBy) < now.getTime()).map((o) => o.id);
}
