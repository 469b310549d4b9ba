/**
 * Isolation (issue 8, rule 7): seller B can neither see nor touch seller A's records, and cannot tell
 * them from absent ones. Driven by the operation table: every operation with a path parameter is
 * called as B with each of A's real ids (every card, every order in every state, the question, the
 * review, the keys) and
 *
 * - with the very same id on a twin server where it does not exist (B' as fresh as B): the status,
 *   the headers that matter and the body must be exactly equal, byte for byte;
 * - with a fabricated absent id of the same shape on the same server: the same status and the same
 *   body, the id the caller sent echoed back being the only difference;
 * - and A's document and the shared document must be unchanged afterwards.
 *
 * Records without an operation by id (complaints, catalogue requests, deliveries, the hook, the
 * probe, vault contents) are checked through the operations that name them (a complaint about A's
 * order) and through every list B can read: none shows anything of A's. The MCP tools and resources,
 * which run the same pipeline, get the same comparison.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations, BASE_PATH, pathParamNames, type AnyOperation } from '../../sdk/contract/index.ts';
import { toolCatalogue } from '../../server/mcp/tools.ts';
import { webhooksIdle } from '../../server/webhooks/outbox.ts';
import { api, ok, openApp, sandbox, seedWorld, send, SUB_CARD, type Reply, type SellerKey, type World } from './helpers.ts';

const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

const { service: _service, tariff: _tariff, ...EDITABLE } = SUB_CARD;

/** A body each operation accepts (so that the call reaches the record lookup, not validation). */
const BODIES: Record<string, unknown> = {
  'listings.update': { ...EDITABLE, priceRub: 999 },
  'listings.setState': { active: false, autoIssue: false },
  'listings.setTest': { isTest: true },
  'stock.refill': { items: ['INJECTED-BY-B'] },
  'orders.decline': { reason: 'Out of stock' },
  'orders.deliver': { nextChargeDay: '2030-01-15', note: 'Delivered by B' },
  'orders.message': { text: 'Hello from B' },
  'orders.putVault': { secret: 'B-SECRET' },
  'orders.disputeReply': { text: 'Reply from B' },
  'questions.answer': { text: 'Answer from B' },
  'reviews.reply': { text: 'Reply from B' },
};

/** Operations whose path parameter does not name a seller's record. */
const SHARED = new Set(['catalog.get']);

let app: FastifyInstance;
let twin: FastifyInstance;
let world: World;
let b: SellerKey;
let bTwin: SellerKey;

beforeAll(async () => {
  app = await openApp();
  world = await seedWorld(app);
  b = world.b;
  // The twin: a server where none of A's ids exist, with a seller as fresh as B.
  twin = await openApp();
  bTwin = await ok(sandbox(twin, 'POST', '/sellers', { admission: 'complete' }), 201);
});
afterAll(async () => {
  await app.close();
  await twin.close();
});

/** A's real ids for a path parameter of `op`. */
function realIds(op: AnyOperation): string[] {
  const name = pathParamNames(op.path)[0]!;
  if (name === 'number') return Object.values(world.cards).map(String);
  if (op.id.startsWith('orders.')) return Object.values(world.orders);
  if (op.id === 'questions.answer') return [world.question];
  if (op.id === 'reviews.reply') return [world.review];
  if (op.id === 'keys.revoke') return [world.extraKey.id, world.a.keyId];
  throw new Error(`no real ids for ${op.id}`);
}

/** An id of the same shape that nobody has: same prefix, same length. */
function fabricated(id: string): string {
  if (/^\d+$/.test(id)) return String(Number(id) + 500_000);
  const [prefix, rest] = [id.slice(0, id.indexOf('_') + 1), id.slice(id.indexOf('_') + 1)];
  return prefix + 'Z'.repeat(rest.length);
}

function call(on: FastifyInstance, key: string, op: AnyOperation, id: string, idem: string): Promise<Reply> {
  const name = pathParamNames(op.path)[0]!;
  const url = BASE_PATH.api + op.path.replace(`{${name}}`, encodeURIComponent(id));
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (op.changes) headers['idempotency-key'] = idem;
  if (op.bodyType === 'binary') return send(on, { method: op.method, url, headers: { ...headers, 'content-type': 'image/png' }, payload: TINY_PNG });
  const body = BODIES[op.id];
  return send(on, { method: op.method, url, headers, ...(body === undefined ? {} : { json: body }) });
}

/** Headers an observer could compare (not the per-request ones). */
function stableHeaders(r: Reply): Record<string, unknown> {
  const skip = /^(x-request-id|date|ratelimit|ratelimit-policy|retry-after|keep-alive|connection)$/;
  return Object.fromEntries(Object.entries(r.headers).filter(([k]) => !skip.test(k)));
}

function isNotFound(op: AnyOperation, r: Reply): boolean {
  if (r.status === 404 && r.body?.error === 'not_found') return true;
  return op.refusals.includes('not_found') && r.status === 409 && r.body?.error === 'rejected' && r.body?.refusal?.kind === 'not_found';
}

async function snapshot(): Promise<string> {
  await webhooksIdle(app.service);
  const a = await app.service.store.seller(world.a.sellerId);
  return JSON.stringify({ a, shared: app.service.store.shared });
}

const byId = Object.values(apiOperations as Record<string, AnyOperation>).filter((op) => pathParamNames(op.path).length > 0 && !SHARED.has(op.id));

describe('every operation with a path parameter: A\'s ids look absent to B', () => {
  it('covers every such operation of the table', () => {
    expect(byId.length).toBeGreaterThanOrEqual(22);
    for (const op of byId) expect(() => realIds(op), op.id).not.toThrow();
    for (const [id, body] of Object.entries(BODIES)) {
      const op = (apiOperations as Record<string, AnyOperation>)[id]!;
      expect(op.body.safeParse(body).success, id).toBe(true);
    }
  });

  it.each(byId.map((op) => [op.id, op] as const))('%s', async (_id, op) => {
    for (const real of realIds(op)) {
      const before = await snapshot();
      const idem = `iso-${randomUUID()}`;
      const asB = await call(app, b.apiKey, op, real, idem);
      const onTwin = await call(twin, bTwin.apiKey, op, real, idem);
      const absent = fabricated(real);
      const asBAbsent = await call(app, b.apiKey, op, absent, `iso-${randomUUID()}`);
      const after = await snapshot();

      const what = `${op.id} with A's ${real}: ${asB.status} ${asB.text}`;
      expect(isNotFound(op, asB), what).toBe(true);
      // the same id where it does not exist: exactly the same answer
      expect(asB.status, what).toBe(onTwin.status);
      expect(asB.text, what).toBe(onTwin.text);
      expect(stableHeaders(asB), what).toEqual(stableHeaders(onTwin));
      // an absent id of the same shape: the same answer but for the id echoed back
      expect(asBAbsent.status, what).toBe(asB.status);
      expect(asBAbsent.text.split(absent).join(real), what).toBe(asB.text);
      expect(stableHeaders(asBAbsent), what).toEqual({ ...stableHeaders(asB), 'content-length': stableHeaders(asBAbsent)['content-length'] });
      // A's records and the shared indexes are untouched
      expect(after === before, `${op.id} as B changed A's data`).toBe(true);
    }
  });
});

describe('records without an operation by id', () => {
  it("a complaint about A's order is not_found, exactly as about an absent order", async () => {
    for (const order of Object.values(world.orders)) {
      const before = await snapshot();
      const body = { order, reason: 'fraud', text: 'Chargeback' };
      const asB = await api(app, b.apiKey, 'POST', '/complaints', body);
      const onTwin = await api(twin, bTwin.apiKey, 'POST', '/complaints', body);
      expect(asB.status, asB.text).toBe(404);
      expect(asB.text).toBe(onTwin.text);
      expect(await snapshot()).toBe(before);
    }
  });

  it("B's hooks.test fires nothing of A's; B's hook is off", async () => {
    const before = await snapshot();
    const asB = await api(app, b.apiKey, 'POST', '/hooks/test', {});
    const onTwin = await api(twin, bTwin.apiKey, 'POST', '/hooks/test', {});
    expect(asB.status).toBe(onTwin.status);
    expect(asB.text).toBe(onTwin.text);
    expect((await ok(api(app, b.apiKey, 'GET', '/hooks'))).status).toBe('off');
    expect(await snapshot()).toBe(before);
  });

  it("B's probe receiver is B's own: A's probe hits never show", async () => {
    await ok(api(app, b.apiKey, 'POST', '/hooks/probe'), 201);
    const hits = await ok(api(app, b.apiKey, 'GET', '/hooks/probe'));
    expect(hits.items).toEqual([]);
  });

  it("no list B can read shows anything of A's", async () => {
    const a = await app.service.store.seller(world.a.sellerId);
    const marks = [
      world.a.sellerId,
      world.a.keyId,
      world.extraKey.id,
      ...Object.values(world.orders),
      world.question,
      world.review,
      world.complaint,
      world.request,
      world.delivery,
      world.probeUrl.split('/').pop()!,
      a.papers.nickname!,
      ...world.secrets.values(),
    ];
    const lists = Object.values(apiOperations as Record<string, AnyOperation>).filter((op) => op.method === 'GET' && pathParamNames(op.path).length === 0);
    expect(lists.length).toBeGreaterThanOrEqual(20);
    for (const op of lists) {
      const query = op.id === 'catalog.usualPrice' ? '?service=spotify&productType=subscription' : '';
      const res = await send(app, { method: 'GET', url: `${BASE_PATH.api}${op.path}${query}`, headers: { authorization: `Bearer ${b.apiKey}` } });
      expect(res.status, `${op.id}: ${res.text}`).toBe(200);
      for (const mark of marks) expect(res.text.includes(mark), `${op.id} shows ${mark}`).toBe(false);
      // B's own card numbers: none (A's numbers are plain integers; check the items' numbers instead)
      const numbers = JSON.stringify(res.body.items ?? []).match(/"number":(\d+)/g) ?? [];
      expect(numbers, op.id).toEqual([]);
    }
  });
});

describe('the MCP tools and resources: the same comparison', () => {
  const tools = [...toolCatalogue().values()].filter((t) => byId.some((op) => op.id === t.op.id));

  async function mcp(on: FastifyInstance, key: string, method: string, params: unknown): Promise<Reply> {
    return send(on, { method: 'POST', url: '/api/mcp', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, json: { jsonrpc: '2.0', id: 1, method, params } });
  }

  it.each(tools.map((t) => [t.name, t] as const))('%s', async (_name, tool) => {
    const op = tool.op;
    const param = pathParamNames(op.path)[0]!;
    for (const real of realIds(op)) {
      const before = await snapshot();
      const args: Record<string, unknown> = { [param]: param === 'number' ? Number(real) : real, ...(BODIES[op.id] as object | undefined) };
      if (op.bodyType === 'binary') Object.assign(args, { data: TINY_PNG.toString('base64'), contentType: 'image/png' });
      if (op.changes) args.idempotencyKey = `iso-${randomUUID()}`;
      for (const k of Object.keys(args)) if (args[k] === undefined) delete args[k];
      const asB = await mcp(app, b.apiKey, 'tools/call', { name: tool.name, arguments: args });
      const onTwin = await mcp(twin, bTwin.apiKey, 'tools/call', { name: tool.name, arguments: args });
      expect(asB.body.result?.isError, `${op.id} ${real}: ${asB.text}`).toBe(true);
      expect(asB.text, `${op.id} ${real}`).toBe(onTwin.text);
      expect(await snapshot()).toBe(before);
    }
  });

  it("resources/read of A's card or order is the same -32002 as an absent one", async () => {
    const uris = [...Object.values(world.cards).map((n) => `service://listings/${n}`), ...Object.values(world.orders).map((id) => `service://orders/${id}`)];
    for (const uri of uris) {
      const asB = await mcp(app, b.apiKey, 'resources/read', { uri });
      const onTwin = await mcp(twin, bTwin.apiKey, 'resources/read', { uri });
      expect(asB.body.error?.code, asB.text).toBe(-32002);
      expect(asB.text).toBe(onTwin.text);
    }
  });
});
