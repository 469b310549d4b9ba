/**
 * The API's own documentation, served by the reference server without a key:
 *
 * - `GET /api/v1/openapi.json` — the OpenAPI 3.1 document of the seller API (sdk/openapi.ts),
 *   with this server's address in `servers`;
 * - `GET /` — what this server is, with the addresses of the API, the page and the document;
 * - `GET /docs` — a reference page rendered from that document (server/docs-page.ts), one
 *   self-contained HTML file that works offline (its Content-Security-Policy forbids any request).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiOperations, BASE_PATH } from '../sdk/contract/index.ts';
import { buildOpenApi, type OpenApiDocument } from '../sdk/openapi.ts';
import type { ServerContext } from './context.ts';
import { OPENAPI_PATH, PAGE_CSP, renderDocsPage } from './docs-page.ts';

export { renderDocsPage };

export const DOCS_PATH = '/docs';

export function registerDocs(app: FastifyInstance, svc: ServerContext): void {
  // The root says what this server is and where to read on (a bare 404 sends a newcomer nowhere).
  app.get('/', async (req) => {
    const url = serverUrlOf(svc, req);
    return {
      service: 'seller-server',
      description: 'A reference implementation of the Seller API (sandbox included).',
      api: `${url}${BASE_PATH.api}`,
      docs: `${url}${DOCS_PATH}`,
      openapi: `${url}${OPENAPI_PATH}`,
    };
  });
  // The document depends only on the table; the server address is set per answer.
  let base: OpenApiDocument | null = null;
  const documentFor = (req: FastifyRequest): OpenApiDocument => {
    base ??= buildOpenApi(Object.values(apiOperations));
    return { ...base, servers: [{ url: serverUrlOf(svc, req), description: 'This server' }] };
  };
  const pages = new Map<string, string>();

  app.get(OPENAPI_PATH, async (req, reply) => {
    reply.header('cache-control', 'no-cache');
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(documentFor(req)));
  });

  app.get(DOCS_PATH, async (req, reply) => {
    const url = serverUrlOf(svc, req);
    let html = pages.get(url);
    if (html === undefined) {
      html = renderDocsPage(documentFor(req));
      // a few addresses at most (the Host header is the client's to choose)
      if (pages.size >= 4) pages.delete(pages.keys().next().value!);
      pages.set(url, html);
    }
    reply.header('cache-control', 'no-cache');
    reply.header('content-security-policy', PAGE_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    return reply.type('text/html; charset=utf-8').send(html);
  });
}

/** The public address once listening; before that (inject tests) the address the request used. */
function serverUrlOf(svc: ServerContext, req: FastifyRequest): string {
  if (svc.options.publicUrl) return svc.options.publicUrl;
  const host = /^[A-Za-z0-9.\-:[\]]{1,255}$/.test(req.host) ? req.host : 'localhost';
  return `${req.protocol}://${host}`;
}
