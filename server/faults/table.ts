/**
 * The sandbox's fault table, one per server (`svc.faults`, built by `buildApp`; issue #27): the
 * faults in force, and which call or webhook delivery each one hits. Kept in memory only: a
 * restart clears every fault (a rehearsal sets up its faults again).
 *
 * Matching: a fault is for one seller or every seller, and for a seller-API operation id (`*`:
 * every one) or a kind of webhook chaos. Every fault that matches a call counts it (`every: N`
 * fires on the Nth, 2Nth, … of its matching calls); the oldest that fires gives its effect, the
 * others let the call pass without spending a hit. A fault ends after `times` hits, or once the
 * server clock passes `createdAt + forMs` (the server clock, not real time: a sandbox clock advance
 * ends a `for` fault, as it moves every other deadline of the sandbox), or when it is cleared.
 */
import type { AddFaultBody, Fault } from '../../sdk/contract/index.ts';
import { newId } from '../ids.ts';

type Body = Omit<Fault, 'id' | 'createdAt' | 'expiresAt' | 'remaining' | 'hits'>;

interface Entry {
  fault: Fault;
  expiresMs: number | null;
  /** Matching calls (deliveries) seen, for `every`. */
  seen: number;
}

/** What a call or a delivery asks about: whose, and which operation (or chaos kind). */
export type FaultTarget = { sellerId: string; op: string } | { sellerId: string; hooks: NonNullable<AddFaultBody['hooks']> };

/** A webhook delivery held back by chaos (reorder, delay): released by its timer or by the seller's next delivery. */
export interface HeldDelivery {
  sellerId: string;
  seq: number;
  /** Released when a later delivery of the seller has been sent (reorder); false: by the timer only (delay). */
  untilNext: boolean;
  timer: NodeJS.Timeout;
}

export class FaultTable {
  readonly #entries: Entry[] = [];
  readonly #aborts = new Set<AbortController>();
  /** Webhook deliveries held back by chaos, by delivery id (server/webhooks/chaos.ts). */
  readonly held = new Map<string, HeldDelivery>();
  /** Deliveries let go after a hold: their next attempt is not held again. */
  readonly released = new Set<string>();

  /** Told after a fault hit or ended (an added or cleared one is told by its call's notice). */
  #listener: (() => void) | undefined;

  /** Sets who is told when a fault hits or ends (the change stream: server/app.ts). */
  onChange(listener: () => void): void {
    this.#listener = listener;
  }

  /** Ends the `for` faults whose time has passed: the clock's tick does, so an ending is told without a call. */
  endDue(nowMs: number): void {
    if (this.#entries.length > 0) this.#expire(nowMs);
  }

  /** How many faults are kept (zero: the hot path asks nothing more). */
  get size(): number {
    return this.#entries.length;
  }

  add(body: Body, nowMs: number): Fault {
    const fault: Fault = {
      id: newId('flt'),
      createdAt: new Date(nowMs).toISOString(),
      expiresAt: body.forMs === undefined ? null : new Date(nowMs + body.forMs).toISOString(),
      remaining: body.times ?? null,
      hits: 0,
      ...body,
    };
    this.#entries.push({ fault, expiresMs: body.forMs === undefined ? null : nowMs + body.forMs, seen: 0 });
    return fault;
  }

  /** The faults in force at `nowMs`, oldest first (copies). */
  list(nowMs: number): Fault[] {
    this.#expire(nowMs);
    return this.#entries.map((e) => ({ ...e.fault }));
  }

  /** Clears one fault (by id) or every fault; how many were cleared. */
  clear(id?: string): number {
    const before = this.#entries.length;
    if (id === undefined) this.#entries.length = 0;
    else {
      const at = this.#entries.findIndex((e) => e.fault.id === id);
      if (at >= 0) this.#entries.splice(at, 1);
    }
    return before - this.#entries.length;
  }

  /**
   * The fault that hits this call (or delivery), its hit counted; undefined when none does.
   * Every matching fault counts the call; the oldest that fires wins.
   */
  hit(target: FaultTarget, nowMs: number): Fault | undefined {
    if (this.#entries.length === 0) return undefined;
    this.#expire(nowMs);
    let fired: Entry | undefined;
    for (const entry of this.#entries) {
      if (!matches(entry.fault, target)) continue;
      entry.seen += 1;
      const every = entry.fault.every;
      if (fired === undefined && (every === undefined || entry.seen % every === 0)) fired = entry;
    }
    if (!fired) return undefined;
    const { fault } = fired;
    fault.hits += 1;
    this.#listener?.();
    if (fault.remaining !== null) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.#entries.splice(this.#entries.indexOf(fired), 1);
    }
    return { ...fault };
  }

  /**
   * A real-time wait (a latency, a webhook delay) that {@link close} cuts short; resolves true when
   * it ran its full time.
   */
  wait(ms: number): Promise<boolean> {
    const abort = new AbortController();
    this.#aborts.add(abort);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(true), ms);
      const done = (full: boolean) => {
        clearTimeout(timer);
        this.#aborts.delete(abort);
        resolve(full);
      };
      abort.signal.addEventListener('abort', () => done(false), { once: true });
    });
  }

  /** The server closes: every wait ends at once. */
  close(): void {
    for (const abort of [...this.#aborts]) abort.abort();
    for (const held of this.held.values()) clearTimeout(held.timer);
    this.held.clear();
  }

  #expire(nowMs: number): void {
    const before = this.#entries.length;
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      const at = this.#entries[i]!.expiresMs;
      if (at !== null && nowMs >= at) this.#entries.splice(i, 1);
    }
    if (this.#entries.length < before) this.#listener?.();
  }
}

function matches(fault: Fault, target: FaultTarget): boolean {
  if (fault.sellerId !== undefined && fault.sellerId !== target.sellerId) return false;
  if ('hooks' in target) return fault.hooks === target.hooks;
  return fault.hooks === undefined && (fault.op === '*' || fault.op === target.op);
}
