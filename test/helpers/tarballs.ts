/**
 * The packages as a consumer gets them: `npm pack` of every workspace, and installs of the tarballs
 * into fresh folders outside the repository (so nothing resolves from its node_modules), from the
 * npm cache (`--prefer-offline`: what `npm ci` fetched is not fetched again). Needs the packages'
 * dist/ (npm test builds first; a lone run builds when one is missing).
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cli.ts';

const run = promisify(execFile);

export interface Packed {
  name: string;
  version: string;
  /** The tarball's absolute path. */
  file: string;
  /** Paths inside the package. */
  files: string[];
}

const BUILT = ['sdk/dist/esm/index.js', 'cli/dist/seller.cjs', 'server/dist/esm/main.js'];

/** Packs every workspace into `dir`; builds first when a package's dist/ is missing. */
export function packAll(dir: string): Record<string, Packed> {
  if (!BUILT.every((file) => existsSync(join(ROOT, file)))) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--workspaces', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const packs = JSON.parse(out) as { name: string; version: string; filename: string; files: { path: string }[] }[];
  return Object.fromEntries(
    packs.map((p) => [p.name, { name: p.name, version: p.version, file: join(dir, p.filename), files: p.files.map((f) => f.path) }]),
  );
}

/** A consumer's folder: an empty private package, then `npm install` of `specs` (tarballs, names). */
export async function installInto(dir: string, specs: string[], extra: string[] = []): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  await npm(dir, ['install', ...extra, ...specs]);
}

/** `npm <args>` in `cwd`, from the cache where it can, quiet. */
export async function npm(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return stdout;
}

/** Names of the packages installed in `dir/node_modules` (scoped ones as `@scope/name`). */
export function installed(dir: string): string[] {
  const modules = join(dir, 'node_modules');
  const names: string[] = [];
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) for (const inner of readdirSync(join(modules, name))) names.push(`${name}/${inner}`);
    else names.push(name);
  }
  return names.sort();
}

/** package.json of an installed package. */
export function manifestOf(dir: string, name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as Record<string, unknown>;
}

/** Runs `node …args` in `cwd`; resolves with stdout, rejects with stderr in the message. */
export async function node(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`node ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? String(error)}`);
  }
}

export interface StartedServer {
  url: string;
  demoKey: string;
  stop(): void;
}

/** Starts an installed `seller-server` (its bin) on a free port, webhooks to loopback allowed; resolves once it listens. */
export function startInstalledServer(dir: string): Promise<StartedServer> {
  const bin = join(dir, 'node_modules', '.bin', 'seller-server');
  const child = spawn(bin, ['--port', '0', '--memory', '--admin-token', 'packaging-admin', '--allow-local-hooks'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`seller-server did not start:\n${out}${err}`)), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(error);
    };
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    child.once('exit', (code) => fail(new Error(`seller-server exited ${code}:\n${out}${err}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const demoKey = /demo key: (\S+)/.exec(out)?.[1];
      if (url && demoKey) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ url, demoKey, stop: () => child.kill() });
      }
    });
  });
}
