/**
 * A corpus of real answers, and ways to bend them, for the tests that hold the server's answer
 * serialization (fast-json-stringify) equal to zod's (test/server/answer-json.test.ts).
 *
 * `tapHandlers` wraps every handler of the server's tables so that each result is handed to a
 * callback before the pipeline sees it; `readWorld` then makes a seeded world answer nearly every
 * operation (every read, the seeding's changes, messages, replies, the sandbox's clock).
 */
import type { FastifyInstance } from 'fastify';
import { allOperations, BASE_PATH, type AnyOperation } from '../../sdk/contract/index.ts';
import { apiHandlerTable } from '../../server/routes/index.ts';
import { sandboxHandlerTable } from '../../server/sandbox/index.ts';
import { api, send, type World } from '../hardening/helpers.ts';

/** A plain deep copy (handler results may be tracked store records). */
export const plain = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

type AnyHandler = (ctx: unknown, input: unknown) => unknown;

/** Hands every handler result (of every operation of the contract) to `onAnswer`, from now on in this process. */
export function tapHandlers(onAnswer: (op: AnyOperation, result: unknown) => void): void {
  for (const table of [apiHandlerTable, sandboxHandlerTable] as Record<string, unknown>[]) {
    for (const [id, handler] of Object.entries(table)) {
      const op = allOperations[id];
      if (!op) continue;
      table[id] = async (ctx: unknown, input: unknown) => {
        const result = await (handler as AnyHandler)(ctx, input);
        onAnswer(op, result);
        return result;
      };
    }
  }
}

/** Reads (and answers) what a seeded world holds through nearly every operation. */
export async function readWorld(app: FastifyInstance, world: World): Promise<void> {
  const k = world.a.apiKey;
  const o = world.orders;
  const reads = [
    '/me',
    '/payouts',
    '/stats',
    '/clients',
    '/rating',
    '/questions',
    '/reviews',
    '/complaints',
    '/work-mode',
    '/papers',
    '/catalog/services',
    '/catalog/services/spotify',
    '/catalog/usual-price?service=spotify&productType=code',
    '/catalog/demand',
    '/catalog/requests',
    '/listings',
    `/listings/${world.cards.sub}`,
    `/listings/${world.cards.code}/stock`,
    '/orders',
    '/orders?limit=2',
    '/orders?needsAction=true',
    ...Object.values(o).map((id) => `/orders/${id}`),
    `/orders/${o.paid}/handover`,
    '/keys',
    '/hooks',
    '/hooks/deliveries',
    '/hooks/probe',
  ];
  for (const path of reads) await api(app, k, 'GET', path);
  await api(app, k, 'POST', `/orders/${o.paid}/messages`, { text: 'On it, a few minutes' });
  await api(app, k, 'POST', `/orders/${o.paid}/handover/reveal`);
  await api(app, k, 'POST', `/questions/${world.question}/answer`, { text: 'Yes, it works abroad' });
  await api(app, k, 'POST', `/reviews/${world.review}/reply`, { text: 'Thank you!' });
  await send(app, { method: 'GET', url: `${BASE_PATH.sandbox}/clock`, headers: { authorization: `Bearer ${app.service.adminToken}` } });
}

const FOREIGN = { buyerId: 'buy_LEAKLEAKLEAK01', sealed: 'v1:SEALED-SECRET-VALUE', internalNote: { secret: 'SECRET-NESTED' } };

/** A copy of `value` with unknown fields added to every object in it. */
export function withForeignFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withForeignFields);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = withForeignFields(v);
    return { ...FOREIGN, ...out, zzLast: 'SECRET-TRAILING' };
  }
  return value;
}

export type Path = (string | number)[];

/** Paths of the leaves (and of the objects and arrays) of a JSON value. */
export function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (at.length > 0) out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

/** A copy of `value` with the node at `path` replaced by `by` (or removed). */
export function replaced(value: unknown, path: Path, by: unknown, remove = false): unknown {
  const copy = plain(value) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (remove) delete node[last];
  else node[last] = by;
  return copy;
}

/**
 * Copies of `value` with one node bent: at most `positions` nodes (spread over the value), each
 * replaced by every one of `by` in turn and then removed. `what` says which, for messages.
 */
export function* mutations(value: unknown, by: readonly unknown[] = REPLACEMENTS, positions = 80): Generator<{ value: unknown; what: string }> {
  const all = paths(value);
  const step = Math.max(1, Math.ceil(all.length / positions));
  for (let i = 0; i < all.length; i += step) {
    const path = all[i]!;
    for (const replacement of by) yield { value: replaced(value, path, replacement), what: `${path.join('.')} = ${String(replacement).slice(0, 20)}` };
    yield { value: replaced(value, path, undefined, true), what: `${path.join('.')} removed` };
  }
}

/** Replacements that break (or probe) a leaf: types, ranges, patterns, dates, escapes. */
export const REPLACEMENTS: unknown[] = [
  null,
  undefined,
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  '',
  'x',
  'ord_',
  '2026-02-30',
  '2026-11-21T08:13:39Z',
  'line\nbreak "quoted" \\ \u2028 \ud800 тест',
  true,
  [],
  {},
  ['x'],
];
