/**
 * Start-up: `seller --help` and `--version` must not load any command module, the SDK, conf or
 * inquirer; a command loads its own noun only, and checks answers without zod (the build swaps
 * sdk/routes.ts for plain checks). The CLI is bundled as the build does (esbuild, splitting, the
 * build's plugins) into a temporary directory, then run under a module-resolution hook that
 * records every module loaded.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli } from '../helpers/bundle.ts';
import { startTestServer } from '../helpers/server.ts';
import { NOUNS } from '../../cli/nouns.ts';
import { invokedNoun } from '../../cli/program.ts';
import pkg from '../../cli/package.json' with { type: 'json' };
import { bufferIO, run } from './helpers.ts';

const root = resolve(import.meta.dirname, '../..');
// Inside the repository so that bare imports (commander, …) resolve from node_modules; `.vitest-*` is git-ignored.
const outdir = join(root, `.vitest-cli-dist-${process.pid}`);
const HEAVY = ['/node_modules/conf/', '/node_modules/@inquirer/', '/node_modules/zod/'];
// ky is the SDK's transport (issue 23): a call loads it, `--help` does not.
const HEAVY_FOR_HELP = [...HEAVY, '/node_modules/ky/'];

beforeAll(async () => {
  mkdirSync(outdir, { recursive: true });
  await bundleCli(outdir);
  writeFileSync(
    join(outdir, 'trace-hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.SELLER_TRACE_FILE, result.url + '\\n');
  return result;
}
`,
  );
  writeFileSync(join(outdir, 'trace.mjs'), `import { register } from 'node:module';\nregister('./trace-hooks.mjs', import.meta.url);\n`);
});

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

function traced(env: Record<string, string>) {
  const traceFile = join(outdir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(traceFile, '');
  return {
    argv: ['--import', join(outdir, 'trace.mjs'), join(outdir, 'cli/main.js')],
    env: { PATH: process.env.PATH, SELLER_TRACE_FILE: traceFile, SELLER_CONFIG_DIR: join(outdir, 'config'), ...env },
    loaded: () => readFileSync(traceFile, 'utf8').split('\n').filter(Boolean),
  };
}

function seller(args: string[]) {
  const run = traced({});
  const result = spawnSync(process.execPath, [...run.argv, ...args], { encoding: 'utf8', env: run.env });
  return { code: result.status, out: result.stdout, err: result.stderr, loaded: run.loaded() };
}

/** `seller` without blocking this process (whose event loop serves the test server). */
function sellerAsync(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string; loaded: string[] }> {
  const run = traced(env);
  return new Promise((done) => {
    execFile(process.execPath, [...run.argv, ...args], { encoding: 'utf8', env: run.env }, (error, out, err) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out, err, loaded: run.loaded() });
    });
  });
}

/** `text` as a pattern that matches it literally. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const chunkOf = (loaded: string[], name: string) => loaded.some((url) => new RegExp(`/chunks/${name}-[A-Z0-9]+\\.js$`).test(url));

describe('start-up of the built CLI', () => {
  it('--help lists every noun and loads no command module, SDK, conf or inquirer', () => {
    const { code, out, loaded } = seller(['--help']);
    expect(code).toBe(0);
    for (const noun of NOUNS) expect(out).toMatch(new RegExp(`^  ${noun.name}\\s+${escapeRegExp(noun.summary)}`, 'm'));
    expect(loaded.filter((url) => HEAVY_FOR_HELP.some((part) => url.includes(part)))).toEqual([]);
    for (const noun of NOUNS) expect(chunkOf(loaded, noun.name), noun.name).toBe(false);
    expect(chunkOf(loaded, 'command') || chunkOf(loaded, 'errors')).toBe(false);
    expect(loaded.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
  });

  it('loads the Russian catalogue only when Russian is chosen', () => {
    expect(chunkOf(seller(['--help']).loaded, 'ru')).toBe(false);
    const ru = traced({ LANG: 'ru_RU.UTF-8' });
    const result = spawnSync(process.execPath, [...ru.argv, '--help'], { encoding: 'utf8', env: ru.env });
    expect(result.stdout).toContain('Использование: seller');
    expect(chunkOf(ru.loaded(), 'ru')).toBe(true);
    expect(ru.loaded().filter((url) => HEAVY_FOR_HELP.some((part) => url.includes(part)))).toEqual([]);
  });

  it('--version prints the version and loads nothing heavy', () => {
    const { code, out, loaded } = seller(['--version']);
    expect(code).toBe(0);
    expect(out).toBe(`${pkg.version}\n`);
    expect(loaded.filter((url) => HEAVY.some((part) => url.includes(part)) || /\/chunks\/(?!chunk-)/.test(url))).toEqual([]);
  });

  it('loads only the invoked noun (control)', () => {
    const { code, out, loaded } = seller(['keys', '--help']);
    expect(code).toBe(0);
    expect(out).toContain('issue');
    expect(chunkOf(loaded, 'keys')).toBe(true);
    expect(chunkOf(loaded, 'catalog')).toBe(false);
    expect(chunkOf(loaded, 'login')).toBe(false);
  });

  it('lists cards from a server without loading zod; a drifted answer is shown, and refused only in strict mode', async () => {
    const server = await startTestServer();
    try {
      const { apiKey } = await server.newSeller();
      const env = { SERVICE_API_KEY: apiKey, SERVICE_BASE_URL: server.url };
      const listed = await sellerAsync(['cards', 'list', '--json'], env);
      expect(listed.code, listed.err).toBe(0);
      expect(JSON.parse(listed.out)).toEqual({ items: [], nextCursor: null });
      expect(chunkOf(listed.loaded, 'cards')).toBe(true);
      expect(listed.loaded.filter((url) => HEAVY.some((part) => url.includes(part)))).toEqual([]);
      // A drifted answer (a field of another type, an unknown field) is shown as it came, still without zod.
      const drifted = createServer((req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ items: [{ number: 'one', badge: 'new' }], nextCursor: null }));
      });
      await new Promise<void>((ready) => drifted.listen(0, '127.0.0.1', ready));
      try {
        const { port } = drifted.address() as AddressInfo;
        const at = { ...env, SERVICE_BASE_URL: `http://127.0.0.1:${port}` };
        const shown = await sellerAsync(['cards', 'list', '--json'], at);
        expect(shown.code, shown.err).toBe(0);
        expect(JSON.parse(shown.out)).toEqual({ items: [{ number: 'one', badge: 'new' }], nextCursor: null });
        expect(shown.loaded.filter((url) => HEAVY.some((part) => url.includes(part)))).toEqual([]);
        // Strict mode checks it against the contract (loading zod for it) and refuses it.
        const refused = await sellerAsync(['cards', 'list', '--json'], { ...at, SELLER_STRICT: '1' });
        expect(refused.code).toBe(1);
        expect(refused.out).toBe('');
        expect(refused.err).toMatch(/invalid_response: the service's answer could not be understood \(at items\.0\.number\)/);
        expect(refused.loaded.some((url) => url.includes('/node_modules/zod/'))).toBe(true);
      } finally {
        drifted.close();
      }
      // The control: the one command that needs schemas (the OpenAPI document) does load zod.
      const spec = await sellerAsync(['api', 'spec'], env);
      expect(spec.code, spec.err).toBe(0);
      expect(spec.loaded.some((url) => url.includes('/node_modules/zod/'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('exits 2 on an unknown command', () => {
    const { code, err } = seller(['frobnicate']);
    expect(code).toBe(2);
    expect(err).toContain("unknown command 'frobnicate'");
  });
});

describe('the program', () => {
  it('finds the invoked noun past global options', () => {
    expect(invokedNoun(['--json', '--profile', 'keys', 'catalog', 'list'])?.name).toBe('catalog');
    expect(invokedNoun(['--base-url=http://x', 'keys'])?.name).toBe('keys');
    expect(invokedNoun(['help', 'api'])?.name).toBe('api');
    expect(invokedNoun(['--help'])).toBeUndefined();
    expect(invokedNoun(['nope'])).toBeUndefined();
  });

  it('lists every noun in help (in-process)', async () => {
    const { code, out } = await run(['--help'], bufferIO());
    expect(code).toBe(0);
    for (const noun of NOUNS) expect(out).toContain(noun.name);
  });

  it('shows a noun’s verbs in its help', async () => {
    const { out } = await run(['help', 'keys'], bufferIO());
    expect(out).toMatch(/list\|ls/);
    expect(out).toMatch(/revoke \[options\] <id>/);
  });
});
