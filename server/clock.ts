/**
 * The server's one clock. SLA deadlines, guarantee ends, idempotency expiry, rate limits and the
 * webhook ladder all read `now()`; the sandbox moves it forward, so tests move time instead of sleeping.
 */
export type AdvanceListener = (now: Date) => Promise<void> | void;

export class Clock {
  #offsetMs: number;
  #listeners: AdvanceListener[] = [];
  readonly #base: () => number;

  /** @param offsetMs how far the clock runs ahead of real time (persisted by the store). */
  constructor(offsetMs = 0, base: () => number = Date.now) {
    this.#offsetMs = offsetMs;
    this.#base = base;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  nowMs(): number {
    return this.#base() + this.#offsetMs;
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  #httpSecond = Number.NaN;
  #httpText = '';

  /**
   * `now()` as an HTTP date (`Wed, 25 Nov 2026 12:00:00 GMT`), the `Date` header of every answer;
   * formatted once a second, as Node formats its own (a request under load then costs no formatting).
   */
  httpDate(): string {
    const second = Math.floor(this.nowMs() / 1000);
    if (second !== this.#httpSecond) {
      this.#httpText = new Date(second * 1000).toUTCString();
      this.#httpSecond = second;
    }
    return this.#httpText;
  }

  /** Registers work that must run when time moves (deadlines, retries). */
  onAdvance(listener: AdvanceListener): void {
    this.#listeners.push(listener);
  }

  /** Moves the clock forward and runs everything that came due, in registration order. */
  async advance(seconds: number): Promise<Date> {
    this.#offsetMs += seconds * 1000;
    await this.tick();
    return this.now();
  }

  /** Runs the listeners at the current time (also called by a real-time timer). */
  async tick(): Promise<void> {
    const now = this.now();
    for (const listener of this.#listeners) await listener(now);
  }
}

/** ISO 8601 UTC with milliseconds, the API's timestamp format. */
export const iso = (d: Date | number): string => new Date(d).toISOString();
