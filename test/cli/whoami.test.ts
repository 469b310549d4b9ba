import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bufferIO, fakeClient, LIVE_KEY, ME, run, tempConfigDir } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
beforeEach(() => {
  config = tempConfigDir();
});
afterEach(() => config.cleanup());

const client = () => fakeClient({ me: { get: async () => ME } });

describe('seller whoami', () => {
  it('shows seller, mode, key prefix, scopes and admission', async () => {
    const io = bufferIO({ env: { SERVICE_API_KEY: LIVE_KEY, SELLER_CONFIG_DIR: config.dir } });
    const result = await run(['whoami'], io, { client });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Seller:\s+sel_demo/);
    expect(result.out).toMatch(/Mode:\s+live/);
    expect(result.out).toContain(`${ME.key.prefix}… (key_abc123)`);
    expect(result.out).toMatch(/Scopes:\s+catalog, keys/);
    expect(result.out).toMatch(/Admission:\s+complete/);
    expect(result.out).toMatch(/Profile:\s+default \(key from SERVICE_API_KEY\)/);
    expect(result.out).not.toContain(LIVE_KEY);
    expect(readdirSync(config.dir)).toEqual([]); // reading writes no config file
  });

  it('prints the /me answer as JSON', async () => {
    const io = bufferIO({ env: { SERVICE_API_KEY: LIVE_KEY, SELLER_CONFIG_DIR: config.dir } });
    const result = await run(['whoami', '--json'], io, { client });
    expect(JSON.parse(result.out)).toEqual(ME);
    expect(result.err).toBe('');
  });
});
