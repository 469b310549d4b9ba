/**
 * The OpenAPI document (sdk/openapi.ts) against the operation table, served by the server without
 * a key, and linted by Redocly with the repository's redocly.yaml (no problem allowed).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations, BASE_PATH, EVENT_KINDS, pathParamNames, sandboxOperations, WEBHOOK_HEADERS, type AnyOperation } from '../../sdk/contract/index.ts';
import { buildOpenApi, type JsonSchema, type OpenApiDocument, type OpenApiOperation } from '../../sdk/openapi.ts';
import { makeApp } from './helpers.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ops = Object.values(apiOperations) as AnyOperation[];
const doc = buildOpenApi([...ops, ...Object.values(sandboxOperations)]);

function operation(d: OpenApiDocument, op: AnyOperation): OpenApiOperation {
  const found = d.paths[BASE_PATH.api + op.path]?.[op.method.toLowerCase()];
  if (!found) throw new Error(`${op.id} (${op.method} ${op.path}) is not in the document`);
  return found;
}

/** Follows `#/components/...` references. */
function deref(d: OpenApiDocument, node: JsonSchema): JsonSchema {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const [, , kind, name] = ref.split('/') as [string, string, keyof OpenApiDocument['components'], string];
  const target = d.components[kind][name];
  if (!target) throw new Error(`unresolved ${ref}`);
  return target;
}

const params = (d: OpenApiDocument, o: OpenApiOperation) => (o.parameters ?? []).map((p) => deref(d, p));

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with info, a server and bearer security', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.servers[0]!.url).toBe('http://127.0.0.1:8787');
    expect(buildOpenApi(ops, { serverUrl: 'http://h:1/' }).servers[0]!.url).toBe('http://h:1');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has every API operation of the table, once, and nothing else', () => {
    const inDoc = Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([m, o]) => `${m.toUpperCase()} ${p} ${o.operationId}`));
    const inTable = ops.map((op) => `${op.method} ${BASE_PATH.api}${op.path} ${op.id}`);
    expect(inDoc.sort()).toEqual(inTable.sort());
    // the sandbox is server-only: left out
    expect(Object.keys(doc.paths).some((p) => p.startsWith(BASE_PATH.sandbox))).toBe(false);
  });

  it('names the scope, the section and the security of each operation', () => {
    for (const op of ops) {
      const o = operation(doc, op);
      expect(o.operationId).toBe(op.id);
      expect(o.tags).toEqual([op.id.split('.')[0]]);
      expect(o.security).toEqual([{ bearer: [] }]);
      expect(o['x-scope']).toBe(op.scope);
      expect(o.description).toContain(op.scope ? `Scope: \`${op.scope}\`` : 'any key');
      expect(o.summary.length).toBeGreaterThan(0);
    }
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const o of Object.values(doc.paths).flatMap((item) => Object.values(item))) expect(tags.has(o.tags[0]!), o.operationId).toBe(true);
  });

  it('every changing operation requires Idempotency-Key; reads do not take it', () => {
    for (const op of ops) {
      const key = params(doc, operation(doc, op)).find((p) => p.name === 'Idempotency-Key');
      if (op.changes) expect(key, op.id).toMatchObject({ in: 'header', required: true });
      else expect(key, op.id).toBeUndefined();
    }
  });

  it('path and query parameters come from the schemas', () => {
    for (const op of ops) {
      const ps = params(doc, operation(doc, op));
      expect(ps.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathParamNames(op.path));
      for (const p of ps.filter((x) => x.in === 'path')) expect(p.required).toBe(true);
    }
    const number = params(doc, operation(doc, apiOperations['listings.get'])).find((p) => p.name === 'number')!;
    expect(number.schema).toEqual({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    const orderList = params(doc, operation(doc, apiOperations['orders.list']));
    expect(orderList.find((p) => p.name === 'limit')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200 } });
    expect(orderList.find((p) => p.name === 'needsAction')!.schema).toEqual({ type: 'boolean' });
    expect(orderList.find((p) => p.name === 'status')!.schema).toMatchObject({ enum: expect.arrayContaining(['delivered']) });
    const usual = params(doc, operation(doc, apiOperations['catalog.usualPrice']));
    expect(usual.filter((p) => p.required).map((p) => p.name).sort()).toEqual(['productType', 'service']);
  });

  it('request bodies: JSON from the body schema, the image as raw bytes', () => {
    for (const op of ops) {
      const body = operation(doc, op).requestBody;
      if (op.bodyType === 'none') expect(body, op.id).toBeUndefined();
      if (op.bodyType === 'json') expect(Object.keys(body!.content as object), op.id).toEqual(['application/json']);
    }
    const image = operation(doc, apiOperations['listings.setImage']).requestBody!;
    expect(Object.keys(image.content as object).sort()).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    const create = operation(doc, apiOperations['listings.create']).requestBody!;
    expect(create).toMatchObject({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewCard' } } } });
    const newCard = doc.components.schemas.NewCard!;
    expect(newCard).toMatchObject({ type: 'object', additionalProperties: false });
    expect(newCard.required).toEqual(expect.arrayContaining(['service', 'tariff', 'priceRub']));
  });

  it('answers: the success status with its schema and the error answers with ErrorBody', () => {
    for (const op of ops) {
      const o = operation(doc, op);
      const statuses = Object.keys(o.responses);
      expect(statuses, op.id).toContain(String(op.status));
      const success = deref(doc, o.responses[String(op.status)]!);
      expect((success.content as Record<string, unknown>)['application/json'], op.id).toBeDefined();
      for (const s of ['401', '403', '429', '500']) expect(statuses, `${op.id} ${s}`).toContain(s);
      expect(statuses.includes('422'), op.id).toBe(op.changes);
      expect(statuses.includes('409'), op.id).toBe(op.refusals.length > 0);
      if (op.changes) expect(statuses, op.id).toContain('400');
      // 404 where a record may be missing (every path naming one, and the routes declared `notFound`), unless it is a refusal.
      expect(statuses.includes('404'), op.id).toBe(op.notFound && !op.refusals.includes('not_found'));
      if (pathParamNames(op.path).length > 0 && !op.refusals.includes('not_found')) expect(statuses, op.id).toContain('404');
      for (const s of statuses.filter((x) => x >= '400')) {
        const r = deref(doc, o.responses[s]!);
        const schema = (r.content as Record<string, { schema: JsonSchema }>)['application/json']!.schema;
        const named = schema.$ref ?? (schema.allOf as JsonSchema[] | undefined)?.[0]?.$ref;
        expect(named, `${op.id} ${s}`).toBe('#/components/schemas/ErrorBody');
      }
    }
    expect(doc.components.schemas.ErrorBody).toMatchObject({ type: 'object', required: ['error'] });
    const rate = deref(doc, operation(doc, apiOperations['me.get']).responses['429']!);
    expect(Object.keys(rate.headers as object)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit', 'RateLimit-Policy']));
  });

  it('409 lists the refusal kinds of the operation', () => {
    for (const op of ops.filter((o) => o.refusals.length > 0)) {
      const r = operation(doc, op).responses['409']!;
      for (const kind of op.refusals) expect(r.description as string, op.id).toContain(`\`${kind}\``);
      const media = (r.content as Record<string, { schema: JsonSchema; examples: Record<string, unknown> }>)['application/json']!;
      const refusal = ((media.schema.allOf as JsonSchema[])[1]!.properties as Record<string, JsonSchema>).refusal!;
      expect((refusal.properties as Record<string, JsonSchema>).kind!.enum).toEqual([...op.refusals]);
      expect(Object.keys(media.examples)).toEqual([...op.refusals]);
    }
    expect(operation(doc, apiOperations['orders.deliver'])['x-refusal-kinds']).toEqual(['not_found', 'state_moved', 'need_next_charge']);
  });

  it('shares the records as component schemas', () => {
    const answer = (id: keyof typeof apiOperations) => {
      const o = operation(doc, apiOperations[id]);
      return ((o.responses[String(apiOperations[id].status)]!.content as Record<string, { schema: JsonSchema }>)['application/json']!.schema);
    };
    expect(answer('orders.get')).toEqual({ $ref: '#/components/schemas/OrderWithMessages' });
    expect(answer('listings.get')).toEqual({ $ref: '#/components/schemas/Card' });
    expect(answer('orders.list')).toMatchObject({ properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Order' } } } });
    for (const name of ['ErrorBody', 'Card', 'Order', 'Position', 'Hooks']) expect(doc.components.schemas[name], name).toBeDefined();
    // an integer carries the server's real maximum (2^53−1, which it refuses above), never zod's lone lower bound
    expect(JSON.stringify(doc)).toContain(`"maximum":${Number.MAX_SAFE_INTEGER}`);
    expect(JSON.stringify(doc)).not.toContain(String(Number.MIN_SAFE_INTEGER));
  });

  it('describes every webhook event with its headers and body', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_KINDS].sort());
    for (const kind of EVENT_KINDS) {
      const post = doc.webhooks[kind]!.post;
      expect(post.parameters!.map((p) => p.name)).toEqual(Object.values(WEBHOOK_HEADERS));
      const schema = (post.requestBody!.content as Record<string, { schema: JsonSchema }>)['application/json']!.schema;
      expect(schema).toMatchObject({ type: 'object', properties: { event: { const: kind } } });
      expect(schema.required).toEqual(expect.arrayContaining(['event', 'at', 'data', 'delivery', 'attempt']));
    }
    const paid = (doc.webhooks['order.paid']!.post.requestBody!.content as Record<string, { schema: JsonSchema }>)['application/json']!.schema;
    expect((paid.properties as Record<string, JsonSchema>).data).toMatchObject({ properties: { slaMinutes: { type: 'integer' } } });
  });

  it('is plain JSON data and the same every time', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(buildOpenApi(ops)).toEqual(doc);
  });
});

describe('served by the server', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('GET /api/v1/openapi.json answers the document without a key', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { host: 'seller.test:9000' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const served = res.json() as OpenApiDocument;
    expect(served.openapi).toBe('3.1.0');
    expect(served.servers).toEqual([{ url: 'http://seller.test:9000', description: 'This server' }]);
    expect({ ...served, servers: doc.servers }).toEqual(doc);
  });

  it('GET /docs answers a self-contained HTML page without a key', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.body;
    for (const op of ops) expect(html, op.id).toContain(`id="op-${op.id}"`);
    expect(html).toContain('/api/v1/orders/{id}/deliver');
    expect(html).toContain('need_next_charge');
    // nothing is fetched from elsewhere
    expect(html).not.toMatch(/<(link|img|iframe)\b|\bsrc=|https?:\/\/(?!127\.0\.0\.1|localhost)/);
  });
});

describe('lint', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes `redocly lint` with the repository rules and no problem', async () => {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const cli = path.join(repoRoot, 'node_modules/@redocly/cli/bin/cli.js');
    const run = promisify(execFile);
    const result = await run(process.execPath, [cli, 'lint', file, '--config', path.join(repoRoot, 'redocly.yaml'), '--format', 'stylish'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 60_000,
    }).catch((err: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`redocly lint failed (exit ${err.code}):\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).not.toMatch(/\b(error|warning)\b\s+[a-z0-9-]+\s/);
    expect(output).toMatch(/valid/i);
  }, 90_000);
});
