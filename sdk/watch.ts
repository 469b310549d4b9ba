/**
 * Polling helpers of `client.orders` (rule 6: `updatedSince` is the reliable source; webhooks are a
 * convenience only).
 *
 * - `watch()`: an async iterator that yields every change of an order once, driven by
 *   `GET /orders?updatedSince=<watermark>` (inclusive, ascending by `updatedAt`, then `id`). It keeps
 *   a watermark (the last `updatedAt` taken, plus the `id|updatedAt` keys already taken at exactly
 *   that time, to drop the inclusive repeats) and can keep it in a store to survive restarts.
 * - `waitFor()`: polls one order until a predicate holds, or fails with `WaitTimeoutError`.
 *
 * Polling sees states, not transitions: an order that changes twice between two polls is yielded
 * once, in its latest state. What is guaranteed: no `(id, updatedAt)` is yielded twice, and every
 * state an order is in at some poll is yielded.
 *
 * The watch reads orders tolerantly: a status, product type or field the contract does not know is
 * yielded as it came (a delivery bot must not die on the marketplace's next new status). It needs
 * only `id` and `updatedAt` (a time) of each order to place it; an order without them cannot be
 * placed, so that poll fails with a `ResponseValidationError` naming the path (`items.3.updatedAt`),
 * reported through `onError` and retried like any failed poll: the watch goes on.
 */
import { AuthenticationError, BadRequestError, PermissionError, RateLimitError, ResponseValidationError, SellerError } from './errors.ts';
import type { Order as StrictOrder, OrderWithMessages as StrictOrderWithMessages } from './contract/types.ts';
import { abortableSleep, jitteredBackoff, type Sleep } from './backoff.ts';
import type { Tolerant } from './open.ts';
import { hiddenImport } from './hidden-import.ts';

/** An order as a tolerant client reads it: a status or field the contract does not know passes through. */
type Order = Tolerant<StrictOrder>;
type OrderWithMessages = Tolerant<StrictOrderWithMessages>;

export { abortableSleep } from './backoff.ts';

/** Where a watch is: every order updated before `since` was taken, and the ones at `since` listed in `seen`. */
export interface Watermark {
  /** ISO timestamp with milliseconds: the `updatedAt` of the last order taken. */
  since: string;
  /** `id|updatedAt` of the orders taken whose `updatedAt` equals `since`. */
  seen: string[];
}

/** A place to keep a watermark between runs. */
export interface WatermarkStore {
  /** The saved watermark, or `null` when there is none yet. */
  get(): Promise<Watermark | null> | Watermark | null;
  /** Saves the watermark; called after the consumer has taken each order. */
  set(watermark: Watermark): Promise<void> | void;
}

/** Retry information given to `onError`. */
export interface WatchRetry {
  /** Failures in a row, from 1. */
  attempt: number;
  /** How long the watch waits before the next poll. */
  delayMs: number;
}

export interface WatchOptions {
  /**
   * Where to start when the store holds no watermark: every order updated at or after this time is
   * yielded. A stored watermark wins over it.
   * @default the beginning of time: every existing order is yielded once, then the changes
   * @example { since: new Date() }   // changes from now on only
   */
  since?: string | Date | undefined;
  /**
   * Pause between two polls, in milliseconds (after the last page of a poll).
   * @default 5000
   */
  intervalMs?: number | undefined;
  /**
   * Stops the watch: the iterator returns (no error) as soon as it notices, also mid-request or
   * mid-pause.
   * @example { signal: AbortSignal.timeout(60_000) }
   */
  signal?: AbortSignal | undefined;
  /**
   * Keeps the watermark between runs (`fileWatermarkStore(path)`). An order's watermark is saved
   * when the consumer asks for the next order, so a crash while handling an order delivers that
   * order again on restart rather than losing it (at least once). The same holds when the consumer
   * leaves the loop with `break` or a throw: the last order is not acknowledged.
   * @default none: each run starts from `since`
   */
  store?: WatermarkStore | undefined;
  /**
   * Page size of each list request (1-200).
   * @default 100
   */
  limit?: number | undefined;
  /**
   * Called when a poll fails and will be retried (network, 5xx, 429 after the client's own retries,
   * an unexpected answer). Authentication and permission failures (401, 403) and `bad_request` are
   * not retried: they end the iterator by throwing.
   * @example { onError: (err, { delayMs }) => console.warn(`poll failed, retrying in ${delayMs} ms`, err) }
   */
  onError?: ((error: unknown, retry: WatchRetry) => void) | undefined;
  /**
   * First backoff step after a failed poll; failure n waits between half and all of
   * `min(maxBackoffMs, backoffBaseMs * 2^(n-1))` (at least the `Retry-After` of a 429). Reset by a
   * successful poll.
   * @default 1000
   */
  backoffBaseMs?: number | undefined;
  /** Longest wait after failed polls. @default 60000 */
  maxBackoffMs?: number | undefined;
  /** The pause and backoff waits; replace it in tests. @default an abortable setTimeout */
  sleep?: Sleep | undefined;
  /** Jitter source in [0, 1). @default Math.random */
  random?: (() => number) | undefined;
}

export interface WaitForOptions {
  /** Gives up after this many milliseconds with `WaitTimeoutError`. @default 60000 */
  timeoutMs?: number | undefined;
  /** Pause between two reads. @default 1000 */
  intervalMs?: number | undefined;
  /** Cancels the wait; the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The pauses; replace it in tests. @default an abortable setTimeout */
  sleep?: Sleep | undefined;
  /** The clock used for the time limit. @default Date.now */
  now?: (() => number) | undefined;
}

/** `waitFor()` ran out of time before the predicate held. */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
  constructor(
    /** The order waited for. */
    readonly orderId: string,
    readonly timeoutMs: number,
    /** The order as last read, or `undefined` when no read succeeded. */
    readonly lastOrder: OrderWithMessages | undefined,
  ) {
    super(
      `order ${orderId} did not reach the expected state within ${timeoutMs} ms` +
        (lastOrder ? ` (last status: ${lastOrder.status})` : ''),
    );
  }
}

/** The two list and read methods the helpers need (a `SellerClient`'s `orders` has them). */
export interface OrderSource {
  list(
    query: { updatedSince?: string; limit?: number },
    options?: { signal?: AbortSignal | undefined },
  ): { pages(): AsyncIterable<{ items: Order[] }> };
  get(id: string, options?: { signal?: AbortSignal | undefined }): Promise<OrderWithMessages>;
}

/** What `client.orders` gains beside the derived methods. */
export interface OrderPolling {
  /**
   * Yields every order change once, polling `GET /orders?updatedSince=…`.
   *
   * @example
   * const ac = new AbortController();
   * process.once('SIGINT', () => ac.abort());
   * for await (const order of client.orders.watch({ store: fileWatermarkStore('.orders-watermark.json'), signal: ac.signal })) {
   *   if (order.needsAction) console.log('act on', order.id, order.status);
   * }
   */
  watch(options?: WatchOptions): AsyncGenerator<Order, void, undefined>;
  /**
   * Reads an order every `intervalMs` until `predicate` holds; resolves with that order.
   *
   * @example
   * const paid = await client.orders.waitFor(id, (o) => o.status === 'awaiting_delivery', { timeoutMs: 30_000 });
   */
  waitFor(
    id: string,
    predicate: (order: OrderWithMessages) => boolean,
    options?: WaitForOptions,
  ): Promise<OrderWithMessages>;
}

/** Binds the helpers to an order source: `Object.assign(orders, orderPolling(orders))`. */
export function orderPolling(orders: OrderSource): OrderPolling {
  return {
    watch: (options) => watchOrders(orders, options),
    waitFor: (id, predicate, options) => waitForOrder(orders, id, predicate, options),
  };
}

export const EPOCH = '1970-01-01T00:00:00.000Z';

/** `since` as the API's timestamp form (ISO, milliseconds, UTC); a TypeError when it is no time. */
export function toTimestamp(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`since: "${String(value)}" is not a date and time`);
  return date.toISOString();
}

const keyOf = (order: Pick<Order, 'id' | 'updatedAt'>) => `${order.id}|${order.updatedAt}`;

/**
 * Throws a `ResponseValidationError` naming the first order of a page that the watch cannot place:
 * without a string `id`, or without an `updatedAt` that is a time.
 */
function placeable(items: readonly unknown[]): void {
  for (const [index, item] of items.entries()) {
    const order = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const field = typeof order['id'] !== 'string' || order['id'] === '' ? 'id' : typeof order['updatedAt'] !== 'string' || Number.isNaN(Date.parse(order['updatedAt'])) ? 'updatedAt' : null;
    if (field === null) continue;
    const issue = { path: ['items', index, field], message: field === 'id' ? 'a watched order needs an id' : 'a watched order needs updatedAt, a time', code: 'tolerant' };
    throw new ResponseValidationError({ operation: 'orders.list', status: 200, body: undefined, issues: [issue] });
  }
}

/** A failure that another poll cannot fix. */
function isFatal(error: unknown): boolean {
  return error instanceof AuthenticationError || error instanceof PermissionError || error instanceof BadRequestError;
}

/** The wait before the next poll after `attempt` failures in a row (equal jitter). */
export function backoffDelay(attempt: number, error: unknown, base: number, max: number, random: () => number): number {
  const delay = Math.round(jitteredBackoff(attempt - 1, base, max, random));
  const retryAfter = error instanceof RateLimitError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
  return Math.max(delay, Math.min(retryAfter, max));
}

/** An abortable wait that never rejects: it answers whether the signal aborted. */
async function pause(sleep: Sleep, ms: number, signal: AbortSignal | undefined): Promise<'done' | 'aborted'> {
  if (signal?.aborted) return 'aborted';
  try {
    await sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) return 'aborted';
    throw error;
  }
  return signal?.aborted ? 'aborted' : 'done';
}

/** The watermark to start from: the stored one, else `since`, else the beginning of time. */
async function startingPoint(options: WatchOptions): Promise<{ since: string; seen: Set<string> }> {
  const stored = options.store ? await options.store.get() : null;
  if (stored) {
    if (typeof stored.since !== 'string' || !Array.isArray(stored.seen)) {
      throw new TypeError('the stored watermark is not {since: string, seen: string[]}');
    }
    return { since: toTimestamp(stored.since), seen: new Set(stored.seen.map(String)) };
  }
  return { since: options.since === undefined ? EPOCH : toTimestamp(options.since), seen: new Set() };
}

/**
 * The generator behind `client.orders.watch()`; see `OrderPolling.watch` and `WatchOptions`.
 * Store failures (reading or saving the watermark) are not retried: they end the iterator.
 */
export async function* watchOrders(orders: OrderSource, options: WatchOptions = {}): AsyncGenerator<Order, void, undefined> {
  const { signal, store } = options;
  const intervalMs = options.intervalMs ?? 5000;
  const limit = options.limit ?? 100;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const base = options.backoffBaseMs ?? 1000;
  const max = options.maxBackoffMs ?? 60_000;
  if (signal?.aborted) return;
  const mark = await startingPoint(options);
  let failures = 0;
  while (!signal?.aborted) {
    try {
      const pages = orders.list({ updatedSince: mark.since, limit }, { signal }).pages();
      for await (const page of pages) {
        placeable(page.items);
        for (const order of page.items) {
          const key = keyOf(order);
          if (order.updatedAt < mark.since || (order.updatedAt === mark.since && mark.seen.has(key))) continue;
          yield order;
          // The consumer asked for more: it has taken this order.
          if (order.updatedAt > mark.since) {
            mark.since = order.updatedAt;
            mark.seen = new Set([key]);
          } else {
            mark.seen.add(key);
          }
          if (store) await store.set({ since: mark.since, seen: [...mark.seen] });
          if (signal?.aborted) return;
        }
      }
      failures = 0;
    } catch (error) {
      if (signal?.aborted) return;
      if (!(error instanceof SellerError) || isFatal(error)) throw error;
      failures++;
      const delayMs = backoffDelay(failures, error, base, max, random);
      options.onError?.(error, { attempt: failures, delayMs });
      if ((await pause(sleep, delayMs, signal)) === 'aborted') return;
      continue;
    }
    if ((await pause(sleep, intervalMs, signal)) === 'aborted') return;
  }
}

/** Failures of a read that a later read may not repeat. */
function isTransient(error: unknown): boolean {
  return error instanceof SellerError && (error.code === 'connection' || error.code === 'internal' || error.code === 'rate');
}

/**
 * The function behind `client.orders.waitFor()`. Transient failures (network, 5xx, 429) are
 * retried until the time limit; any other error (a `not_found`, say) rejects at once.
 */
export async function waitForOrder(
  orders: Pick<OrderSource, 'get'>,
  id: string,
  predicate: (order: OrderWithMessages) => boolean,
  options: WaitForOptions = {},
): Promise<OrderWithMessages> {
  const { signal } = options;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 1000;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const deadline = now() + timeoutMs;
  let last: OrderWithMessages | undefined;
  for (;;) {
    signal?.throwIfAborted();
    try {
      last = await orders.get(id, { signal });
      if (predicate(last)) return last;
    } catch (error) {
      signal?.throwIfAborted();
      if (!isTransient(error) || now() >= deadline) throw error;
    }
    const left = deadline - now();
    if (left <= 0) throw new WaitTimeoutError(id, timeoutMs, last);
    await sleep(Math.min(intervalMs, left), signal);
  }
}

// ---------------------------------------------------------------------------------------------
// Watermark stores

/** Keeps the watermark in memory (for one process, and for tests). */
export function memoryWatermarkStore(initial: Watermark | null = null): WatermarkStore & { current: Watermark | null } {
  const store = {
    current: initial,
    get: () => (store.current ? { since: store.current.since, seen: [...store.current.seen] } : null),
    set: (watermark: Watermark) => {
      store.current = { since: watermark.since, seen: [...watermark.seen] };
    },
  };
  return store;
}

/**
 * Keeps the watermark in a JSON file (Node only; `node:fs` is loaded on first use). Each save writes
 * a temporary file beside it and renames it over the old one, so a crash leaves the old or the new
 * watermark, never half of one. A missing file is no watermark; the directory is created if needed.
 *
 * @example
 * client.orders.watch({ store: fileWatermarkStore('./state/orders.json') })
 */
export function fileWatermarkStore(path: string): WatermarkStore {
  const fs = () => hiddenImport<typeof import('node:fs/promises')>('node:fs/promises');
  let counter = 0;
  return {
    async get() {
      const { readFile } = await fs();
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new TypeError(`${path}: not a watermark file (invalid JSON)`);
      }
      const mark = value as Partial<Watermark> | null;
      if (!mark || typeof mark.since !== 'string' || !Array.isArray(mark.seen)) {
        throw new TypeError(`${path}: not a watermark file (expected {since, seen})`);
      }
      return { since: mark.since, seen: mark.seen.map(String) };
    },
    async set(watermark) {
      const { mkdir, rename, writeFile } = await fs();
      const { dirname } = await hiddenImport<typeof import('node:path')>('node:path');
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${process.pid}.${++counter}.tmp`;
      await writeFile(temp, `${JSON.stringify({ since: watermark.since, seen: watermark.seen })}\n`, { mode: 0o600 });
      await rename(temp, path);
    },
  };
}

