/**
 * A small `fetch` on `node:http` / `node:https` for the CLI's SDK client. Node 20's global `fetch`
 * (undici) is loaded and compiled on its first use, which costs a one-shot command about 100 ms
 * more than `node:http`; the SDK itself stays on `fetch` (edge runtimes), the CLI passes this one
 * as the client's `fetch` option.
 *
 * It does what the SDK's transport uses, nothing more: method, headers (a record), a body (string,
 * bytes or Blob), `signal` (abort before or during the call rejects with the signal's reason),
 * and an answer with `status`, `ok`, `headers.get()`, `text()` and `json()`. The answer's body is
 * read completely before the promise resolves (the transport reads it at once anyway, and its
 * time limit covers the whole answer). No redirects, no compression. A network failure rejects
 * with a `TypeError('fetch failed')` whose `cause` is the system error, as undici's does.
 */
import type { IncomingMessage, RequestOptions } from 'node:http';
import { LiteHeaders } from './fetch-classes.ts';

type Init = {
  method?: string | undefined;
  headers?: unknown;
  body?: unknown;
  signal?: AbortSignal | null | undefined;
};

/** The answer's headers: lower-case names, repeated ones joined with `, ` (as `Headers.get` does). */
function answerHeaders(raw: IncomingMessage['headers']): LiteHeaders {
  const headers = new LiteHeaders();
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

class Answer {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  readonly bodyUsed = false;

  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    readonly headers: LiteHeaders,
    readonly bytes: Buffer,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  async text(): Promise<string> {
    return this.bytes.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.bytes.toString('utf8'));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.bytes).buffer;
  }
}

function headerRecord(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (typeof (headers as { forEach?: unknown }).forEach === 'function' && !Array.isArray(headers)) {
    (headers as { forEach(cb: (value: string, name: string) => void): void }).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  const pairs = Array.isArray(headers) ? (headers as Array<[string, string]>) : Object.entries(headers as Record<string, string>);
  for (const [name, value] of pairs) out[name.toLowerCase()] = String(value);
  return out;
}

async function bodyBytes(body: unknown): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (typeof Blob !== 'undefined' && body instanceof Blob) return Buffer.from(await body.arrayBuffer());
  throw new TypeError('unsupported request body');
}

function abortReason(signal: AbortSignal): unknown {
  // i18next-instrument-ignore-next-line: the standard AbortError's message, as fetch words it (never shown: the caller's abort)
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

// Loaded once each (the bundle's `import()` of a built-in copies the module's exports at every call).
let http: Promise<typeof import('node:http')> | undefined;
let https: Promise<typeof import('node:https')> | undefined;

/** A `fetch` for the CLI (see the module comment). */
export async function nodeFetch(input: string | URL | Request, init: Init = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal);
  const body = await bodyBytes(init.body);
  const headers = headerRecord(init.headers);
  if (body !== undefined && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') throw new TypeError(`fetch failed: unsupported protocol ${url.protocol}`);
  const { request } = await (secure ? (https ??= import('node:https')) : (http ??= import('node:http')));
  const options: RequestOptions = {
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port || undefined,
    path: url.pathname + url.search,
    method: (init.method ?? 'GET').toUpperCase(),
    headers,
  };

  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown, answer?: Answer) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (answer) resolve(answer as unknown as Response);
      else reject(error);
    };
    const req = request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answer = new Answer(url.href, res.statusCode ?? 0, res.statusMessage ?? '', answerHeaders(res.headers), Buffer.concat(chunks));
        finish(undefined, answer);
      });
      res.on('error', (error) => finish(new TypeError('fetch failed', { cause: error })));
      res.on('close', () => {
        if (!res.complete) finish(new TypeError('fetch failed', { cause: new Error('the answer was cut off') }));
      });
    });
    const onAbort = () => {
      finish(abortReason(signal!));
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => finish(new TypeError('fetch failed', { cause: error })));
    req.end(body);
  });
}
