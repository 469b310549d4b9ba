/**
 * The service's clock as the autopilot knows it. Deadlines (`deliverBy`) are the service's times;
 * this computer's clock may lag behind it (or the sandbox's clock was moved forward). The clock
 * learns how far the service is ahead from the `updatedAt` of the orders it reads: a change the
 * service made cannot be in the future, so `updatedAt - localNow`, when positive, is a lower bound
 * of the lag. It only moves forward, and never backwards past this computer's clock.
 */
export class ServiceClock {
  #aheadMs = 0;
  constructor(private readonly localNow: () => number = Date.now) {}

  /** The service's time as best known (ms). */
  now = (): number => this.localNow() + this.#aheadMs;

  /** How far the service is known to be ahead (ms). */
  get aheadMs(): number {
    return this.#aheadMs;
  }

  /** Learns from a timestamp the service wrote. */
  observe(serviceTime: string): void {
    const ahead = Date.parse(serviceTime) - this.localNow();
    if (Number.isFinite(ahead) && ahead > this.#aheadMs) this.#aheadMs = ahead;
  }
}
