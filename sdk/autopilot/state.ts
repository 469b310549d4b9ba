/**
 * What the autopilot remembers between runs, in one JSON document written atomically (a temporary
 * file renamed over the old one, so a crash leaves the old or the new state, never half of one):
 *
 * - `watermark`: where the order watch is (`client.orders.watch()`'s store lives here);
 * - `journal`: per order, how far its delivery got (`running` → `ready` → `done`), written before
 *   each step, so that a restart finishes what a crash interrupted instead of repeating it;
 * - `paused`: the seller's pause (`/pause` from the phone), kept across restarts; the orders a rule
 *   would have delivered meanwhile are journalled `held` and delivered on resume;
 * - `outbox`: the messages decided and not yet sent (outbox.ts), so a crash loses none; in a file of
 *   its own beside the state file (`<state>.outbox`, outbox-log.ts), appended to as it changes;
 * - the memory of the other rules: warnings given, replies sent, the work mode saved before a
 *   backlog, cards whose auto-delivery the empty stock switched off, the last price changes.
 *
 * Writes are coalesced: `save()` resolves once a write that began after the call has finished, so
 * concurrent deliveries share writes without any of them going on before its step is on disk.
 * `saveOutbox()` puts only the outbox on disk (an append to its file): a message decided or sent
 * does not rewrite the state document, whose journal holds every order of the last two days; a
 * state write carries the messages decided since the outbox's last append (stateChunks).
 */
import type { Watermark } from '../watch.ts';
import { keptOutbox, entryJson, OutboxLog, readOutboxLog, type OutboxEntry } from './outbox-log.ts';

export type { OutboxEntry } from './outbox-log.ts';

/** Steps of one order's delivery; `held`: taken while paused, delivered on resume. */
export type JournalPhase = 'held' | 'running' | 'ready' | 'done' | 'skipped' | 'failed';

export interface JournalEntry {
  phase: JournalPhase;
  /** The deliver rule's name. */
  rule: string;
  /** When the entry last changed (ISO). */
  at: string;
  /** How many times the action was started. */
  attempts: number;
  /** The delivery the action produced (never the secret: it is in the vault before this is written). */
  delivery?: { nextChargeDay?: string | undefined; note?: string | undefined } | undefined;
}

export interface AutopilotState {
  version: 1;
  watermark: Watermark | null;
  journal: Record<string, JournalEntry>;
  /** Order id → the `deliverBy` (or `dispute:<updatedAt>`) already warned about. */
  warned: Record<string, string>;
  /** Order id → automatic replies sent and the last buyer message answered or passed over. */
  replies: Record<string, { count: number; lastMessage: string }>;
  /** Question ids answered or passed over. */
  questions: Record<string, string>;
  backlog: { engaged: boolean; saved?: { capacity: number | null; doNotDisturb: boolean } | undefined };
  /** Card number → stock memory. */
  stock: Record<string, { offByStock: boolean; lowAlerted: boolean }>;
  /** Card number → when its price was last changed (ISO). */
  reprice: Record<string, string>;
  /** Order id → `<status> <ISO time>` of a move without the autopilot already reported (rules/moved.ts). */
  moved: Record<string, string>;
  /** The seller paused delivering, repricing and auto-replies (`/pause`). */
  paused: boolean;
  outbox: OutboxEntry[];
  /** The last outbox `seq` given. */
  outboxSeq: number;
}

export function emptyState(): AutopilotState {
  return { version: 1, watermark: null, journal: {}, warned: {}, replies: {}, questions: {}, backlog: { engaged: false }, stock: {}, reprice: {}, moved: {}, paused: false, outbox: [], outboxSeq: 0 };
}

/** Where the state is kept. */
export interface AutopilotStore {
  load(): Promise<AutopilotState>;
  /** Resolves when the state as it is now (or later) is on disk. */
  save(state: AutopilotState): Promise<void>;
  /**
   * Optional: resolves when the state's outbox as it is now (or later) is on disk, the rest of the
   * state as it may be (the outbox's own changes use it; without it they `save()` the whole state).
   */
  saveOutbox?(state: AutopilotState): Promise<void>;
}

/**
 * Runs `write` one at a time: calls made while one runs share the next run. The promise a call gets
 * resolves once a run that began after the call has finished (a run takes what it writes when it begins).
 */
function coalesced(write: () => Promise<void>): () => Promise<void> {
  let writing: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const begin = () => (writing = write().finally(() => (writing = undefined)));
  return () => {
    if (queued) return queued;
    if (!writing) return begin();
    queued = writing
      .catch(() => {})
      .then(() => {
        queued = undefined;
        return begin();
      });
    return queued;
  };
}

/** Keeps the state in memory (SDK tests, `--dry-run`). */
export function memoryAutopilotStore(initial?: AutopilotState): AutopilotStore & { saved: AutopilotState | undefined } {
  const store = {
    saved: initial ? structuredClone(initial) : undefined,
    load: async () => (store.saved ? structuredClone(store.saved) : emptyState()),
    save: async (state: AutopilotState) => {
      store.saved = structuredClone(state);
    },
  };
  return store;
}

/** Fills what an older or hand-edited file lacks; refuses what is not a state at all. */
export function reviveState(value: unknown, source: string): AutopilotState {
  if (typeof value !== 'object' || value === null || (value as { version?: unknown }).version !== 1) {
    throw new TypeError(`${source}: not an autopilot state file (expected {"version": 1, …})`);
  }
  return { ...emptyState(), ...(value as Partial<AutopilotState>) } as AutopilotState;
}

/**
 * The state document as the file keeps it: everything but the outbox, which has a file of its own
 * (outbox-log.ts), except the messages decided since that file was last appended to (`outboxTail`:
 * the entries whose seq is above the file's last). So a state write is one write, and a message
 * decided before it (a sale said before its delivery's journal closes) is on disk with it.
 *
 * In pieces that the file is written from in one go, never joined into one string: the document
 * is most of a state write's work (its journal holds every order of the last two days), and a
 * string made of it and the tail would copy it whole at every write (docs/benchmarks.md, session 12).
 */
export function stateChunks(state: AutopilotState, fileLastSeq: number): string[] {
  const { outbox, ...rest } = state;
  let from = outbox.length;
  while (from > 0 && outbox[from - 1]!.seq > fileLastSeq) from--;
  const text = JSON.stringify(rest);
  if (from === outbox.length) return [text];
  // The tail's entries as their JSON made once (outbox-log.ts), after the document's last field.
  return [text.slice(0, -1), `,"outboxTail":[${outbox.slice(from).map(entryJson).join(',')}]}`];
}

/** Writes `chunks` to `handle`, one after the other, in as few `writev` calls as the system allows. */
export async function writeAll(handle: import('node:fs/promises').FileHandle, chunks: readonly string[]): Promise<void> {
  let buffers = chunks.map((chunk) => Buffer.from(chunk));
  for (;;) {
    let { bytesWritten } = await handle.writev(buffers);
    // A short write (a regular file's rarely are): what is left of the buffers is written next.
    while (buffers.length > 0 && bytesWritten >= buffers[0]!.length) bytesWritten -= buffers.shift()!.length;
    if (buffers.length === 0) return;
    buffers = [buffers[0]!.subarray(bytesWritten), ...buffers.slice(1)];
  }
}

/**
 * Keeps the state in a JSON file (mode 0600; the directory is created), the outbox beside it in
 * `<path>.outbox`. A missing file is a first run; a file that is not a state is an error (the
 * autopilot does not start over silently).
 */
export function fileAutopilotStore(path: string): AutopilotStore {
  let counter = 0;
  const outboxPath = `${path}.outbox`;
  const log = new OutboxLog();
  /** The state the last call gave (the runner gives one object throughout). */
  let latest = emptyState();
  // Loaded once (a bundle's `import()` of a built-in copies the module's exports at every call).
  let fsModule: Promise<typeof import('node:fs/promises')> | undefined;
  const fs = () => (fsModule ??= import('node:fs/promises'));
  /** Whether the directory is known to be there (made at the first write, again if it went away). */
  let made = false;
  const inDirectory = async <T>(work: () => Promise<T>): Promise<T> => {
    if (made) {
      try {
        return await work();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    const { dirname } = await import('node:path');
    await (await fs()).mkdir(dirname(path), { recursive: true });
    made = true;
    return work();
  };
  /** Replaces `file` with `chunks` joined: written to a temporary file renamed over it. */
  const replace = async (file: string, chunks: readonly string[]) => {
    const { open, rename } = await fs();
    const temp = `${file}.${process.pid}.${++counter}.tmp`;
    const handle = await open(temp, 'w', 0o600);
    try {
      await writeAll(handle, chunks);
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  };
  /** Brings the outbox's file to the outbox as it is now (taken at once: it changes while the write runs). */
  const writeOutbox = coalesced(() => {
    const outbox = log.next(latest.outbox);
    if (outbox === undefined) return Promise.resolve();
    return inDirectory(async () => {
      if (outbox.whole !== undefined) await replace(outboxPath, [outbox.whole]);
      else if (outbox.append !== undefined) await (await fs()).appendFile(outboxPath, outbox.append, { mode: 0o600 });
    }).then(() => outbox.done());
  });
  /** Writes the state as it is now, with the messages not yet in the outbox's file (`outboxTail`). */
  const writeState = coalesced(() => {
    const chunks = stateChunks(latest, log.lastSeq);
    return inDirectory(() => replace(path, chunks));
  });
  return {
    async load() {
      const { readFile } = await fs();
      const read = async (file: string): Promise<string | undefined> => {
        try {
          return await readFile(file, 'utf8');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
          throw error;
        }
      };
      const text = await read(path);
      let state = emptyState();
      let tail: OutboxEntry[] = [];
      if (text !== undefined) {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw new TypeError(`${path}: not an autopilot state file (invalid JSON)`);
        }
        // The tail is the outbox's, not a field of the state (taken off before, not deleted after).
        if (typeof value === 'object' && value !== null && 'outboxTail' in value) ({ outboxTail: tail, ...value } = value as { outboxTail: OutboxEntry[] });
        state = reviveState(value, path);
      }
      // An older state file kept the outbox inside; a newer one keeps it in its own file, and what
      // was decided after that file's last append in `outboxTail` (what the file reached, it tells).
      const kept = await read(outboxPath);
      const file = kept === undefined ? undefined : readOutboxLog(kept);
      if (file) log.loaded(file);
      if (file || tail.length > 0) state.outbox = keptOutbox(file, tail);
      state.outboxSeq = Math.max(state.outboxSeq, file?.lastSeq ?? 0, ...state.outbox.map((e) => e.seq));
      return state;
    },
    save(state) {
      latest = state;
      return writeState();
    },
    saveOutbox(state) {
      latest = state;
      return writeOutbox();
    },
  };
}

/** How long a reported move is remembered (an order does not move back after this long). */
const MOVED_KEEP_MS = 30 * 86_400_000;

/**
 * Forgets finished journal entries older than `keepMs` (the server keeps idempotency records 24 h)
 * and reported moves older than {@link MOVED_KEEP_MS}.
 */
export function pruneState(state: AutopilotState, nowMs: number, keepMs = 48 * 3600_000): void {
  for (const [id, value] of Object.entries(state.moved)) {
    if (nowMs - Date.parse(value.split(' ')[1] ?? '') > MOVED_KEEP_MS) delete state.moved[id];
  }
  for (const [id, entry] of Object.entries(state.journal)) {
    if ((entry.phase === 'done' || entry.phase === 'skipped' || entry.phase === 'failed') && nowMs - Date.parse(entry.at) > keepMs) delete state.journal[id];
  }
}
