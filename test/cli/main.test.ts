/**
 * Start-up: `seller --help` and `--version` must not load any command module, the SDK (zod),
 * conf or inquirer. The CLI is bundled as the build does (esbuild, splitting) into a temporary
 * directory, then run under a module-resolution hook that records every module loaded.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli } from '../helpers/bundle.ts';
import { NOUNS } from '../../cli/nouns.ts';
import { invokedNoun } from '../../cli/program.ts';
import pkg from '../../package.json' with { type: 'json' };
import { bufferIO, run } from './helpers.ts';

const root = resolve(import.meta.dirname, '../..');
// Inside the repository so that bare imports (commander, …) resolve from node_modules; `.vitest-*` is git-ignored.
const outdir = join(root, `.vitest-cli-dist-${process.pid}`);
const HEAVY = ['/node_modules/conf/', '/node_modules/@inquirer/', '/node_modules/zod/', '/node_modules/ky/'];

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

function seller(args: string[]) {
  const traceFile = join(outdir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(traceFile, '');
  const result = spawnSync(process.execPath, ['--import', join(outdir, 'trace.mjs'), join(outdir, 'cli/main.js'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, SELLER_TRACE_FILE: traceFile, SELLER_CONFIG_DIR: join(outdir, 'config') },
  });
  const loaded = readFileSync(traceFile, 'utf8').split('\n').filter(Boolean);
  return { code: result.status, out: result.stdout, err: result.stderr, loaded };
}

const chunkOf = (loaded: string[], name: string) => loaded.some((url) => new RegExp(`/chunks/${name}-[A-Z0-9]+\\.js$`).test(url));

describe('start-up of the built CLI', () => {
  it('--help lists every noun and loads no command module, SDK, conf or inquirer', () => {
    const { code, out, loaded } = seller(['--help']);
    expect(code).toBe(0);
    for (const noun of NOUNS) expect(out).toMatch(new RegExp(`^  ${noun.name}\\s+${noun.summary}`, 'm'));
    expect(loaded.filter((url) => HEAVY.some((part) => url.includes(part)))).toEqual([]);
    for (const noun of NOUNS) expect(chunkOf(loaded, noun.name), noun.name).toBe(false);
    expect(chunkOf(loaded, 'command') || chunkOf(loaded, 'errors')).toBe(false);
    expect(loaded.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
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
    expect(loaded.some((url) => url.includes('/node_modules/zod/'))).toBe(true); // the trace sees the SDK
    expect(chunkOf(loaded, 'catalog')).toBe(false);
    expect(chunkOf(loaded, 'login')).toBe(false);
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
