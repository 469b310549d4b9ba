/**
 * The change stream's replay (server/sandbox/change-stream.ts): every event is numbered, its `id:`
 * `<epoch>-<number>` (the epoch is new at each server start), and the recent ones are kept, so that
 * a reconnect naming the last id it read (`Last-Event-ID`) is sent what it missed instead of
 * re-reading everything. Bounded: at most {@link REPLAY_EVENTS} events, {@link REPLAY_BYTES} of
 * text and {@link REPLAY_MS} of age; the oldest go first. Events are recorded while a stream is
 * open and for {@link REPLAY_MS} after the last one closed; a change made later is not built at all
 * (nobody is there to read it), only counted as a gap, so that an id from before it cannot resume.
 *
 * A resume is granted when the id is of this server's epoch and every event after it is still kept
 * (or none came since); otherwise the client is told to read again (`ready.resumed: false`).
 */
import { randomBytes } from 'node:crypto';

/** At most this many events are kept for replay. */
export const REPLAY_EVENTS = 1000;
/** At most this much event text (UTF-8) is kept for replay: under the stream's behind limit, so a replay alone never trips it. */
export const REPLAY_BYTES = 512 * 1024;
/** An event is kept this long at most; a stream that is away longer reads again. */
export const REPLAY_MS = 5 * 60_000;

interface Kept {
  seq: number;
  /** The seller the event is of (a stream for one seller replays only its events and the clock's); undefined: everyone's. */
  sellerId: string | undefined;
  text: string;
  bytes: number;
  /** When it was kept (the machine's time, not the sandbox clock, which jumps). */
  at: number;
}

export interface ReplayLimits {
  events?: number;
  bytes?: number;
  ms?: number;
  /** The machine's time in ms (tests). */
  now?: () => number;
}

export class ChangeReplay {
  /** This server's stream epoch: an id of another (a restart) never resumes. */
  readonly epoch = randomBytes(4).toString('hex');
  /** The number of the last event (or gap). */
  #seq = 0;
  /** Every event numbered after this is kept: a resume from here or later misses nothing. */
  #floor = 0;
  #kept: Kept[] = [];
  #bytes = 0;
  #open = 0;
  #lastClosed = Number.NEGATIVE_INFINITY;
  readonly #limits: Required<ReplayLimits>;

  constructor(limits: ReplayLimits = {}) {
    this.#limits = { events: REPLAY_EVENTS, bytes: REPLAY_BYTES, ms: REPLAY_MS, now: Date.now, ...limits };
  }

  /** The id of the last event: what the `ready` event carries (a client that then reads nothing resumes from it). */
  get head(): string {
    return `${this.epoch}-${this.#seq}`;
  }

  /** How many events are kept (tests and the README's promise of a bound). */
  get size(): number {
    return this.#kept.length;
  }

  opened(): void {
    this.#open++;
  }

  closed(): void {
    this.#open = Math.max(0, this.#open - 1);
    if (this.#open === 0) this.#lastClosed = this.#limits.now();
  }

  /** Whether a change is worth an event now: a stream is open, or one closed within the replay window. */
  recording(): boolean {
    return this.#open > 0 || this.#limits.now() - this.#lastClosed < this.#limits.ms;
  }

  /** A change went unrecorded: no id before it can resume. */
  gap(): void {
    this.#seq++;
    this.#floor = this.#seq;
    this.#kept = [];
    this.#bytes = 0;
  }

  /** Numbers an event, keeps its text (made by `write` from its id) and answers the text. */
  add(sellerId: string | undefined, write: (id: string) => string): string {
    const seq = ++this.#seq;
    const text = write(`${this.epoch}-${seq}`);
    const bytes = Buffer.byteLength(text);
    this.#kept.push({ seq, sellerId, text, bytes, at: this.#limits.now() });
    this.#bytes += bytes;
    this.#trim();
    return text;
  }

  /**
   * What a stream that read up to `lastEventId` missed, in order (only `sellerId`'s and everyone's
   * when it follows one seller); null when it cannot resume: an id of another epoch or none of
   * ours, one ahead of the last, or one whose followers are no longer all kept.
   */
  since(lastEventId: string, sellerId: string | undefined): string[] | null {
    this.#trim();
    const m = /^([0-9a-f]+)-(\d{1,15})$/.exec(lastEventId);
    if (!m || m[1] !== this.epoch) return null;
    const seq = Number(m[2]);
    if (seq < this.#floor || seq > this.#seq) return null;
    return this.#kept.filter((k) => k.seq > seq && (sellerId === undefined || k.sellerId === undefined || k.sellerId === sellerId)).map((k) => k.text);
  }

  #trim(): void {
    const { events, bytes, ms, now } = this.#limits;
    const oldest = now() - ms;
    let drop = 0;
    let left = this.#bytes;
    while (drop < this.#kept.length && (this.#kept.length - drop > events || left > bytes || this.#kept[drop]!.at <= oldest)) {
      left -= this.#kept[drop]!.bytes;
      this.#floor = this.#kept[drop]!.seq;
      drop++;
    }
    if (drop > 0) {
      this.#kept = this.#kept.slice(drop);
      this.#bytes = left;
    }
  }
}
