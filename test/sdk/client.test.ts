import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fillPath, pathParamNames, sandboxOperations } from '../../sdk/contract/index.ts';
import { apiOperations } from '../../sdk/contract/public.ts';
import {
  AuthenticationError,
  BASE_PATH,
  ResponseValidationError,
  SandboxClient,
  SellerClient,
  type AnyOperation,
} from '../../sdk/index.ts';

const BASE = 'http://seller.test';
const KEY = 'service_test_0123456789abcdefghijABCDEFGHIJ0123456789';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
});
afterAll(() => server.close());

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string | null;
}

/** A fetch that records every request and answers `answer` (JSON) with status 200. */
function fakeFetch(answer: unknown = {}) {
  const seen: Seen[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body;
    seen.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers: new Headers(init?.headers),
      body: typeof body === 'string' ? body : body == null ? null : '<bytes>',
    });
    return Response.json(answer, { headers: { 'x-request-id': 'req_fake' } });
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

/** Arguments that satisfy an operation's path parameters and input. */
function argsFor(op: AnyOperation): { args: unknown[]; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const args: unknown[] = [];
  for (const name of pathParamNames(op.path)) {
    const value = name === 'number' ? 1001 : `${name}_1`;
    params[name] = value;
    args.push(value);
  }
  if (op.bodyType === 'binary') args.push({ data: new Uint8Array([0x89, 0x50]), contentType: 'image/png' });
  else if (op.bodyType === 'json' || op.query) args.push({});
  return { args, params };
}

function methodAt(target: object, id: string, dropSection = false): ((...args: unknown[]) => unknown) | undefined {
  const [section, verb] = id.split('.') as [string, string];
  const holder = dropSection ? target : (target as Record<string, Record<string, unknown>>)[section];
  const fn = (holder as Record<string, unknown> | undefined)?.[verb];
  return typeof fn === 'function' ? (fn as (...args: unknown[]) => unknown) : undefined;
}

describe('methods derived from the operation table', () => {
  const ops = Object.values(apiOperations) as AnyOperation[];

  it.each(ops.map((op) => [op.id, op] as const))('%s: right method, URL, auth and idempotency key', async (id, op) => {
    const { fetch, seen } = fakeFetch();
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, fetch, maxRetries: 0 });
    const method = methodAt(client, id);
    expect(method, `client.${id}`).toBeTypeOf('function');
    const { args, params } = argsFor(op);
    // The fake answer `{}` does not match most answer schemas; only the request matters here.
    await Promise.resolve(method!(...args)).catch(() => undefined);
    expect(seen).toHaveLength(1);
    const request = seen[0]!;
    expect(request.method).toBe(op.method);
    expect(request.url.split('?')[0]).toBe(BASE + BASE_PATH.api + fillPath(op.path, params));
    expect(request.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    const key = request.headers.get('idempotency-key');
    if (op.changes) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    else expect(key).toBeNull();
    if (op.bodyType === 'json') {
      expect(request.headers.get('content-type')).toBe('application/json');
      expect(request.body).toBe('{}');
    } else if (op.bodyType === 'none') {
      expect(request.body).toBeNull();
    }
  });

  it('derives exactly one method per operation and nothing else', () => {
    const client = new SellerClient({ apiKey: KEY });
    const derived = Object.entries(client as unknown as Record<string, Record<string, unknown>>).flatMap(
      ([section, verbs]) => Object.keys(verbs).map((verb) => `${section}.${verb}`),
    );
    expect(derived.sort()).toEqual(Object.keys(apiOperations).sort());
  });

  it('section names do not shadow client members', () => {
    const sections = new Set(Object.keys(apiOperations).map((id) => id.split('.')[0]));
    for (const member of Object.getOwnPropertyNames(SellerClient.prototype)) expect(sections.has(member)).toBe(false);
  });

  it('the only binary operation is listings.setImage (the type-level BinaryOperationId)', () => {
    const binary = Object.values(apiOperations as Record<string, AnyOperation>).filter((op) => op.bodyType === 'binary');
    expect(binary.map((op) => op.id)).toEqual(['listings.setImage']);
  });

  it('paged operations are the ones whose answers have a cursor or a total (as the types infer)', () => {
    const paged = (Object.values(apiOperations) as AnyOperation[]).filter((op) => op.paging !== null);
    for (const op of paged) {
      const shape = Object.keys((op.answer as { shape: Record<string, unknown> }).shape).sort();
      expect(shape, op.id).toEqual(op.paging === 'cursor' ? ['items', 'nextCursor'] : ['items', 'total']);
    }
    const unpaged = (Object.values(apiOperations) as AnyOperation[]).filter((op) => op.paging === null);
    for (const op of unpaged) {
      const shape = (op.answer as { shape?: Record<string, unknown> }).shape ?? {};
      expect('nextCursor' in shape || ('items' in shape && 'total' in shape), op.id).toBe(false);
    }
  });
});

describe('the sandbox client', () => {
  const ops = Object.values(sandboxOperations) as AnyOperation[];

  it.each(ops.map((op) => [op.id, op] as const))('%s: sb.<verb>, admin token, no idempotency key', async (id, op) => {
    const { fetch, seen } = fakeFetch();
    const sb = new SandboxClient({ adminToken: 'admin-secret', baseUrl: BASE, fetch, maxRetries: 0 });
    const method = methodAt(sb, id, true);
    expect(method, `sb.${id.split('.')[1]}`).toBeTypeOf('function');
    const { args, params } = argsFor(op);
    await Promise.resolve(method!(...args)).catch(() => undefined);
    const request = seen[0]!;
    expect(request.method).toBe(op.method);
    expect(request.url).toBe(BASE + BASE_PATH.sandbox + fillPath(op.path, params));
    expect(request.headers.get('authorization')).toBe('Bearer admin-secret');
    expect(request.headers.get('idempotency-key')).toBeNull();
  });

  it('parses answers and sends the body', async () => {
    let body: unknown;
    server.use(
      http.post(`${BASE}/sandbox/v1/clock/advance`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ now: '2026-11-21T09:13:39.000Z' });
      }),
    );
    const sb = new SandboxClient({ adminToken: 'a', baseUrl: BASE });
    await expect(sb.advanceClock({ seconds: 3600 })).resolves.toEqual({ now: '2026-11-21T09:13:39.000Z' });
    expect(body).toEqual({ seconds: 3600 });
  });

  it('falls back to SERVICE_ADMIN_TOKEN and fails clearly without a token', async () => {
    const { fetch, seen } = fakeFetch({ now: '2026-11-21T09:13:39.000Z' });
    vi.stubEnv('SERVICE_ADMIN_TOKEN', '');
    await expect(new SandboxClient({ baseUrl: BASE, fetch }).clock()).rejects.toThrow(/SERVICE_ADMIN_TOKEN/);
    vi.stubEnv('SERVICE_ADMIN_TOKEN', 'from-env');
    await new SandboxClient({ baseUrl: BASE, fetch }).clock();
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer from-env');
  });
});

describe('requests', () => {
  it('serialises the query: booleans as true/false, undefined dropped, values encoded', async () => {
    const { fetch, seen } = fakeFetch({ items: [], nextCursor: null });
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, fetch });
    await client.listings.list({ active: false, service: undefined, limit: 20 });
    await client.orders.list({ needsAction: true, updatedSince: '2026-11-21T08:13:39.000Z' });
    expect(seen[0]!.url).toBe(`${BASE}/api/v1/listings?active=false&limit=20`);
    expect(seen[1]!.url).toBe(`${BASE}/api/v1/orders?needsAction=true&updatedSince=2026-11-21T08%3A13%3A39.000Z`);
  });

  it('encodes path parameters', async () => {
    const { fetch, seen } = fakeFetch();
    const client = new SellerClient({ apiKey: KEY, baseUrl: `${BASE}/`, fetch, maxRetries: 0 });
    await client.orders.get('ord_1/../x').catch(() => undefined);
    expect(seen[0]!.url).toBe(`${BASE}/api/v1/orders/ord_1%2F..%2Fx`);
  });

  it('sends the JSON body and parses the answer', async () => {
    let received: unknown;
    let contentType: string | null = null;
    server.use(
      http.post(`${BASE}/api/v1/orders/:id/deliver`, async ({ request, params }) => {
        received = await request.json();
        contentType = request.headers.get('content-type');
        return HttpResponse.json({ order: params['id'], status: 'delivered', noteRejected: null });
      }),
    );
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE });
    const answer = await client.orders.deliver('ord_42', { nextChargeDay: '2026-12-21', note: 'enjoy' });
    expect(answer).toEqual({ order: 'ord_42', status: 'delivered', noteRejected: null });
    expect(received).toEqual({ nextChargeDay: '2026-12-21', note: 'enjoy' });
    expect(contentType).toBe('application/json');
  });

  it('uploads the image as raw bytes with its content type', async () => {
    let bytes: Uint8Array | undefined;
    let contentType: string | null = null;
    server.use(
      http.put(`${BASE}/api/v1/listings/:number/image`, async ({ request, params }) => {
        bytes = new Uint8Array(await request.arrayBuffer());
        contentType = request.headers.get('content-type');
        return HttpResponse.json({ number: Number(params['number']), image: { url: '/img/1001.png' } });
      }),
    );
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await expect(client.listings.setImage(1001, { data: png, contentType: 'image/png' })).resolves.toEqual({
      number: 1001,
      image: { url: '/img/1001.png' },
    });
    expect(bytes).toEqual(png);
    expect(contentType).toBe('image/png');
    await client.listings.setImage(1001, { data: new Blob([png], { type: 'image/png' }), contentType: 'image/webp' });
    expect(contentType).toBe('image/webp');
  });

  it('sends the User-Agent with the caller suffix and the per-call headers', async () => {
    const { fetch, seen } = fakeFetch({ items: [], nextCursor: null });
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, fetch, userAgent: 'shop-sync/2' });
    await client.keys.list(undefined, { headers: { 'X-Trace': 't1' } });
    expect(seen[0]!.headers.get('user-agent')).toMatch(/^service-seller\/\d+\.\d+\.\d+ shop-sync\/2$/);
    expect(seen[0]!.headers.get('x-trace')).toBe('t1');
  });
});

describe('idempotency keys', () => {
  it('a changing call gets a fresh UUID v4 per call; GET gets none', async () => {
    const { fetch, seen } = fakeFetch();
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, fetch, maxRetries: 0 });
    await client.orders.confirm('ord_1').catch(() => undefined);
    await client.orders.confirm('ord_1').catch(() => undefined);
    await client.orders.get('ord_1').catch(() => undefined);
    const [a, b, c] = seen.map((r) => r.headers.get('idempotency-key'));
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
    expect(c).toBeNull();
  });

  it("the caller's key is honoured", async () => {
    const { fetch, seen } = fakeFetch();
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, fetch, maxRetries: 0 });
    await client.orders.deliver('ord_1', {}, { idempotencyKey: 'deliver-ord_1' }).catch(() => undefined);
    await client.listings.copy(1001, { idempotencyKey: 'copy-1001' }).catch(() => undefined);
    expect(seen.map((r) => r.headers.get('idempotency-key'))).toEqual(['deliver-ord_1', 'copy-1001']);
  });
});

describe('answers', () => {
  it('strict: a malformed answer throws ResponseValidationError with the operation and the issue path', async () => {
    server.use(
      http.get(`${BASE}/api/v1/listings/:number/stock`, () =>
        HttpResponse.json({ number: 1001, free: 'many', issued: 0 }, { headers: { 'x-request-id': 'req_bad' } }),
      ),
    );
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, strict: true });
    const err = await client.stock.get(1001).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    const e = err as ResponseValidationError;
    expect(e.operation).toBe('stock.get');
    expect(e.code).toBe('invalid_response');
    expect(e.path).toEqual(['free']);
    expect(e.requestId).toBe('req_bad');
    expect(e.message).toMatch(/^invalid_response: the answer does not match the contract at free/);
    expect(e.message).toContain('stock.get');
  });

  it('an answer that is not JSON is a ResponseValidationError (tolerant and strict)', async () => {
    server.use(http.get(`${BASE}/api/v1/me`, () => new HttpResponse('<html>hi</html>', { status: 200 })));
    await expect(new SellerClient({ apiKey: KEY, baseUrl: BASE }).me.get()).rejects.toBeInstanceOf(ResponseValidationError);
    await expect(new SellerClient({ apiKey: KEY, baseUrl: BASE, strict: true }).me.get()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('tolerant (the default): the answer is read as it came, unknown fields and values kept', async () => {
    server.use(
      http.get(`${BASE}/api/v1/listings/1001/stock`, () => HttpResponse.json({ number: 1001, free: 'many', reserved: 2 })),
    );
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE });
    const stock = await client.stock.get(1001);
    expect(stock).toEqual({ number: 1001, free: 'many', reserved: 2 });
    expect(stock['reserved']).toBe(2);
  });

  it('tolerant: a list answer without an items array is an error naming the path', async () => {
    server.use(http.get(`${BASE}/api/v1/orders`, () => HttpResponse.json({ orders: [], nextCursor: null })));
    const err = (await new SellerClient({ apiKey: KEY, baseUrl: BASE }).orders.list().catch((e: unknown) => e)) as ResponseValidationError;
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.path).toEqual(['items']);
    expect(err.message).toMatch(/at items: a list answer must carry an items array \[orders\.list/);
  });

  it('strict: parsing applies the schema (unknown fields of plain objects are stripped)', async () => {
    server.use(
      http.get(`${BASE}/api/v1/listings/1001/stock`, () => HttpResponse.json({ number: 1001, free: 3, issued: 1, extra: true })),
    );
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, strict: true });
    await expect(client.stock.get(1001)).resolves.toEqual({ number: 1001, free: 3, issued: 1 });
  });
});

describe('configuration', () => {
  it('a client can be built without a key; the first call fails clearly and sends nothing', async () => {
    vi.stubEnv('SERVICE_API_KEY', '');
    const { fetch, seen } = fakeFetch();
    const client = new SellerClient({ baseUrl: BASE, fetch });
    const err = await client.me.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as AuthenticationError).code).toBe('no_key');
    expect((err as Error).message).toMatch(/SERVICE_API_KEY/);
    await expect(client.orders.list()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.request({ method: 'GET', path: '/api/v1/me' })).rejects.toBeInstanceOf(AuthenticationError);
    expect(seen).toHaveLength(0);
  });

  it('reads SERVICE_API_KEY and SERVICE_BASE_URL at the first call', async () => {
    const { fetch, seen } = fakeFetch({ items: [], nextCursor: null });
    const client = new SellerClient({ fetch });
    vi.stubEnv('SERVICE_API_KEY', 'service_test_fromenv');
    vi.stubEnv('SERVICE_BASE_URL', 'http://env.test:9000/');
    await client.orders.list();
    expect(seen[0]!.url).toBe('http://env.test:9000/api/v1/orders');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer service_test_fromenv');
    expect(client.baseUrl).toBe('http://env.test:9000');
  });

  it('defaults the base URL to http://127.0.0.1:8787', () => {
    vi.stubEnv('SERVICE_BASE_URL', '');
    expect(new SellerClient({ apiKey: KEY }).baseUrl).toBe('http://127.0.0.1:8787');
  });

  it('options win over the environment', async () => {
    vi.stubEnv('SERVICE_API_KEY', 'from-env');
    vi.stubEnv('SERVICE_BASE_URL', 'http://env.test');
    const { fetch, seen } = fakeFetch({ items: [], nextCursor: null });
    await new SellerClient({ apiKey: 'from-option', baseUrl: BASE, fetch }).keys.list();
    expect(seen[0]!.url).toBe(`${BASE}/api/v1/keys`);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer from-option');
  });

  it('the API key is not reachable from the client object', () => {
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE });
    expect(JSON.stringify(client)).not.toContain(KEY);
    expect(Object.values(client).some((v) => String(v).includes(KEY))).toBe(false);
  });
});

describe('client.request (raw calls)', () => {
  it('GET: no idempotency key; answers status, headers, body, requestId, replayed', async () => {
    let key: string | null = 'unset';
    server.use(
      http.get(`${BASE}/api/v1/me`, ({ request }) => {
        key = request.headers.get('idempotency-key');
        return HttpResponse.json({ sellerId: 's_1' }, { headers: { 'x-request-id': 'req_9' } });
      }),
    );
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE });
    const res = await client.request({ method: 'get', path: '/api/v1/me' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sellerId: 's_1' });
    expect(res.requestId).toBe('req_9');
    expect(res.replayed).toBe(false);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(key).toBeNull();
  });

  it('POST: auto key (or the caller\'s), JSON body, query merged, replay flag', async () => {
    const keys: (string | null)[] = [];
    const urls: string[] = [];
    server.use(
      http.post(`${BASE}/api/v1/hooks/test`, async ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        urls.push(request.url);
        return HttpResponse.json(await request.json(), { status: 202, headers: { 'idempotent-replayed': 'true' } });
      }),
    );
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE });
    const res = await client.request({ method: 'POST', path: '/api/v1/hooks/test?a=1', query: { b: true, c: undefined }, body: { event: 'order.paid' } });
    expect(res).toMatchObject({ status: 202, body: { event: 'order.paid' }, replayed: true });
    await client.request({ method: 'POST', path: 'api/v1/hooks/test', body: {}, idempotencyKey: 'mine' });
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe('mine');
    expect(urls[0]).toBe(`${BASE}/api/v1/hooks/test?a=1&b=true`);
  });

  it('non-2xx throws the typed error', async () => {
    server.use(http.get(`${BASE}/api/v1/orders/ord_x`, () => HttpResponse.json({ error: 'not_found' }, { status: 404 })));
    const client = new SellerClient({ apiKey: KEY, baseUrl: BASE });
    await expect(client.request({ method: 'GET', path: '/api/v1/orders/ord_x' })).rejects.toMatchObject({
      name: 'NotFoundError',
      code: 'not_found',
      status: 404,
    });
  });
});
