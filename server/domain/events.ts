/**
 * Events: every change a subscriber may care about is recorded in the seller's document (the
 * outbox) in the same write as the change itself, then announced on the server's event bus
 * (`svc.events`, server/domain/event-bus.ts; the webhook outbox listens). `data` carries no buyer identity.
 */
import type { EventDataOf, EventKind } from '../../sdk/contract/index.ts';
import type { ServerContext } from '../context.ts';
import { newId } from '../ids.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { EventRecord } from '../store/records/events.ts';

/**
 * Appends the event to the seller's outbox and tells the bus's listeners synchronously, so that what they
 * add to the same document (a pending delivery) is written in the same write as the change.
 * Listeners must only change the document and schedule work; never await.
 */
export function recordEvent<K extends EventKind>(svc: ServerContext, doc: SellerDoc, kind: K, data: EventDataOf<K>, now: Date): EventRecord {
  const event: EventRecord = { id: newId('evt'), kind, data: data as Record<string, unknown>, at: now.toISOString() };
  doc.events.push(event);
  if (doc.events.length > EVENTS_KEPT) doc.events.splice(0, doc.events.length - EVENTS_KEPT);
  svc.events.emit(doc.sellerId, event, doc);
  return event;
}

/** The outbox keeps the latest events for inspection; delivery state lives with the sender. */
export const EVENTS_KEPT = 1000;
