/**
 * A Fetch `Request` answered by the reference app in this process: the request goes to fastify's
 * `inject` (light-my-request: no port, no socket), and the answer comes back as a Fetch `Response`
 * with the status, headers and body bytes the app wrote, as `seller-server` would send them.
 */
import type { FastifyInstance } from 'fastify';
import { webhooksIdle } from '../webhooks/outbox.ts';

/** Statuses whose answer has no body (a Fetch `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/** Real time between two runs of the clock's listeners, as `startServer`'s timer (server/index.ts). */
const TICK_MS = 1000;

/**
 * The app, answering Fetch requests. Before a call, the clock's listeners run when a second has
 * passed since they last did (what `seller-server`'s timer does, without a timer); after it, the
 * webhook deliveries the call set off are done (so `mock.webhooks` holds them when the answer arrives).
 */
export class InProcess {
  #lastTick = 0;

  constructor(readonly app: FastifyInstance) {}

  async answer(request: Request): Promise<Response> {
    const svc = this.app.service;
    const now = Date.now();
    if (now - this.#lastTick >= TICK_MS) {
      this.#lastTick = now;
      await svc.clock.tick();
    }
    const url = new URL(request.url);
    const headers: Record<string, string> = { host: url.host };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const bodyless = request.method === 'GET' || request.method === 'HEAD';
    const payload = bodyless ? undefined : Buffer.from(await request.arrayBuffer());
    const res = await this.app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(payload && payload.length > 0 ? { payload } : {}),
    });
    await webhooksIdle(svc);
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) out.append(name, String(one));
    }
    const body = NO_BODY.has(res.statusCode) || request.method === 'HEAD' ? null : (res.rawPayload as Uint8Array<ArrayBuffer>);
    return new Response(body, { status: res.statusCode, statusText: res.statusMessage, headers: out });
  }

  /** A `fetch` that goes to the app: for the SDK's clients, before (or without) msw. */
  fetch(): typeof fetch {
    return (input, init) => this.answer(new Request(input, init));
  }
}
