/**
 * What the page shows, kept in step with the server: loaded through the sandbox operations, then
 * moved by the live change stream (`SandboxClient.changes()`, read with fetch and the admin token).
 * A reconnect names the last event id read: when the server still keeps what came after it, it
 * replays that (`ready.resumed`) and nothing is read again; otherwise the lists are read again.
 */
import type { ChangeEventRead } from '../../sdk/sandbox-changes.ts';
import type { SandboxClient } from '../../sdk/sandbox.ts';

// The shapes as the SDK hands them out (tolerant: a value the contract does not know yet passes).
type Answer<K extends keyof SandboxClient> = SandboxClient[K] extends (...args: never[]) => infer R ? Awaited<R> : never;
export type InspectSeller = Answer<'getSeller'>;
export type Order = Answer<'sellerOrders'>['items'][number];
export type Card = Answer<'sellerCards'>['items'][number];
export type InspectDelivery = Answer<'resendDelivery'>;
export type InspectHooks = Answer<'sellerHooks'>;
export type ProbeHit = Answer<'probeInbox'>['items'][number];
export type MovedOrder = Answer<'advanceClock'>['moved'][number];
export type OrderTimeline = Answer<'orderTimeline'>;
export type Fault = Answer<'listFaults'>['items'][number];
export type ClockLeaseHeld = NonNullable<Answer<'clock'>['lease']>;

export interface SellerOrder {
  sellerId: string;
  order: Order;
}

const ORDER_PAGE = 100;

/** The wait before reconnect number `n` (0-based) after the stream broke: 1, 2, 4, 8, 16, then 30 s. */
export const reconnectDelayMs = (n: number): number => Math.min(30_000, 1000 * 2 ** n);

const setCursor = (map: Map<string, string>, sellerId: string, cursor: string | null | undefined): void =>
  void (cursor ? map.set(sellerId, cursor) : map.delete(sellerId));

export class Live {
  now: string | null = null;
  connected = false;
  /** Whether the stream was ever live (before: connecting; after: reconnecting). */
  wasConnected = false;
  sellers = new Map<string, InspectSeller>();
  orders = new Map<string, SellerOrder>();
  cards = new Map<number, { sellerId: string; card: Card }>();
  deliveries = new Map<string, { sellerId: string; delivery: InspectDelivery }>();
  hooks = new Map<string, InspectHooks>();
  probe = new Map<string, ProbeHit[]>();
  /** The scenario run holding the clock's lease, as last read (the clock's buttons are refused while it runs). */
  lease: ClockLeaseHeld | null = null;
  /** The orders the last clock advance moved (null before any). */
  moved: MovedOrder[] | null = null;
  /** The seller whose cards and webhooks are open. */
  openSeller: string | null = null;
  /** Bumped on every change an open view may show (the timeline re-reads on it). */
  orderChanges = 0;
  /** Bumped on every change of a Telegram chat of the emulator (the phone panel re-reads on it). */
  telegramChanges = 0;
  /** Where each seller's orders and cards go on past the pages read (absent: all read). */
  moreOrders = new Map<string, string>();
  moreCards = new Map<string, string>();
  /** Where each open seller's webhook deliveries go on past the pages read (absent: all read). */
  moreDeliveries = new Map<string, string>();
  /** Bumped when a fault was added, hit, ended or cleared (the faults panel re-reads on it). */
  faultChanges = 0;
  #listeners = new Set<() => void>();

  constructor(readonly sb: SandboxClient) {}

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Reads everything shown again: sellers, their orders and cards, the open seller's webhooks. */
  async reload(): Promise<void> {
    const [clock, sellers] = await Promise.all([this.sb.clock(), this.#allSellers()]);
    this.now = clock.now;
    this.lease = clock.lease ?? null;
    this.sellers = new Map(sellers.map((s) => [s.sellerId, s]));
    const orders = new Map<string, SellerOrder>();
    const cards = new Map<number, { sellerId: string; card: Card }>();
    await Promise.all(
      sellers.map(async ({ sellerId }) => {
        const [os, cs] = await Promise.all([this.sb.sellerOrders(sellerId, { limit: ORDER_PAGE }), this.sb.sellerCards(sellerId, { limit: ORDER_PAGE })]);
        for (const order of os.items) orders.set(order.id, { sellerId, order });
        for (const card of cs.items) cards.set(card.number, { sellerId, card });
        setCursor(this.moreOrders, sellerId, os.nextCursor);
        setCursor(this.moreCards, sellerId, cs.nextCursor);
      }),
    );
    this.orders = orders;
    this.cards = cards;
    if (this.openSeller) await this.loadSellerHooks(this.openSeller);
    this.changed();
  }

  /**
   * The next page of one of a seller's lists (it goes on where it stopped): each item not held yet
   * is kept (one the stream already brought stays as it is), and where the list goes on after it.
   */
  async #readMore<T>(cursors: Map<string, string>, sellerId: string, read: (cursor: string) => PromiseLike<{ items: T[]; nextCursor?: string | null | undefined }>, keep: (item: T) => void): Promise<void> {
    const cursor = cursors.get(sellerId);
    if (!cursor) return;
    const page = await read(cursor);
    for (const item of page.items) keep(item);
    setCursor(cursors, sellerId, page.nextCursor);
    this.changed();
  }

  /** The next page of a seller's orders. */
  readMoreOrders(sellerId: string): Promise<void> {
    return this.#readMore(this.moreOrders, sellerId, (cursor) => this.sb.sellerOrders(sellerId, { limit: ORDER_PAGE, cursor }), (order: Order) => {
      if (!this.orders.has(order.id)) this.orders.set(order.id, { sellerId, order });
    });
  }

  /** The next page of a seller's cards. */
  readMoreCards(sellerId: string): Promise<void> {
    return this.#readMore(this.moreCards, sellerId, (cursor) => this.sb.sellerCards(sellerId, { limit: ORDER_PAGE, cursor }), (card: Card) => {
      if (!this.cards.has(card.number)) this.cards.set(card.number, { sellerId, card });
    });
  }

  /** The next page of a seller's webhook deliveries (older ones). */
  readMoreDeliveries(sellerId: string): Promise<void> {
    return this.#readMore(this.moreDeliveries, sellerId, (cursor) => this.sb.sellerDeliveries(sellerId, { limit: ORDER_PAGE, cursor }), (delivery: InspectDelivery) => {
      if (!this.deliveries.has(delivery.id)) this.deliveries.set(delivery.id, { sellerId, delivery });
    });
  }

  async #allSellers(): Promise<InspectSeller[]> {
    const all: InspectSeller[] = [];
    for await (const seller of this.sb.listSellers({ limit: 100 })) all.push(seller);
    return all;
  }

  /** The open seller's subscription, deliveries and probe inbox. */
  async loadSellerHooks(sellerId: string): Promise<void> {
    const [hooks, deliveries, inbox] = await Promise.all([
      this.sb.sellerHooks(sellerId),
      this.sb.sellerDeliveries(sellerId, { limit: ORDER_PAGE }),
      this.sb.probeInbox(sellerId, { limit: 50 }),
    ]);
    this.hooks.set(sellerId, hooks);
    for (const [id, d] of this.deliveries) if (d.sellerId === sellerId) this.deliveries.delete(id);
    for (const delivery of deliveries.items) this.deliveries.set(delivery.id, { sellerId, delivery });
    setCursor(this.moreDeliveries, sellerId, deliveries.nextCursor);
    this.probe.set(sellerId, inbox.items);
    this.changed();
  }

  async open(sellerId: string | null): Promise<void> {
    this.openSeller = sellerId;
    this.changed();
    if (sellerId) await this.loadSellerHooks(sellerId);
  }

  #stale = new Set<string>();
  /** A seller's counts (cards, orders, needing action) after its cards or orders changed: read again, once per burst. */
  #refreshSeller(sellerId: string): void {
    if (this.#stale.has(sellerId) || !this.sellers.has(sellerId)) return;
    this.#stale.add(sellerId);
    queueMicrotask(async () => {
      try {
        this.sellers.set(sellerId, await this.sb.getSeller(sellerId));
        this.changed();
      } catch {
        // shown as it was; the next change or reconnect reads it again
      } finally {
        this.#stale.delete(sellerId);
      }
    });
  }

  /** One event of the stream. */
  apply(ev: ChangeEventRead): void {
    switch (ev.type) {
      case 'order': {
        const e = ev as Extract<ChangeEventRead, { type: 'order'; order: Order }>;
        const had = this.orders.get(e.order.id);
        if (!had || had.order.updatedAt <= e.order.updatedAt) this.orders.set(e.order.id, { sellerId: e.sellerId, order: e.order });
        this.orderChanges++;
        this.#refreshSeller(e.sellerId);
        break;
      }
      case 'card': {
        const e = ev as Extract<ChangeEventRead, { type: 'card'; number: number }>;
        if (e.card) this.cards.set(e.number, { sellerId: e.sellerId, card: e.card });
        else this.cards.delete(e.number);
        this.#refreshSeller(e.sellerId);
        break;
      }
      case 'delivery': {
        const e = ev as Extract<ChangeEventRead, { type: 'delivery'; delivery: InspectDelivery }>;
        this.deliveries.set(e.delivery.id, { sellerId: e.sellerId, delivery: e.delivery });
        break;
      }
      case 'hooks': {
        const e = ev as Extract<ChangeEventRead, { type: 'hooks'; hooks: InspectHooks }>;
        this.hooks.set(e.sellerId, e.hooks);
        break;
      }
      case 'probe': {
        const e = ev as Extract<ChangeEventRead, { type: 'probe'; hit: ProbeHit }>;
        this.probe.set(e.sellerId, [e.hit, ...(this.probe.get(e.sellerId) ?? [])].slice(0, 50));
        break;
      }
      case 'seller': {
        const e = ev as Extract<ChangeEventRead, { type: 'seller'; seller: InspectSeller }>;
        this.sellers.set(e.sellerId, e.seller);
        break;
      }
      case 'clock': {
        const e = ev as Extract<ChangeEventRead, { type: 'clock'; now: string; moved: MovedOrder[] }>;
        this.now = e.now;
        this.moved = e.moved;
        break;
      }
      case 'faults':
        this.faultChanges++;
        break;
      case 'ready': {
        const e = ev as Extract<ChangeEventRead, { type: 'ready'; now: string }>;
        this.now = e.now;
        this.faultChanges++; // what changed while the stream was away
        break;
      }
      case 'telegram':
        this.telegramChanges++;
        break;
      default:
        return; // a kind this page does not know: nothing to show
    }
    this.changed();
  }

  /**
   * Follows the stream until `signal` aborts. A reconnect sends the last event id read: a `ready`
   * that says `resumed` is followed by the missed events; any other (the first, a server restart,
   * a break longer than the server keeps events for) reads the lists again. A broken
   * stream is tried again after 1, 2, 4 … 30 s ({@link reconnectDelayMs}; back to 1 s once it was live).
   * A 401 (the token no longer taken: a `--memory` server restarted with a new one) calls `refused`.
   */
  async follow(signal: AbortSignal, refused: () => void): Promise<void> {
    let failures = 0;
    let lastEventId: string | undefined;
    while (!signal.aborted) {
      try {
        for await (const ev of this.sb.changes({ signal, lastEventId })) {
          if (ev.type === 'ready') {
            failures = 0;
            this.connected = true;
            this.wasConnected = true;
            if ((ev as { resumed?: unknown }).resumed !== true) {
              lastEventId = undefined; // what is held is not known to be current until read again
              await this.reload();
            }
          }
          this.apply(ev);
          if (ev.id !== undefined) lastEventId = ev.id;
        }
      } catch (err) {
        if ((err as { status?: number }).status === 401) return refused();
      }
      if (this.connected) {
        this.connected = false;
        this.changed();
      }
      if (!signal.aborted) await new Promise((resolve) => setTimeout(resolve, reconnectDelayMs(failures++)));
    }
  }
}
