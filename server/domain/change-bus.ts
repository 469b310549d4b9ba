/**
 * What the server tells itself about its changes, beyond the webhook events (server/domain/event-bus.ts
 * carries only those): an order created or moved (the clock's moves included) or otherwise changed,
 * a card, a delivery attempt, the subscription, a probe hit, a seller, a clock advance. The
 * inspector's live stream (server/sandbox/change-stream.ts) and the sandbox's clock advance listen.
 * No webhook event kind is added: these notices never reach a subscriber.
 *
 * A notice about a seller's document is noted while the change is made (synchronously, with it) and
 * published only once the document is written: {@link ChangeBus.take} when the write begins (the
 * notices of changes the write's snapshot holds), {@link ChangeBus.publish} when it succeeded. A
 * failed write drops them (the changes are gone). A notice carries ids, not records (an order's
 * notice also its view as the write left it): a listener reads the record as it is when it hears.
 */
import type { MovedOrder, Mover, Order, OrderAction, OrderStatus } from '../../sdk/contract/index.ts';
import type { ProbeHitRecord } from '../store/records/hooks.ts';

export type ChangeNotice =
  | {
      type: 'order';
      sellerId: string;
      orderId: string;
      number: number;
      change: 'created' | 'status' | 'updated';
      from: OrderStatus | null;
      to: OrderStatus;
      action: OrderAction | null;
      by: Mover | null;
      at: string;
      /** The order as the seller sees it, taken when its write begins ({@link ChangeBus.take}): what this write made of it. */
      view?: Order;
      /** Builds {@link view} (the record at that moment). */
      snapshot: () => Order;
    }
  | { type: 'card'; sellerId: string; number: number; at: string }
  | { type: 'delivery'; sellerId: string; deliveryId: string; at: string }
  | { type: 'hooks'; sellerId: string; at: string }
  | { type: 'probe'; sellerId: string; hit: ProbeHitRecord; at: string }
  | { type: 'seller'; sellerId: string; at: string }
  | { type: 'clock'; now: string; moved: MovedOrder[]; at: string }
  | { type: 'faults'; at: string }
  | { type: 'telegram'; bot: number; chat: number | null; at: string };

export type ChangeListener = (notice: ChangeNotice) => void;

/** Notices waiting for one seller's write; beyond this the oldest are dropped (a seller changed in memory and never written). */
export const PENDING_KEPT = 5000;

export class ChangeBus {
  readonly #listeners = new Set<ChangeListener>();
  readonly #pending = new Map<string, ChangeNotice[]>();

  /** Listens; answers the function that stops it. */
  on(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Notes a change of a seller's document, to be published when the document is written. */
  note(sellerId: string, notice: ChangeNotice): void {
    let list = this.#pending.get(sellerId);
    if (!list) this.#pending.set(sellerId, (list = []));
    list.push(notice);
    if (list.length > PENDING_KEPT) list.splice(0, list.length - PENDING_KEPT);
  }

  /** Takes the notices of these sellers' documents (their write begins), merged: see {@link merge}. */
  take(sellerIds: Iterable<string>): ChangeNotice[] {
    const out: ChangeNotice[] = [];
    for (const id of sellerIds) {
      const list = this.#pending.get(id);
      if (!list) continue;
      this.#pending.delete(id);
      for (const n of merge(list)) {
        if (n.type === 'order') n.view = n.snapshot();
        out.push(n);
      }
    }
    return out;
  }

  /** Tells every listener, in order. A listener's failure does not stop the others. */
  publish(notices: readonly ChangeNotice[]): void {
    for (const notice of notices) {
      for (const listener of this.#listeners) {
        try {
          listener(notice);
        } catch {
          // a listener's own trouble; the change itself is written
        }
      }
    }
  }
}

/**
 * One write's notices as listeners want them: an order's plain `updated` notices are dropped when
 * the write also created or moved it, and kept once otherwise; a card, delivery, subscription or
 * seller is named once (its last notice).
 */
export function merge(list: readonly ChangeNotice[]): ChangeNotice[] {
  const moved = new Set<string>();
  for (const n of list) if (n.type === 'order' && n.change !== 'updated') moved.add(n.orderId);
  const seen = new Set<string>();
  const out: ChangeNotice[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const n = list[i]!;
    const key = keyOf(n);
    if (key !== null) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    if (n.type === 'order' && n.change === 'updated' && moved.has(n.orderId)) continue;
    out.push(n);
  }
  return out.reverse();
}

/** The key under which later notices replace earlier ones; null: every one is kept. */
function keyOf(n: ChangeNotice): string | null {
  switch (n.type) {
    case 'order':
      return n.change === 'updated' ? `order:${n.orderId}` : null;
    case 'card':
      return `card:${n.number}`;
    case 'delivery':
      return `delivery:${n.deliveryId}`;
    case 'hooks':
    case 'seller':
      return `${n.type}:${n.sellerId}`;
    default:
      return null;
  }
}
