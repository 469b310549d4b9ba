/**
 * The real marketplace has grown since our contract was written: the SDK, `orders.watch` and the
 * CLI read what it sends, and strict mode refuses the same answers (issue: "ready for the real
 * marketplace"). A drifting fake (test/helpers/drifting-fake.ts) stands in front of a real
 * seller-server with a seeded account and rewrites its answers:
 *
 * - every enum field of every record of every GET answer gets a value the contract does not know,
 *   and every object a field it does not know; both are derived from the contract's own answer
 *   schemas (their JSON Schema), so a new enum field is drifted without editing this test;
 * - error bodies with unknown codes and refusal kinds, a proxy's HTML 502, a 429 whose
 *   `Retry-After` is an HTTP date, and a 200 where 201 is declared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiOperations } from '../../sdk/contract/public.ts';
import {
  PermissionError,
  RejectedError,
  ResponseValidationError,
  SellerClient,
  ServerError,
  type AnyOperation,
} from '../../sdk/index.ts';
import { eachItem, htmlBadGateway, startDriftingFake, type DriftingFake } from '../helpers/drifting-fake.ts';
import { ensureBuilt, runSeller } from '../helpers/cli.ts';
import { seedAccount, type SeededAccount } from '../helpers/seeded-account.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const NEW_VALUE = 'zz_new_value';
const NEW_FIELD = 'zzNewField';

type Json = Record<string, unknown>;
type Schema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  propertyNames?: Schema;
  items?: Schema;
};

const jsonType = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;

const fits = (schema: Schema, value: unknown): boolean => {
  if (schema.type === undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const t = jsonType(value);
  return types.includes(t) || (t === 'integer' && types.includes('number'));
};

/** Where `drift` changed something: `enum` paths and object paths, for the assertions. */
interface Drifted {
  enums: string[];
  objects: string[];
}

/**
 * `value` with every enum value replaced by one the contract does not know, a key of that kind added
 * to every enum-keyed record, and an unknown field added to every object, walking the answer's JSON
 * Schema alongside it.
 */
function drift(schema: Schema, value: unknown, at: string, seen: Drifted): unknown {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const branch = branches.find((b) => fits(b, value));
    return branch ? drift(branch, value, at, seen) : value;
  }
  if (schema.enum && typeof value === 'string') {
    seen.enums.push(at);
    return NEW_VALUE;
  }
  if (Array.isArray(value) && schema.items) return value.map((item, i) => drift(schema.items!, item, `${at}[${i}]`, seen));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Json = {};
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [key, field] of Object.entries(value as Json)) {
    const fieldSchema = schema.properties?.[key] ?? extra;
    out[key] = fieldSchema ? drift(fieldSchema, field, `${at}.${key}`, seen) : field;
  }
  if (schema.propertyNames?.enum && extra) {
    const sample = Object.values(value as Json)[0];
    if (sample !== undefined) {
      out[NEW_VALUE] = drift(extra, sample, `${at}.${NEW_VALUE}`, seen);
      seen.enums.push(`${at}{key}`);
    }
  }
  out[NEW_FIELD] = { since: 'v2', nested: [1, 2] };
  seen.objects.push(at);
  return out;
}

const schemaOf = (op: AnyOperation): Schema => z.toJSONSchema(op.answer, { io: 'output', unrepresentable: 'any' }) as Schema;

let server: TestServer;
let account: SeededAccount;
let fake: DriftingFake;
let slug: string;

/** Arguments of each GET operation for the seeded account (path parameters, then a query). */
function argsOf(op: AnyOperation): unknown[] {
  const args: unknown[] = [];
  if (op.path.includes('{number}')) args.push(account.cardNumber);
  // The order with messages, or (for its vaults) the one with a vault.
  if (op.path.includes('{id}')) args.push(account.orderIds[op.id === 'orders.vaults' ? 2 : 1]);
  if (op.path.includes('{slug}')) args.push(slug);
  if (op.id === 'catalog.usualPrice') args.push({ service: slug, productType: 'code' });
  return args;
}

const GETS = Object.values(apiOperations as Record<string, AnyOperation>).filter((op) => op.method === 'GET');

function call(client: SellerClient, op: AnyOperation): Promise<unknown> {
  const [section, verb] = op.id.split('.') as [string, string];
  const method = (client as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>>)[section]![verb]!;
  return Promise.resolve(method(...argsOf(op)));
}

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer({ allowLocalHooks: true });
  account = await seedAccount(server);
  const strict = new SellerClient({ apiKey: account.apiKey, baseUrl: server.url, strict: true });
  slug = (await strict.listings.get(account.cardNumber)).service;
  fake = await startDriftingFake(server.url);
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await server?.close();
});

const client = (options: { strict?: boolean } = {}) =>
  new SellerClient({ apiKey: account.apiKey, baseUrl: fake.url, maxRetries: 1, retryBaseMs: 1, ...options });

describe('every GET of the contract, with every enum value and field drifted', () => {
  it('covers every GET operation and drifts every enum field the seeded answers hold', async () => {
    const seen: Drifted = { enums: [], objects: [] };
    fake.rules = GETS.map((op) => ({ method: 'GET', path: `/api/v1${op.path}`, body: (body: unknown) => drift(schemaOf(op), body, op.id, seen) }));
    for (const op of GETS) await call(client(), op);
    // The record kinds with enum fields each had theirs drifted (a list of them, not a count, so a
    // failure says which is missing).
    const drifted = new Set(seen.enums.map((path) => path.replace(/\[\d+\]/g, '[]')));
    for (const path of [
      'orders.list.items[].status',
      'orders.list.items[].productType',
      'orders.list.items[].deliveryMethod',
      'orders.get.messages[].from',
      'listings.get.productType',
      'listings.get.deliveryMethod',
      'catalog.get.productTypes[]',
      'catalog.get.deliveryMethods{key}',
      'me.get.mode',
      'me.get.key.scopes[]',
      'keys.list.items[].mode',
      'hooks.get.events[]',
      'hooks.get.status',
      'hooks.deliveries.items[].event',
      'papers.get.sellerType',
      'workMode.get.presence',
      'orders.vaults.items[].side',
      'catalogRequests.list.items[].status',
      'stats.get.period',
    ]) {
      expect(drifted, path).toContain(path);
    }
    fake.rules = [];
  }, 60_000);

  for (const op of GETS) {
    it(`${op.id}: tolerant reading keeps the unknown values and fields; strict mode refuses them`, async () => {
      const seen: Drifted = { enums: [], objects: [] };
      fake.rules = [{ method: 'GET', path: `/api/v1${op.path}`, body: (body: unknown) => drift(schemaOf(op), body, '', seen) }];
      try {
        const answer = (await call(client(), op)) as Json;
        expect(answer[NEW_FIELD]).toEqual({ since: 'v2', nested: [1, 2] });
        if (seen.enums.length > 0) expect(JSON.stringify(answer)).toContain(NEW_VALUE);
        const refused = await call(client({ strict: true }), op).catch((e: unknown) => e);
        if (seen.enums.length > 0) {
          expect(refused).toBeInstanceOf(ResponseValidationError);
          expect((refused as ResponseValidationError).code).toBe('invalid_response');
        } else {
          // No enum in this answer: strict reading drops the unknown field (zod strips it).
          expect((refused as Json)[NEW_FIELD]).toBeUndefined();
        }
      } finally {
        fake.rules = [];
      }
    });
  }
});

describe('orders.watch on a drifting marketplace', () => {
  it('yields orders with an unknown status and fields, and goes on past an order it cannot place', async () => {
    const watchedFake = await startDriftingFake(server.url, [
      { method: 'GET', path: '/api/v1/orders', body: eachItem((o: Json) => ({ ...o, status: 'on_hold', holdReason: 'kyc' })) },
    ]);
    try {
      const watcher = new SellerClient({ apiKey: account.apiKey, baseUrl: watchedFake.url, maxRetries: 0 });
      const controller = new AbortController();
      const errors: unknown[] = [];
      const statuses: string[] = [];
      // First poll: one order has no updatedAt (it cannot be placed): reported, retried, the watch goes on.
      watchedFake.rules.push({ method: 'GET', path: '/api/v1/orders', times: 1, body: eachItem((o: Json) => ({ ...o, updatedAt: undefined })) });
      for await (const order of watcher.orders.watch({
        intervalMs: 5,
        backoffBaseMs: 1,
        signal: controller.signal,
        onError: (error) => errors.push(error),
      })) {
        statuses.push(order.status);
        expect(order['holdReason']).toBe('kyc');
        if (statuses.length === account.orderIds.length) controller.abort();
      }
      expect(statuses).toEqual(account.orderIds.map(() => 'on_hold'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(ResponseValidationError);
      expect((errors[0] as ResponseValidationError).path).toEqual(['items', 0, 'updatedAt']);
    } finally {
      await watchedFake.close();
    }
  });
});

describe('errors the contract does not know', () => {
  it('an unknown error code on a 403 is a PermissionError carrying the code, status and detail', async () => {
    fake.rules = [{ method: 'GET', path: '/api/v1/me', status: 403, replace: (a) => ({ ...a, status: 403, text: JSON.stringify({ error: 'seller_frozen', detail: 'payouts frozen by risk review' }) }) }];
    try {
      const err = await client().me.get().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PermissionError);
      expect(err).toMatchObject({ code: 'seller_frozen', status: 403, detail: 'payouts frozen by risk review' });
    } finally {
      fake.rules = [];
    }
  });

  it('an unknown refusal kind is a RejectedError carrying the kind and its details', async () => {
    const body = { error: 'rejected', refusal: { kind: 'order_locked', until: '2026-12-01T00:00:00.000Z' } };
    fake.rules = [{ method: 'POST', path: '/api/v1/orders/{id}/deliver', onStatus: 'any', replace: (a) => ({ ...a, status: 409, text: JSON.stringify(body) }) }];
    try {
      const err = await client().orders.deliver(account.orderIds[1]!, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RejectedError);
      expect((err as RejectedError).refusal).toEqual(body.refusal);
    } finally {
      fake.rules = [];
    }
  });

  it("a proxy's HTML 502 is a ServerError, retried; a GET succeeds once the proxy recovers", async () => {
    fake.rules = [{ method: 'GET', path: '/api/v1/me', replace: htmlBadGateway(), times: 1 }];
    const me = await client().me.get();
    expect(me.sellerId).toBe(account.sellerId);
    fake.rules = [{ method: 'GET', path: '/api/v1/me', replace: htmlBadGateway() }];
    try {
      const err = await client().me.get().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServerError);
      expect((err as ServerError).status).toBe(502);
    } finally {
      fake.rules = [];
    }
  });

  it('a 429 whose Retry-After is an HTTP date is waited out, then retried', async () => {
    const when = new Date(Date.now() + 3_000).toUTCString();
    fake.rules = [
      {
        method: 'GET',
        path: '/api/v1/me',
        times: 1,
        replace: (a) => ({ ...a, status: 429, headers: { ...a.headers, 'retry-after': when }, text: JSON.stringify({ error: 'rate' }) }),
      },
    ];
    const waits: number[] = [];
    const me = await new SellerClient({ apiKey: account.apiKey, baseUrl: fake.url, sleep: async (ms) => void waits.push(ms) }).me.get();
    expect(me.sellerId).toBe(account.sellerId);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(500);
    expect(waits[0]).toBeLessThanOrEqual(3_000);
  });

  it('a 200 where 201 is declared is read; strict mode refuses it', async () => {
    fake.rules = [{ method: 'POST', path: '/api/v1/catalog/requests', status: 200 }];
    try {
      const created = await client().catalogRequests.create({ title: 'Kinopoisk' });
      expect(created.status).toBe('pending');
      const err = await client({ strict: true }).catalogRequests.create({ title: 'Okko' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ResponseValidationError);
      expect((err as ResponseValidationError).message).toMatch(/HTTP 200 where the contract says 201/);
    } finally {
      fake.rules = [];
    }
  });
});

describe('the CLI on a drifting marketplace', () => {
  const drifted = (ops: string[]) =>
    ops.map((id) => {
      const op = (apiOperations as Record<string, AnyOperation>)[id]!;
      return { method: 'GET', path: `/api/v1${op.path}`, body: (body: unknown) => drift(schemaOf(op), body, '', { enums: [], objects: [] }) };
    });
  const env = () => ({ SERVICE_API_KEY: account.apiKey, SERVICE_BASE_URL: fake.url, SELLER_STRICT: undefined });

  const commands: Array<[string[], string[]]> = [
    [['orders', 'list'], ['orders.list']],
    [['orders', 'list', '--json'], ['orders.list']],
    [['orders', 'show', 'ORDER'], ['orders.get', 'orders.vaults']],
    [['cards', 'list'], ['listings.list']],
    [['cards', 'show', 'CARD'], ['listings.get']],
    [['catalog', 'show', 'SLUG'], ['catalog.get']],
    [['whoami'], ['me.get']],
    [['papers', 'show'], ['papers.get']],
    [['hooks', 'show'], ['hooks.get']],
    [['hooks', 'deliveries'], ['hooks.deliveries']],
    [['work-mode', 'show'], ['workMode.get']],
    [['stats'], ['stats.get']],
  ];

  for (const [args, ops] of commands) {
    it(`seller ${args.join(' ')} shows what came; SELLER_STRICT=1 refuses it`, async () => {
      const argv = args.map((a) => (a === 'ORDER' ? account.orderIds[0]! : a === 'CARD' ? String(account.cardNumber) : a === 'SLUG' ? slug : a));
      fake.rules = drifted(ops);
      try {
        const shown = await runSeller(argv, { env: env() });
        expect(shown.code, shown.stderr).toBe(0);
        expect(shown.stdout).toContain(NEW_VALUE);
        const strict = await runSeller(argv, { env: { ...env(), SELLER_STRICT: '1' } });
        expect(strict.code).toBe(1);
        expect(strict.stderr).toMatch(/^error: invalid_response: /m);
      } finally {
        fake.rules = [];
      }
    });
  }

  it('an unknown error code on a 403 exits 4 with the code and the detail', async () => {
    fake.rules = [{ method: 'GET', path: '/api/v1/me', replace: (a) => ({ ...a, status: 403, text: JSON.stringify({ error: 'seller_frozen', detail: 'payouts frozen by risk review' }) }) }];
    try {
      const result = await runSeller(['whoami'], { env: env() });
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(/^error: seller_frozen: payouts frozen by risk review$/m);
    } finally {
      fake.rules = [];
    }
  });
});
