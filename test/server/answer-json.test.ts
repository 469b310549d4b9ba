/**
 * Answers serialized from the contract's JSON Schema by fast-json-stringify (server/http/answer-json.ts).
 *
 * - Every answer the handlers gave while a world was seeded and read (tapped before the pipeline) is
 *   written byte for byte as zod's parse + JSON.stringify writes it.
 * - Unknown fields put into every object of those answers (a buyer id, a sealed secret) are not
 *   written, and change nothing.
 * - The development check (`checkAnswers`) refuses what the contract refuses: a handler result
 *   with a leaf bent out of the contract is a 500 over HTTP, not a silently coerced answer; without
 *   the check the serializer still writes only declared fields.
 * - MCP answers the very text HTTP answers.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOperations, apiOperations, type AnyOperation } from '../../sdk/contract/index.ts';
import { buildApp } from '../../server/app.ts';
import { AnswerMismatch, answerJsonSchema, checkAnswer, serializerOf } from '../../server/http/answer-json.ts';
import { apiHandlerTable } from '../../server/routes/index.ts';
import { mutations, plain, readWorld, tapHandlers, withForeignFields } from '../helpers/answers.ts';
import { api, openApp, seedWorld, type World } from '../hardening/helpers.ts';

/** zod's verdict and text: the JSON of the parsed value, or undefined when refused. */
function zodJson(op: AnyOperation, value: unknown): string | undefined {
  const parsed = op.answer.safeParse(value);
  return parsed.success ? JSON.stringify(parsed.data) : undefined;
}

interface Tapped {
  op: AnyOperation;
  zod: string | undefined;
  written: string;
  copy: unknown;
}

const tapped: Tapped[] = [];
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  tapHandlers((op, result) => {
    tapped.push({ op, zod: zodJson(op, result), written: serializerOf(op.answer)(result), copy: plain(result) });
  });
  app = await openApp();
  world = await seedWorld(app);
  await readWorld(app, world);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('answer serializers', () => {
  it('compile for every operation of the contract', () => {
    for (const op of Object.values(allOperations)) expect(typeof serializerOf(op.answer), op.id).toBe('function');
    // Nullable values are a type of their own, never an anyOf resolved by validating each value.
    expect(JSON.stringify(answerJsonSchema(apiOperations['orders.list'].answer))).not.toMatch(/anyOf|oneOf/);
  });

  it('write every handler answer byte for byte as zod + JSON.stringify does', () => {
    expect(new Set(tapped.map((t) => t.op.id)).size).toBeGreaterThanOrEqual(50);
    for (const t of tapped) {
      expect(t.zod, `${t.op.id}: the handler's answer matches the contract`).toBeDefined();
      expect(t.written, t.op.id).toBe(t.zod);
    }
  });

  it('drop unknown fields at every depth (a buyer id, a sealed secret)', () => {
    let checked = 0;
    for (const t of tapped) {
      if (typeof t.copy !== 'object' || t.copy === null) continue;
      // A record's keys are its data: a probe hit's headers keep theirs (the foreign ones included).
      if (t.op.id === 'hooks.probe') continue;
      const written = serializerOf(t.op.answer)(withForeignFields(t.copy));
      expect(written).not.toMatch(/LEAK|SEALED|SECRET/);
      expect(written, t.op.id).toBe(t.written);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('the catalogue’s delivery methods by product type write no key outside the enumeration', () => {
    const op = apiOperations['catalog.get'];
    const t = tapped.find((x) => x.op.id === op.id)!;
    const bent = { ...(t.copy as object), deliveryMethods: { ...(t.copy as { deliveryMethods: object }).deliveryMethods, buyerId: ['LEAK'] } };
    expect(serializerOf(op.answer)(bent)).toBe(t.written);
  });

  it('the development check refuses every bent leaf the contract refuses, and takes what it takes', () => {
    let refused = 0;
    let taken = 0;
    for (const t of tapped.slice(0, 60)) {
      if (typeof t.copy !== 'object' || t.copy === null) continue;
      for (const { value, what } of mutations(t.copy, undefined, 20)) {
        let json: string | undefined;
        try {
          json = serializerOf(t.op.answer)(value);
        } catch {
          refused++; // a required property missing: the serializer refuses on its own
          continue;
        }
        if (zodJson(t.op, value) === undefined) {
          expect(() => checkAnswer(t.op, value, json!), `${t.op.id}: ${what}`).toThrow(AnswerMismatch);
          refused++;
        } else {
          expect(() => checkAnswer(t.op, value, json!), `${t.op.id}: ${what}`).not.toThrow();
          taken++;
        }
      }
    }
    expect(refused).toBeGreaterThan(500);
    expect(taken).toBeGreaterThan(50);
  });
});

describe('over HTTP and MCP', () => {
  /** A server whose `GET /me` handler answers `bend(result)`. */
  async function bentServer(checkAnswers: boolean, bend: (me: Record<string, unknown>) => unknown) {
    const table = apiHandlerTable as Record<string, unknown>;
    const original = table['me.get'] as (ctx: unknown, input: unknown) => Promise<Record<string, unknown>>;
    table['me.get'] = async (ctx: unknown, input: unknown) => bend(await original(ctx, input));
    const bent = await buildApp({ memory: true, checkAnswers });
    table['me.get'] = original;
    const seller = (await bent.inject({ method: 'POST', url: '/sandbox/v1/sellers', headers: { authorization: `Bearer ${bent.service.adminToken}` }, payload: {} })).json();
    return { app: bent, key: seller.apiKey as string };
  }

  it('with the check on, an answer out of the contract is a 500, not a coerced answer', async () => {
    const { app: bent, key } = await bentServer(true, (me) => ({ ...me, sellerId: 42 }));
    try {
      const res = await api(bent, key, 'GET', '/me');
      expect(res.status).toBe(500);
      expect((res.body as { error: string }).error).toBe('internal');
    } finally {
      await bent.close();
    }
  });

  it('with the check off, unknown fields still never leave', async () => {
    const { app: bent, key } = await bentServer(false, (me) => ({ ...me, buyerId: 'buy_LEAK', sealed: 'v1:SECRET' }));
    try {
      const res = await api(bent, key, 'GET', '/me');
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/LEAK|SECRET/);
      expect(bent.service.options.checkAnswers).toBe(false);
    } finally {
      await bent.close();
    }
  });

  it('MCP answers the text HTTP answers', async () => {
    const k = world.a.apiKey;
    const http = await api(app, k, 'GET', '/orders?limit=3');
    const res = await app.inject({
      method: 'POST',
      url: '/api/mcp',
      headers: { authorization: `Bearer ${k}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'service_orders', arguments: { limit: 3 } } },
    });
    const text = res.json().result.content[0].text;
    expect(text).toBe(http.text);
  });
});
