/**
 * The browser tests' browser (issue "Two commands on a fresh machine"): CHROMIUM_PATH, then a system
 * Chromium or Chrome, then the packaged @sparticuz/chromium; none is a failure naming all three.
 * The last case runs the real finder of this clone: after `npm ci` a browser is always there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findBrowser, NoBrowserError, type FinderWorld } from '../helpers/browser-finder.ts';
import { thisMachinesBrowser } from '../helpers/browser.ts';

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
