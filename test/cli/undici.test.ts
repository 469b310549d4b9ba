/**
 * The built `seller` (bin/seller.js, as `npm run build` makes it) sends through its own node:http
 * fetch, and ky inside it reads the light fetch classes of cli/lib/fetch-classes.ts: a command that
 * calls the service never loads Node's undici (~25 ms of a one-shot command's start on Node 20).
 * The built SDK, the control, does load it. The autopilot's phone (`notify.telegram`) sends through
 * the same fetch: grammY's `grammy/web` build, so neither undici nor grammY's Node build (node-fetch,
 * whatwg-url, tr46: ~17 MB that every `spawn` of a delivery command then pays) is loaded.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'seller-undici-'));
const preload = join(dir, 'record-modules.cjs');
let server: TestServer;

beforeAll(async () => {
  await ensureBuilt();
  writeFileSync(
    preload,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_FILE, [...process.moduleLoadList, ...Object.keys(require.cache)].join('\\n')));\n",
  );
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `node --require <preload> …args`; resolves with its exit code, stderr and the internal modules it loaded. */
function traced(args: string[], env: Record<string, string>): Promise<{ code: number; err: string; modules: string[] }> {
  const file = join(dir, `modules-${Math.random().toString(36).slice(2)}.txt`);
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--require', preload, ...args],
      { cwd: root, env: { PATH: process.env.PATH, SELLER_CONFIG_DIR: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), MODULES_FILE: file, ...env } },
      (error, _out, err) => done({ code: error ? Number(error.code ?? 1) : 0, err, modules: readFileSync(file, 'utf8').split('\n') }),
    );
  });
}

const loadsUndici = (modules: string[]) => modules.some((m) => m.includes('internal/deps/undici'));
const loadsPackage = (modules: string[], name: string) => modules.some((m) => m.includes(`/node_modules/${name}/`));

describe('the built seller and undici', () => {
  it('calls the service (a list, and a refused change through ky’s error path) without loading undici', async () => {
    const { apiKey } = await server.newSeller();
    const env = { SERVICE_API_KEY: apiKey, SERVICE_BASE_URL: server.url };
    const listed = await traced([join(root, 'bin/seller.js'), 'cards', 'list', '--json'], env);
    expect(listed.code, listed.err).toBe(0);
    expect(loadsUndici(listed.modules)).toBe(false);
    const refused = await traced([join(root, 'bin/seller.js'), 'cards', 'on', '999999', '--json'], env);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/not_found/);
    expect(loadsUndici(refused.modules)).toBe(false);
  });

  it('control: the SDK outside the CLI sends through the global fetch, which loads undici', async () => {
    const { apiKey } = await server.newSeller();
    const script = `import { SellerClient } from 'service-seller'; await new SellerClient({ apiKey: ${JSON.stringify(apiKey)}, baseUrl: ${JSON.stringify(server.url)} }).listings.list();`;
    const sdk = await traced(['--input-type=module', '-e', script], {});
    expect(sdk.code, sdk.err).toBe(0);
    expect(loadsUndici(sdk.modules)).toBe(true);
  });

  it("the autopilot's phone sends through the same fetch: no undici, no node-fetch; the message arrives", async () => {
    const { apiKey } = await server.newSeller();
    const bot = await server.sandbox<{ id: string; token: string }>('POST', '/telegram/bots', {});
    await server.sandbox('POST', `/telegram/bots/${bot.id}/chats/7/messages`, { text: '/start' });
    const config = join(dir, 'phone.json');
    const telegram = { chats: [7], apiRoot: `${server.url}/sandbox/telegram`, events: ['autopilot.started'] };
    writeFileSync(config, JSON.stringify({ pollSeconds: 1, notify: { telegram } }));
    const file = join(dir, 'modules-phone.txt');
    const child = spawn(process.execPath, ['--require', preload, join(root, 'bin/seller.js'), 'autopilot', '--config', config], {
      cwd: root,
      env: { PATH: process.env.PATH, SELLER_CONFIG_DIR: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), MODULES_FILE: file, SERVICE_API_KEY: apiKey, SERVICE_BASE_URL: server.url, SERVICE_TELEGRAM_TOKEN: bot.token },
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
    const closed = new Promise<number | null>((done) => child.on('close', done));
    const said = async () => (await server.sandbox<{ items: Array<{ from: string; text: string }> }>('GET', `/telegram/bots/${bot.id}/chats/7/messages`)).items.filter((m) => m.from === 'bot');
    for (let i = 0; i < 200 && (await said()).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGINT');
    expect(await closed, err).toBe(0);
    // Two messages: the started line, and the answer to /start (the help).
    expect((await said()).length, err).toBe(2);
    const modules = readFileSync(file, 'utf8').split('\n');
    expect(loadsUndici(modules)).toBe(false);
    expect(loadsPackage(modules, 'node-fetch')).toBe(false);
    expect(loadsPackage(modules, 'tr46')).toBe(false);
  });
});
