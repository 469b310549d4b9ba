/**
 * The lease of the server's clock (one per server, `svc.clockLease`): a scenario run that moves the
 * clock takes it first, so that a second such run on the same server is refused while the first is
 * running (the clock is the server's, not a seller's). It is kept in memory, in real time (the
 * sandbox clock is what it guards, so it cannot be measured by it), and ends by itself at
 * `expiresAt` unless its holder renews it: a run that died does not hold the clock for ever.
 */
import { newId } from '../ids.ts';

export interface HeldLease {
  id: string;
  holder: string;
  /** Epoch ms, real time. */
  expiresAt: number;
}

export class ClockLeases {
  #held: HeldLease | null = null;

  /** The lease held now (an expired one is gone). */
  current(nowMs: number): HeldLease | null {
    if (this.#held && this.#held.expiresAt <= nowMs) this.#held = null;
    return this.#held;
  }

  /**
   * Takes the lease, or renews `renew` when it is the one held (or nothing is held): the lease, or
   * the other holder's when it is held by another.
   */
  take(holder: string, ttlMs: number, nowMs: number, renew?: string): { taken: HeldLease } | { heldBy: HeldLease } {
    const held = this.current(nowMs);
    if (held && held.id !== renew) return { heldBy: held };
    this.#held = { id: held?.id ?? renew ?? newId('cll'), holder, expiresAt: nowMs + ttlMs };
    return { taken: this.#held };
  }

  /** Gives the lease `id` back; false when it is not the one held (expired, or never taken). */
  release(id: string, nowMs: number): boolean {
    if (this.current(nowMs)?.id !== id) return false;
    this.#held = null;
    return true;
  }
}
