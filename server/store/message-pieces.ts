/**
 * An order's conversation in bounded pieces (issue 19's audit): the first {@link MESSAGES_INLINE}
 * messages stay in the order record (`order.messages`, as always), the ones after go to the seller's
 * `messages` section (a sharded section: server/store/shards.ts) in pieces of up to
 * {@link PIECE_MESSAGES} under `<order id>.<i>` (i = 0, 1, … without gaps). So a new message
 * rewrites the order record or the last piece, both bounded, however long the conversation; the
 * order's shard does not grow with it. Reads put them back together, oldest first.
 *
 * An order record of older data holding more than MESSAGES_INLINE messages keeps them; new ones go
 * to pieces.
 */
import type { SellerDoc } from './docs.ts';
import type { MessageRecord, OrderRecord } from './records/orders.ts';
import { rawOf } from './shards.ts';

/** Messages kept in the order record itself. */
export const MESSAGES_INLINE = 50;
/** Messages one piece holds at most. */
export const PIECE_MESSAGES = 50;

/** The key of piece `i` of an order's messages in the `messages` section. */
export const messagePieceKey = (orderId: string, i: number): string => `${orderId}.${i}`;

/** How many pieces the order's messages have (a few `hasOwn` probes: one per 50 messages). */
function piecesOf(doc: SellerDoc, orderId: string): number {
  const raw = rawOf(doc.messages);
  let n = 0;
  while (Object.hasOwn(raw, messagePieceKey(orderId, n))) n++;
  return n;
}

/** Every message of the order, oldest first (the stored records: read them, never change them). */
export function orderMessages(doc: SellerDoc, order: OrderRecord): MessageRecord[] {
  const out = [...rawOf(order).messages];
  const raw = rawOf(doc.messages);
  for (let i = 0; Object.hasOwn(raw, messagePieceKey(order.id, i)); i++) out.push(...raw[messagePieceKey(order.id, i)]!.messages);
  return out;
}

/** Appends a message: into the order record while it has room and no piece was started, else into the last piece or a new one. */
export function appendMessage(doc: SellerDoc, order: OrderRecord, message: MessageRecord): void {
  const pieces = piecesOf(doc, order.id);
  if (pieces === 0 && order.messages.length < MESSAGES_INLINE) {
    order.messages.push(message);
    return;
  }
  const last = pieces > 0 ? doc.messages[messagePieceKey(order.id, pieces - 1)]! : null;
  if (last && last.messages.length < PIECE_MESSAGES) last.messages.push(message);
  else doc.messages[messagePieceKey(order.id, pieces)] = { order: order.id, messages: [message] };
}
