/**
 * Fuzzing every operation of the contract (issue 8): for each API operation, requests generated from
 * its own schemas (valid-shaped, with real ids mixed in) and hostile ones (random JSON, wrong types,
 * huge and odd strings, prototype keys, path tricks, bad headers and content types), through `inject`
 * on a seeded in-memory app. Every answer must be below 500 and either the operation's success with
 * an answer its schema accepts, or the error envelope with the contract's status for its code and a
 * refusal kind the operation declares; no answer may carry a secret or a buyer id; no request may
 * touch `Object.prototype`. The sandbox and the MCP endpoint get the same treatment, briefly.
 *
 * Bounded: FUZZ_RUNS (default 24) valid and as many hostile requests per operation, seed FUZZ_SEED.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiOperations,
  BASE_PATH,
  ErrorBody,
  EVENT_KINDS,
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  pathParamNames,
  sandboxOperations,
  type AnyOperation,
} from '../../sdk/contract/index.ts';
import { toolCatalogue } from '../../server/mcp/tools.ts';
import { webhooksIdle } from '../../server/webhooks/outbox.ts';
import { FIXTURE_INNS } from '../../server/seed/registry.ts';
import {
  ADMIN,
  api,
  CODE_CARD,
  PAYOUT,
  SUB_CARD,
  answerProblems,
  arbitraryOf,
  openApp,
  sandbox,
  SecretScanner,
  seedWorld,
  send,
  type Hints,
  type RawRequest,
  type Reply,
  type World,
} from './helpers.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 24);
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

interface Case extends RawRequest {
  kind: string;
  /** Judge the answer against the operation (false when the path may not reach its route). */
  strict: boolean;
}

type Who = { authorization: string } | null;

const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

function encodeParams(op: AnyOperation, params: Record<string, unknown>, raw = false): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => (raw ? String(params[name]) : encodeURIComponent(String(params[name]))));
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) qs.append(k, String(x));
    else qs.append(k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : '';
}

/** The parts of a request before they become one. */
interface Parts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  image?: { bytes: Buffer; type: string };
  idem: string;
}

function partsArb(op: AnyOperation, hints: Hints): fc.Arbitrary<Parts> {
  const image = fc.oneof(
    fc.record({ bytes: fc.constant(TINY_PNG), type: fc.constant('image/png') }),
    fc.record({ bytes: fc.uint8Array({ maxLength: 64 }).map((u) => Buffer.from(u)), type: fc.constantFrom(...IMAGE_TYPES, 'image/gif', 'application/octet-stream') }),
  );
  return fc.record({
    params: (op.params ? arbitraryOf(op.params, hints) : fc.constant({})) as fc.Arbitrary<Record<string, unknown>>,
    query: (op.query ? arbitraryOf(op.query, hints) : fc.constant({})) as fc.Arbitrary<Record<string, unknown>>,
    body: op.bodyType !== 'json' ? fc.constant(undefined) : hints.$body ? fc.oneof(arbitraryOf(op.body, hints), hints.$body) : arbitraryOf(op.body, hints),
    image: op.bodyType === 'binary' ? image : fc.constant(undefined),
    idem: fc.uuid(),
  });
}

function toCase(op: AnyOperation, who: Who, p: Parts, kind = 'valid', extra: Partial<Case> = {}): Case {
  const headers: Record<string, string> = who ? { ...who } : {};
  if (op.changes && op.surface === 'api') headers['idempotency-key'] = `fz-${p.idem}`;
  let payload: string | Buffer | undefined;
  if (p.image) {
    payload = p.image.bytes;
    headers['content-type'] = p.image.type;
  } else if (p.body !== undefined) {
    payload = JSON.stringify(p.body);
    headers['content-type'] = 'application/json';
  }
  const url = BASE_PATH[op.surface] + encodeParams(op, p.params) + queryString(p.query);
  return { kind, method: op.method, url, headers, ...(payload === undefined ? {} : { payload }), strict: true, ...extra };
}

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\uD800',
  'ё'.repeat(50),
  '👩‍👩‍👧‍👦'.repeat(20),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'toString',
  '\u202Eevil',
  'a\r\nx-injected: 1',
  'NaN',
  '-0',
  '1e309',
];

const HOSTILE_VALUES: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 53), 1e308, [], {}, [null], { a: 1 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 3_000, max: 120_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 500, max: 20_000 }).map((n) => 'ж'.repeat(n)),
);

const HOSTILE_SEGMENTS = [
  '..',
  '../',
  '..%2F..%2Fshared.json',
  '%2e%2e%2f%2e%2e%2f',
  '%00',
  'x%00y',
  '%',
  '%zz',
  '%C0%AE',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '-1',
  '0',
  '1.5',
  '1e309',
  '0x10',
  '9'.repeat(40),
  'ord_' + 'A'.repeat(5000),
  'a'.repeat(20_000),
  '%E2%80%AE',
  'ёжик',
  'null',
  'undefined',
  ' 1001',
  '1001 ',
  '+1001',
];

const HOSTILE_AUTH = ['', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer service_live_', 'Bearer x y', 'bearer  \t', 'Bearer ' + 'k'.repeat(10_000)];
const HOSTILE_IDEM = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'x'.repeat(300), 'ключ', ' ', '\t'];
const HOSTILE_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/xml', 'application/jsonx', '*/*'];
const HOSTILE_BODIES = ['{', 'null', '[]', '"str"', '1e999', 'true', '{"a":', '\u0000', '{}'.repeat(1000), '['.repeat(20_000) + ']'.repeat(20_000), '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000)];

/** Hostile requests for `op`, by kind. */
function hostileArb(op: AnyOperation, who: Who, hints: Hints, other: Who): fc.Arbitrary<Case> {
  const parts = partsArb(op, hints);
  const kinds: fc.Arbitrary<Case>[] = [];

  // a random JSON value as the whole body
  kinds.push(fc.tuple(parts, fc.jsonValue({ maxDepth: 4 })).map(([p, body]) => toCase(op, who, { ...p, body, image: undefined }, 'random-json')));

  // one field of a well-shaped body given a hostile value (a wrong type, huge, odd unicode)
  kinds.push(
    fc.tuple(parts, HOSTILE_VALUES, fc.nat()).map(([p, value, n]) => {
      const body = p.body && typeof p.body === 'object' && !Array.isArray(p.body) ? { ...(p.body as object) } : {};
      const keys = Object.keys(body);
      const key = keys.length > 0 ? keys[n % keys.length]! : `field${n % 3}`;
      (body as Record<string, unknown>)[key] = value;
      return toCase(op, who, { ...p, body, image: undefined }, 'hostile-field');
    }),
  );

  // prototype keys in the body (raw JSON text: an object literal would not carry them as keys)
  kinds.push(
    fc.tuple(parts, fc.constantFrom('__proto__', 'constructor', 'prototype')).map(([p, key]) => {
      const rest = p.body && typeof p.body === 'object' && !Array.isArray(p.body) ? JSON.stringify(p.body).slice(1) : '}';
      const inner = key === 'constructor' ? '{"prototype":{"polluted":"yes"}}' : '{"polluted":"yes","isAdmin":true}';
      const payload = `{"${key}":${inner}${rest === '}' ? '' : ','}${rest}`;
      const c = toCase(op, who, { ...p, body: undefined, image: undefined }, 'proto-body');
      return { ...c, payload, headers: { ...c.headers, 'content-type': 'application/json' } };
    }),
  );

  // path parameters with traversal, NUL, bad percent-encoding, prototype names, very long ids
  if (pathParamNames(op.path).length > 0) {
    kinds.push(
      fc.tuple(parts, fc.constantFrom(...HOSTILE_SEGMENTS), fc.boolean()).map(([p, seg, raw]) => {
        const params = Object.fromEntries(pathParamNames(op.path).map((n) => [n, seg]));
        const c = toCase(op, who, { ...p, params }, raw ? 'raw-path' : 'encoded-path');
        const url = BASE_PATH[op.surface] + encodeParams(op, params, raw) + queryString(p.query);
        // a raw segment may reach another route (or none): judged loosely
        return { ...c, url, strict: !raw };
      }),
    );
  }

  // hostile query strings
  kinds.push(
    fc
      .tuple(parts, fc.dictionary(fc.constantFrom('limit', 'cursor', 'skip', 'active', 'q', 'period', 'top', '__proto__', 'constructor', 'x'), HOSTILE_VALUES, { maxKeys: 3 }), fc.boolean())
      .map(([p, q, twice]) => {
        const c = toCase(op, who, p, 'hostile-query');
        const extra = queryString(q).slice(1);
        const sep = c.url.includes('?') ? '&' : '?';
        return { ...c, url: extra ? `${c.url}${sep}${extra}${twice ? `&${extra}` : ''}` : c.url };
      }),
  );

  // headers: no or broken authorization, another seller's key, odd idempotency keys
  kinds.push(
    fc.tuple(parts, fc.constantFrom(...HOSTILE_AUTH, null)).map(([p, auth]) => {
      const c = toCase(op, null, p, 'hostile-auth');
      return { ...c, headers: auth === null ? { ...c.headers } : { ...c.headers, authorization: auth } };
    }),
  );
  if (other) kinds.push(parts.map((p) => toCase(op, other, p, 'other-key')));
  if (op.changes && op.surface === 'api') {
    kinds.push(
      fc.tuple(parts, fc.constantFrom(...HOSTILE_IDEM)).map(([p, idem]) => {
        const c = toCase(op, who, p, 'hostile-idempotency-key');
        return { ...c, headers: { ...c.headers, 'idempotency-key': idem } };
      }),
    );
  }

  // content types and raw bodies
  kinds.push(
    fc.tuple(parts, fc.constantFrom(...HOSTILE_TYPES, undefined), fc.constantFrom(...HOSTILE_BODIES)).map(([p, type, payload]) => {
      const c = toCase(op, who, { ...p, body: undefined, image: undefined }, 'raw-body');
      const headers = { ...c.headers, 'content-type': type ?? 'application/json' };
      return { ...c, payload, headers };
    }),
  );

  // images that are too large or lie about their type
  if (op.bodyType === 'binary') {
    kinds.push(
      fc.tuple(parts, fc.constantFrom(IMAGE_MAX_BYTES + 1, 3 * IMAGE_MAX_BYTES), fc.constantFrom(...IMAGE_TYPES)).map(([p, size, type]) => {
        const bytes = Buffer.alloc(size, 0);
        TINY_PNG.copy(bytes);
        return toCase(op, who, { ...p, image: { bytes, type } }, 'huge-image');
      }),
    );
  }
  return fc.oneof(...kinds);
}

/** The fixed hostile corpus, every entry once per operation: path segments, idempotency keys, raw bodies, prototype keys. */
function corpus(op: AnyOperation, who: Who, p: Parts): Case[] {
  const cases: Case[] = [];
  const names = pathParamNames(op.path);
  if (names.length > 0) {
    for (const seg of HOSTILE_SEGMENTS) {
      const params = Object.fromEntries(names.map((n) => [n, seg]));
      for (const raw of [false, true]) {
        const c = toCase(op, who, { ...p, params }, raw ? 'corpus-raw-path' : 'corpus-path');
        cases.push({ ...c, url: BASE_PATH[op.surface] + encodeParams(op, params, raw), strict: !raw });
      }
    }
  }
  for (const payload of HOSTILE_BODIES) {
    const c = toCase(op, who, { ...p, body: undefined, image: undefined }, 'corpus-body');
    cases.push({ ...c, payload, headers: { ...c.headers, 'content-type': 'application/json' } });
  }
  for (const key of ['__proto__', 'constructor']) {
    const inner = key === 'constructor' ? '{"prototype":{"polluted":"yes"}}' : '{"polluted":"yes","status":"blocked"}';
    const c = toCase(op, who, { ...p, body: undefined, image: undefined }, 'corpus-proto-body');
    cases.push({ ...c, payload: `{"${key}":${inner}}`, headers: { ...c.headers, 'content-type': 'application/json' } });
  }
  for (const auth of HOSTILE_AUTH) {
    const c = toCase(op, null, p, 'corpus-auth');
    cases.push({ ...c, headers: { ...c.headers, authorization: auth } });
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

/** What a request added to `Object.prototype` (removed again, so one finding does not spoil the rest). */
function pollution(): string | null {
  const added = Object.getOwnPropertyNames(Object.prototype).filter((n) => !PROTO_NAMES.split(',').includes(n));
  if (added.length === 0) return null;
  for (const n of added) delete (Object.prototype as Record<string, unknown>)[n];
  return `Object.prototype was polluted with ${added.join(', ')}`;
}

interface Finding {
  op: string;
  kind: string;
  request: string;
  problem: string;
}

const findings: Finding[] = [];
const undeclared = new Map<string, Set<string>>();

/**
 * Odd but valid idempotency keys (`constructor`, `__proto__`, …) are fresh keys like any other: the
 * first use runs the call, the same request again replays it. Invalid ones are `bad_request` both times.
 * Runs first on a fresh world, so every key is unused.
 */
async function idempotencyPairs(app: FastifyInstance, op: AnyOperation, who: Who, p: Parts, scanner: SecretScanner): Promise<void> {
  if (!op.changes || op.surface !== 'api') return;
  for (const idem of HOSTILE_IDEM) {
    const base = toCase(op, who, p, 'corpus-idempotency-key');
    const c = { ...base, headers: { ...base.headers, 'idempotency-key': idem } };
    const first = await send(app, c);
    judge(op, c, first, scanner);
    const second = await send(app, c);
    judge(op, c, second, scanner);
    const add = (problem: string) => findings.push({ op: op.id, kind: c.kind, request: `${describeCase(c)} [Idempotency-Key: ${idem.slice(0, 20)}]`, problem });
    const validKey = /^[\x20-\x7e]{1,255}$/.test(idem);
    if (!validKey) {
      if (first.body?.error !== 'bad_request') add(`an invalid Idempotency-Key was answered ${first.status} ${first.text.slice(0, 120)}`);
      continue;
    }
    if (first.body?.error === 'idempotency_mismatch') add(`the first use of the key was answered idempotency_mismatch`);
    if (second.status !== first.status || second.text !== first.text) {
      add(`the same request under the same key answered ${first.status} then ${second.status} ${second.text.slice(0, 120)}`);
    } else if (first.status !== 400 && second.headers['idempotent-replayed'] !== 'true') {
      add('the repeat was not marked Idempotent-Replayed');
    }
  }
}

function describeCase(c: Case): string {
  const body = c.payload === undefined ? '' : ` ${(Buffer.isBuffer(c.payload) ? `<${c.payload.length} bytes>` : c.payload).slice(0, 160)}`;
  return `${c.method} ${c.url.slice(0, 160)}${body}`;
}

/** Checks one answer; records what is wrong. */
function judge(op: AnyOperation, c: Case, res: Reply, scanner: SecretScanner): void {
  const add = (problem: string) => findings.push({ op: op.id, kind: c.kind, request: describeCase(c), problem });
  if (c.strict) {
    for (const p of answerProblems(op, res)) {
      add(p);
      const m = /^refusal kind "([^"]+)" is not among/.exec(p);
      if (m) undeclared.set(op.id, (undeclared.get(op.id) ?? new Set()).add(m[1]!));
    }
  } else {
    if (res.status >= 500) add(`status ${res.status}`);
    if (res.status >= 400 && !ErrorBody.safeParse(res.body).success) add(`error body is not the envelope: ${res.text.slice(0, 160)}`);
  }
  if (c.kind === 'corpus-path' && res.status < 300) add(`a made-up id was found: ${res.status} ${res.text.slice(0, 160)}`);
  const replayed = res.headers['idempotent-replayed'] === 'true';
  for (const leak of scanner.scan(op.id, res.text, replayed)) add(`answer shows ${leak}: ${res.text.slice(0, 160)}`);
  const polluted = pollution();
  if (polluted) add(polluted);
  learnSecrets(op, res, scanner);
}

let issued = 0;

/** Values an answer shows once (a new key, a new signing secret) must never show again elsewhere. */
function learnSecrets(op: AnyOperation, res: Reply, scanner: SecretScanner): void {
  if (res.status >= 300 || !res.body || typeof res.body !== 'object') return;
  const fresh: unknown[] = [res.body.key, res.body.secret, res.body.apiKey];
  for (const v of fresh) {
    if (typeof v === 'string' && (op.id !== 'orders.reveal' || v !== res.body.secret)) {
      scanner.add(`${op.id} issued value #${++issued}`, v, (id, replayed) => replayed && id === op.id);
    }
  }
}

function scannerOf(world: World): SecretScanner {
  const scanner = new SecretScanner();
  for (const [label, value] of world.secrets) {
    scanner.add(label, value, label === 'buyer vault' ? (id) => id === 'orders.reveal' : () => false);
  }
  return scanner;
}

// ---------------------------------------------------------------------------------------------
// Hints: real ids and catalogue values mixed into the derived ones
// ---------------------------------------------------------------------------------------------

function hintsFor(op: AnyOperation, w: World): Hints {
  const orders = Object.values(w.orders);
  const byOp: Record<string, string[]> = {
    questions: [w.question],
    reviews: [w.review],
    keys: [w.extraKey.id],
    catalogRequests: [w.request],
    sandbox: [...orders, w.request],
  };
  const section = op.id.startsWith('sandbox.') ? 'sandbox' : op.id.split('.')[0]!;
  const ids = byOp[section] ?? orders;
  const examples: Record<string, fc.Arbitrary<unknown>> = {
    'listings.create': fc.record({ card: fc.constantFrom<object>(CODE_CARD, SUB_CARD), priceRub: fc.integer({ min: 1, max: 10_000 }), description: fc.string({ maxLength: 80 }) }).map(({ card, ...rest }) => ({ ...card, ...rest })),
    'listings.update': fc.record({ priceRub: fc.integer({ min: 1, max: 10_000 }), description: fc.string({ maxLength: 80 }) }).map((rest) => ({ ...SUB_CARD, ...rest, service: undefined, tariff: undefined })),
    'hooks.set': fc.record({ url: fc.constant(w.probeUrl), events: fc.subarray([...EVENT_KINDS, 'no.such'], { minLength: 1 }) }),
    'papers.setPayout': fc.constantFrom<object>(PAYOUT, { method: 'sbp', phone: '79161234567', name: 'Петров Иван' }, { ...PAYOUT, account: '40702810300000012345' }),
    'workMode.set': fc.record({ capacity: fc.option(fc.integer({ min: 1, max: 5 })), doNotDisturb: fc.boolean(), quietHours: fc.option(fc.constant({ from: '23:00', to: '07:00', tz: 'Europe/Moscow' })) }),
    'orders.deliver': fc.record({ nextChargeDay: fc.constant('2030-01-15'), note: fc.constantFrom('Done, enjoy', 'write me at a@b.ru') }),
    'sandbox.createOrder': fc.record({ number: fc.constantFrom(w.cards.code, w.cards.sub, w.cards.spare), testBuyer: fc.constant(false) }),
  };
  return {
    ...(examples[op.id] ? { $body: examples[op.id] } : {}),
    cursor: fc.constant(undefined),
    tz: fc.constantFrom('Europe/Moscow', 'UTC', 'Asia/Vladivostok'),
    number: fc.constantFrom(w.cards.code, w.cards.sub, w.cards.spare, w.cards.confirm, 999_999),
    id: fc.constantFrom(...ids, 'ord_absent000000000'),
    order: fc.constantFrom(...orders),
    slug: fc.constantFrom('spotify', 'youtube-premium', 'no-such-position'),
    service: fc.constantFrom('spotify', 'youtube-premium', 'music-premium'),
    tariff: fc.constantFrom('individual', 'family', 'duo'),
    sellerId: fc.constantFrom(w.a.sellerId, w.b.sellerId, 'sel_absent'),
    url: fc.constantFrom('https://hooks.example.com/in', 'http://127.0.0.1:9/x', 'https://user:pw@example.com/', 'https://10.0.0.1/x'),
    inn: fc.constantFrom(...Object.values(FIXTURE_INNS), '7701234561'),
    nextChargeDay: fc.constantFrom('2030-01-15', '2030-02-30'),
    seconds: fc.constantFrom(0, 60, 3600, 86_400),
  };
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

const bearer = (key: string): Who => ({ authorization: `Bearer ${key}` });

async function fuzzOperation(op: AnyOperation, runs: number, seed: number): Promise<number> {
  const app = await openApp();
  try {
    const world = await seedWorld(app);
    const scanner = scannerOf(world);
    const who = op.surface === 'api' ? bearer(world.a.apiKey) : bearer(ADMIN);
    const other = op.surface === 'api' ? bearer(world.b.apiKey) : null;
    const hints = hintsFor(op, world);
    const valid = fc.sample(partsArb(op, hints).map((p) => toCase(op, who, p)), { numRuns: runs, seed });
    const hostile = fc.sample(hostileArb(op, who, hints, other), { numRuns: runs, seed: seed + 1 });
    const base = fc.sample(partsArb(op, hints), { numRuns: 1, seed: seed + 2 })[0]!;
    await idempotencyPairs(app, op, who, base, scanner);
    const tally = new Map<string, number>();
    for (const c of [...valid, ...hostile, ...corpus(op, who, base)]) {
      const res = await send(app, c);
      judge(op, c, res, scanner);
      const outcome = `${c.kind === 'valid' ? 'valid' : 'hostile'}:${res.status}${res.body?.refusal ? `/${res.body.refusal.kind}` : res.status >= 400 ? `/${res.body?.error}` : ''}`;
      tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
    }
    if (process.env.FUZZ_STATS) console.log(op.id, Object.fromEntries([...tally].sort()));
    await webhooksIdle(app.service);
    return valid.length + hostile.length;
  } finally {
    await app.close();
  }
}

const seedOf = (id: string) => [...id].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, SEED);

function report(ids: string[]): string {
  const mine = findings.filter((f) => ids.includes(f.op));
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const f of mine) {
    const key = `${f.op}|${f.kind}|${f.problem.slice(0, 60)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`${f.op} [${f.kind}] ${f.problem}\n    ${f.request}`);
  }
  return lines.join('\n');
}

describe('fuzzing the seller API, every operation', () => {
  const ids = Object.keys(apiOperations);

  it('serves every operation of the table', async () => {
    const app = await openApp();
    expect(app.served.api).toBe(ids.length);
    expect(app.served.sandbox).toBe(Object.keys(sandboxOperations).length);
    await app.close();
  });

  it.each(ids)('%s', async (id) => {
    const op = apiOperations[id as keyof typeof apiOperations] as AnyOperation;
    const sent = await fuzzOperation(op, RUNS, seedOf(id));
    expect(sent).toBeGreaterThan(0);
    expect(report([id]), `seed ${seedOf(id)}`).toBe('');
  });

  afterAll(() => {
    if (undeclared.size > 0) {
      console.warn(`refusals not declared by the contract: ${[...undeclared].map(([op, k]) => `${op}: ${[...k].join(', ')}`).join('; ')}`);
    }
  });
});

describe('fuzzing the sandbox', () => {
  const ids = Object.keys(sandboxOperations);
  it.each(ids)('%s', async (id) => {
    const op = sandboxOperations[id as keyof typeof sandboxOperations] as AnyOperation;
    await fuzzOperation(op, Math.max(4, Math.ceil(RUNS / 3)), seedOf(id));
    expect(report([id]), `seed ${seedOf(id)}`).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------
// MCP: random JSON-RPC
// ---------------------------------------------------------------------------------------------

describe('fuzzing the MCP endpoint', () => {
  let app: FastifyInstance;
  let world: World;
  let scanner: SecretScanner;

  beforeAll(async () => {
    app = await openApp();
    world = await seedWorld(app);
    scanner = scannerOf(world);
  });
  afterAll(async () => {
    await app.close();
  });

  const tools = [...toolCatalogue().values()];
  const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'notifications/initialized', 'sampling/createMessage', '', '__proto__', 'constructor', 'toString'];

  /** Flat tool arguments shaped by the tool's operation (path, query and body fields together). */
  function argumentsArb(op: AnyOperation, hints: Hints): fc.Arbitrary<unknown> {
    return partsArb(op, hints).map((p) => {
      const args: Record<string, unknown> = { ...p.params, ...p.query };
      if (p.body && typeof p.body === 'object' && !Array.isArray(p.body)) Object.assign(args, p.body);
      if (p.image) Object.assign(args, { data: p.image.bytes.toString('base64'), contentType: p.image.type });
      if (op.changes) args.idempotencyKey = p.idem;
      return args;
    });
  }

  function messageArb(): fc.Arbitrary<{ payload: string; tool?: AnyOperation; type?: string }> {
    const id = fc.oneof(
      { arbitrary: fc.integer(), weight: 6 },
      { arbitrary: fc.string({ maxLength: 10 }), weight: 3 },
      { arbitrary: fc.constantFrom<unknown>(null, {}, [], true, 1.5, Number.MAX_VALUE), weight: 1 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    );
    const toolCall = fc.constantFrom(...tools).chain((t) =>
      fc.record({
        tool: fc.constant(t.op as AnyOperation),
        args: fc.oneof({ arbitrary: argumentsArb(t.op, hintsFor(t.op, world)), weight: 4 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 }, { arbitrary: fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'data', 'number', 'id', 'x'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), weight: 1 }),
        name: fc.oneof({ arbitrary: fc.constant(t.name), weight: 5 }, { arbitrary: fc.string({ maxLength: 12 }), weight: 1 }),
        id,
      }),
    );
    const toolMessage = toolCall.map(({ tool, args, name, id: rid }) => ({
      payload: JSON.stringify({ jsonrpc: '2.0', ...(rid === undefined ? {} : { id: rid }), method: 'tools/call', params: { name, arguments: args } }),
      tool: name === toolNameOf(tool) ? tool : undefined,
    }));
    const other = fc
      .record({
        jsonrpc: fc.oneof({ arbitrary: fc.constant('2.0'), weight: 5 }, { arbitrary: fc.jsonValue(), weight: 1 }),
        id,
        method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 20 })),
        params: fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 3 }), fc.record({ uri: fc.oneof(fc.constantFrom('service://listings', `service://orders/${world.orders.paid}`, 'service://orders/ord_x', 'file:///etc/passwd', '../../'), fc.string()), cursor: fc.option(fc.string(), { nil: undefined }) })),
      })
      .map((m) => ({ payload: JSON.stringify(m) }));
    const raw = fc.constantFrom(...HOSTILE_BODIES, '[{"jsonrpc":"2.0","id":1,"method":"ping"}]').map((payload) => ({ payload }));
    const typed = fc.tuple(other, fc.constantFrom(...HOSTILE_TYPES)).map(([m, type]) => ({ ...m, type }));
    return fc.oneof({ arbitrary: toolMessage, weight: 5 }, { arbitrary: other, weight: 3 }, { arbitrary: raw, weight: 1 }, { arbitrary: typed, weight: 1 });
  }

  const toolNameOf = (op: AnyOperation) => tools.find((t) => t.op.id === op.id)?.name;

  it('answers random JSON-RPC without a 5xx, an internal error, a leak or a polluted prototype', async () => {
    const problems: string[] = [];
    const messages = fc.sample(messageArb(), { numRuns: RUNS * 12, seed: SEED });
    const tally = new Map<string, number>();
    for (const m of messages) {
      const res = await send(app, {
        method: 'POST',
        url: '/api/mcp',
        headers: { authorization: `Bearer ${world.a.apiKey}`, 'content-type': m.type ?? 'application/json', 'x-req': randomUUID() },
        payload: m.payload,
      });
      const where = `${m.payload.slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`;
      const outcome = `${res.status}:${res.body?.error?.code ?? (res.body?.result?.isError ? `tool-error/${JSON.parse(res.body.result.content[0].text).error}` : res.body?.result ? 'ok' : '-')}`;
      tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
      if (res.status >= 500) problems.push(`status ${res.status}: ${where}`);
      if (res.body?.error?.code === -32603) problems.push(`internal error: ${where}`);
      const replayed = res.body?.result?._meta?.['service/idempotentReplayed'] === true;
      for (const leak of scanner.scan(m.tool?.id ?? 'mcp', res.text, replayed)) problems.push(`shows ${leak}: ${where}`);
      const polluted = pollution();
      if (polluted) problems.push(`${polluted}: ${where}`);
      const result = res.body?.result;
      if (m.tool && result && Array.isArray(result.content)) {
        const text = result.content[0]?.text as string;
        if (result.isError) {
          const body = ErrorBody.safeParse(JSON.parse(text));
          if (!body.success) problems.push(`tool error text is not the envelope: ${where}`);
          else if (body.data.error === 'rejected' && !m.tool.refusals.includes(body.data.refusal?.kind ?? '')) {
            problems.push(`refusal ${body.data.refusal?.kind} not declared by ${m.tool.id}: ${where}`);
          }
        } else if (!m.tool.answer.safeParse(result.structuredContent).success) {
          problems.push(`tool result does not match ${m.tool.id}'s answer: ${where}`);
        }
      }
      if (res.status < 300 && res.body?.result) learnSecrets(m.tool ?? ({ id: 'mcp' } as AnyOperation), { ...res, body: res.body.result.structuredContent }, scanner);
    }
    await webhooksIdle(app.service);
    if (process.env.FUZZ_STATS) console.log('mcp', Object.fromEntries([...tally].sort()));
    expect(problems.slice(0, 20).join('\n')).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------
// Regressions found by the fuzzing above: names of Object.prototype used as ids, keys, nicknames
// ---------------------------------------------------------------------------------------------

describe('names of Object.prototype are ordinary values', () => {
  let app: FastifyInstance;
  let world: World;

  beforeAll(async () => {
    app = await openApp();
    world = await seedWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

  it.each(NAMES)('sandbox: a seller or catalogue request named %s is not found (and nothing is polluted)', async (name) => {
    const status = await sandbox(app, 'PUT', `/sellers/${name}/status`, { status: 'blocked' });
    expect(status.status, status.text).toBe(404);
    expect(status.body.error).toBe('not_found');
    const admission = await sandbox(app, 'PUT', `/sellers/${name}/admission`, { complete: true });
    expect(admission.status, admission.text).toBe(404);
    const decide = await sandbox(app, 'POST', `/catalog/requests/${name}/decide`, { approve: true });
    expect(decide.status, decide.text).toBe(404);
    expect(pollution()).toBeNull();
    expect(await app.service.store.sellerIds()).not.toContain(name);
    // the sellers still work
    expect((await api(app, world.a.apiKey, 'GET', '/me')).status).toBe(200);
  });

  it.each(NAMES)('Idempotency-Key %s: runs once, then replays', async (name) => {
    const first = await api(app, world.a.apiKey, 'POST', '/catalog/requests', { title: `Request under ${name}` }, name);
    expect(first.status, first.text).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await api(app, world.a.apiKey, 'POST', '/catalog/requests', { title: `Request under ${name}` }, name);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = await api(app, world.a.apiKey, 'POST', '/catalog/requests', { title: 'Another request' }, name);
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('idempotency_mismatch');
    // the record survives a round trip through JSON (as in a data file)
    const doc = await app.service.store.seller(world.a.sellerId);
    expect(Object.hasOwn(JSON.parse(JSON.stringify(doc.idempotency)), name)).toBe(true);
  });

  it.each(['constructor', '__proto__', 'toString'])('nickname %s can be taken once, and is then taken', async (nickname) => {
    const mine = await api(app, world.a.apiKey, 'PUT', '/papers/nickname', { nickname });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toEqual({ nickname });
    const theirs = await api(app, world.b.apiKey, 'PUT', '/papers/nickname', { nickname });
    expect(theirs.status, theirs.text).toBe(409);
    expect(theirs.body.refusal.kind).toBe('nickname_taken');
    expect(pollution()).toBeNull();
  });
});
