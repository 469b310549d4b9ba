/**
 * 405 for a known path asked with a method it does not serve (RFC 9110 §15.5.6): the answer names
 * the methods it does serve in `Allow` and is the error `method_not_allowed`. The routes are
 * collected as fastify registers them (`onRoute`), so every route (API, sandbox, docs, MCP, images,
 * probe) counts, with the `HEAD` fastify adds to each `GET`. A method fastify's router does not
 * know at all (`QUERY`) is answered the same way on a known path, rather than 400.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from './errors.ts';

interface RoutePattern {
  method: string;
  re: RegExp;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/api/v1/listings/:number` → a regex of the concrete paths it serves. */
function patternOf(url: string): RegExp {
  const parts = url.split('/').map((seg) => {
    if (seg === '*') return '.*';
    if (seg.startsWith(':')) return '[^/]+';
    return escape(seg);
  });
  return new RegExp(`^${parts.join('/')}/?$`);
}

export class RouteMethods {
  readonly #routes: RoutePattern[] = [];

  /** Collects every route registered on `app` from now on (call before registering routes). */
  constructor(app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      // A route that only answers 405 itself (the MCP endpoint's other methods) serves nothing.
      if ((route.config as { refusesMethod?: boolean } | undefined)?.refusesMethod) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const re = patternOf(route.url);
      for (const method of methods) this.#routes.push({ method: method.toUpperCase(), re });
    });
  }

  /** The methods served on a concrete path (without its query), sorted; empty for an unknown path. */
  allowed(path: string): string[] {
    const found = new Set<string>();
    for (const r of this.#routes) if (r.re.test(path)) found.add(r.method);
    return [...found].sort();
  }

  /** Answers 405 with `Allow` when `path` is served with other methods; false when the path is unknown. */
  refuse(method: string, url: string, reply: FastifyReply): boolean {
    const path = url.split('?')[0] ?? url;
    const allowed = this.allowed(path);
    if (allowed.length === 0) return false;
    reply
      .code(405)
      .header('allow', allowed.join(', '))
      .send(errorBody('method_not_allowed', `method ${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, { allowed }));
    return true;
  }
}
