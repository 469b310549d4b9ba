/**
 * Which browser the browser tests drive, in this order (issue "Two commands on a fresh machine"):
 * 1. `CHROMIUM_PATH`, when set (it must then name a file: a wrong one is an error, not a fallback);
 * 2. a system Chromium or Chrome on the usual paths;
 * 3. the Chromium build packaged in the devDependency `@sparticuz/chromium` (Linux x64 only), unpacked
 *    once per clone into node_modules/.cache (test/helpers/browser-setup.ts does it before the test
 *    files start, so that several workers never race to unpack 200 MB).
 * Pure: what it looks at is passed in, so the order and the refusal are unit-tested
 * (test/helpers/browser-finder.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const SYSTEM_BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export const PACKAGED = '@sparticuz/chromium';

export type BrowserSource = 'CHROMIUM_PATH' | 'system' | 'packaged';
export interface FoundBrowser {
  executablePath: string;
  source: BrowserSource;
}

export interface FinderWorld {
  env: Record<string, string | undefined>;
  platform: string;
  arch: string;
  exists(file: string): boolean;
  /** Where the packaged build is (or will be) unpacked, or undefined when the package is not installed. */
  packagedDir: string | undefined;
}

/** Whether the packaged build can run here (it ships a Linux x64 binary). */
export const packagedRunsOn = (platform: string, arch: string): boolean => platform === 'linux' && arch === 'x64';

/** The browser to use without unpacking anything: CHROMIUM_PATH or a system one; `undefined` if neither. */
export function findInstalledBrowser(world: FinderWorld): FoundBrowser | undefined {
  const given = world.env.CHROMIUM_PATH;
  if (given) {
    if (!world.exists(given)) throw new NoBrowserError(`CHROMIUM_PATH is ${given}, which does not exist.`);
    return { executablePath: given, source: 'CHROMIUM_PATH' };
  }
  const system = SYSTEM_BROWSERS.find((file) => world.exists(file));
  return system ? { executablePath: system, source: 'system' } : undefined;
}

/** The browser to use: installed first, then the packaged build once unpacked; otherwise a NoBrowserError naming every way. */
export function findBrowser(world: FinderWorld): FoundBrowser {
  const installed = findInstalledBrowser(world);
  if (installed) return installed;
  if (world.packagedDir && packagedRunsOn(world.platform, world.arch)) {
    const executablePath = path.join(world.packagedDir, 'chromium');
    if (world.exists(executablePath)) return { executablePath, source: 'packaged' };
    throw new NoBrowserError(`${PACKAGED} is installed but not unpacked at ${executablePath} (vitest's globalSetup, test/helpers/browser-setup.ts, unpacks it).`);
  }
  const why = !world.packagedDir ? `${PACKAGED} is not installed` : `${PACKAGED} runs on Linux x64 only (this is ${world.platform} ${world.arch})`;
  throw new NoBrowserError(`No Chromium found on the usual paths and ${why}.`);
}

/**
 * The libraries the packaged build takes from the system on its own platform (Amazon Linux 2023):
 * NSS, NSPR and expat. The package ships them (`al2023.tar.br`); they are unpacked beside the browser
 * and the loader is pointed at them (LD_LIBRARY_PATH), so a minimal Debian without them runs it.
 */
export const PACKAGED_LIBS = path.join('al2023', 'lib');

/** A browser that was found but could not start: the library the loader missed, and the three ways. */
export function startFailure(executablePath: string, err: unknown): Error {
  const text = err instanceof Error ? err.message : String(err);
  const missing = /error while loading shared libraries: ([^\s:]+)/.exec(text)?.[1];
  return missing
    ? new NoBrowserError(`The browser at ${executablePath} cannot start: the library ${missing} is missing from this system.`)
    : (err as Error);
}

export class NoBrowserError extends Error {
  constructor(why: string) {
    super(
      `The browser tests need a Chromium or Chrome. ${why} Any of these three gives one: ` +
        `(1) set CHROMIUM_PATH to a Chromium or Chrome executable; ` +
        `(2) install a system Chromium or Chrome on a usual path (${SYSTEM_BROWSERS.slice(0, 3).join(', ')}, …); ` +
        `(3) on Linux x64, \`npm ci\` installs the devDependency ${PACKAGED}, a packaged Chromium the tests unpack once.`,
    );
    this.name = 'NoBrowserError';
  }
}

/** The installed version of the packaged build, or undefined when it is not installed. */
export function packagedVersion(root: string): string | undefined {
  try {
    // Its `exports` do not offer package.json, so it is read where npm puts it.
    return (JSON.parse(readFileSync(path.join(packagedPackageDir(root), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** Where npm installs the packaged build in this clone. */
export const packagedPackageDir = (root: string): string => path.join(root, 'node_modules', ...PACKAGED.split('/'));

/** Where this clone unpacks the packaged build: beside node_modules, keyed by its version. */
export function packagedDirFor(root: string): string | undefined {
  const version = packagedVersion(root);
  return version ? path.join(root, 'node_modules', '.cache', 'service-seller-chromium', version) : undefined;
}
