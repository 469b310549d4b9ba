import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../cli/lib/client.ts';
import { ProfileStore } from '../../cli/lib/config.ts';
import { UsageError } from '../../cli/lib/errors.ts';
import { bufferIO, LIVE_KEY, OTHER_KEY, run, tempConfigDir } from './helpers.ts';

const store = (profiles: Record<string, { baseUrl?: string; apiKey?: string }>, current?: string) => ({
  current,
  get: (name: string) => profiles[name],
});

describe('settings precedence: flag > env > profile > default', () => {
  const saved = store({ default: { baseUrl: 'http://profile.test', apiKey: LIVE_KEY }, ci: { apiKey: OTHER_KEY } }, 'default');

  it('uses the default when nothing is set', () => {
    const s = resolveSettings({}, {}, store({}));
    expect(s).toMatchObject({ profile: 'default', baseUrl: 'http://127.0.0.1:8787', baseUrlSource: 'default', apiKey: undefined });
  });

  it('takes the profile over the default', () => {
    expect(resolveSettings({}, {}, saved)).toMatchObject({ baseUrl: 'http://profile.test', baseUrlSource: 'profile', apiKey: LIVE_KEY, apiKeySource: 'profile' });
  });

  it('takes the environment over the profile', () => {
    const env = { SERVICE_BASE_URL: 'http://env.test', SERVICE_API_KEY: OTHER_KEY };
    expect(resolveSettings({}, env, saved)).toMatchObject({ baseUrl: 'http://env.test', baseUrlSource: 'env', apiKey: OTHER_KEY, apiKeySource: 'env' });
  });

  it('takes the flag over the environment', () => {
    const s = resolveSettings({ baseUrl: 'http://flag.test/' }, { SERVICE_BASE_URL: 'http://env.test' }, saved);
    expect(s).toMatchObject({ baseUrl: 'http://flag.test', baseUrlSource: 'flag' });
  });

  it('chooses the profile: --profile > SERVICE_PROFILE > current > default', () => {
    expect(resolveSettings({}, {}, store({})).profile).toBe('default');
    expect(resolveSettings({}, {}, saved).profile).toBe('default');
    expect(resolveSettings({}, {}, store({}, 'ci')).profile).toBe('ci');
    expect(resolveSettings({}, { SERVICE_PROFILE: 'ci' }, saved)).toMatchObject({ profile: 'ci', apiKey: OTHER_KEY, baseUrl: 'http://127.0.0.1:8787' });
    expect(resolveSettings({ profile: 'x' }, { SERVICE_PROFILE: 'ci' }, saved).profile).toBe('x');
  });

  it('ignores empty environment values', () => {
    expect(resolveSettings({}, { SERVICE_BASE_URL: '', SERVICE_API_KEY: '', SERVICE_PROFILE: '' }, saved)).toMatchObject({
      profile: 'default',
      baseUrlSource: 'profile',
      apiKeySource: 'profile',
    });
  });

  it('refuses a base URL that is not http(s), naming where it came from', () => {
    expect(() => resolveSettings({}, { SERVICE_BASE_URL: 'ftp://x' }, saved)).toThrow(/SERVICE_BASE_URL/);
    expect(() => resolveSettings({ baseUrl: 'nope' }, {}, saved)).toThrow(UsageError);
  });
});

describe('seller profiles', () => {
  let config: ReturnType<typeof tempConfigDir>;
  beforeEach(() => {
    config = tempConfigDir();
    const saved = new ProfileStore({ SELLER_CONFIG_DIR: config.dir });
    saved.update('default', { baseUrl: 'http://127.0.0.1:8787', apiKey: LIVE_KEY });
    saved.update('staging', { baseUrl: 'https://seller.example.com' });
    saved.use('default');
  });
  afterEach(() => config.cleanup());

  it('lists profiles with the current one marked and only key prefixes', async () => {
    const io = bufferIO({ tty: true, env: { SELLER_CONFIG_DIR: config.dir, NO_COLOR: '1' } });
    const result = await run(['profiles', 'list'], io);
    expect(result.code).toBe(0);
    expect(result.out).not.toContain(LIVE_KEY);
    expect(result.out).toContain(`${LIVE_KEY.slice(0, 18)}…`);
    expect(result.out).toMatch(/^\*\s+default/m);
    expect(result.out).toMatch(/^\s+staging\s+https:\/\/seller\.example\.com\s+\(logged out\)/m);
  });

  it('lists as JSON', async () => {
    const io = bufferIO({ env: { SELLER_CONFIG_DIR: config.dir, SERVICE_PROFILE: 'staging' } });
    const result = await run(['profiles', 'list', '--json'], io);
    expect(JSON.parse(result.out)).toEqual([
      { name: 'default', current: false, baseUrl: 'http://127.0.0.1:8787', keyPrefix: `${LIVE_KEY.slice(0, 18)}…` },
      { name: 'staging', current: true, baseUrl: 'https://seller.example.com', keyPrefix: null },
    ]);
  });

  it('switches the current profile', async () => {
    const env = { SELLER_CONFIG_DIR: config.dir };
    const result = await run(['profiles', 'use', 'staging'], bufferIO({ env }));
    expect(result.code).toBe(0);
    expect(new ProfileStore(env).current).toBe('staging');
  });

  it('refuses an unknown profile with a hint', async () => {
    const result = await run(['profiles', 'use', 'nope'], bufferIO({ env: { SELLER_CONFIG_DIR: config.dir } }));
    expect(result.code).toBe(1);
    expect(result.err).toContain('seller --profile nope login');
  });

  it('tells that there is no key (exit 4) before any request', async () => {
    const result = await run(['--profile', 'staging', 'whoami'], bufferIO({ env: { SELLER_CONFIG_DIR: config.dir } }));
    expect(result.code).toBe(4);
    expect(result.err).toMatch(/^error: no_key: .*staging/m);
    expect(result.err).toContain('seller login');
  });
});
