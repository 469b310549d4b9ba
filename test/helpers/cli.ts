/**
 * The real `seller` binary for end-to-end tests: `ensureBuilt()` bundles it when cli/dist/ is missing or
 * older than the sources (once per process, one build at a time across test workers), `runSeller()`
 * runs it to completion and `spawnSeller()` starts a long-running one (`orders watch`).
 *
 * The child's environment is the parent's without SERVICE_* variables and locale variables, plus a private
 * SELLER_CONFIG_DIR, plus what the test passes: nothing leaks in from the developer's shell.
 * It reads answers strictly (`SELLER_STRICT=1`): these tests run against our own seller-server,
 * and the contract and the server are held to each other (a test of tolerance passes
 * `SELLER_STRICT: undefined`).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin/seller.js');
const BUNDLE = join(ROOT, 'cli/dist/seller.cjs');
const SOURCES = ['cli', 'sdk', 'scripts', 'package.json'];
const LOCK = join(ROOT, 'node_modules/.seller-build.lock');

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  // Files only: a directory's own time changes when the build swaps its package's dist/ in.
  let newest = 0;
  // A package's built output (cli/dist, sdk/dist) is not a source.
  for (const name of readdirSync(path)) if (name !== 'dist' && name !== 'node_modules') newest = Math.max(newest, newestSource(join(path, name)));
  return newest;
}

function isFresh(): boolean {
  let built: number;
  try {
    built = statSync(BUNDLE).mtimeMs;
  } catch {
    return false;
  }
  return SOURCES.every((source) => newestSource(join(ROOT, source)) <= built);
}

function lockAgeMs(): number {
  try {
    return Date.now() - statSync(LOCK).mtimeMs;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let built: Promise<void> | undefined;

/** Builds dist/ when the CLI bundle is missing or stale; waits for a build another worker runs. */
export function ensureBuilt(): Promise<void> {
  built ??= (async () => {
    for (;;) {
      if (isFresh()) return;
      try {
        mkdirSync(LOCK);
      } catch {
        // Another worker builds; a lock older than two minutes is left over from a crash.
        if (lockAgeMs() > 120_000) rmSync(LOCK, { recursive: true, force: true });
        await sleep(200);
        continue;
      }
      try {
        if (!isFresh()) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
      } finally {
        rmSync(LOCK, { recursive: true, force: true });
      }
      return;
    }
  })();
  return built;
}

export interface SellerRunOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  timeoutMs?: number;
}

export interface SellerResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const configDir = mkdtempSync(join(tmpdir(), 'seller-e2e-'));

export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // The language is the test's to choose (default English, as under LANG=C): none leaks in from the shell.
  const LOCALE = new Set(['LC_ALL', 'LC_MESSAGES', 'LANG', 'LANGUAGE', 'SELLER_LANG']);
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('SERVICE_') && !LOCALE.has(name)) env[name] = value;
  env.SELLER_CONFIG_DIR = configDir;
  env.NO_COLOR = '1';
  env.SELLER_STRICT = '1';
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Starts `seller ARGS…` and leaves it running. */
export function spawnSeller(args: string[], options: Omit<SellerRunOptions, 'input' | 'timeoutMs'> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(options.env) });
}

/** Runs `seller ARGS…` to the end. Call `ensureBuilt()` first (in beforeAll). */
export function runSeller(args: string[], options: SellerRunOptions = {}): Promise<SellerResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnSeller(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
