/**
 * The server's event bus: who hears of an event once it is recorded in a seller's document
 * (server/domain/events.ts `recordEvent`). One per server, built by `buildApp`; today the webhook
 * outbox is its only listener.
 */
import type { SellerDoc } from '../store/docs.ts';
import type { EventRecord } from '../store/records/events.ts';

/** `doc` is the seller's document the event was recorded in (the listener may add to it in the same write). */
export type EventListener = (sellerId: string, event: EventRecord, doc: SellerDoc) => void;

export class EventBus {
  readonly #listeners: EventListener[] = [];

  on(listener: EventListener): void {
    this.#listeners.push(listener);
  }

  /** Tells every listener, synchronously: listeners only change the document and schedule work, never await. */
  emit(sellerId: string, event: EventRecord, doc: SellerDoc): void {
    for (const listener of this.#listeners) listener(sellerId, event, doc);
  }
}
