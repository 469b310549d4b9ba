/**
 * The lease of the server's clock (one per server, `svc.clockLeases`): a scenario run that moves the
 * clock takes it first, so that while it runs a second such run is refused, and so is every other
 * move of the clock (`seller sandbox clock advance`, the page's buttons, `advanceClock` of the SDK)
 * unless it is the holder's own (it names the lease) or says `force` (the clock is the server's, not
 * a seller's). It is kept in memory, in real time (the sandbox clock is what it guards, so it cannot
 * be measured by it), and ends by itself at `expiresAt` unless its holder renews it: a run that died
 * does not hold the clock for ever.
 */
import { refuse, type Refusal } from '../domain/refusal.ts';
import { newId } from '../ids.ts';

export interface HeldLease {
  id: string;
  holder: string;
  /** Epoch ms, real time. */
  expiresAt: number;
}

/** The refusal while `held` is held: 409 `clock_leased`, naming the holder and the lease's end. */
export function leasedRefusal(held: HeldLease): Refusal<'clock_leased'> {
  const until = new Date(held.expiresAt).toISOString();
  return refuse(
    'clock_leased',
    { reason: 'held', holder: held.holder, until },
    `another scenario run that moves the clock is running on this server (${held.holder}, lease until ${until} unless renewed)`,
  );
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

  /** The lease held by another than `lease` (a clock move's), which refuses the move; null: the move may go. */
  refusing(nowMs: number, lease?: string): HeldLease | null {
    const held = this.current(nowMs);
    return held && held.id !== lease ? held : null;
  }

  /** Gives the lease `id` back; false when it is not the one held (expired, or never taken). */
  release(id: string, nowMs: number): boolean {
    if (this.current(nowMs)?.id !== id) return false;
    this.#held = null;
    return true;
  }
}
