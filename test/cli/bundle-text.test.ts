/**
 * The built `seller` bundle is all ASCII, so its loader reads it as latin1 (no UTF-8 decoding at
 * each start; scripts/cli-loader.mjs). The contact filter's Russian words are escaped for that
 * (scripts/cli-plugins.mjs, asciiRegexSources): the built CLI must still read them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'cli', 'dist');
const dir = mkdtempSync(join(tmpdir(), 'seller-bundle-text-'));
let server: TestServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function seller(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, 'bin/seller.js'), ...args],
      { cwd: root, env: { PATH: process.env.PATH, SELLER_CONFIG_DIR: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), NO_COLOR: '1', LANG: 'C', ...env } },
      (error, out, err) => done({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    );
  });
}

describe('the built seller bundle', () => {
  it('is ASCII, and its loader reads it as latin1', () => {
    const bundle = readdirSync(dist).find((file) => /^seller-bundle-.*\.cjs$/.test(file))!;
    const text = readFileSync(join(dist, bundle), 'utf8');
    const foreign = /[^\x00-\x7f]/.exec(text);
    expect(foreign && text.slice(Math.max(0, foreign.index - 60), foreign.index + 20)).toBeNull();
    expect(readFileSync(join(dist, 'seller.cjs'), 'utf8')).toContain(`readFileSync(file, "latin1")`);
  });

  // Each is found only through a Russian word of the filter's regexes.
  for (const reason of ['пишите: ivan собака mail точка ru', 'мой телеграм: ivan_petrov', 'телефон: 4951234567']) {
    it(`refuses a reason for the buyer with a contact written with Russian words (${reason})`, async () => {
      const { apiKey } = await server.newSeller();
      const declined = await seller(['orders', 'decline', 'ord_1', '--reason', reason], { SERVICE_API_KEY: apiKey, SERVICE_BASE_URL: server.url });
      expect(declined.code, declined.err).toBe(1);
      expect(declined.err).toMatch(/contains (an e-mail address|a messenger contact|a phone number)/);
    });
  }
});
