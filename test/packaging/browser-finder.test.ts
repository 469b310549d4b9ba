/**
 * The browser tests' browser (issue "Two commands on a fresh machine"): CHROMIUM_PATH, then a system
 * Chromium or Chrome, then the packaged @sparticuz/chromium; none is a failure naming all three.
 * The last case runs the real finder of this clone: after `npm ci` a browser is always there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBrowser, NoBrowserError, startFailure, type FinderWorld } from '../helpers/browser-finder.ts';
import { BROWSER_ARGS, browserEnv, thisMachinesBrowser } from '../helpers/browser.ts';

const world = (files: string[], over: Partial<FinderWorld> = {}): FinderWorld => ({
  env: {},
  platform: 'linux',
  arch: 'x64',
  exists: (file) => files.includes(file),
  packagedDir: '/clone/node_modules/.cache/service-seller-chromium/153.0.0',
  ...over,
});
const PACKAGED = '/clone/node_modules/.cache/service-seller-chromium/153.0.0/chromium';

const threeWays = (err: unknown): void => {
  expect(err).toBeInstanceOf(NoBrowserError);
  const text = (err as Error).message;
  expect(text).toContain('CHROMIUM_PATH');
  expect(text).toContain('/usr/bin/chromium');
  expect(text).toContain('@sparticuz/chromium');
};
const failure = (w: FinderWorld): unknown => {
  try {
    findBrowser(w);
  } catch (err) {
    return err;
  }
  throw new Error('findBrowser found a browser');
};

describe('the browser tests find a browser', () => {
  it('takes CHROMIUM_PATH first, over a system and a packaged one', () => {
    const w = world(['/opt/my/chrome', '/usr/bin/chromium', PACKAGED], { env: { CHROMIUM_PATH: '/opt/my/chrome' } });
    expect(findBrowser(w)).toEqual({ executablePath: '/opt/my/chrome', source: 'CHROMIUM_PATH' });
  });

  it('refuses a CHROMIUM_PATH that names no file rather than falling back', () => {
    const err = failure(world(['/usr/bin/chromium'], { env: { CHROMIUM_PATH: '/nowhere/chrome' } }));
    threeWays(err);
    expect((err as Error).message).toContain('/nowhere/chrome');
  });

  it('takes a system Chromium or Chrome before the packaged one', () => {
    expect(findBrowser(world(['/usr/bin/google-chrome', PACKAGED]))).toEqual({ executablePath: '/usr/bin/google-chrome', source: 'system' });
  });

  it('takes the packaged build last, once unpacked', () => {
    expect(findBrowser(world([PACKAGED]))).toEqual({ executablePath: PACKAGED, source: 'packaged' });
    const err = failure(world([]));
    threeWays(err);
    expect((err as Error).message).toContain('not unpacked');
  });

  it('fails naming the three ways when there is none (no package, or not Linux x64)', () => {
    threeWays(failure(world([], { packagedDir: undefined })));
    const mac = failure(world([PACKAGED], { platform: 'darwin', arch: 'arm64' }));
    threeWays(mac);
    expect((mac as Error).message).toContain('darwin arm64');
  });

  it('finds one in this clone after npm ci (the packaged build is a devDependency)', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> };
    expect(Object.keys(manifest.devDependencies)).toContain('@sparticuz/chromium');
    const found = thisMachinesBrowser();
    expect(existsSync(found.executablePath)).toBe(true);
  });
});

/** The libraries the packaged build needs from a system that has them (a minimal Debian has none of them). */
const SYSTEM_LIBS = ['libnss3.so', 'libnssutil3.so', 'libnspr4.so', 'libexpat.so.1'];

describe('the packaged browser without the system libraries it takes elsewhere (issue 35)', () => {
  it('starts with libnss3, libnssutil3, libnspr4 and libexpat hidden from the system (a mount namespace, as root)', () => {
    const found = thisMachinesBrowser();
    const hidden = SYSTEM_LIBS.flatMap((lib) => ['/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib64', '/usr/lib64'].map((dir) => path.join(dir, lib))).filter((file) => existsSync(file));
    const dir = mkdtempSync(path.join(tmpdir(), 'no-libs-'));
    try {
      const empty = path.join(dir, 'empty');
      writeFileSync(empty, '');
      // each library the system has becomes an empty file for this process alone; then the browser prints a page
      const script = [...hidden.map((file) => `mount --bind ${empty} ${file}`), 'exec "$@"'].join(' && ');
      const launch = `const { chromium } = await import('playwright-core'); const b = await chromium.launch({ executablePath: ${JSON.stringify(found.executablePath)}, args: ${JSON.stringify(BROWSER_ARGS)} });
        const p = await b.newPage(); await p.setContent('<p>started</p>'); console.log(await p.innerHTML('body')); await b.close();`;
      const args = ['-m', 'sh', '-c', script, 'sh', process.execPath, '--input-type=module', '-e', launch];
      const run = spawnSync('unshare', args, { cwd: path.resolve(import.meta.dirname, '../..'), env: browserEnv(found), encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).not.toMatch(/error while loading shared libraries/);
      expect(run.stdout).toContain('<p>started</p>');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the missing library and the three ways when the browser cannot start, never the raw loader error', () => {
    const err = startFailure('/x/chromium', new Error('browserType.launch: Failed to launch\n/x/chromium: error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory'));
    expect(err).toBeInstanceOf(NoBrowserError);
    expect(err.message).toContain('the library libnss3.so is missing');
    expect(err.message).toContain('CHROMIUM_PATH');
    expect(err.message).not.toContain('cannot open shared object file');
  });
});
