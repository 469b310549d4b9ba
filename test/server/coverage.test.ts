/**
 * The spec's endpoint tables against the contract and the server: every `| METHOD | /api/v1/... |`
 * row is an operation of `apiOperations`, every operation is a row, and every route the server
 * serves is a row. Prints how much of the table the server serves so far.
 *
 * The table rows come from test/data/spec-endpoints.json (extracted from the spec by
 * scripts/spec-data.mjs, since a user's clone has no spec beside it); CI checks that the data is
 * what the script extracts from the spec (.ci/run).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations, BASE_PATH, type HttpMethod, sandboxOperations } from '../../sdk/contract/index.ts';
import { apiHandlerTable } from '../../server/routes/index.ts';
import { sandboxHandlerTable } from '../../server/sandbox/index.ts';
import { makeApp } from './helpers.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataFile = path.resolve(repoRoot, 'test/data/spec-endpoints.json');

/** `/api/v1/listings/{number}` → `/api/v1/listings/{}` */
const normal = (p: string) => p.replace(/\{[^}]*\}/g, '{}');
const sig = (method: string, p: string) => `${method.toUpperCase()} ${normal(p)}`;

interface SpecData {
  endpoints: Array<[string, string]>;
  ruleRefusals: Array<[string, string]>;
}

function specRows(): string[] {
  const data = JSON.parse(readFileSync(dataFile, 'utf8')) as SpecData;
  return data.endpoints.map(([method, p]) => sig(method, p));
}

const ops = Object.values(apiOperations);
const opSig = (op: { method: string; path: string }) => sig(op.method, BASE_PATH.api + op.path);

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp();
});
afterAll(async () => {
  await app.close();
});

describe('spec coverage', () => {
  it('the spec has endpoint tables, each row once', () => {
    const rows = specRows();
    expect(rows.length).toBeGreaterThan(50);
    expect(new Set(rows).size).toBe(rows.length);
    expect(rows).toContain('GET /api/v1/me');
    expect(rows).toContain('POST /api/v1/orders/{}/deliver');
  });

  it('every table row is an operation of the contract', () => {
    const contract = new Set(ops.map(opSig));
    const missing = specRows().filter((r) => !contract.has(r));
    expect(missing).toEqual([]);
  });

  it('every operation of the contract is a table row (no invented endpoints)', () => {
    const rows = new Set(specRows());
    const extra = ops.map(opSig).filter((s) => !rows.has(s));
    expect(extra).toEqual([]);
    expect(new Set(ops.map(opSig)).size).toBe(ops.length);
  });

  it('every route the server serves is in the table; the served count matches the routes', () => {
    const rows = new Set(specRows());
    const served = ops.filter((op) => app.hasRoute({ method: op.method as HttpMethod, url: BASE_PATH.api + op.path.replace(/\{(\w+)\}/g, ':$1') }));
    for (const op of served) expect(rows.has(opSig(op)), opSig(op)).toBe(true);
    expect(served.length).toBe(app.served.api);
    // a route is served exactly when the handler table has the operation
    const handled = Object.keys(apiHandlerTable).filter((id) => id in apiOperations).sort();
    expect(served.map((op) => op.id).sort()).toEqual(handled);
    // handler tables name only operations of the contract
    for (const id of Object.keys(apiHandlerTable)) expect(id in apiOperations, id).toBe(true);
    for (const id of Object.keys(sandboxHandlerTable)) expect(id in sandboxOperations, id).toBe(true);
    const sandboxServed = Object.values(sandboxOperations).filter((op) =>
      app.hasRoute({ method: op.method as HttpMethod, url: BASE_PATH.sandbox + op.path.replace(/\{(\w+)\}/g, ':$1') }),
    );
    expect(sandboxServed.length).toBe(app.served.sandbox);

    const total = specRows().length;
    const pending = ops.filter((op) => !served.includes(op)).map(opSig);
    console.log(
      `seller-server serves ${app.served.api} of ${total} operations of the spec's table` +
        ` (sandbox: ${app.served.sandbox} of ${Object.keys(sandboxOperations).length})` +
        (pending.length ? `; not yet: ${pending.join(', ')}` : ''),
    );
  });

  it('the base surfaces: nothing of the seller API is served outside /api/v1, the sandbox only under /sandbox/v1', () => {
    for (const op of Object.values(sandboxOperations)) {
      const apiUrl = BASE_PATH.api + op.path.replace(/\{(\w+)\}/g, ':$1');
      const sameAsApi = ops.some((a) => a.method === op.method && a.path === op.path);
      if (!sameAsApi) expect(app.hasRoute({ method: op.method as HttpMethod, url: apiUrl }), `${op.method} ${apiUrl}`).toBe(false);
    }
  });
});
