/**
 * The CLI's answer checks (the module plain-compile.ts generates in place of sdk/routes.ts, which
 * walks plain descriptions of the schemas) against the SDK's (zod, sdk/routes.ts):
 *
 * - the same routes, in the same order, for the API and the sandbox;
 * - on every answer the handlers gave while a world was seeded and read, on those answers with
 *   unknown fields at every depth, with each leaf replaced by wrong types, bad numbers, patterns
 *   and impossible dates or removed, and on random values shaped by every answer schema: the same
 *   verdict, the same parsed value (the same JSON text, key order and all), and the same path and
 *   code for the first issue;
 * - a node the describer does not know stops the build, naming where it is.
 *
 * The generated module is written next to the repository's sources and imported, so what is tested
 * is the text the build bundles, refinements carried as source and all.
 */
import fc from 'fast-check';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allOperations, apiOperations, sandboxOperations, type AnyOperation } from '../../sdk/contract/index.ts';
import type { Checked, RouteTable } from '../../sdk/contract/operation.ts';
import { plainTable } from '../../sdk/contract/plain-check.ts';
import { PlainCompiler, plainRoutesModule } from '../../sdk/contract/plain-compile.ts';
import * as zodRoutes from '../../sdk/routes.ts';
import { mutations, plain, readWorld, REPLACEMENTS, tapHandlers, withForeignFields } from '../helpers/answers.ts';
import { arbitraryOf, openApp, seedWorld } from '../hardening/helpers.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const root = resolve(import.meta.dirname, '../..');
// Inside the repository (`.vitest-*` is git-ignored), so that its import of plain-check.ts resolves.
const moduleFile = join(root, `.vitest-plain-routes-${process.pid}.ts`);

let plainRoutes: { apiRoutes: RouteTable; sandboxRoutes: RouteTable };
const tapped: { op: AnyOperation; value: unknown }[] = [];

beforeAll(async () => {
  writeFileSync(moduleFile, plainRoutesModule(join(root, 'sdk/contract/plain-check.ts')));
  plainRoutes = await import(pathToFileURL(moduleFile).href);
  tapHandlers((op, result) => tapped.push({ op, value: plain(result) }));
  const app = await openApp();
  try {
    await readWorld(app, await seedWorld(app));
  } finally {
    await app.close();
  }
}, 60_000);

afterAll(() => rmSync(moduleFile, { force: true }));

const tableOf = (op: AnyOperation) => (op.surface === 'api' ? 'apiRoutes' : 'sandboxRoutes');

/** What a check says of a value, in comparable form. */
function verdict(checked: Checked): { ok: boolean; json?: string; first?: { path: readonly PropertyKey[]; code: string | undefined } } {
  if (checked.success) return { ok: true, json: JSON.stringify(checked.data) };
  const [first] = checked.issues;
  return { ok: false, first: { path: first!.path, code: first!.code } };
}

/** The plain check agrees with zod on `value`; returns whether zod took it. */
function expectAgreement(op: AnyOperation, value: unknown, what: string): boolean {
  const table = tableOf(op);
  const expected = verdict(zodRoutes[table].check(op.id, value));
  const actual = plainRoutes[table].check(op.id, value);
  expect(verdict(actual), `${op.id}: ${what}`).toEqual(expected);
  if (!actual.success) for (const issue of actual.issues) expect(issue.message, `${op.id}: ${what}`).not.toBe('');
  return expected.ok;
}

describe('the CLI’s plain answer checks', () => {
  it('have the routes of the table, in its order', () => {
    expect(plainRoutes.apiRoutes.routes).toEqual(zodRoutes.apiRoutes.routes);
    expect(plainRoutes.sandboxRoutes.routes).toEqual(zodRoutes.sandboxRoutes.routes);
    expect(plainRoutes.apiRoutes.routes.map((r) => r.id)).toEqual(Object.keys(apiOperations));
    expect(plainRoutes.sandboxRoutes.routes.map((r) => r.id)).toEqual(Object.keys(sandboxOperations));
    expect(() => plainRoutes.apiRoutes.check('nope.nope', {})).toThrow(/no operation nope\.nope/);
  });

  it('take every handler answer as zod takes it, unknown fields dropped', () => {
    expect(new Set(tapped.map((t) => t.op.id)).size).toBeGreaterThanOrEqual(50);
    let foreign = 0;
    for (const t of tapped) {
      expect(expectAgreement(t.op, t.value, 'the handler’s answer'), t.op.id).toBe(true);
      if (typeof t.value !== 'object' || t.value === null) continue;
      expectAgreement(t.op, withForeignFields(t.value), 'unknown fields added');
      foreign++;
    }
    expect(foreign).toBeGreaterThan(50);
  });

  it('refuse what zod refuses, leaf by leaf, at the same place; take what it takes', () => {
    let refused = 0;
    let taken = 0;
    for (const t of tapped) {
      if (typeof t.value !== 'object' || t.value === null) continue;
      for (const { value, what } of mutations(t.value, [...REPLACEMENTS, 'x'.repeat(5001), -(2 ** 60), 'ord_abc', '2028-02-29', '2027-02-29'])) {
        if (expectAgreement(t.op, value, what)) taken++;
        else refused++;
      }
    }
    expect(refused).toBeGreaterThan(1000);
    expect(taken).toBeGreaterThan(100);
  });

  it('agree with zod on random values shaped by every answer schema', () => {
    for (const op of Object.values(allOperations)) {
      fc.assert(
        fc.property(arbitraryOf(op.answer), fc.boolean(), (value, foreign) => {
          expectAgreement(op, foreign ? withForeignFields(value) : value, 'random value');
        }),
        { numRuns: 40, seed: SEED },
      );
    }
  });

  it('agree with zod on the nodes the contract’s answers do not use yet', () => {
    const cases: [z.ZodType, unknown[]][] = [
      [z.strictObject({ a: z.string() }), [{ a: 'x' }, { a: 'x', b: 1 }, {}]],
      [z.looseObject({ a: z.string() }), [{ a: 'x', b: 1 }, { b: 1 }]],
      [z.object({ a: z.string().min(2).max(3) }), [{ a: 'ab' }, { a: 'a' }, { a: 'abcd' }, { a: '😀😀' }, { a: '😀' }]],
      [z.array(z.number().lt(3).gt(0)).length(2), [[1, 2], [1], [0, 3], [1, 3]]],
      [z.union([z.string(), z.number().int()]), ['x', 1, 1.5, null]],
      [z.record(z.string(), z.number()), [{ a: 1 }, { a: 'x' }, [], {}]],
      [z.record(z.enum(['a', 'b']), z.number()), [{ a: 1, b: 2 }, { a: 1 }, { a: 1, b: 2, c: 3 }]],
      [z.partialRecord(z.enum(['a', 'b']), z.number()), [{ a: 1 }, {}, { c: 1 }]],
      [z.object({ a: z.unknown() }), [{ a: 1 }, {}]],
      [z.literal(['x', 2]), ['x', 2, 'y']],
      [z.int(), [1, 1.5, 2 ** 53]],
    ];
    for (const [schema, values] of cases) {
      const compiler = new PlainCompiler();
      const op = { id: 'x.y', answer: schema } as unknown as AnyOperation;
      const schemas = compiler.table({ 'x.y': op });
      const table = plainTable([], schemas, compiler.refinements);
      for (const value of values) {
        const expected = schema.safeParse(value);
        const actual = table.check('x.y', value);
        expect(verdict(actual), `${JSON.stringify(value)} against ${schema.def.type}`).toEqual(
          verdict(expected.success ? { success: true, data: expected.data } : { success: false, issues: expected.error.issues.map(({ path, message, code }) => ({ path, message, code })) }),
        );
      }
    }
  });

  it('stop the build at a node they cannot check, naming where', () => {
    const describe = (answer: z.ZodType) => new PlainCompiler().table({ 'x.y': { id: 'x.y', answer } as unknown as AnyOperation });
    expect(() => describe(z.object({ a: z.string().transform((s) => s.length) }))).toThrow(/x\.y\.a is a pipe schema/);
    expect(() => describe(z.object({ a: z.number().default(1) }))).toThrow(/x\.y\.a is a default schema/);
    expect(() => describe(z.object({ a: z.email() }))).toThrow(/x\.y\.a is the string format email/);
    expect(() => describe(z.array(z.number().multipleOf(2)))).toThrow(/x\.y\[\] is the check multiple_of/);
    expect(() => describe(z.object({ a: z.string() }).catchall(z.number()))).toThrow(/x\.y is a number catchall/);
  });
});
