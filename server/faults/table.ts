/**
 * The sandbox's fault table, one per server (`svc.faults`, built by `buildApp`; issue #27): the
 * faults in force, and which call or webhook delivery each one hits. Kept in memory only: a
 * restart clears every fault (a rehearsal sets up its faults again).
 *
 * Matching: a fault is for one seller or every seller, and for a seller-API operation id (`*`:
 * every one) or a kind of webhook chaos; a Telegram fault (issue #36) is for one bot or every bot,
 * and for a method of the emulator (`telegram.sendMessage`; `telegram.*`: every one). Every fault that matches a call counts it (`every: N`
 * fires on the Nth, 2Nth, … of its matching calls); the oldest that fires gives its effect, the
 * others let the call pass without spending a hit. A fault ends after `times` hits, or once the
 * server clock passes `createdAt + forMs` (the server clock, not real time: a sandbox clock advance
 * ends a `for` fault, as it moves every other deadline of the sandbox), when the run lease it was
 * added with lapses or is released (./run-leases.ts), or when it is cleared.
 *
 * An ended fault (used up, run out, or ended with its run) is kept {@link ENDED_KEPT_MS} of real time
 * with `endedAt` (server clock) and its `hits`, listed after the faults in force: the proof that it
 * fired. Real time, so that a clock advance does not forget it. A cleared fault is forgotten at once.
 */
import type { AddFaultBody, Fault } from '../../sdk/contract/index.ts';
import { newId } from '../ids.ts';
import { RunLeases } from './run-leases.ts';

type Body = Omit<Fault, 'id' | 'createdAt' | 'expiresAt' | 'remaining' | 'hits' | 'endedAt'>;

/** How long an ended fault is kept in the list, in real time: an hour. */
export const ENDED_KEPT_MS = 3_600_000;

interface Ended {
  fault: Fault;
  /** Real time (epoch ms) after which it is forgotten. */
  forgetAt: number;
}

interface Entry {
  fault: Fault;
  expiresMs: number | null;
  /** Matching calls (deliveries) seen, for `every`. */
  seen: number;
}

/** What a call or a delivery asks about: whose (a seller's, or a Telegram bot's), and which operation (or chaos kind). */
export type FaultTarget =
  | { sellerId: string; op: string }
  | { sellerId: string; hooks: NonNullable<AddFaultBody['hooks']> }
  | { bot: number; op: `telegram.${string}` };

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
  readonly #ended: Ended[] = [];
  readonly #aborts = new Set<AbortController>();
  /** Webhook deliveries held back by chaos, by delivery id (server/webhooks/chaos.ts). */
  readonly held = new Map<string, HeldDelivery>();
  /** Deliveries let go after a hold: their next attempt is not held again. */
  readonly released = new Set<string>();
  /** @param runLeases the leases of scenario runs: a fault added with one ends when it lapses. */
  constructor(readonly runLeases = new RunLeases()) {}

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

  /** How many faults are in force (zero: the hot path asks nothing more). */
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
      endedAt: null,
      ...body,
    };
    this.#entries.push({ fault, expiresMs: body.forMs === undefined ? null : nowMs + body.forMs, seen: 0 });
    return fault;
  }

  /** The faults in force at `nowMs`, oldest first, then those ended within the hour, in the order they ended (copies). */
  list(nowMs: number): Fault[] {
    this.#expire(nowMs);
    this.#forget();
    return [...this.#entries, ...this.#ended].map((e) => ({ ...e.fault }));
  }

  /** Clears one fault (by id) or every fault, in force or ended; how many were cleared. */
  clear(id?: string): number {
    const before = this.#entries.length + this.#ended.length;
    for (const list of [this.#entries, this.#ended]) {
      if (id === undefined) list.length = 0;
      else {
        const at = list.findIndex((e) => e.fault.id === id);
        if (at >= 0) list.splice(at, 1);
      }
    }
    return before - this.#entries.length - this.#ended.length;
  }

  /** Ends a run's lease and the faults added with it (at `nowMs`, kept as ended); how many faults ended. */
  endRun(lease: string, nowMs: number): number {
    this.runLeases.release(lease);
    const before = this.#entries.length;
    for (let i = 0; i < this.#entries.length; ) {
      if (this.#entries[i]!.fault.runLease === lease) this.#end(i, nowMs);
      else i++;
    }
    if (this.#entries.length < before) this.#listener?.();
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
      if (fault.remaining <= 0) this.#end(this.#entries.indexOf(fired), nowMs);
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

  /** `for` faults whose time has run out end (at their `expiresAt`). */
  #expire(nowMs: number): void {
    const before = this.#entries.length;
    for (let i = 0; i < this.#entries.length; ) {
      const { expiresMs: at, fault } = this.#entries[i]!;
      if (at !== null && nowMs >= at) this.#end(i, at);
      else if (fault.runLease !== undefined && !this.runLeases.alive(fault.runLease)) this.#end(i, nowMs);
      else i++;
    }
    if (this.#entries.length < before) this.#listener?.();
  }

  /** The fault at `index` ends at `endedMs` (server clock): out of force, kept a while with its hits. */
  #end(index: number, endedMs: number): void {
    const [entry] = this.#entries.splice(index, 1);
    entry!.fault.endedAt = new Date(endedMs).toISOString();
    this.#ended.push({ fault: entry!.fault, forgetAt: Date.now() + ENDED_KEPT_MS });
  }

  #forget(): void {
    const now = Date.now();
    while (this.#ended.length > 0 && this.#ended[0]!.forgetAt <= now) this.#ended.shift();
  }
}

function matches(fault: Fault, target: FaultTarget): boolean {
  // `*` is the seller API's; a Telegram method is hit by its own id or `telegram.*`, for its bot or every bot.
  if ('bot' in target) return (fault.op === 'telegram.*' || fault.op === target.op) && (fault.bot === undefined || fault.bot === target.bot);
  if (fault.sellerId !== undefined && fault.sellerId !== target.sellerId) return false;
  if ('hooks' in target) return fault.hooks === target.hooks;
  return fault.hooks === undefined && (fault.op === '*' || fault.op === target.op);
}
