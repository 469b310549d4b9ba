/**
 * The outbox's own file beside the state file (`<state>.outbox`): JSON lines appended as the outbox
 * changes (`{"add":entry}`, `{"set":{"seq","tries","due"}}`, `{"del":[seq…]}`; a whole rewrite begins
 * with `{"last":seq}`), so that a write costs what changed, not every message still waiting, and an
 * outbox change does not rewrite the state document at all (`AutopilotStore.saveOutbox`). A burst of
 * sales waits in the outbox while Telegram takes about one message a second per chat, and the state
 * is written many times a second (before each delivery step): with the outbox inside the state
 * document every write re-wrote the whole backlog (docs/benchmarks.md, "the phone's row").
 *
 * Reading it again is idempotent (an `add` of a seq already there replaces it; `set` and `del` of
 * what is gone do nothing), so a write that failed half-way is simply appended again; a torn last
 * line (a crash in the middle of an append) is skipped. When the file holds many more lines than
 * entries it is rewritten whole (a temporary file renamed over it).
 */
import type { AutopilotEvent } from './events.ts';

/** A message decided and not yet sent: one event for one channel's target (a chat), in order of `seq`. */
export interface OutboxEntry {
  seq: number;
  /** The channel (`telegram`, `command`, `hook`). */
  channel: string;
  /** Its target within the channel (a chat id), '' when it has one only. */
  to: string;
  /** The event as the channel gets it. */
  event: AutopilotEvent;
  /** Failed sends so far. */
  tries: number;
  /** Not sent before this time (ISO): a 429's `retry_after`, a backoff. */
  due?: string | undefined;
}

/** Entries' JSON, made once while they do not change: an entry's `add` line and the state's `outboxTail` both carry it. */
const entryText = new WeakMap<OutboxEntry, { text: string; tries: number; due: string | undefined }>();

/** An entry's JSON, made again only when its `tries` or `due` changed (the rest of an entry never does). */
export function entryJson(entry: OutboxEntry): string {
  const made = entryText.get(entry);
  if (made && made.tries === entry.tries && made.due === entry.due) return made.text;
  const text = JSON.stringify(entry);
  entryText.set(entry, { text, tries: entry.tries, due: entry.due });
  return text;
}

/** Rewritten whole when it has more lines than this and more than {@link COMPACT_RATIO} per entry. */
const COMPACT_LINES = 1000;
const COMPACT_RATIO = 4;

type Written = Map<number, { tries: number; due: string | undefined }>;

/** An entry's line in the log. */
const addLine = (entry: OutboxEntry): string => `{"add":${entryJson(entry)}}`;
/** What the log knows of an entry once written. */
const written = (entry: OutboxEntry) => [entry.seq, { tries: entry.tries, due: entry.due }] as const;

/**
 * What a log's text holds: its entries in seq order (lines that are not ours, a torn last one, are
 * skipped), the highest seq it ever named, so that a run after a crash does not give a seq again
 * (the state file's `outboxSeq` is written with the state, which an outbox change no longer waits
 * for), and how many lines it has.
 */
export function readOutboxLog(text: string): { entries: OutboxEntry[]; lastSeq: number; lines: number } {
  const entries = new Map<number, OutboxEntry>();
  let lastSeq = 0;
  const lines = text.split('\n');
  for (const line of lines) {
    if (line.trim() === '') continue;
    let change: { add?: OutboxEntry; set?: { seq: number; tries: number; due: string | null }; del?: number[]; last?: number };
    try {
      change = JSON.parse(line) as typeof change;
    } catch {
      continue;
    }
    if (typeof change.last === 'number') lastSeq = Math.max(lastSeq, change.last);
    if (change.add && typeof change.add.seq === 'number') {
      entries.set(change.add.seq, change.add);
      lastSeq = Math.max(lastSeq, change.add.seq);
    }
    if (change.set) {
      const entry = entries.get(change.set.seq);
      if (entry) {
        entry.tries = change.set.tries;
        if (change.set.due === null) delete entry.due;
        else entry.due = change.set.due;
      }
    }
    for (const seq of change.del ?? []) entries.delete(seq);
  }
  return { entries: [...entries.values()].sort((a, b) => a.seq - b.seq), lastSeq, lines: lines.length };
}

/**
 * The outbox on disk: the log's entries and the state document's `outboxTail` (what was decided
 * after the log's last append: its entries above the log's last seq; the log tells what it reached).
 */
export function keptOutbox(log: { entries: readonly OutboxEntry[]; lastSeq: number } | undefined, tail: readonly OutboxEntry[] = []): OutboxEntry[] {
  const lastSeq = log?.lastSeq ?? 0;
  return [...(log?.entries ?? []), ...tail.filter((entry) => entry.seq > lastSeq)];
}

/** What one write puts in the log: lines to append, or the whole text when it is rewritten. */
export interface OutboxWrite {
  append?: string | undefined;
  whole?: string | undefined;
  /** Made the log's known contents once the write is on disk. */
  done(): void;
}

/** The outbox as last written to its file, and the lines that bring the file to a newer outbox. */
export class OutboxLog {
  #written: Written = new Map();
  #lines = 0;
  /** The highest seq written (a whole rewrite keeps it: `{"last":N}`). */
  #lastSeq = 0;

  /** The highest seq the file has had (every entry at or below it reached the file: seqs are appended in order). */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** After a load: what the file holds (readOutboxLog). */
  loaded(file: ReturnType<typeof readOutboxLog>): void {
    this.#written = new Map(file.entries.map(written));
    this.#lines = file.lines;
    this.#lastSeq = file.lastSeq;
  }

  /**
   * What to write for `outbox` now (taken at once: the outbox changes while the write runs);
   * undefined when nothing changed. Looks each entry up once; the set of entries is built only
   * when some were removed.
   */
  next(outbox: readonly OutboxEntry[]): OutboxWrite | undefined {
    const lines: string[] = [];
    const changed: OutboxEntry[] = [];
    let kept = 0;
    let lastSeq = this.#lastSeq;
    for (const entry of outbox) {
      const had = this.#written.get(entry.seq);
      if (had === undefined) {
        lines.push(addLine(entry));
        lastSeq = Math.max(lastSeq, entry.seq);
      } else {
        kept++;
        if (had.tries === entry.tries && had.due === entry.due) continue;
        lines.push(JSON.stringify({ set: { seq: entry.seq, tries: entry.tries, due: entry.due ?? null } }));
      }
      changed.push(entry);
    }
    let gone: number[] = [];
    if (kept < this.#written.size) {
      const present = new Set(outbox.map((entry) => entry.seq));
      gone = [...this.#written.keys()].filter((seq) => !present.has(seq));
      lines.push(JSON.stringify({ del: gone }));
    }
    if (lines.length === 0) return undefined;
    const now = changed.map(written);
    const total = this.#lines + lines.length;
    if (total > COMPACT_LINES && total > COMPACT_RATIO * Math.max(1, outbox.length)) {
      const whole = [JSON.stringify({ last: lastSeq }), ...outbox.map(addLine)];
      return { whole: `${whole.join('\n')}\n`, done: () => this.#done(new Map(outbox.map(written)), [], whole.length, true, lastSeq) };
    }
    // Led by a line ending: a line torn by a crash before it ends there, and this one is read whole.
    return { append: `\n${lines.join('\n')}\n`, done: () => this.#done(new Map(now), gone, total, false, lastSeq) };
  }

  #done(changed: Written, gone: readonly number[], lines: number, whole: boolean, lastSeq: number): void {
    this.#lastSeq = Math.max(this.#lastSeq, lastSeq);
    if (whole) this.#written = changed;
    else {
      for (const [seq, at] of changed) this.#written.set(seq, at);
      for (const seq of gone) this.#written.delete(seq);
    }
    this.#lines = lines;
  }
}
