/**
 * `SandboxClient.changes()`: the sandbox's live change stream (`GET /sandbox/v1/changes`), read
 * with `fetch` and the admin token in the `Authorization` header (a browser's `EventSource` cannot
 * send one). The stream is server-sent events; each event's data is one JSON object whose `type`
 * says what changed (sdk/contract/sandbox-inspect.ts `ChangeEvent`). Read tolerantly: an event of a
 * type this SDK does not know is handed out as it came.
 *
 * Only the part of the event-stream format the server writes is read (fields `event`, `data`,
 * `id`, comment lines, any line ending), by the rules of the HTML standard for those fields.
 *
 * Resuming: each event read carries the stream's last event id (`id`, as `MessageEvent.lastEventId`;
 * absent while the server sent none). Pass the last one as `lastEventId` when reading again: it is
 * sent as the `Last-Event-ID` header, and the server that still keeps what came after it answers
 * `ready` with `resumed: true` and the missed events; `resumed` false or absent (an older server):
 * read what you hold again.
 */
import type { ChangeEvent } from './contract/types.ts';
import { BASE_PATH } from './contract/route.ts';
import { SANDBOX_CHANGES_PATH } from './contract/routes/sandbox-inspect.ts';
import { ConnectionError, errorFromResponse } from './errors.ts';
import type { Transport } from './transport.ts';

export interface ChangesOptions {
  /** Only the changes of this seller (and the clock's). */
  sellerId?: string | undefined;
  /** Ends the stream (the iterator returns). */
  signal?: AbortSignal | undefined;
  /** The `id` of the last event read before: the server sends what came after it (`ready.resumed`), when it still can. */
  lastEventId?: string | undefined;
}

/**
 * One event as read from the stream: the known shapes, or an unknown `type` as it came; `id`: the
 * stream's last event id when it came (absent when the server sends none).
 */
export type ChangeEventRead = (ChangeEvent | { type: string; [field: string]: unknown }) & { id?: string };

/** Opens the stream and yields its events until the server ends it or `signal` aborts. */
export async function* readChanges(transport: () => Transport, options: ChangesOptions = {}): AsyncGenerator<ChangeEventRead, void, undefined> {
  // No fetch of the caller: the global one, read now (sdk/transport.ts `TransportConfig.fetch`).
  const { baseUrl, fetch = globalThis.fetch, headers } = transport().config;
  const query = options.sellerId ? `?sellerId=${encodeURIComponent(options.sellerId)}` : '';
  const url = `${baseUrl}${BASE_PATH.sandbox}${SANDBOX_CHANGES_PATH}${query}`;
  let res: Response;
  try {
    const resume: Record<string, string> = options.lastEventId ? { 'last-event-id': options.lastEventId } : {};
    res = await fetch(url, { method: 'GET', headers: { ...headers, ...resume, accept: 'text/event-stream' }, signal: options.signal ?? null });
  } catch (err) {
    if (options.signal?.aborted) return;
    throw new ConnectionError({ operation: 'sandbox.changes', cause: err, text: `could not reach ${baseUrl}` });
  }
  if (!res.ok || !res.body) {
    const text = await res.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: carried as text
    }
    throw errorFromResponse(res.status, body, res.headers, 'sandbox.changes');
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new EventStreamParser();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (options.signal?.aborted) return;
        throw new ConnectionError({ operation: 'sandbox.changes', cause: err, text: 'the change stream was cut before the server ended it' });
      }
      if (chunk.done) return;
      for (const { data, id } of parser.read(chunk.value)) {
        let event: unknown;
        try {
          event = JSON.parse(data);
        } catch {
          continue; // not an event of ours
        }
        if (event === null || typeof event !== 'object' || typeof (event as { type?: unknown }).type !== 'string') continue;
        yield (id === undefined ? event : { ...event, id }) as ChangeEventRead;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** One dispatched event: its data, and the stream's last event id then (undefined: none was sent yet). */
export interface StreamEvent {
  data: string;
  id: string | undefined;
}

/** The event-stream format's line rules, for the `data` and last event id of each dispatched event. */
export class EventStreamParser {
  #buffer = '';
  #data: string[] = [];
  #pendingCR = false;
  /** The last event id buffer: set by an `id` field, kept for the events after it. */
  #lastId: string | undefined;

  /** Feeds text; answers the data of every event it completed. */
  push(text: string): string[] {
    return this.read(text).map((e) => e.data);
  }

  /** Feeds text; answers every event it completed with the last event id when it was dispatched. */
  read(text: string): StreamEvent[] {
    const out: StreamEvent[] = [];
    let input = text;
    // A CR at the end of the previous chunk and an LF at the start of this one are one line ending.
    if (this.#pendingCR && input.startsWith('\n')) input = input.slice(1);
    this.#pendingCR = input.endsWith('\r');
    const lines = (this.#buffer + input).split(/\r\n|\r|\n/);
    this.#buffer = lines.pop() ?? '';
    for (const line of lines) this.#line(line, out);
    return out;
  }

  #line(line: string, out: StreamEvent[]): void {
    if (line === '') {
      if (this.#data.length > 0) out.push({ data: this.#data.join('\n'), id: this.#lastId });
      this.#data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.#lastId = value;
  }
}
