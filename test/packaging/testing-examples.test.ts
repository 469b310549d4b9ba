/**
 * "Testing your integration" as a user does it (issue 28): a fresh folder outside the repository
 * installs the SDK and server tarballs, msw and vitest, and runs examples/testing/ (the msw mock,
 * `startServer`, `service-seller/testing`) green; the mock also runs under node:test, from ES
 * modules and from CommonJS, opening no socket; and the install holds on Node 20 without the
 * repository's overrides (light-my-request 6.6.0, whose cookie 1 runs on Node 20).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { installed, installInto, manifestOf, node, packAll } from '../helpers/tarballs.ts';

let work: string;
let dir: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'seller-testing-'));
  const packs = packAll(join(work, 'packs'));
  dir = join(work, 'consumer');
  const versions = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
  await installInto(dir, [packs['service-seller']!.file, packs['service-seller-server']!.file, `msw@${versions.msw}`, `vitest@${versions.vitest}`]);
  cpSync(join(ROOT, 'examples', 'testing'), dir, { recursive: true });
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A node:test file using the mock with msw, in either module system. */
const nodeTest = (load: (name: string) => string, top: string) => `${top}
const { test, after } = ${load('node:test')};
const assert = ${load('node:assert/strict')};
const net = ${load('node:net')};
const listens = [];
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) { listens.push(args); return listen.apply(this, args); };
test('the msw mock answers the SDK, with no socket', async () => {
  const { setupServer } = ${load('msw/node')};
  const { createSellerMock } = ${load('service-seller-server/msw')};
  const { SellerClient } = ${load('service-seller')};
  const mock = await createSellerMock();
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  after(async () => { server.close(); await mock.close(); });
  const client = new SellerClient({ baseUrl: mock.baseUrl, apiKey: mock.seller.apiKey });
  const me = await client.me.get();
  assert.equal(me.sellerId, mock.seller.sellerId);
  const refused = await client.orders.get('ord_missing').then(() => 'found', (e) => e.code);
  assert.equal(refused, 'not_found');
  assert.deepEqual(listens, []);
});
`;

describe('examples/testing against the installed packages', () => {
  it('installs without the repository’s overrides, every package accepting Node 20.19', () => {
    expect(manifestOf(dir, 'light-my-request').version).toBe('6.6.0');
    for (const name of installed(dir)) {
      const wanted = (manifestOf(dir, name).engines as { node?: string } | undefined)?.node ?? '';
      // vitest's own range names later majors beside 20 (`^20.0.0 || ^22.0.0 || >=24.0.0`).
      if (/\^20|>=\s*(18|20)/.test(wanted)) continue;
      expect(wanted, name).not.toMatch(/>=\s*(2[1-9]|[3-9]\d)/);
    }
  });

  it('runs every example test green under vitest', async () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.test.ts'));
    expect(files.sort()).toEqual(['helpers.test.ts', 'msw-mock.test.ts', 'start-server.test.ts']);
    const out = await node(dir, [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=verbose'], { CI: '1', NO_COLOR: '1' });
    expect(out).toMatch(/Test Files\s+3 passed \(3\)/);
    expect(out).not.toMatch(/failed|skipped/);
  }, 180_000);

  it('type-check under TypeScript 5 (bundler resolution, as a vitest project has it) against the installed types', async () => {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'esnext',
          moduleResolution: 'bundler',
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          // msw's and vitest's own declarations are theirs to check (and slow to): ours are used, so a wrong one fails.
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['msw-mock.test.ts', 'start-server.test.ts', 'helpers.test.ts'],
      }),
    );
    const output = await node(dir, [join(ROOT, 'node_modules/typescript5/bin/tsc'), '-p', 'tsconfig.json']).catch((error: Error) => error.message);
    expect(output).toBe('');
  }, 300_000);

  it('runs under node:test from CommonJS and from ES modules', async () => {
    writeFileSync(join(dir, 'mock.test.cjs'), nodeTest((name) => `require('${name}')`, "'use strict';"));
    writeFileSync(join(dir, 'mock.test.mjs'), nodeTest((name) => `await import('${name}')`, ''));
    for (const file of ['mock.test.cjs', 'mock.test.mjs']) {
      const out = await node(dir, ['--test', file]);
      expect(out, file).toMatch(/# pass 1/);
      expect(out, file).toMatch(/# fail 0/);
    }
  }, 120_000);
});
