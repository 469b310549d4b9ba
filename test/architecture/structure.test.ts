/**
 * The shape of the code, checked by tools rather than by eye:
 * - no import cycles in sdk/, cli/ and server/, type-only and dynamic imports counted (dpdm, the
 *   same check as `npx dpdm --circular 'sdk/**' 'cli/**' 'server/**'`);
 * - the server keeps nothing per server outside its context (server/context.ts, built by
 *   `buildApp`): no module-level map keyed by the context, no bag of services.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { describe, expect, it } from 'vitest';
import { makeApp } from '../server/helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function cyclesIn(globs: string[], cwd: string): Promise<string[][]> {
  const tree = await parseDependencyTree(globs, {
    cwd,
    context: cwd,
    // The sources only: not the built packages (dist/) nor what is installed.
    exclude: /\/(?:node_modules|dist)\//,
    transform: false,
    skipDynamicImports: false,
    tsconfig: undefined,
  });
  return parseCircular(tree, false);
}

describe('import cycles', () => {
  it('sdk/, cli/ and server/ have none (type-only and dynamic imports counted)', async () => {
    const cycles = await cyclesIn(['sdk/**/*.ts', 'cli/**/*.ts', 'server/**/*.ts'], ROOT);
    expect(cycles.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('the check sees a cycle made only of type imports, and one through a dynamic import', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cycles-'));
    try {
      await writeFile(path.join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b: B }\n");
      await writeFile(path.join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport interface B { a?: A }\n");
      await writeFile(path.join(dir, 'c.ts'), "export const c = () => import('./d.ts');\n");
      await writeFile(path.join(dir, 'd.ts'), "import { c } from './c.ts';\nexport const d = c;\n");
      const cycles = await cyclesIn(['*.ts'], dir);
      expect(cycles.map((cycle) => cycle.map((file) => path.basename(file)).sort().join(' ')).sort()).toEqual(['a.ts b.ts', 'c.ts d.ts']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name));
}

/** Module-level state keyed by the server context, or a bag of untyped services on it. */
const PER_SERVER_OUTSIDE = /(?:Weak)?Map<\s*ServerContext\b|\bservices\s*[[:.]/;

describe('one server context', () => {
  it('no module of the server keeps state keyed by the server', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(path.join(ROOT, 'server'))) {
      const text = await readFile(file, 'utf8');
      text.split('\n').forEach((line, i) => {
        if (PER_SERVER_OUTSIDE.test(line)) offenders.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('the pattern catches the shapes it is for', () => {
    expect(PER_SERVER_OUTSIDE.test('const pages = new WeakMap<ServerContext, KeptPages>();')).toBe(true);
    expect(PER_SERVER_OUTSIDE.test('let st = svc.services[KEY] as WebhookState;')).toBe(true);
    expect(PER_SERVER_OUTSIDE.test('const serializers = new WeakMap<z.ZodType, Serializer>();')).toBe(false);
  });

  it('each server built by buildApp has parts of its own, and the clock sweeps only its own orders', async () => {
    const [a, b] = await Promise.all([makeApp(), makeApp()]);
    try {
      for (const part of ['store', 'images', 'clock', 'deadlines', 'limiter', 'inflight', 'lastPrune', 'keptPages', 'events', 'outbox', 'market'] as const) {
        expect(a.service[part], part).toBeDefined();
        expect(a.service[part], part).not.toBe(b.service[part]);
      }
      // A deadline noted in one server is swept by its clock only.
      a.service.deadlines.note('sel_nobody', 0);
      await b.service.clock.tick();
      expect(a.service.deadlines.bySeller.get('sel_nobody')).toBe(0);
      await a.service.clock.tick();
      expect(a.service.deadlines.bySeller.has('sel_nobody')).toBe(false);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
