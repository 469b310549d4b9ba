/**
 * The CLI where secrets pass: `login` never prints the key, `keys issue` and `hooks set` /
 * `hooks rotate-secret` show their secret exactly once, nothing else prints one, the profile file is
 * 0600 in a 0700 directory, and error messages never carry the key.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bufferIO, run, tempConfigDir } from '../cli/helpers.ts';

let server: TestServer;
let key: string;
const cfg = tempConfigDir();
/** A directory the CLI creates itself (so its mode is the CLI's choice). */
const configDir = join(cfg.dir, 'fresh', 'seller');

const count = (text: string, needle: string) => text.split(needle).length - 1;

function cli(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) {
  const io = bufferIO({ env: { SELLER_CONFIG_DIR: configDir, ...opts.env }, ...(opts.stdin === undefined ? {} : { stdin: opts.stdin }) });
  return run(['--base-url', server.url, ...args], io);
}

beforeAll(async () => {
  server = await startTestServer({ allowLocalHooks: true });
  key = (await server.newSeller()).apiKey;
});
afterAll(async () => {
  await server?.close();
  cfg.cleanup();
});

describe('CLI secrets', () => {
  it('login reads the key from stdin, never prints it, and saves it 0600 in a 0700 directory', async () => {
    for (const json of [false, true]) {
      const r = await cli([...(json ? ['--json'] : []), 'login', '--with-key-stdin'], { stdin: key });
      expect(r.code, r.err).toBe(0);
      expect(r.out + r.err).not.toContain(key);
    }
    if (process.platform === 'win32') return;
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    const files = readdirSync(configDir).filter((f) => !f.endsWith('.tmp'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(statSync(join(configDir, f)).mode & 0o777, f).toBe(0o600);
  });

  it('keys issue shows the new key exactly once (table and --json); keys list never', async () => {
    for (const json of [false, true]) {
      const r = await cli([...(json ? ['--json'] : []), 'keys', 'issue', '--name', `ci-${json}`, '--scope', 'stats']);
      expect(r.code, r.err).toBe(0);
      const issued = /service_(live|test)_[0-9A-Za-z]{40}/.exec(r.out)?.[0];
      expect(issued, r.out).toBeDefined();
      expect(count(r.out + r.err, issued!)).toBe(1);
      expect(r.out + r.err).not.toContain(key);
      const list = await cli([...(json ? ['--json'] : []), 'keys', 'list']);
      expect(list.code, list.err).toBe(0);
      expect(list.out + list.err).not.toMatch(/service_(live|test)_[0-9A-Za-z]{40}/);
    }
  });

  it('hooks set shows the signing secret once; a change, show and deliveries never; rotate shows the new one once', async () => {
    const set = await cli(['hooks', 'set', '--url', 'http://127.0.0.1:9/hooks', '--event', 'order.paid']);
    expect(set.code, set.err).toBe(0);
    const secret = /whsec_[0-9A-Za-z]{32}/.exec(set.out + set.err)?.[0];
    expect(secret, set.out + set.err).toBeDefined();
    expect(count(set.out + set.err, secret!)).toBe(1);
    for (const args of [['hooks', 'set', '--url', 'http://127.0.0.1:9/other', '--event', 'order.paid'], ['hooks', 'show'], ['hooks', 'deliveries'], ['--json', 'hooks', 'show']]) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
      expect(r.out + r.err, args.join(' ')).not.toMatch(/whsec_[0-9A-Za-z]{32}/);
    }
    const rotated = await cli(['hooks', 'rotate-secret']);
    expect(rotated.code, rotated.err).toBe(0);
    const next = /whsec_[0-9A-Za-z]{32}/.exec(rotated.out + rotated.err)?.[0];
    expect(next).toBeDefined();
    expect(next).not.toBe(secret);
    expect(count(rotated.out + rotated.err, next!)).toBe(1);
  });

  it('errors never carry the key: an unknown key, an unreachable server, a key with a stray newline', async () => {
    const unknown = `service_live_${'Q'.repeat(40)}`;
    const bad = await cli(['whoami'], { env: { SERVICE_API_KEY: unknown } });
    expect(bad.code).toBe(4);
    expect(bad.out + bad.err).not.toContain(unknown);
    expect(bad.out + bad.err).not.toContain('Q'.repeat(20));

    const io = bufferIO({ env: { SELLER_CONFIG_DIR: configDir, SERVICE_API_KEY: key } });
    const down = await run(['--base-url', 'http://127.0.0.1:9', 'whoami'], io);
    expect(down.code).not.toBe(0);
    expect(down.out + down.err).not.toContain(key);

    const stray = `${key}\nx`;
    const r = await cli(['whoami'], { env: { SERVICE_API_KEY: stray } });
    expect(r.code).not.toBe(0);
    expect(r.out + r.err).not.toContain(key.slice(14));
  });
});
