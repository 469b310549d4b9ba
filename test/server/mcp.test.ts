/**
 * The JSON-RPC tool endpoint `POST /api/mcp`, raw over `inject`: the envelope and its error codes,
 * authentication and the rate limit shared with HTTP, tools derived from the operation table
 * (names, schemas, scope filtering), tool calls through the HTTP pipeline (validation, refusals,
 * idempotency), and resources.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations, SCOPES, type AnyOperation } from '../../sdk/contract/index.ts';
import { MCP_PROTOCOL_VERSION } from '../../server/mcp/endpoint.ts';
import { RpcCode } from '../../server/mcp/jsonrpc.ts';
import { TOOL_NAME_PATTERN, TOOL_NAMES, toolNameOf } from '../../server/mcp/names.ts';
import { toolCatalogue } from '../../server/mcp/tools.ts';
import { apiHandlerTable } from '../../server/routes/index.ts';
import { call, expectError, issueKey, makeApp, newSeller, sandbox, setStatus, type SellerCreated } from './helpers.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';

let app: FastifyInstance;
let seller: SellerCreated;

beforeAll(async () => {
  app = await makeApp();
  seller = await newSeller(app);
});
afterAll(async () => {
  await app.close();
});

interface RpcAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  text: string;
}

let nextId = 1;

/** One raw POST to /api/mcp; `message` objects are sent as JSON, strings as they are. */
async function post(
  key: string | null,
  message: unknown,
  headers: Record<string, string> = {},
  target: FastifyInstance = app,
): Promise<RpcAnswer> {
  const res = await target.inject({
    method: 'POST',
    url: '/api/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...headers,
    },
    payload: typeof message === 'string' ? message : JSON.stringify(message),
  });
  let body: unknown;
  try {
    body = res.body.length > 0 ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, text: res.body };
}

/** A request with a fresh id; answers the HTTP answer (check `body.result` / `body.error`). */
const rpc = (key: string | null, method: string, params?: unknown, target?: FastifyInstance) =>
  post(key, { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }, {}, target);

const callTool = (key: string, name: string, args?: unknown, target?: FastifyInstance) =>
  rpc(key, 'tools/call', args === undefined ? { name } : { name, arguments: args }, target);

/** The tool result of a call that must be answered (HTTP 200, no JSON-RPC error). */
async function result(key: string, name: string, args?: unknown, target?: FastifyInstance): Promise<any> {
  const res = await callTool(key, name, args, target);
  expect(res.status, res.text).toBe(200);
  expect(res.body.error, res.text).toBeUndefined();
  return res.body.result;
}

/** The error body of an isError result. */
function refusalOf(res: any): any {
  expect(res.isError, JSON.stringify(res)).toBe(true);
  expect(res.structuredContent).toBeUndefined();
  expect(res.content).toHaveLength(1);
  expect(res.content[0].type).toBe('text');
  return JSON.parse(res.content[0].text);
}

function expectRpcError(res: RpcAnswer, status: number, code: number): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body?.jsonrpc, res.text).toBe('2.0');
  expect(res.body?.error?.code, res.text).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.result).toBeUndefined();
}

const ops = Object.values(apiOperations) as AnyOperation[];
const served = ops.filter((op) => typeof (apiHandlerTable as Record<string, unknown>)[op.id] === 'function');

describe('tool names', () => {
  it('every operation of the table has a unique name of the form service_<resource>[_<verb>]', () => {
    const names = ops.map((op) => TOOL_NAMES[op.id as keyof typeof TOOL_NAMES]);
    expect(names).toHaveLength(ops.length);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(new Set(names).size).toBe(names.length);
    expect([...toolCatalogue().keys()].sort()).toEqual([...names].sort());
  });

  it('list tools are the bare plural; singletons are bare; other verbs are suffixed in snake_case', () => {
    expect(TOOL_NAMES['orders.list']).toBe('service_orders');
    expect(TOOL_NAMES['listings.list']).toBe('service_listings');
    expect(TOOL_NAMES['keys.list']).toBe('service_keys');
    expect(TOOL_NAMES['orders.get']).toBe('service_orders_get');
    expect(TOOL_NAMES['listings.create']).toBe('service_listings_create');
    expect(TOOL_NAMES['orders.deliver']).toBe('service_orders_deliver');
    expect(TOOL_NAMES['orders.disputeReply']).toBe('service_orders_dispute_reply');
    expect(TOOL_NAMES['listings.setState']).toBe('service_listings_set_state');
    expect(TOOL_NAMES['catalog.usualPrice']).toBe('service_catalog_usual_price');
    expect(TOOL_NAMES['catalogRequests.create']).toBe('service_catalog_requests_create');
    expect(TOOL_NAMES['me.get']).toBe('service_me');
    expect(TOOL_NAMES['workMode.get']).toBe('service_work_mode');
    expect(TOOL_NAMES['workMode.set']).toBe('service_work_mode_set');
    expect(TOOL_NAMES['stock.get']).toBe('service_stock');
    expect(toolNameOf('things.get', ['things.get', 'things.list'])).toBe('service_things_get');
    expect(toolNameOf('things.get', ['things.get'])).toBe('service_things');
  });
});

describe('tool catalogue', () => {
  it('every tool has a title, a description with its summary, object input and output schemas, and annotations', () => {
    for (const def of toolCatalogue().values()) {
      const { op } = def;
      expect(def.title.length).toBeGreaterThan(0);
      expect(def.description.startsWith(op.summary)).toBe(true);
      expect(def.inputSchema.type).toBe('object');
      expect(def.inputSchema.additionalProperties).toBe(false);
      expect(def.outputSchema.type).toBe('object');
      expect(def.inputSchema.$schema).toBeUndefined();
      expect(def.outputSchema.$schema).toBeUndefined();
      for (const kind of op.refusals) expect(def.description).toContain(`- ${kind}`);
      expect(def.annotations.readOnlyHint).toBe(!op.changes);
      expect(def.annotations.destructiveHint).toBe(op.method === 'DELETE' || op.id === 'orders.decline' || op.id === 'hooks.rotateSecret');
      expect(def.annotations.idempotentHint).toBe(op.method !== 'POST');
      const props = Object.keys(def.inputSchema.properties ?? {});
      expect(props.includes('idempotencyKey')).toBe(op.changes);
      for (const p of [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
        expect(props).toContain(p);
        expect(def.inputSchema.required).toContain(p);
      }
    }
  });

  it('the orders tool takes needsAction; deliver takes id, nextChargeDay and note; the image upload takes base64 data', () => {
    const orders = toolCatalogue().get('service_orders')!;
    expect(Object.keys(orders.inputSchema.properties!)).toEqual(expect.arrayContaining(['needsAction', 'updatedSince', 'status', 'limit', 'cursor']));
    const deliver = toolCatalogue().get('service_orders_deliver')!;
    expect(Object.keys(deliver.inputSchema.properties!).sort()).toEqual(['id', 'idempotencyKey', 'nextChargeDay', 'note']);
    expect(deliver.inputSchema.required).toEqual(['id']);
    expect(deliver.description).toContain('need_next_charge');
    expect(deliver.description).toContain('service_orders_message');
    const image = toolCatalogue().get('service_listings_set_image')!;
    expect(Object.keys(image.inputSchema.properties!).sort()).toEqual(['contentType', 'data', 'idempotencyKey', 'number']);
  });
});

describe('initialize, ping, tools/list', () => {
  it('initialize answers protocol 2025-06-18 whatever the client offers, tools and resources, the server info and instructions', async () => {
    for (const offered of ['2025-06-18', '2024-11-05', '2099-01-01']) {
      const res = await rpc(seller.apiKey, 'initialize', { protocolVersion: offered, capabilities: {}, clientInfo: { name: 't', version: '1' } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['mcp-session-id']).toBeUndefined();
      const r = res.body.result;
      expect(r.protocolVersion).toBe(MCP_PROTOCOL_VERSION);
      expect(r.protocolVersion).toBe('2025-06-18');
      expect(r.capabilities).toEqual({ tools: { listChanged: false }, resources: {} });
      expect(r.serverInfo).toEqual({ name: 'service-seller', version: '1.0.0' });
      for (const phrase of ['switched off', 'service_listings_set_state', 'counts only', 'contact', 'updatedSince', 'noteRejected', 'state_moved', 'need_next_charge', 'allowed', 'scope']) {
        expect(r.instructions).toContain(phrase);
      }
    }
  });

  it('ping answers {}', async () => {
    const res = await rpc(seller.apiKey, 'ping');
    expect(res.body).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: {} });
  });

  it('tools/list with an all-scopes key lists exactly the served operations of the table', async () => {
    const res = await rpc(seller.apiKey, 'tools/list');
    const names = res.body.result.tools.map((t: { name: string }) => t.name).sort();
    expect(names).toEqual(served.map((op) => TOOL_NAMES[op.id as keyof typeof TOOL_NAMES]).sort());
    expect(served.length).toBe(ops.length);
    const tool = res.body.result.tools.find((t: { name: string }) => t.name === 'service_orders');
    expect(Object.keys(tool).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title']);
  });

  it('tools/list shows only the tools the key’s scopes allow (me for any key)', async () => {
    const catalogKey = await issueKey(app, seller.apiKey, ['catalog']);
    const res = await rpc(catalogKey.key, 'tools/list');
    const names: string[] = res.body.result.tools.map((t: { name: string }) => t.name);
    const expected = ops.filter((op) => op.scope === null || op.scope === 'catalog').map((op) => TOOL_NAMES[op.id as keyof typeof TOOL_NAMES]);
    expect(names.sort()).toEqual(expected.sort());
    expect(names).toContain('service_me');
    expect(names).not.toContain('service_orders');
    for (const scope of SCOPES) {
      const key = await issueKey(app, seller.apiKey, [scope]);
      const list: string[] = (await rpc(key.key, 'tools/list')).body.result.tools.map((t: { name: string }) => t.name);
      for (const op of ops) expect(list.includes(TOOL_NAMES[op.id as keyof typeof TOOL_NAMES]), `${scope} ${op.id}`).toBe(op.scope === null || op.scope === scope);
    }
  });
});

describe('the envelope', () => {
  it('malformed JSON → 400, -32700', async () => {
    const res = await post(seller.apiKey, '{"jsonrpc":"2.0",');
    expectRpcError(res, 400, RpcCode.parseError);
    expect(res.body.id).toBeNull();
  });

  it('a batch → 400, -32600 (one message per POST)', async () => {
    const res = await post(seller.apiKey, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expectRpcError(res, 400, RpcCode.invalidRequest);
  });

  it('no jsonrpc "2.0", no method, a bad id, a non-object → 400, -32600', async () => {
    for (const message of [{ id: 1, method: 'ping' }, { jsonrpc: '1.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 1 }, { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, { jsonrpc: '2.0', id: null, method: 'ping' }, { jsonrpc: '2.0', id: 1, method: 5 }, 'null', '42']) {
      const res = await post(seller.apiKey, message);
      expectRpcError(res, 400, RpcCode.invalidRequest);
    }
    expect((await post(seller.apiKey, { id: 7, method: 'ping' })).body.id).toBe(7);
  });

  it('an unknown method → 200, -32601, echoing the id', async () => {
    const res = await post(seller.apiKey, { jsonrpc: '2.0', id: 'abc', method: 'prompts/list' });
    expectRpcError(res, 200, RpcCode.methodNotFound);
    expect(res.body.id).toBe('abc');
  });

  it('params that are not an object → -32602', async () => {
    const res = await post(seller.apiKey, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: [1] });
    expectRpcError(res, 200, RpcCode.invalidParams);
  });

  it('notifications and client answers → 202 with no body', async () => {
    for (const message of [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, { jsonrpc: '2.0', id: 9, result: {} }]) {
      const res = await post(seller.apiKey, message);
      expect(res.status, res.text).toBe(202);
      expect(res.text).toBe('');
    }
  });

  it('GET, DELETE, PUT, PATCH → 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'] as const) {
      const res = await app.inject({ method, url: '/api/mcp', headers: { authorization: `Bearer ${seller.apiKey}` } });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
  });

  it('a body that is not JSON by Content-Type → 415', async () => {
    const res = await post(seller.apiKey, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'content-type': 'text/plain' });
    expectRpcError(res, 415, RpcCode.invalidRequest);
  });

  it('session and protocol-version headers are tolerated; no session is made', async () => {
    const res = await post(seller.apiKey, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': 'whatever', 'mcp-protocol-version': '2025-06-18' });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({});
    expect(res.headers['mcp-session-id']).toBeUndefined();
  });
});

describe('authentication', () => {
  it('no key → 401 no_key; an unknown key → 401 bad_key, with the API error body', async () => {
    const none = await rpc(null, 'initialize', {});
    expectError({ ...none, headers: none.headers as any }, 401, 'no_key');
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const bad = await rpc(`service_live_${'x'.repeat(40)}`, 'tools/list');
    expectError({ ...bad, headers: bad.headers as any }, 401, 'bad_key');
  });

  it('a revoked key is refused at once, for every method', async () => {
    const extra = await issueKey(app, seller.apiKey, ['orders']);
    expect((await rpc(extra.key, 'tools/list')).status).toBe(200);
    const revoke = await call(app, seller.apiKey, 'DELETE', `/api/v1/keys/${extra.id}`);
    expect(revoke.status, revoke.text).toBe(200);
    for (const method of ['tools/list', 'ping', 'initialize']) {
      const res = await rpc(extra.key, method);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'revoked' });
    }
    expect((await callTool(extra.key, 'service_orders', {})).body).toMatchObject({ error: 'revoked' });
  });

  it('a blocked seller → 403 seller_blocked', async () => {
    const other = await newSeller(app);
    await setStatus(app, other.sellerId, 'blocked');
    const res = await rpc(other.apiKey, 'ping');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'seller_blocked' });
  });
});

describe('the rate limit is the HTTP bucket', () => {
  it('HTTP calls and MCP messages draw from one bucket; exhausted → 429 rate with Retry-After on both', async () => {
    const small = await makeApp({ rateLimit: { perMinute: 60, burst: 3 } });
    try {
      const s = await newSeller(small);
      expect((await call(small, s.apiKey, 'GET', '/api/v1/me')).status).toBe(200);
      expect((await rpc(s.apiKey, 'tools/list', undefined, small)).status).toBe(200);
      const me = await callTool(s.apiKey, 'service_me', {}, small);
      expect(me.body.result.structuredContent.sellerId).toBe(s.sellerId);
      expect(me.headers.ratelimit).toMatch(/r=0/);
      const limited = await rpc(s.apiKey, 'ping', undefined, small);
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ error: 'rate' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await callTool(s.apiKey, 'service_me', {}, small)).status).toBe(429);
      expectError(await call(small, s.apiKey, 'GET', '/api/v1/me'), 429, 'rate');
    } finally {
      await small.close();
    }
  });
});

describe('tools/call', () => {
  it('a read answers its JSON as text and as structuredContent', async () => {
    const r = await result(seller.apiKey, 'service_me');
    expect(r.isError).toBe(false);
    expect(r.structuredContent).toMatchObject({ sellerId: seller.sellerId, key: { id: seller.keyId } });
    expect(JSON.parse(r.content[0].text)).toEqual(r.structuredContent);
  });

  it('query arguments take typed values (limit as a number)', async () => {
    const r = await result(seller.apiKey, 'service_catalog', { limit: 2 });
    expect(r.structuredContent.items).toHaveLength(2);
    expect(typeof r.structuredContent.nextCursor).toBe('string');
    const next = await result(seller.apiKey, 'service_catalog', { limit: 2, cursor: r.structuredContent.nextCursor });
    expect(next.structuredContent.items[0].slug).not.toBe(r.structuredContent.items[0].slug);
    const one = await result(seller.apiKey, 'service_catalog_get', { slug: r.structuredContent.items[0].slug });
    expect(one.structuredContent.slug).toBe(r.structuredContent.items[0].slug);
  });

  it('an unknown tool, a missing name or non-object arguments → -32602', async () => {
    expectRpcError(await callTool(seller.apiKey, 'service_nothing', {}), 200, RpcCode.invalidParams);
    expectRpcError(await rpc(seller.apiKey, 'tools/call', { arguments: {} }), 200, RpcCode.invalidParams);
    expectRpcError(await callTool(seller.apiKey, 'service_me', [1, 2]), 200, RpcCode.invalidParams);
    expectRpcError(await callTool(seller.apiKey, 'service_me', 'x'), 200, RpcCode.invalidParams);
  });

  it('arguments the schema refuses → isError with bad_request naming the argument', async () => {
    const wrong = refusalOf(await result(seller.apiKey, 'service_keys_create', { name: 'x', scopes: ['nope'] }));
    expect(wrong.error).toBe('bad_request');
    expect(wrong.detail.message).toMatch(/^arguments\.scopes/);
    expect(wrong.detail.issues[0].path.slice(0, 2)).toEqual(['arguments', 'scopes']);
    const missing = refusalOf(await result(seller.apiKey, 'service_orders_deliver', { note: 'hi' }));
    expect(missing).toMatchObject({ error: 'bad_request', detail: { message: expect.stringMatching(/arguments\.id/) } });
    const unknown = refusalOf(await result(seller.apiKey, 'service_me', { bogus: 1, other: 2 }));
    expect(unknown).toMatchObject({ error: 'bad_request', detail: { message: 'arguments: unknown fields bogus, other', issues: [{ path: ['arguments'], code: 'unrecognized_keys', keys: ['bogus', 'other'] }] } });
    const readKey = refusalOf(await result(seller.apiKey, 'service_orders', { idempotencyKey: 'k' }));
    expect(readKey.error).toBe('bad_request');
    for (const idempotencyKey of [5, '', 'ключ', 'x'.repeat(256)]) {
      const badKey = refusalOf(await result(seller.apiKey, 'service_keys_create', { name: 'x', scopes: ['orders'], idempotencyKey }));
      expect(badKey).toMatchObject({ error: 'bad_request', detail: { message: 'arguments.idempotencyKey: a string of 1–255 printable ASCII characters' } });
    }
  });

  it('a tool beyond the key’s scopes → isError scope naming the needed scope', async () => {
    const catalogKey = await issueKey(app, seller.apiKey, ['catalog']);
    const body = refusalOf(await result(catalogKey.key, 'service_orders', { needsAction: true }));
    expect(body).toMatchObject({ error: 'scope', detail: { needed: 'orders' } });
  });

  it('a rule refusal → isError with rejected and refusal.kind (scope escalation)', async () => {
    const narrow = await issueKey(app, seller.apiKey, ['keys', 'catalog']);
    const body = refusalOf(await result(narrow.key, 'service_keys_create', { name: 'wider', scopes: ['orders'] }));
    expect(body.error).toBe('rejected');
    expect(body.refusal).toMatchObject({ kind: 'scope_escalation', allowed: ['keys', 'catalog'] });
  });

  it('deliver on a missing order → isError rejected not_found; a foreign order looks the same', async () => {
    const body = refusalOf(await result(seller.apiKey, 'service_orders_deliver', { id: 'ord_missing1' }));
    expect(body).toMatchObject({ error: 'rejected', refusal: { kind: 'not_found' } });
    const read = refusalOf(await result(seller.apiKey, 'service_orders_get', { id: 'ord_missing1' }));
    expect(read.error).toBe('not_found');
  });
});

describe('the image upload tool', () => {
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

  it('takes the bytes as base64 data with a contentType; bad base64 and a wrong type are refused', async () => {
    const s = await newSeller(app, { admission: 'complete' });
    const created = await result(s.apiKey, 'service_listings_create', CODE_CARD);
    const number = created.structuredContent.number;
    const up = await result(s.apiKey, 'service_listings_set_image', { number, data: PNG.toString('base64'), contentType: 'image/png' });
    expect(up.isError, JSON.stringify(up)).toBe(false);
    expect(up.structuredContent).toMatchObject({ number, image: { url: expect.any(String) } });
    const card = await call(app, s.apiKey, 'GET', `/api/v1/listings/${number}`);
    expect(card.body.image).not.toBeNull();
    const bad = refusalOf(await result(s.apiKey, 'service_listings_set_image', { number, data: 'not base64!', contentType: 'image/png' }));
    expect(bad).toMatchObject({ error: 'bad_request', detail: { message: 'arguments.data: the image bytes in base64' } });
    const wrong = refusalOf(await result(s.apiKey, 'service_listings_set_image', { number, data: Buffer.from('GIF89a....').toString('base64'), contentType: 'image/png' }));
    expect(wrong).toMatchObject({ error: 'rejected', refusal: { kind: 'image_type' } });
  });
});

describe('idempotency through idempotencyKey', () => {
  const keyCount = async (key: string) => (await call(app, key, 'GET', '/api/v1/keys?limit=200')).body.items.length as number;

  it('the same idempotencyKey twice → one effect, the same answer replayed; other arguments → idempotency_mismatch', async () => {
    const s = await newSeller(app);
    const before = await keyCount(s.apiKey);
    const first = await result(s.apiKey, 'service_keys_create', { name: 'once', scopes: ['catalog'], idempotencyKey: 'mcp-idem-1' });
    const again = await result(s.apiKey, 'service_keys_create', { scopes: ['catalog'], name: 'once', idempotencyKey: 'mcp-idem-1' });
    expect(first.isError).toBe(false);
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again._meta).toEqual({ 'service/idempotentReplayed': true });
    expect(first._meta).toBeUndefined();
    expect(await keyCount(s.apiKey)).toBe(before + 1);
    const other = refusalOf(await result(s.apiKey, 'service_keys_create', { name: 'twice', scopes: ['catalog'], idempotencyKey: 'mcp-idem-1' }));
    expect(other.error).toBe('idempotency_mismatch');
    expect(await keyCount(s.apiKey)).toBe(before + 1);
  });

  it('without idempotencyKey every call acts anew (a fresh key each time)', async () => {
    const s = await newSeller(app);
    const before = await keyCount(s.apiKey);
    await result(s.apiKey, 'service_keys_create', { name: 'a', scopes: ['catalog'] });
    await result(s.apiKey, 'service_keys_create', { name: 'a', scopes: ['catalog'] });
    expect(await keyCount(s.apiKey)).toBe(before + 2);
  });

  it('the records are shared with HTTP: an HTTP call and a tool call with the same key and request act once', async () => {
    const s = await newSeller(app);
    const http = await call(app, s.apiKey, 'POST', '/api/v1/catalog/requests', { title: 'A new service' }, { 'idempotency-key': 'shared-1' });
    expect(http.status, http.text).toBe(201);
    const tool = await result(s.apiKey, 'service_catalog_requests_create', { title: 'A new service', idempotencyKey: 'shared-1' });
    expect(tool.structuredContent).toEqual(http.body);
    expect(tool._meta).toEqual({ 'service/idempotentReplayed': true });
  });
});

describe('an agent runs an order through the tools', () => {
  it('create a card (switched off), switch it on, the buyer pays, needsAction lists it, deliver it', async () => {
    const s = await newSeller(app, { admission: 'complete' });
    const created = await result(s.apiKey, 'service_listings_create', {
      service: 'spotify',
      tariff: 'individual',
      productType: 'code',
      deliveryMethod: 'code',
      priceRub: 300,
      slaMinutes: 60,
      guaranteeDays: 7,
      description: 'Gift code',
    });
    expect(created.isError, JSON.stringify(created)).toBe(false);
    expect(created.structuredContent.isActive).toBe(false);
    const number = created.structuredContent.number;
    const on = await result(s.apiKey, 'service_listings_set_state', { number, active: true });
    expect(on.structuredContent).toMatchObject({ number, isActive: true });
    const stockEmpty = refusalOf(await result(s.apiKey, 'service_listings_set_state', { number: String(number), active: true, autoIssue: true }));
    expect(stockEmpty).toMatchObject({ error: 'rejected', refusal: { kind: 'stock_empty' } });

    const order = await sandbox(app, 'POST', '/orders', { number });
    expect(order.status, order.text).toBe(201);
    expect((await sandbox(app, 'POST', `/orders/${order.body.id}/pay`, {})).status).toBe(200);

    const waiting = await result(s.apiKey, 'service_orders', { needsAction: true });
    expect(waiting.structuredContent.items.map((o: { id: string }) => o.id)).toEqual([order.body.id]);
    const delivered = await result(s.apiKey, 'service_orders_deliver', { id: order.body.id, note: 'Enjoy' });
    expect(delivered.structuredContent).toMatchObject({ order: order.body.id, status: 'delivered', noteRejected: null });
    const moved = refusalOf(await result(s.apiKey, 'service_orders_deliver', { id: order.body.id }));
    expect(moved).toMatchObject({ error: 'rejected', refusal: { kind: 'state_moved' } });
    expect((await result(s.apiKey, 'service_orders', { needsAction: true })).structuredContent.items).toEqual([]);
  });
});

describe('resources', () => {
  it('templates: catalogue positions, cards and orders, as the key’s scopes allow', async () => {
    const all = await rpc(seller.apiKey, 'resources/templates/list');
    expect(all.body.result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      'service://catalog/{slug}',
      'service://listings/{number}',
      'service://orders/{id}',
    ]);
    const catalogKey = await issueKey(app, seller.apiKey, ['catalog']);
    const some = await rpc(catalogKey.key, 'resources/templates/list');
    expect(some.body.result.resourceTemplates.map((t: { name: string }) => t.name)).toEqual(['catalog-position']);
  });

  it('resources/list lists the catalogue positions; read answers one as JSON', async () => {
    const list = await rpc(seller.apiKey, 'resources/list');
    const resources = list.body.result.resources;
    expect(resources.length).toBeGreaterThanOrEqual(20);
    expect(resources[0]).toMatchObject({ uri: expect.stringMatching(/^service:\/\/catalog\/[a-z0-9-]+$/), name: expect.any(String), mimeType: 'application/json' });
    const read = await rpc(seller.apiKey, 'resources/read', { uri: resources[0].uri });
    const [content] = read.body.result.contents;
    expect(content).toMatchObject({ uri: resources[0].uri, mimeType: 'application/json' });
    expect(JSON.parse(content.text).slug).toBe(resources[0].name);
  });

  it('reads a card of the key’s seller; another seller’s card, a missing order or position is not found (-32002)', async () => {
    const s = await newSeller(app);
    const created = await call(app, s.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    expect(created.status, created.text).toBe(201);
    const card = await rpc(s.apiKey, 'resources/read', { uri: `service://listings/${created.body.number}` });
    expect(JSON.parse(card.body.result.contents[0].text).number).toBe(created.body.number);
    const foreign = await rpc(seller.apiKey, 'resources/read', { uri: `service://listings/${created.body.number}` });
    expectRpcError(foreign, 200, RpcCode.resourceNotFound);
    expectRpcError(await rpc(seller.apiKey, 'resources/read', { uri: 'service://orders/ord_nothing' }), 200, RpcCode.resourceNotFound);
    expectRpcError(await rpc(seller.apiKey, 'resources/read', { uri: 'service://catalog/no-such-position' }), 200, RpcCode.resourceNotFound);
  });

  it('an unknown uri → -32602; a uri beyond the key’s scopes → -32001 scope; no catalog scope → an empty list', async () => {
    expectRpcError(await rpc(seller.apiKey, 'resources/read', { uri: 'https://example.com/x' }), 200, RpcCode.invalidParams);
    expectRpcError(await rpc(seller.apiKey, 'resources/read', {}), 200, RpcCode.invalidParams);
    expectRpcError(await rpc(seller.apiKey, 'resources/read', { uri: 'service://listings/abc' }), 200, RpcCode.invalidParams);
    const ordersKey = await issueKey(app, seller.apiKey, ['orders']);
    const denied = await rpc(ordersKey.key, 'resources/read', { uri: 'service://catalog/spotify' });
    expectRpcError(denied, 200, RpcCode.refused);
    expect(denied.body.error.data).toMatchObject({ error: 'scope', detail: { needed: 'catalog' } });
    expect((await rpc(ordersKey.key, 'resources/list')).body.result).toEqual({ resources: [] });
  });
});
