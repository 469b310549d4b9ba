/**
 * A Fetch `Request` answered by the reference app in this process: the request goes to fastify's
 * `inject` (light-my-request: no port, no socket), and the answer comes back as a Fetch `Response`
 * with the status, headers and body bytes the app wrote, as `seller-server` would send them. A
 * connection the app drops (a sandbox `drop` or `dropAfter` fault) is a network error at once
 * (`Response.error()`, msw's network-error answer), as the server's reset socket is.
 */
import type { FastifyInstance } from 'fastify';
import { withIdSeed, type ByteSource } from '../ids.ts';
import { webhooksIdle } from '../webhooks/outbox.ts';

/** Statuses whose answer has no body (a Fetch `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/** Real time between two runs of the clock's listeners, as `startServer`'s timer (server/index.ts). */
const TICK_MS = 1000;

/** Why an injected request ended unanswered: the app destroyed its connection (server/http/routes.ts). */
class ConnectionDropped extends Error {}

/**
 * The app, answering Fetch requests. Before a call, the clock's listeners run when a second has
 * passed since they last did (what `seller-server`'s timer does, without a timer); after it, the
 * webhook deliveries the call set off are done (so `mock.webhooks` holds them when the answer arrives).
 */
export class InProcess {
  #lastTick = 0;

  /** @param ids the seeded id stream (`idSeed`) every call runs with, if any. */
  constructor(
    readonly app: FastifyInstance,
    public ids?: ByteSource,
  ) {
    // inject's socket is a bare stand-in with no `destroy`: give it one that ends the exchange
    // unanswered, as a destroyed socket ends a real one (inject then fails with this error).
    app.addHook('onRequest', (req, reply, done) => {
      const response = reply.raw;
      (req.raw.socket as unknown as { destroy(): void }).destroy = () => void response.destroy(new ConnectionDropped('connection dropped'));
      done();
    });
  }

  answer(request: Request): Promise<Response> {
    return withIdSeed(this.ids, () => this.#answer(request));
  }

  async #answer(request: Request): Promise<Response> {
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
    const res = await this.app
      .inject({
        method: request.method as 'GET',
        url: `${url.pathname}${url.search}`,
        headers,
        ...(payload && payload.length > 0 ? { payload } : {}),
      })
      .catch((err: unknown) => {
        if (err instanceof ConnectionDropped) return null;
        throw err;
      });
    await webhooksIdle(svc);
    if (res === null) return Response.error();
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) out.append(name, String(one));
    }
    const body = NO_BODY.has(res.statusCode) || request.method === 'HEAD' ? null : (res.rawPayload as Uint8Array<ArrayBuffer>);
    return new Response(body, { status: res.statusCode, statusText: res.statusMessage, headers: out });
  }
}

/**
 * A `fetch` over an answering function, for clients used without msw: a network error
 * (`Response.error()`) rejects with a `TypeError`, as `fetch` does when a connection is reset.
 */
export function fetchOf(answer: (request: Request) => Promise<Response>): typeof fetch {
  return async (input, init) => {
    const response = await answer(new Request(input, init));
    if (response.type === 'error') throw new TypeError('fetch failed: the connection was dropped');
    return response;
  };
}
