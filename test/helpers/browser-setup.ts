/**
 * vitest's globalSetup: when no installed browser is there (CHROMIUM_PATH, a system Chromium or
 * Chrome), unpacks the packaged Chromium of `@sparticuz/chromium` once, before any test file starts,
 * so that the workers never race to unpack it. It is unpacked by the package itself, in a child
 * process whose TMPDIR is a staging folder (the package unpacks into the temporary folder), then
 * moved whole into node_modules/.cache: a folder that is there is complete, whoever made it.
 * When nothing can be found or unpacked, it does not throw: each browser test then fails with the
 * message naming the three ways (test/helpers/browser.ts), and the other tests run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findInstalledBrowser, PACKAGED, PACKAGED_LIBS, packagedDirFor, packagedPackageDir, packagedRunsOn } from './browser-finder.ts';

/** Whether `dir` holds a whole unpacking: the browser and the libraries it takes from the system elsewhere. */
const unpacked = (dir: string): boolean => existsSync(path.join(dir, 'chromium')) && existsSync(path.join(dir, PACKAGED_LIBS, 'libnss3.so'));

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export default function setup(): void {
  try {
    if (findInstalledBrowser({ env: process.env, platform: process.platform, arch: process.arch, exists: existsSync, packagedDir: undefined })) return;
  } catch {
    return; // a wrong CHROMIUM_PATH: the browser tests say so
  }
  const dir = packagedDirFor(ROOT);
  if (!dir || !packagedRunsOn(process.platform, process.arch) || unpacked(dir)) return;
  rmSync(dir, { recursive: true, force: true }); // an unpacking of an earlier kind (without the libraries): made again
  try {
    unpackPackaged(dir);
  } catch (err) {
    process.stderr.write(`browser-setup: could not unpack @sparticuz/chromium: ${(err as Error).message}\n`);
  }
}

/** Unpacks the packaged build into `dir` (complete or not at all). */
export function unpackPackaged(dir: string): void {
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    // Resolved by the package's own exports from the clone's root (its layout differs between versions); the
    // libraries (al2023.tar.br) by the package's own inflate, which it runs only on Amazon Linux itself.
    const pkg = packagedPackageDir(ROOT);
    const inflate = pathToFileURL(path.join(pkg, 'build', 'esm', 'lambdafs.js')).href;
    const libs = path.join(pkg, 'bin', 'al2023.tar.br');
    const script =
      `const { default: chromium } = await import(${JSON.stringify(PACKAGED)}); const { inflate } = await import(${JSON.stringify(inflate)});` +
      `await inflate(${JSON.stringify(libs)}); process.stdout.write(await chromium.executablePath());`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: staging, TMP: staging, TEMP: staging },
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (path.resolve(out.trim()) !== path.join(staging, 'chromium')) throw new Error(`unexpected path ${out.trim()}`);
    // The package's fonts.conf names Lambda's folders; this one keeps the system's fonts and adds the packaged ones
    // (Open Sans, with Cyrillic), for a machine without fonts of its own.
    writeFileSync(path.join(staging, 'fonts.conf'), fontsConf(dir));
    try {
      renameSync(staging, dir);
    } catch (err) {
      if (!existsSync(path.join(dir, 'chromium'))) throw err; // another run made it meanwhile: keep theirs
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

const fontsConf = (dir: string): string =>
  [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
    `  <dir>${path.join(dir, 'fonts', 'fonts')}</dir>`,
    `  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
