/**
 * The browser of the browser tests: found by test/helpers/browser-finder.ts (CHROMIUM_PATH, a system
 * Chromium or Chrome, then the packaged `@sparticuz/chromium` that vitest's globalSetup unpacked),
 * launched headless by playwright-core with the flags this machine needs. No browser found is a
 * failure naming the three ways, never a skip.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { findBrowser, PACKAGED_LIBS, packagedDirFor, startFailure, type FoundBrowser } from './browser-finder.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The browser this machine offers (throws a NoBrowserError naming the three ways when none). */
export function thisMachinesBrowser(): FoundBrowser {
  return findBrowser({ env: process.env, platform: process.platform, arch: process.arch, exists: existsSync, packagedDir: packagedDirFor(ROOT) });
}

/** The environment the browser runs in: for the packaged build, its fonts and the libraries it ships. */
export function browserEnv(found: FoundBrowser): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  if (found.source === 'packaged') {
    const dir = path.dirname(found.executablePath);
    env.FONTCONFIG_FILE = path.join(dir, 'fonts.conf');
    // NSS, NSPR and expat as the package ships them, for a system without them (./browser-finder.ts PACKAGED_LIBS)
    env.LD_LIBRARY_PATH = [path.join(dir, PACKAGED_LIBS), env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  }
  return env;
}

/**
 * Launches the browser headless. playwright-core gives every launch a fresh user-data-dir of its own
 * (a new temporary profile, removed on close), so no state is shared between tests or runs.
 */
export async function launchBrowser(): Promise<Browser> {
  const found = thisMachinesBrowser();
  try {
    return await chromium.launch({ executablePath: found.executablePath, args: BROWSER_ARGS, env: browserEnv(found), timeout: 60_000 });
  } catch (err) {
    throw startFailure(found.executablePath, err);
  }
}
