/**
 * The `seller-server` command line (gaps.md: The reference server's command line), as a real
 * child process. `server/main.ts` is bundled once (like `npm run build` does) into a private
 * directory, so this test neither depends on a stale `dist/` nor races other tests rebuilding it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServerMain } from '../helpers/bundle.ts';
import { ensureBuilt } from '../helpers/cli.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
let outDir: string;
let mainJs: string;
const children: ChildProcess[] = [];
const tmpDirs: string[] = [];

beforeAll(async () => {
  // Inside the repository so that the bundle's bare imports resolve from its node_modules.
  outDir = await mkdtemp(path.join(here, '.main-build-'));
  mainJs = await bundleServerMain(outDir);
}, 60_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await rm(outDir, { recursive: true, force: true });
  for (const d of tmpDirs) await rm(d, { recursive: true, force: true });
});

/** The environment of a child: nothing from the caller's SERVICE_* settings. */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('SERVICE_')) delete env[k];
  return env;
}

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, [mainJs, ...args], { cwd: repoRoot, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits until stdout has the `listening on` line; returns the URL. */
async function listening(r: Run, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(r.stdout());
    if (m) return m[1]!;
    if (r.child.exitCode !== null) throw new Error(`server exited ${r.child.exitCode}: ${r.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no listening line in time; stdout: ${r.stdout()} stderr: ${r.stderr()}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

async function stop(r: Run): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (r.child.exitCode === null) r.child.kill('SIGTERM');
  return r.exited;
}

describe('seller-server', () => {
  it('--port 0 --memory --admin-token T: prints the listening line and a demo key that works', async () => {
    const r = run(['--port', '0', '--memory', '--admin-token', 'T']);
    const url = await listening(r);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);
    const demo = /^demo key: (service_live_[0-9A-Za-z]{40})$/m.exec(r.stdout());
    expect(demo, r.stdout()).not.toBeNull();
    expect(r.stdout()).toMatch(/^admin token \(sandbox\): T$/m);
    // the listening line comes last, after where the reference is
    expect(r.stdout().trimEnd().split('\n').at(-1)).toBe(`listening on ${url}`);
    expect(r.stdout()).toContain(`API reference: ${url}/docs`);
    expect(r.stdout()).toContain(`sandbox page: ${url}/sandbox (sign in with the admin token)`);

    // the root is not a bare 404: it says what this is and where the docs are
    const root = await fetch(`${url}/`);
    expect(root.status).toBe(200);
    expect(await root.json()).toMatchObject({ service: 'seller-server', api: `${url}/api/v1`, docs: `${url}/docs` });

    const me = await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${demo![1]}` } });
    expect(me.status).toBe(200);
    const body = (await me.json()) as { sellerId: string; admissionComplete: boolean; mode: string };
    expect(body.mode).toBe('live');
    expect(body.admissionComplete).toBe(true);
    expect(r.stdout()).toContain(`demo seller: ${body.sellerId}`);

    const clock = await fetch(`${url}/sandbox/v1/clock`, { headers: { authorization: 'Bearer T' } });
    expect(clock.status).toBe(200);
    const wrong = await fetch(`${url}/sandbox/v1/clock`, { headers: { authorization: 'Bearer not-T' } });
    expect(wrong.status).toBe(401);

    const exit = await stop(r);
    expect(exit.code).toBe(0);
  });

  it('--log logs every request on stderr (JSON lines, the request id, no header); without it a request logs nothing', async () => {
    const logged = run(['--port', '0', '--memory', '--admin-token', 'T', '--log']);
    const url = await listening(logged);
    const key = /^demo key: (\S+)$/m.exec(logged.stdout())![1]!;
    const me = await fetch(`${url}/api/v1/me?probe=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    const id = me.headers.get('x-request-id');
    await stop(logged);
    const lines = logged.stderr().trimEnd().split('\n').map((line) => JSON.parse(line) as { reqId?: string; msg: string; res?: { statusCode: number }; req?: { url: string } });
    expect(lines.find((l) => l.reqId === id && l.msg === 'incoming request')?.req?.url).toBe('/api/v1/me?probe=1');
    expect(lines.find((l) => l.reqId === id && l.msg === 'request completed')?.res?.statusCode).toBe(200);
    expect(logged.stderr()).not.toContain(key);
    expect(logged.stderr()).not.toMatch(/authorization/i);
    expect(logged.stdout().trimEnd().split('\n').at(-1)).toBe(`listening on ${url}`); // stdout keeps only its lines

    const quiet = run(['--port', '0', '--memory', '--admin-token', 'T']);
    const quietUrl = await listening(quiet);
    const quietKey = /^demo key: (\S+)$/m.exec(quiet.stdout())![1]!;
    expect((await fetch(`${quietUrl}/api/v1/me`, { headers: { authorization: `Bearer ${quietKey}` } })).status).toBe(200);
    expect((await fetch(`${quietUrl}/api/v1/nope`)).status).toBe(404);
    await stop(quiet);
    expect(quiet.stderr()).toBe('');
  });

  it('--no-demo prints no demo key', async () => {
    const r = run(['--port', '0', '--memory', '--admin-token', 'T', '--no-demo']);
    const url = await listening(r);
    expect(r.stdout()).not.toMatch(/demo key/);
    expect(r.stdout()).not.toMatch(/service_(live|test)_/);
    const me = await fetch(`${url}/api/v1/me`);
    expect(me.status).toBe(401);
    await stop(r);
  });

  it('without --admin-token a token is generated and printed', async () => {
    const r = run(['--port', '0', '--memory', '--no-demo']);
    const url = await listening(r);
    const token = /^admin token \(sandbox\): (\S+)$/m.exec(r.stdout())?.[1];
    expect(token).toBeTruthy();
    const clock = await fetch(`${url}/sandbox/v1/clock`, { headers: { authorization: `Bearer ${token}` } });
    expect(clock.status).toBe(200);
    await stop(r);
  });

  it.each([
    [['--bogus']],
    [['--port']],
    [['extra-positional']],
    [['--memory=yes']],
  ])('a bad command line %j exits 2 with usage on stderr', async (args) => {
    const r = run(args);
    const exit = await r.exited;
    expect(exit.code).toBe(2);
    expect(r.stderr()).toMatch(/^seller-server: /);
    expect(r.stderr()).toContain('usage: seller-server');
    expect(r.stdout()).not.toContain('listening on');
  });

  it.each([
    [['--port', 'abc', '--memory']],
    [['--port', '70000', '--memory']],
    [['--memory', '--data', '/tmp/x']],
  ])('a bad value %j exits 2 with a message on stderr', async (args) => {
    const r = run(args);
    const exit = await r.exited;
    expect(exit.code).toBe(2);
    expect(r.stderr()).toMatch(/^seller-server: .+/);
    expect(r.stdout()).not.toContain('listening on');
  });

  it('--help prints usage on stdout and exits 0', async () => {
    const r = run(['--help']);
    const exit = await r.exited;
    expect(exit.code).toBe(0);
    expect(r.stdout()).toContain('usage: seller-server');
  });

  it('--data over a corrupt shared.json exits 1 with a clear message and leaves the file untouched', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'seller-main-test-'));
    tmpDirs.push(dir);
    const file = path.join(dir, 'shared.json');
    await writeFile(file, '{not json');
    const r = run(['--port', '0', '--data', dir, '--admin-token', 'T']);
    const exit = await r.exited;
    expect(exit.code).toBe(1);
    expect(r.stderr()).toContain(file);
    expect(r.stderr()).toMatch(/not valid JSON/);
    expect(r.stderr()).not.toMatch(/\n\s+at /);
    expect(r.stdout()).not.toContain('listening on');
    expect(await readFile(file, 'utf8')).toBe('{not json');
  });

  it('--data keeps the demo seller: a restart prints the same demo key', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'seller-main-test-'));
    tmpDirs.push(dir);
    const first = run(['--port', '0', '--data', dir, '--admin-token', 'T']);
    await listening(first);
    const key1 = /^demo key: (\S+)$/m.exec(first.stdout())?.[1];
    expect(key1).toMatch(/^service_live_/);
    expect((await stop(first)).code).toBe(0);

    const second = run(['--port', '0', '--data', dir, '--admin-token', 'T']);
    const url = await listening(second);
    const key2 = /^demo key: (\S+)$/m.exec(second.stdout())?.[1];
    expect(key2).toBe(key1);
    expect((await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${key2}` } })).status).toBe(200);
    await stop(second);
    // the key itself is only in demo.key, never in the store documents
    expect(await readFile(path.join(dir, 'shared.json'), 'utf8')).not.toContain(key1!);
  });

  it('--data keeps a generated admin token beside the demo key (mode 0600): a restart prints the same one; a given token is never written', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'seller-main-test-'));
    tmpDirs.push(dir);
    const token = (r: Run) => /^admin token \(sandbox\): (\S+)$/m.exec(r.stdout())?.[1];
    const first = run(['--port', '0', '--data', dir]);
    await listening(first);
    const token1 = token(first);
    expect(token1).toMatch(/^adm_[0-9A-Za-z]{32}$/);
    expect((await stop(first)).code).toBe(0);
    expect((await readFile(path.join(dir, 'admin.token'), 'utf8')).trim()).toBe(token1);
    expect((await stat(path.join(dir, 'admin.token'))).mode & 0o777).toBe(0o600);

    const second = run(['--port', '0', '--data', dir]);
    const url = await listening(second);
    expect(token(second)).toBe(token1);
    expect((await fetch(`${url}/sandbox/v1/clock`, { headers: { authorization: `Bearer ${token1}` } })).status).toBe(200);
    await stop(second);

    // A given token wins and is not written; the kept one stays as it was.
    const given = run(['--port', '0', '--data', dir, '--admin-token', 'T']);
    await listening(given);
    expect(token(given)).toBe('T');
    await stop(given);
    expect((await readFile(path.join(dir, 'admin.token'), 'utf8')).trim()).toBe(token1);
    const other = await mkdtemp(path.join(tmpdir(), 'seller-main-test-'));
    tmpDirs.push(other);
    const givenFresh = run(['--port', '0', '--data', other, '--admin-token', 'T']);
    await listening(givenFresh);
    await stop(givenFresh);
    expect(existsSync(path.join(other, 'admin.token'))).toBe(false);
  });

  it('the printed login line works from any folder (not only inside the clone)', async () => {
    await ensureBuilt();
    const r = run(['--port', '0', '--memory', '--admin-token', 'T']);
    const url = await listening(r);
    const line = /^point the CLI at it: (.+)$/m.exec(r.stdout())?.[1];
    expect(line).toMatch(/^echo service_live_\S+ \| node \/\S+\/bin\/seller\.js login --base-url http:\/\/127\.0\.0\.1:\d+ --with-key-stdin$/);
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'seller-elsewhere-'));
    tmpDirs.push(elsewhere);
    const env = { ...childEnv(), SELLER_CONFIG_DIR: path.join(elsewhere, 'config'), NO_COLOR: '1' };
    const login = spawnSync('sh', ['-c', line!], { cwd: elsewhere, env, encoding: 'utf8' });
    expect(login.status, login.stderr).toBe(0);
    const bin = /\| node (\S+) login/.exec(line!)![1]!;
    const whoami = spawnSync(process.execPath, [bin, '--json', 'whoami'], { cwd: elsewhere, env, encoding: 'utf8' });
    expect(whoami.status, whoami.stderr).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ mode: 'live' });
    expect(url).toContain('127.0.0.1');
    // The sandbox commands it advertises need the admin token: the line to paste for them (issue 37, item 7).
    const exported = /^for the sandbox commands: (export SERVICE_ADMIN_TOKEN=\S+)$/m.exec(r.stdout())?.[1];
    expect(exported).toBe('export SERVICE_ADMIN_TOKEN=T');
    const clock = spawnSync('sh', ['-c', `${exported} && node ${bin} --json sandbox clock`], { cwd: elsewhere, env, encoding: 'utf8' });
    expect(clock.status, clock.stderr).toBe(0);
    expect(JSON.parse(clock.stdout)).toHaveProperty('now');
    await stop(r);
  }, 120_000);

  it('a port in use exits 1 with a message naming the problem', async () => {
    const a = run(['--port', '0', '--memory', '--no-demo']);
    const url = await listening(a);
    const port = new URL(url).port;
    const b = run(['--port', port, '--memory', '--no-demo']);
    const exit = await b.exited;
    expect(exit.code).toBe(1);
    expect(b.stderr()).toMatch(/EADDRINUSE|in use/);
    await stop(a);
  });
});
