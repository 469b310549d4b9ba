import { readFileSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProfileStore } from '../../cli/lib/config.ts';
import { apiError, bufferIO, fakeClient, LIVE_KEY, ME, run, scriptedPrompter, tempConfigDir } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
beforeEach(() => {
  config = tempConfigDir();
});
afterEach(() => config.cleanup());

function meClient(me = ME) {
  const client = vi.fn((_credentials?: { apiKey: string; baseUrl: string }) => fakeClient({ me: { get: async () => me } }));
  return client;
}

describe('seller login', () => {
  it('reads the key from stdin, checks it, stores it 0600 and never prints it', async () => {
    const io = bufferIO({ stdin: `${LIVE_KEY}\n`, env: { SELLER_CONFIG_DIR: config.dir } });
    const client = meClient();
    const result = await run(['login'], io, { client });

    expect(result.code).toBe(0);
    expect(client).toHaveBeenCalledWith({ apiKey: LIVE_KEY, baseUrl: 'http://127.0.0.1:8787' });
    expect(result.out).toBe(`Logged in as sel_demo (live) with key ${LIVE_KEY.slice(0, 18)}…; profile default\n`);
    expect(result.out + result.err).not.toContain(LIVE_KEY);

    const store = new ProfileStore({ SELLER_CONFIG_DIR: config.dir });
    expect(store.get('default')).toEqual({ baseUrl: 'http://127.0.0.1:8787', apiKey: LIVE_KEY });
    expect(store.current).toBe('default');
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(store.path, 'utf8')).profiles.default.apiKey).toBe(LIVE_KEY);
  });

  it('reads stdin with --with-key-stdin even on a terminal', async () => {
    const io = bufferIO({ stdin: LIVE_KEY, tty: true, env: { SELLER_CONFIG_DIR: config.dir } });
    const result = await run(['login', '--with-key-stdin'], io, { client: meClient() });
    expect(result.code).toBe(0);
  });

  it('asks with a hidden prompt on a terminal', async () => {
    const io = bufferIO({ tty: true, env: { SELLER_CONFIG_DIR: config.dir } });
    const prompter = scriptedPrompter({ secret: [LIVE_KEY] });
    const result = await run(['--profile', 'work', 'login'], io, { client: meClient(), prompter });
    expect(result.code).toBe(0);
    expect(prompter.asked).toEqual(['API key']);
    expect(result.out).toContain('profile work');
    expect(new ProfileStore({ SELLER_CONFIG_DIR: config.dir }).get('work')?.apiKey).toBe(LIVE_KEY);
  });

  it('accepts --key but warns about shell history', async () => {
    const io = bufferIO({ tty: true, env: { SELLER_CONFIG_DIR: config.dir } });
    const result = await run(['login', '--key', LIVE_KEY], io, { client: meClient() });
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/warning: .*shell history/);
    expect(result.out + result.err).not.toContain(LIVE_KEY);
  });

  it('saves the base URL of the flag in the named profile and keeps the current profile', async () => {
    const env = { SELLER_CONFIG_DIR: config.dir };
    await run(['login'], bufferIO({ stdin: LIVE_KEY, env }), { client: meClient() });
    const client = meClient();
    const result = await run(['--profile', 'staging', '--base-url', 'https://seller.example.com/', 'login'], bufferIO({ stdin: LIVE_KEY, env }), { client });
    expect(result.code).toBe(0);
    expect(client).toHaveBeenCalledWith({ apiKey: LIVE_KEY, baseUrl: 'https://seller.example.com' });
    const store = new ProfileStore(env);
    expect(store.get('staging')?.baseUrl).toBe('https://seller.example.com');
    expect(store.current).toBe('default');
  });

  it('prints only JSON on stdout with --json, without the key', async () => {
    const io = bufferIO({ stdin: LIVE_KEY, env: { SELLER_CONFIG_DIR: config.dir } });
    const result = await run(['login', '--json'], io, { client: meClient() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ profile: 'default', sellerId: 'sel_demo', mode: 'live', key: { prefix: ME.key.prefix } });
    expect(result.out).not.toContain(LIVE_KEY);
  });

  it('stores nothing when the server refuses the key (exit 4)', async () => {
    const io = bufferIO({ stdin: LIVE_KEY, env: { SELLER_CONFIG_DIR: config.dir } });
    const client = () =>
      fakeClient({ me: { get: () => Promise.reject(apiError(401, { error: 'bad_key' })) } });
    const result = await run(['login'], io, { client });
    expect(result.code).toBe(4);
    expect(result.err).toContain('error: bad_key:');
    expect(result.err).toContain('seller login');
    expect(new ProfileStore({ SELLER_CONFIG_DIR: config.dir }).get('default')).toBeUndefined();
  });

  it('refuses something that is not a key before any request (exit 2)', async () => {
    const io = bufferIO({ stdin: 'hunter2', env: { SELLER_CONFIG_DIR: config.dir } });
    const client = meClient();
    const result = await run(['login'], io, { client });
    expect(result.code).toBe(2);
    expect(client).not.toHaveBeenCalled();
    expect(result.err).not.toContain('hunter2');
  });

  it('needs --with-key-stdin when it cannot prompt', async () => {
    const io = bufferIO({ stdinIsTTY: true, stdoutIsTTY: false, env: { SELLER_CONFIG_DIR: config.dir } });
    const result = await run(['login'], io, { client: meClient() });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--with-key-stdin');
  });

  it('refuses --key together with --with-key-stdin', async () => {
    const io = bufferIO({ stdin: LIVE_KEY, env: { SELLER_CONFIG_DIR: config.dir } });
    const result = await run(['login', '--key', LIVE_KEY, '--with-key-stdin'], io, { client: meClient() });
    expect(result.code).toBe(2);
  });
});

describe('seller logout', () => {
  it('removes the key and keeps the base URL', async () => {
    const env = { SELLER_CONFIG_DIR: config.dir };
    new ProfileStore(env).update('default', { baseUrl: 'http://x.test', apiKey: LIVE_KEY });
    const result = await run(['logout'], bufferIO({ env }));
    expect(result.code).toBe(0);
    expect(new ProfileStore(env).get('default')).toEqual({ baseUrl: 'http://x.test' });
    const again = await run(['logout'], bufferIO({ env }));
    expect(again.code).toBe(0);
    expect(again.err).toContain('no saved key');
  });
});
