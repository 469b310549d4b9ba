/**
 * A drifting fake of the Seller API: a proxy in front of a real `seller-server` that rewrites the
 * answers by rules, so that a test sees an API that has grown since the contract was written
 * (unknown enum values and fields, a missing field, another success status, another next-page
 * name, an HTML 502 from a gateway, `Retry-After` as a date) while everything else stays real.
 *
 * Rules are plain data plus functions and may be changed while the fake runs (`fake.rules`). Every
 * request is recorded (`fake.requests`: method, path, status answered), so a test can assert
 * what was called, e.g. that a command sent only GETs.
 *
 * @example
 * const fake = await startDriftingFake(server.url, [
 *   { path: '/api/v1/orders', body: eachItem((o) => ({ ...o, status: 'on_hold' })) },
 *   { method: 'GET', path: '/api/v1/hooks', status: 201 },
 * ]);
 * const client = new SellerClient({ apiKey, baseUrl: fake.url });
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a rule may look at. */
export interface DriftRequest {
  method: string;
  /** Path without the query: `/api/v1/orders/ord_1`. */
  path: string;
  query: URLSearchParams;
}

/** An answer as the fake will send it. */
export interface DriftAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body text. */
  text: string;
}

export interface DriftRule {
  /** HTTP method to match (any when absent). */
  method?: string;
  /**
   * Path to match: a template with `{param}` placeholders (`/api/v1/orders/{id}`), matched whole,
   * or a RegExp tested on the path; any path when absent.
   */
  path?: string | RegExp;
  /** Only answers with this status (default: any 2xx). */
  onStatus?: number | 'any';
  /** Rewrites a JSON body (the parsed value; return the new one). */
  body?: (body: any, request: DriftRequest) => unknown;
  /** Replaces the status. */
  status?: number;
  /** Adds or replaces headers. */
  headers?: Record<string, string>;
  /** Replaces the whole answer (an HTML page from a proxy); the server is still called. */
  replace?: (answer: DriftAnswer, request: DriftRequest) => DriftAnswer;
  /** Applies this many times, then no more (a flaky gateway); unlimited when absent. */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string with its `?`, or ''. */
  search: string;
  status: number;
}

export interface DriftingFake {
  /** The fake's root URL (give it as `baseUrl`). */
  url: string;
  /** The rules, in order; every matching rule applies. Mutable. */
  rules: DriftRule[];
  /** Every request the fake answered. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function matches(rule: DriftRule, request: DriftRequest, status: number): boolean {
  if (rule.times !== undefined && rule.times <= 0) return false;
  if (rule.method !== undefined && rule.method.toUpperCase() !== request.method) return false;
  if (rule.onStatus === undefined ? status < 200 || status > 299 : rule.onStatus !== 'any' && rule.onStatus !== status) return false;
  if (rule.path === undefined) return true;
  if (rule.path instanceof RegExp) return rule.path.test(request.path);
  const pattern = new RegExp(`^${rule.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
  return pattern.test(request.path);
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the fake on 127.0.0.1 (a free port) in front of `target` (a seller-server root URL). */
export async function startDriftingFake(target: string, rules: DriftRule[] = []): Promise<DriftingFake> {
  const fake: DriftingFake = { url: '', rules, requests: [], close: async () => {} };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const request: DriftRequest = { method: (req.method ?? 'GET').toUpperCase(), path: url.pathname, query: url.searchParams };
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const upstream = await fetch(`${target}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body: request.method === 'GET' || request.method === 'HEAD' || body.length === 0 ? undefined : new Uint8Array(body),
    });
    let answer: DriftAnswer = { status: upstream.status, headers: {}, text: await upstream.text() };
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) answer.headers[name] = value;
    });
    const status = answer.status;
    for (const rule of fake.rules) {
      if (!matches(rule, request, status)) continue;
      if (rule.times !== undefined) rule.times -= 1;
      if (rule.body && answer.text !== '') {
        answer = { ...answer, text: JSON.stringify(rule.body(JSON.parse(answer.text), request)) };
      }
      if (rule.status !== undefined) answer = { ...answer, status: rule.status };
      if (rule.headers) answer = { ...answer, headers: { ...answer.headers, ...rule.headers } };
      if (rule.replace) answer = rule.replace(answer, request);
    }
    fake.requests.push({ method: request.method, path: request.path, search: url.search, status: answer.status });
    res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.text) });
    res.end(answer.text);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(599, { 'content-type': 'text/plain' });
      res.end(`drifting fake failed: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return fake;
}

// ---------------------------------------------------------------------------------------------
// Rewrites for `body`
// ---------------------------------------------------------------------------------------------

/** Applies `change` to each record of a list answer (`items[]`), or to the answer itself otherwise. */
export function eachItem(change: (record: any) => unknown): (body: any) => unknown {
  return (body) => (body && Array.isArray(body.items) ? { ...body, items: body.items.map(change) } : change(body));
}

/** Sets fields (unknown ones, or known ones to unknown values) on each record. */
export function setFields(fields: Record<string, unknown>): (body: any) => unknown {
  return eachItem((record) => ({ ...record, ...fields }));
}

/** Removes a field from each record. */
export function dropField(name: string): (body: any) => unknown {
  return eachItem((record) => {
    const { [name]: _dropped, ...rest } = record;
    return rest;
  });
}

/** Renames a top-level field of the answer (`nextCursor` → `next`). */
export function renameTopField(from: string, to: string): (body: any) => unknown {
  return (body) => {
    const { [from]: value, ...rest } = body;
    return { ...rest, [to]: value };
  };
}

/** An HTML page as a failing gateway sends it. */
export const GATEWAY_PAGE = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>';

/** A `replace` that answers a proxy's HTML 502. */
export function htmlBadGateway(): (answer: DriftAnswer) => DriftAnswer {
  return () => ({ status: 502, headers: { 'content-type': 'text/html' }, text: GATEWAY_PAGE });
}
