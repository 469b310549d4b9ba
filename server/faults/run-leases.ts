/**
 * Run leases (`sandbox.leaseRun`): a scenario run takes one and renews it while it lives; the faults
 * it adds carry it (`runLease`) and end when it lapses or is released, so a run killed outright
 * leaves no fault for ever. Unlike the clock's lease (../sandbox/clock-lease.ts) any number are held
 * at once: one run never refuses another. In memory and in real time, as the clock's.
 */
import { newId } from '../ids.ts';

export interface RunLease {
  id: string;
  holder: string;
  /** Epoch ms, real time. */
  expiresAt: number;
}

export class RunLeases {
  readonly #held = new Map<string, RunLease>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  /** Renews `renew` while it is held; else takes a new lease. */
  take(holder: string, ttlMs: number, renew?: string): RunLease {
    this.#sweep();
    const held = renew === undefined ? undefined : this.#held.get(renew);
    const lease = { id: held?.id ?? newId('rnl'), holder, expiresAt: this.nowMs() + ttlMs };
    this.#held.set(lease.id, lease);
    return { ...lease };
  }

  /** Whether `id` is held now (a lapsed lease is gone). */
  alive(id: string): boolean {
    const lease = this.#held.get(id);
    if (lease && lease.expiresAt <= this.nowMs()) this.#held.delete(id);
    return this.#held.has(id);
  }

  /** Ends `id`; false when it was not held (lapsed, released, never taken). */
  release(id: string): boolean {
    const held = this.alive(id);
    this.#held.delete(id);
    return held;
  }

  #sweep(): void {
    for (const id of [...this.#held.keys()]) this.alive(id);
  }
}
