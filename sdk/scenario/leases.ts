/**
 * A run's two leases on the server, both in real time and renewed by a timer at half their length
 * while the run lives: the clock's (`sandbox.leaseClock`, taken by a run that moves the clock; a
 * second such run is refused while it is held) and the run's own (`sandbox.leaseRun`, taken by a
 * run that adds faults, which carry it and end with it; it never refuses another run). A run that
 * ends releases both; a run killed outright stops renewing them, and they lapse.
 */
import type { SandboxClient } from '../sandbox.ts';

/** The default length of a lease, in seconds of real time. */
export const LEASE_SECONDS = 120;

export class Lease {
  #id: string | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly takeOrRenew: (id: string | undefined) => Promise<{ id: string }>,
    private readonly give: (id: string) => Promise<unknown>,
    private readonly seconds: number,
  ) {}

  get id(): string | undefined {
    return this.#id;
  }

  /** Takes the lease (a refusal is the caller's), then renews it every half of its length until released. */
  async take(): Promise<void> {
    this.#id = (await this.takeOrRenew(undefined)).id;
    this.#timer = setInterval(() => void this.takeOrRenew(this.#id).catch(() => undefined), (this.seconds * 1000) / 2);
    // The renewal never keeps a process alive by itself (Node's timers have unref; a browser's do not need it).
    (this.#timer as { unref?: () => void }).unref?.();
  }

  async release(): Promise<void> {
    clearInterval(this.#timer);
    if (this.#id) await this.give(this.#id).catch(() => undefined);
  }
}

export const clockLease = (sb: SandboxClient, holder: string, seconds: number): Lease =>
  new Lease(
    (lease) => sb.leaseClock({ holder, ttlSeconds: seconds, ...(lease ? { lease } : {}) }),
    (id) => sb.releaseClock(id),
    seconds,
  );

export const runLease = (sb: SandboxClient, holder: string, seconds: number): Lease =>
  new Lease(
    (lease) => sb.leaseRun({ holder, ttlSeconds: seconds, ...(lease ? { lease } : {}) }),
    (id) => sb.releaseRun(id),
    seconds,
  );
