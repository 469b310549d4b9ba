/**
 * The server context: every part that lives once per server, built by `buildApp` (server/app.ts,
 * the composition root) and handed to every handler as `ctx.svc`. Nothing per server lives anywhere
 * else: no module keeps state keyed by the server. Also the unit of work of one call (which
 * documents it touched, so that exactly those are written before the answer).
 */
import type { Clock } from './clock.ts';
import type { ChangeBus } from './domain/change-bus.ts';
import type { EventBus } from './domain/event-bus.ts';
import type { FaultTable } from './faults/table.ts';
import type { Market } from './domain/market.ts';
import type { OrderDeadlines } from './domain/order-deadlines.ts';
import type { InFlight } from './http/idempotency.ts';
import type { KeptPages } from './http/kept-pages.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { ClockLeases } from './sandbox/clock-lease.ts';
import type { Sealer } from './store/crypto.ts';
import type { SellerDoc, SharedDoc } from './store/docs.ts';
import type { ImageStore } from './store/images.ts';
import { placed } from './store/durable-file.ts';
import type { Store } from './store/store.ts';
import type { TelegramEmulator } from './telegram/state.ts';
import type { ResolveLookup } from './webhooks/address.ts';
import type { WebhookOutbox } from './webhooks/outbox-state.ts';
import type { AttemptResult, SignedDelivery } from './webhooks/sender.ts';

export interface ServerOptions {
  /** Lets webhook addresses be `http://` on loopback (local development only). */
  allowLocalHooks: boolean;
  /** The public base URL of this server, once listening (for probe and image URLs). */
  publicUrl: string | null;
  /** Whether the server has secret storage for webhook signing secrets (off: `PUT /hooks` is `vault_off`). */
  hookSecrets: boolean;
  /** Time one webhook delivery attempt may take, in milliseconds (gaps.md: 10 s). */
  hookTimeoutMs: number;
  /** The DNS lookup of the webhook sender (tests inject one); null: the system resolver. */
  hookLookup: ResolveLookup | null;
  /** Whether every answer is also checked against the contract by zod (development, tests: server/http/answer-json.ts). */
  checkAnswers: boolean;
  /**
   * Where webhook deliveries go instead of the network (`service-seller-server/msw` keeps them);
   * absent: sent to the subscriber's address. The server's own probe receiver is reached as before.
   */
  hookSend?: ((url: string, delivery: SignedDelivery) => Promise<AttemptResult>) | undefined;
}

export interface ServerContext {
  // ---- what is kept on disk
  /** The data files: the shared document, the card sequence, each seller's documents (server/store/store.ts). */
  store: Store;
  /** Seals secrets at rest (stock items, vaults, payout account, hook secrets). */
  sealer: Sealer;
  /** Card images' bytes (server/store/images.ts). */
  images: ImageStore;

  // ---- time
  /** The server's one clock; its listeners (order sweep, webhook due-queue) are wired by `buildApp`. */
  clock: Clock;
  /** Which sellers have an order deadline coming, and the order sweep's state (server/domain/order-deadlines.ts). */
  deadlines: OrderDeadlines;
  /** The lease of the clock a scenario run that moves it holds (server/sandbox/clock-lease.ts). */
  clockLeases: ClockLeases;

  // ---- one call's way in (server/http/execute.ts)
  /** Rate limits per key and per seller (server/http/rate-limit.ts). */
  limiter: RateLimiter;
  /** Calls running under an idempotency key, so that a twin waits (server/http/idempotency.ts). */
  inflight: InFlight;
  /** Per seller, the time of the last prune of its idempotency records. */
  lastPrune: Map<string, number>;
  /** Kept `GET /orders` pages (server/http/kept-pages.ts). */
  keptPages: KeptPages;
  /** The sandbox's admin token. */
  adminToken: string;
  /** The sandbox's faults on demand and webhook chaos, in memory (server/faults/table.ts). */
  faults: FaultTable;
  /** The sandbox's Telegram emulator: bots, chats, updates, in memory (server/telegram/state.ts). */
  telegram: TelegramEmulator;
  options: ServerOptions;

  // ---- what follows from changes
  /** Who hears of a recorded event (server/domain/event-bus.ts): the webhook outbox. */
  events: EventBus;
  /** What the server tells itself of its changes once written (server/domain/change-bus.ts): the inspector's stream. */
  changes: ChangeBus;
  /** The webhook outbox's queue, running attempts and probe tokens (server/webhooks/outbox-state.ts). */
  outbox: WebhookOutbox;
  /** Usual price and demand aggregates, kept in step with the documents (server/domain/market.ts). */
  market: Market;
}

/** The documents one call touched; `commit` writes them (the answer waits for it). */
export class UnitOfWork {
  readonly #svc: ServerContext;
  readonly #sellers = new Set<string>();
  /** The store's reload count when the call began (`execute` reads it before authenticating). */
  readonly #epoch: number;
  #shared = false;
  #seq = false;

  constructor(svc: ServerContext, epoch = svc.store.epoch) {
    this.#svc = svc;
    this.#epoch = epoch;
  }

  /** A seller's document, marked to be written. */
  async seller(sellerId: string): Promise<SellerDoc> {
    this.#sellers.add(sellerId);
    return this.#svc.store.seller(sellerId);
  }

  markSeller(sellerId: string): void {
    this.#sellers.add(sellerId);
  }

  /**
   * The shared document, marked to be written. Only for changes to what shared.json keeps (sellers,
   * catalogue, catalogue request index, clock offset, demo seller); the key, card, order and nickname
   * indexes are derived from the seller documents and are changed through `store.shared` without a
   * write.
   */
  shared(): SharedDoc {
    this.#shared = true;
    return this.#svc.store.shared;
  }

  /** The next card number; the card sequence (`seq.json`) is written with this call, before its sellers. */
  nextCardNumber(): number {
    this.#seq = true;
    return this.#svc.store.nextCardNumber();
  }

  /**
   * Writes the shared document and the card sequence first, then the sellers'. A crash between the
   * two leaves an advanced sequence (or a seller entry, a request index entry) without its record
   * (read as absent), never a record whose number the sequence does not cover and could hand out
   * again. The key, card, order and nickname indexes are not written at all: they are rebuilt from
   * the seller documents at start-up (server/store/store.ts `deriveIndexes`), so a number given out
   * before a crash is in none of them, and the sequence is raised to every stored number.
   *
   * The sequence is its own file (`seq.json`, ~15 bytes), so creating a card does not rewrite the
   * shared document, which grows with the number of sellers. Each write of it holds every number
   * handed out until then, so concurrent creations share (coalesce into) a write.
   *
   * A seller's write (`store.writeSeller`, server/store/seller-files.ts) takes one snapshot of the
   * seller and writes its dirty shards and its core document (which holds the idempotency record of
   * the call) through a journal: after a crash, the record and its changes are on disk together or
   * not at all.
   * Which shards are dirty is tracked by the seller document itself (server/store/shards.ts), so
   * marking the seller here is all a handler needs.
   */
  async commit(): Promise<void> {
    const { store, changes } = this.#svc;
    const notices = changes.take(this.#sellers);
    try {
      // A document this call read was reopened after another call's failed write: what this call
      // changed went into the dropped copy, so it cannot be written (the call fails, changing nothing).
      if (this.#shared && store.reloadedSince('', this.#epoch)) throw new Error('the shared document was reloaded after a failed write');
      for (const id of this.#sellers) if (store.reloadedSince(id, this.#epoch)) throw new Error(`seller ${id} was reloaded after a failed write`);
      // The commit point is the sellers' write (their journals); without one, the shared document's:
      // once renamed into place it is written, even when its directory's flush failed (durable-file.ts `placed`).
      const point = this.#sellers.size === 0 ? placed : (write: Promise<void>) => write;
      await Promise.all([this.#shared && point(store.writeShared()), this.#seq && point(store.writeSeq())]);
      await Promise.all([...this.#sellers].map((id) => store.writeSeller(id)));
    } catch (err) {
      await this.#rollBack();
      throw err;
    }
    changes.publish(notices);
  }

  /**
   * After a failed commit: the documents this call touched are reopened from disk, so nothing of
   * the call (nor of calls whose writes shared its failed write: they fail too) stays in memory.
   * The card sequence is not rolled back (a number handed out is never handed out again).
   */
  async #rollBack(): Promise<void> {
    const { store } = this.#svc;
    const reloads = [...this.#sellers].map((id) => store.reloadSeller(id));
    if (this.#shared) reloads.push(store.reloadShared());
    await Promise.allSettled(reloads);
  }
}
