/**
 * The live table of `seller orders watch` on a terminal: keeps the view, redraws it in place on
 * changes, every second and on resize (./orders-watch-view.ts draws a frame).
 */
import type { Sleep } from '../../sdk/transport.ts';
import { abortableSleep, type WatchRetry } from '../../sdk/watch.ts';
import { type IO, useColor } from '../lib/io.ts';
import { LiveBlock, type TerminalSink } from '../lib/live-table.ts';
import type { Order } from '../lib/records.ts';
import { errorLine } from '../lib/errors.ts';
import { describeChange, isOpen, KEEP_CLOSED, REFRESH_MS, watchFrame, type WatchView } from './orders-watch-view.ts';
import { serviceClockNow } from '../lib/service-clock.ts';

/** The live table of one watch: keeps the view, redraws it on changes, on a timer and on resize. */
export class LiveWatch {
  readonly view: WatchView;
  readonly #block: LiveBlock;
  readonly #color: boolean;
  #timer: ReturnType<typeof setInterval> | undefined;
  #pending: ReturnType<typeof setImmediate> | undefined;
  #undoResize: (() => void) | undefined;
  /** The next pause of the watch is a backoff after a failure, not the pause after a poll. */
  #backingOff = false;
  /** Ids of the closed orders in the view, the least recently changed first. */
  readonly #closed = new Set<string>();

  constructor(io: IO, since: string) {
    this.view = { orders: new Map(), since };
    this.#block = new LiveBlock(io.stdout as TerminalSink);
    this.#color = useColor(io);
  }

  start(signal: AbortSignal): void {
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), REFRESH_MS);
    this.#timer.unref?.();
    signal.addEventListener('abort', () => this.#stopTimers(), { once: true });
    this.#undoResize = this.#block.onResize(() => this.#draw(true));
  }

  /** A change arrived: it is the order's latest version; it also proves a poll worked. */
  add(order: Order, message?: string): void {
    const { view } = this;
    const now = serviceClockNow();
    view.lastEvent = { at: now, text: describeChange(view.orders.get(order.id), order, message) };
    view.orders.set(order.id, order);
    view.lastPollAt = now;
    view.failure = undefined;
    this.#closed.delete(order.id);
    if (!isOpen(order)) this.#closed.add(order.id);
    for (const id of this.#closed) {
      if (this.#closed.size <= KEEP_CLOSED) break;
      this.#closed.delete(id);
      view.orders.delete(id);
    }
    this.#schedule();
  }

  pollFailed(error: unknown, retry: WatchRetry): void {
    const now = serviceClockNow();
    this.view.failure = { what: errorLine(error), at: now, retryAt: now + retry.delayMs };
    this.#backingOff = true;
    this.#schedule();
  }

  /** The watch's pause: the one after a good poll marks the poll's time. */
  readonly sleep: Sleep = (ms, signal) => {
    if (this.#backingOff) {
      this.#backingOff = false;
    } else {
      this.view.lastPollAt = serviceClockNow();
      this.view.failure = undefined;
      this.#schedule();
    }
    return abortableSleep(ms, signal);
  };

  /** Draws the last frame (it stays on screen) and gives the cursor back. */
  close(): void {
    this.#stopTimers();
    this.view.stopped = true;
    this.#block.close(this.#frame());
  }

  #frame(): string[] {
    return watchFrame(this.view, { now: serviceClockNow(), height: this.#block.maxLines, color: this.#color });
  }

  #draw(force = false): void {
    if (this.#pending !== undefined) clearImmediate(this.#pending);
    this.#pending = undefined;
    this.#block.render(this.#frame(), force);
  }

  /** Changes of one poll arrive together: draw once after them. */
  #schedule(): void {
    this.#pending ??= setImmediate(() => this.#draw());
  }

  #stopTimers(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    if (this.#pending !== undefined) clearImmediate(this.#pending);
    this.#timer = this.#pending = undefined;
    this.#undoResize?.();
    this.#undoResize = undefined;
  }
}
