/**
 * A buyer's message in `seller orders watch`: an order seen before that changed and now needs the
 * seller is read once more (`GET /orders/{id}` has the conversation) and the buyer's newest message
 * since the version seen before is shown with the change, also when the same poll brings a move
 * (paid and a message at once). One read per such change; orders that need nothing are not read.
 * Not for piped or `--json` output, whose lines stay one per change.
 */
import type { SellerClient } from '../../sdk/client.ts';
import type { Order } from '../lib/records.ts';

/** Whether a change may carry a new buyer message: an order seen before changed, and the seller now has to act. */
export const mayCarryMessage = (before: Order | undefined, after: Order): boolean =>
  before !== undefined && before.updatedAt !== after.updatedAt && after.needsAction;

/** The buyer's newest message after `since` (the previous version's `updatedAt`), or `undefined` (also when it cannot be read). */
export async function newBuyerMessage(client: SellerClient, order: Order, since: string): Promise<string | undefined> {
  try {
    const { messages } = await client.orders.get(order.id);
    const fresh = messages.filter((m) => m.from === 'buyer' && m.at > since);
    return fresh.at(-1)?.text;
  } catch {
    return undefined;
  }
}
