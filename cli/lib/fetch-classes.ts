/**
 * The fetch classes ky reads (`Request`, `Headers`, `Response`, `FormData`, `ReadableStream`), for
 * the `seller` bundle only: scripts/cli-plugins.mjs (`kyWithoutUndici`) points ky's
 * `globalThis.<Class>` at these. On Node 20 the first touch of any global fetch class loads and runs
 * undici (~25 ms of a one-shot command's start), although the CLI sends through its own `node:http`
 * fetch (cli/lib/http.ts). ky builds a `Request` per attempt only to hand its parts (url, method,
 * headers, signal) to that fetch, so these carry exactly those parts and nothing more:
 *
 * - `Headers`: names case-insensitive, values as given; what ky and lib/http.ts call on them;
 * - `Request`: url, method, headers, signal; no body stream (`body` is null: the SDK hands the
 *   fetch the body it was given, sdk/transport.ts `fetchOf`), `clone()` for ky's retries;
 * - `Response`, `FormData`: classes nothing is an instance of (ky only asks `instanceof`, and
 *   whether `Response.prototype.bytes` exists); `ReadableStream`: a class ky only constructs for
 *   its feature probe of request streams, which this `Request` answers "no".
 *
 * The SDK itself, the tests and every other runtime use the real classes. `LiteHeaders` also holds
 * the answers' headers of the CLI's fetch (cli/lib/http.ts).
 */

type HeadersSource = LiteHeaders | Headers | Record<string, string> | ReadonlyArray<readonly [string, string]> | undefined | null;

export class LiteHeaders {
  readonly #map = new Map<string, string>();

  constructor(init?: HeadersSource) {
    if (!init) return;
    if (typeof (init as { forEach?: unknown }).forEach === 'function' && !Array.isArray(init)) {
      (init as LiteHeaders).forEach((value, name) => this.set(name, value));
    } else {
      const pairs = Array.isArray(init) ? init : Object.entries(init as Record<string, string>);
      for (const [name, value] of pairs) this.set(name, value);
    }
  }

  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }

  set(name: string, value: unknown): void {
    this.#map.set(name.toLowerCase(), String(value));
  }

  append(name: string, value: unknown): void {
    const key = name.toLowerCase();
    const had = this.#map.get(key);
    this.#map.set(key, had === undefined ? String(value) : `${had}, ${String(value)}`);
  }

  delete(name: string): void {
    this.#map.delete(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: LiteHeaders) => void): void {
    for (const [name, value] of this.#map) callback(value, name, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this.#map.entries();
  }

  keys(): IterableIterator<string> {
    return this.#map.keys();
  }

  values(): IterableIterator<string> {
    return this.#map.values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#map.entries();
  }
}

interface LiteRequestInit {
  method?: string;
  headers?: HeadersSource;
  signal?: AbortSignal | null;
}

export class LiteRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: LiteHeaders;
  readonly signal: AbortSignal | null;
  readonly body = null;

  constructor(input: string | URL | LiteRequest, init: LiteRequestInit = {}) {
    const from = input instanceof LiteRequest ? input : undefined;
    this.url = from ? from.url : new URL(String(input)).href;
    this.method = (init.method ?? from?.method ?? 'GET').toUpperCase();
    this.headers = new LiteHeaders(init.headers ?? from?.headers);
    this.signal = init.signal ?? from?.signal ?? null;
  }

  clone(): LiteRequest {
    return new LiteRequest(this);
  }
}

export class LiteResponse {}
export class LiteFormData {}
export class LiteReadableStream {}
