/**
 * Every request example of the OpenAPI document is one the server accepts: each is sent, as a mock
 * server or an API tester would send it, to a fresh seller of a real `seller-server` (admission
 * complete, a switched-on card with stock), and answered 2xx. A path's card number is the seller's
 * card; any other id (of a path, or an order a complaint names) is the document's example id, which
 * no store holds: `not_found` (a 404, or the refusal of that kind) is then the answer, and nothing
 * else (not a 400, not another rule's 409). An example that needs another first (a test delivery
 * needs the subscription) has that one's example sent before it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiOperations, BASE_PATH, fillPath, type AnyOperation } from '../../sdk/contract/index.ts';
import { exampleOf } from '../../sdk/openapi-examples.ts';
import { buildOpenApi, type JsonSchema } from '../../sdk/openapi.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';

const world = useSellerWorld({ server: { rateLimit: NO_RATE_LIMIT } });
const doc = buildOpenApi(Object.values(apiOperations));
const components = (doc.components?.schemas ?? {}) as Record<string, JsonSchema>;
/** Examples sent before an operation's own, on the same seller. */
const BEFORE: Record<string, string[]> = { 'hooks.test': ['hooks.set'] };

const exampleBody = (op: AnyOperation): unknown =>
  (doc.paths[BASE_PATH.api + op.path]![op.method.toLowerCase()]!.requestBody as { content: Record<string, { example: unknown }> }).content['application/json']!.example;

const withBody = (Object.values(apiOperations) as AnyOperation[]).filter((op) => op.surface === 'api' && op.bodyType === 'json');

describe('every request example of the OpenAPI document is accepted by the server', () => {
  it('there are examples to send', () => {
    expect(withBody.length).toBeGreaterThan(15);
  });

  it.each(withBody.map((op) => [op.id, op] as const))('%s', async (_id, op) => {
    const operation = doc.paths[BASE_PATH.api + op.path]![op.method.toLowerCase()]!;
    const example = exampleBody(op);
    const shop = await world.newShop({ card: { stock: ['CODE-1', 'CODE-2'] } });
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${world.server.url}${BASE_PATH.api}${path}`, {
        method,
        headers: { authorization: `Bearer ${shop.apiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(body),
      });
    for (const id of BEFORE[op.id] ?? []) {
      const first = apiOperations[id as keyof typeof apiOperations] as AnyOperation;
      const res = await send(first.method, first.path, exampleBody(first));
      expect(res.status, await res.text()).toBe(first.status);
    }
    const params: Record<string, unknown> = {};
    let absentId = typeof example === 'object' && example !== null && 'order' in example;
    for (const p of (operation.parameters ?? []) as JsonSchema[]) {
      if (p.in !== 'path') continue;
      const name = p.name as string;
      if (name === 'number') params[name] = shop.card;
      else {
        params[name] = exampleOf(p.schema as JsonSchema, components, name);
        absentId = true;
      }
    }
    const res = await send(op.method, fillPath(op.path, params), example);
    const text = await res.text();
    const what = `${op.method} ${op.path} ${JSON.stringify(example)} → ${res.status} ${text}`;
    const answer = JSON.parse(text) as { error?: string; refusal?: { kind?: string } };
    if (absentId && res.status === 404) expect(answer.error, what).toBe('not_found');
    else if (absentId && res.status === 409) expect(answer.refusal?.kind, what).toBe('not_found');
    else expect(res.status, what).toBe(op.status);
  });
});
