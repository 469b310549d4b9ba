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
 */
import type { Watermark } from '../watch.ts';
import { OutboxLog, replayOutbox, type OutboxEntry } from './outbox-log.ts';

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

/** The state document as the file keeps it: everything but the outbox, which has a file of its own (outbox-log.ts). */
export function stateText(state: AutopilotState): string {
  const { outbox: _outbox, ...rest } = state;
  return JSON.stringify(rest);
}

/**
 * Keeps the state in a JSON file (mode 0600; the directory is created), the outbox beside it in
 * `<path>.outbox`. A missing file is a first run; a file that is not a state is an error (the
 * autopilot does not start over silently).
 */
export function fileAutopilotStore(path: string): AutopilotStore {
  let writing: Promise<void> | undefined;
  let queued: { state: AutopilotState; waiters: Promise<void> } | undefined;
  let counter = 0;
  const outboxPath = `${path}.outbox`;
  const log = new OutboxLog();
  const replace = async (file: string, text: string) => {
    const { rename, writeFile } = await import('node:fs/promises');
    const temp = `${file}.${process.pid}.${++counter}.tmp`;
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, file);
  };
  /** Starts a write of the state as it is now (taken at once: the state changes while it runs). */
  const write = (state: AutopilotState): Promise<void> => {
    const text = stateText(state);
    const outbox = log.next(state.outbox);
    return (async () => {
      const { appendFile, mkdir } = await import('node:fs/promises');
      const { dirname } = await import('node:path');
      await mkdir(dirname(path), { recursive: true });
      // The outbox first: a message is decided once its entry is in the file.
      if (outbox?.whole !== undefined) await replace(outboxPath, outbox.whole);
      else if (outbox?.append !== undefined) await appendFile(outboxPath, outbox.append, { mode: 0o600 });
      outbox?.done();
      await replace(path, text);
    })();
  };
  return {
    async load() {
      const { readFile } = await import('node:fs/promises');
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
      if (text !== undefined) {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw new TypeError(`${path}: not an autopilot state file (invalid JSON)`);
        }
        state = reviveState(value, path);
      }
      // An older state file kept the outbox inside; a newer one keeps it in its own file.
      const kept = await read(outboxPath);
      if (kept !== undefined) {
        state.outbox = replayOutbox(kept);
        log.loaded(state.outbox, kept.split('\n').length);
      }
      state.outboxSeq = Math.max(state.outboxSeq, ...state.outbox.map((e) => e.seq));
      return state;
    },
    save(state) {
      // One write at a time; calls made during a write share the next one (with the latest state).
      if (queued) {
        queued.state = state;
        return queued.waiters;
      }
      if (!writing) {
        writing = write(state).finally(() => (writing = undefined));
        return writing;
      }
      const entry = { state, waiters: Promise.resolve() };
      entry.waiters = writing
        .catch(() => {})
        .then(() => {
          queued = undefined;
          writing = write(entry.state).finally(() => (writing = undefined));
          return writing;
        });
      queued = entry;
      return entry.waiters;
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
