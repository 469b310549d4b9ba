/**
 * The compiled answer writers (server/http/answer-writer.ts) against what they replace: parsing the
 * handler's result through the operation's answer schema and `JSON.stringify`-ing the parsed value.
 *
 * - Every answer the handlers gave while a world was seeded and read (their raw results, tapped
 *   before the pipeline) is written byte for byte as zod + JSON.stringify wrote it.
 * - Unknown fields put into every object of those answers (a buyer id, a sealed secret) are not
 *   written, and change nothing.
 * - A value the contract refuses (each leaf of those answers replaced by wrong types, out-of-range
 *   numbers, bad patterns, impossible dates, absence) is refused by the writer too, and `answerJson`
 *   fails with zod's message; a value the contract takes is written as zod writes it.
 * - The same for random values shaped by every operation's schema (fast-check).
 * - Kept list answers (server/http/answer-memo.ts): `same` holds only for values the writer would
 *   write to the same bytes; over HTTP a changed page is never answered with the old bytes.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOperations, apiOperations, BASE_PATH, type AnyOperation } from '../../sdk/contract/index.ts';
import { AnswerMemo } from '../../server/http/answer-memo.ts';
import { answerJson, compileAnswer, safeAlphabet, writerOf } from '../../server/http/answer-writer.ts';
import { mutations, paths, plain, readWorld, replaced, REPLACEMENTS, tapHandlers, withForeignFields } from '../helpers/answers.ts';
import { api, arbitraryOf, openApp, seedWorld, send, type World } from '../hardening/helpers.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);

/** zod's verdict and text: the JSON of the parsed value, or undefined when refused. */
function zodJson(op: AnyOperation, value: unknown): string | undefined {
  const parsed = op.answer.safeParse(value);
  return parsed.success ? JSON.stringify(parsed.data) : undefined;
}

/** The writer agrees with zod on `value`: the same text, or both refuse (and `answerJson` throws). */
function expectAgreement(op: AnyOperation, value: unknown, what: string): void {
  const expected = zodJson(op, value);
  expect(writerOf(op.answer).write(value), `${op.id}: ${what}`).toBe(expected);
  if (expected === undefined) expect(() => answerJson(op.answer, value, op.id), `${op.id}: ${what}`).toThrow(/does not match the contract/);
  else expect(answerJson(op.answer, value, op.id), `${op.id}: ${what}`).toBe(expected);
}

// ---------------------------------------------------------------------------------------------
// The handlers' own results, tapped while a world is seeded and read
// ---------------------------------------------------------------------------------------------

interface Tapped {
  op: AnyOperation;
  /** What zod + JSON.stringify wrote, and what the writer wrote, when the handler answered. */
  zod: string | undefined;
  written: string | undefined;
  copy: unknown;
}

const tapped: Tapped[] = [];

let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  tapHandlers((op, result) => {
    tapped.push({ op, zod: zodJson(op, result), written: writerOf(op.answer).write(result), copy: plain(result) });
  });
  app = await openApp();
  world = await seedWorld(app);
  await readWorld(app, world);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('compiled answer writers', () => {
  it('compile for every operation; only records are left to zod', () => {
    const left: string[] = [];
    for (const op of Object.values(allOperations)) {
      const { fallbacks } = compileAnswer(op.answer);
      for (const path of fallbacks) left.push(`${op.id} ${path}`);
    }
    expect(left.sort()).toEqual(['catalog.get deliveryMethods', 'catalog.list items[].deliveryMethods', 'hooks.probe items[].headers']);
    // The hot lists are compiled through and through.
    expect(compileAnswer(apiOperations['orders.list'].answer).fallbacks).toEqual([]);
    expect(compileAnswer(apiOperations['listings.list'].answer).fallbacks).toEqual([]);
  });

  it('write every handler answer byte for byte as zod + JSON.stringify did', () => {
    const ops = new Set(tapped.map((t) => t.op.id));
    // Every read of the list above, the seeding's changes, and the sandbox's.
    expect(ops.size).toBeGreaterThanOrEqual(50);
    for (const t of tapped) {
      expect(t.zod, `${t.op.id}: the handler's answer matches the contract`).toBeDefined();
      expect(t.written, t.op.id).toBe(t.zod);
    }
  });

  it('drop unknown fields at every depth (a buyer id, a sealed secret)', () => {
    let checked = 0;
    for (const t of tapped) {
      if (typeof t.copy !== 'object' || t.copy === null) continue;
      const foreign = withForeignFields(t.copy);
      const written = writerOf(t.op.answer).write(foreign);
      expect(written, t.op.id).toBe(zodJson(t.op, foreign));
      // A record's keys are its data (the catalogue's delivery methods by product type): an extra
      // key there is refused by zod and by the writer alike. Everywhere else the fields are dropped.
      if (writerOf(t.op.answer).fallbacks.length > 0) continue;
      expect(written, t.op.id).toBe(t.zod);
      expect(written).not.toMatch(/LEAK|SEALED|SECRET/);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('refuse what the contract refuses, leaf by leaf; take what it takes, as zod writes it', () => {
    let refused = 0;
    let taken = 0;
    for (const t of tapped) {
      if (typeof t.copy !== 'object' || t.copy === null) continue;
      // At most 80 positions of an answer (spread over it), each replaced by every probe and removed.
      for (const { value, what } of mutations(t.copy)) {
        expectAgreement(t.op, value, what);
        if (zodJson(t.op, value) === undefined) refused++;
        else taken++;
      }
    }
    // Both sides were exercised.
    expect(refused).toBeGreaterThan(1000);
    expect(taken).toBeGreaterThan(100);
  });

  it('agree with zod on random values shaped by each schema, foreign fields and all', () => {
    for (const op of Object.values(allOperations)) {
      fc.assert(
        fc.property(arbitraryOf(op.answer), fc.boolean(), (value, foreign) => {
          expectAgreement(op, foreign ? withForeignFields(value) : value, 'random value');
        }),
        { numRuns: 40, seed: SEED },
      );
    }
  });

  it('compare leaves (`same`) true only for values written to the same bytes', () => {
    let hits = 0;
    let misses = 0;
    for (const t of tapped) {
      const w = writerOf(t.op.answer);
      if (!w.same || typeof t.copy !== 'object' || t.copy === null) continue;
      const leaves: unknown[] = [];
      const text = w.write(t.copy, leaves);
      expect(text, t.op.id).toBe(t.zod);
      expect(w.same(plain(t.copy), leaves), `${t.op.id}: an equal copy`).toBe(true);
      expect(w.same(withForeignFields(t.copy), leaves), `${t.op.id}: unknown fields do not count`).toBe(true);
      const all = paths(t.copy);
      const step = Math.max(1, Math.ceil(all.length / 60));
      for (let i = 0; i < all.length; i += step) {
        const path = all[i]!;
        const variants = [...REPLACEMENTS.map((by) => replaced(t.copy, path, by)), replaced(t.copy, path, undefined, true)];
        for (const variant of variants) {
          const same = w.same(variant, leaves);
          const again = w.write(variant);
          // Equal leaves ⇔ the same bytes (a value the writer refuses is never "the same").
          expect(same, `${t.op.id} ${path.join('.')}`).toBe(again === text);
          if (same) hits++;
          else misses++;
        }
      }
    }
    expect(misses).toBeGreaterThan(1000);
    expect(hits).toBeGreaterThan(0);
  });

  it('keep list answers within bounds, least recently used dropped first', () => {
    const w = writerOf(apiOperations['orders.list'].answer);
    const page = (n: number) => ({ items: [], nextCursor: `c${n}` });
    const memo = new AnswerMemo(3, 10_000);
    const first = memo.bytes('a', w, page(1))!;
    expect(first.toString()).toBe('{"items":[],"nextCursor":"c1"}');
    expect(memo.bytes('a', w, page(1))).toBe(first); // the kept bytes
    expect(memo.bytes('a', w, page(2))!.toString()).toContain('"c2"'); // changed: written anew
    memo.bytes('b', w, page(1));
    memo.bytes('c', w, page(1));
    memo.bytes('a', w, page(2)); // a used again
    memo.bytes('d', w, page(1)); // over 3 entries: b goes
    expect(memo.size.entries).toBe(3);
    const b = memo.bytes('b', w, page(1))!;
    expect(b.toString()).toContain('"c1"');
    expect(memo.bytes('x', w, { items: 'nope' })).toBeUndefined(); // refused: zod decides elsewhere
    const small = new AnswerMemo(10, 100);
    small.bytes('big', w, { items: [], nextCursor: 'x'.repeat(200) });
    expect(small.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('over HTTP, a page that changed is answered with its new bytes', async () => {
    const k = world.a.apiKey;
    const url = `${BASE_PATH.api}/orders?limit=3`;
    const get = () => send(app, { method: 'GET', url, headers: { authorization: `Bearer ${k}` } });
    const one = await get();
    const two = await get();
    expect(two.status).toBe(200);
    expect(two.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(two.text).toBe(one.text);
    // An order on the page changes: the next read shows it.
    const target = (one.body as { items: { id: string; status: string }[] }).items.find((o) => o.status === 'awaiting_delivery' || o.status === 'awaiting_confirmation');
    expect(target).toBeDefined();
    const path = target!.status === 'awaiting_confirmation' ? `/orders/${target!.id}/confirm` : `/orders/${target!.id}/deliver`;
    expect((await api(app, k, 'POST', path, target!.status === 'awaiting_delivery' ? { nextChargeDay: '2030-01-15' } : undefined)).status).toBe(200);
    const three = await get();
    expect(three.text).not.toBe(one.text);
    expect(three.body).toEqual((await api(app, k, 'GET', '/orders?limit=3')).body);
    const changed = (three.body as { items: { id: string; status: string }[] }).items.find((o) => o.id === target!.id);
    expect(changed?.status).not.toBe(target!.status);
    // Another seller reading the same URL gets their own (empty) page.
    const other = await send(app, { method: 'GET', url, headers: { authorization: `Bearer ${world.b.apiKey}` } });
    expect(other.body).toEqual({ items: [], nextCursor: null });
  });

  it('write strings that need escaping as JSON.stringify does', () => {
    const op = apiOperations['orders.get'];
    const order = tapped.find((t) => t.op.id === 'orders.get' && (t.copy as { messages: unknown[] }).messages.length > 0)!.copy as {
      messages: { text: string }[];
    };
    for (const text of ['"quoted" \\ back', 'tab\there\nline', '\u0000\u001f\u007f', 'emoji 😀 тест', 'lone \ud800 \udfff surrogates', '\u2028\u2029']) {
      const value = { ...order, messages: order.messages.map((m) => ({ ...m, text })) };
      expectAgreement(op, value, JSON.stringify(text));
    }
  });

  it('send no escape test only for patterns that admit no character needing one', () => {
    for (const safe of [/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, /^[a-z0-9][a-z0-9-]{0,63}$/, /^ord_[A-Za-z0-9]{1,64}$/, /^-?\d+$/]) {
      expect(safeAlphabet(safe), String(safe)).toBe(true);
    }
    const unsafe = [/^[0-z]+$/, /^.+$/, /^a|"$/, /^[^a]$/, /^\s$/, /^a$/m, /^a$/i, /a$/, /^a/, /^\W$/, /^[A-z]$/, /^\\$/, /^[a-c-e]$/, /^(?!a).$/];
    for (const regex of unsafe) expect(safeAlphabet(regex), String(regex)).toBe(false);
  });
});
