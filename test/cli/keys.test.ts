import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bufferIO, fakeClient, LIVE_KEY, OTHER_KEY, pagedOf, run, scriptedPrompter, tempConfigDir, tableBody } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
let env: Record<string, string>;
beforeEach(() => {
  config = tempConfigDir();
  env = { SELLER_CONFIG_DIR: config.dir, SERVICE_API_KEY: LIVE_KEY };
});
afterEach(() => config.cleanup());

const key = (id: string, revoked = false) => ({
  id,
  name: `name ${id}`,
  prefix: LIVE_KEY.slice(0, 18),
  scopes: ['keys', 'orders'],
  mode: 'live',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: null,
  revoked,
});

const ISSUED = { id: 'key_new', name: 'ci', prefix: OTHER_KEY.slice(0, 18), scopes: ['orders'], mode: 'test', createdAt: '2026-01-01T00:00:00.000Z', key: OTHER_KEY };

describe('seller keys list', () => {
  it('walks every page into one table', async () => {
    const client = () => fakeClient({ keys: { list: () => pagedOf([[key('key_a')], [key('key_b', true)]]) } });
    const result = await run(['keys', 'list'], bufferIO({ env: { ...env, NO_COLOR: '1' }, tty: true }), { client });
    expect(result.code).toBe(0);
    expect(result.out).not.toContain('\u001b[');
    expect(result.out.split('\n')[0]).toMatch(/^ID\s+NAME\s+PREFIX\s+MODE\s+SCOPES\s+LAST USED\s+STATUS$/);
    expect(result.out).toMatch(/key_a .*active/);
    expect(result.out).toMatch(/key_b .*revoked/);
  });

  it('has a bold header on a colour terminal', async () => {
    const client = () => fakeClient({ keys: { list: () => pagedOf([[key('key_a')]]) } });
    const result = await run(['keys', 'list'], bufferIO({ env, tty: true }), { client });
    expect(result.out.startsWith('\u001b[1mID')).toBe(true);
  });

  it('is tab-separated when piped, its first line the header row (no colour)', async () => {
    const client = () => fakeClient({ keys: { list: () => pagedOf([[key('key_a')]]) } });
    const result = await run(['keys', 'list'], bufferIO({ env }), { client });
    const [header] = result.out.split('\n');
    expect(header).toMatch(/^ID\t[A-Z ]+(\t[A-Z ]+){5}$/);
    expect(header!.split('\t')).toHaveLength(7);
    expect(tableBody(result.out)).toBe(`key_a\tname key_a\t${LIVE_KEY.slice(0, 18)}…\tlive\tkeys, orders\t-\tactive\n`);
  });

  it('with --json prints only a JSON array on stdout', async () => {
    const client = () => fakeClient({ keys: { list: () => pagedOf([[key('key_a')], [key('key_b')]]) } });
    const result = await run(['--json', 'keys', 'list'], bufferIO({ env, tty: true }), { client });
    expect(JSON.parse(result.out).map((k: { id: string }) => k.id)).toEqual(['key_a', 'key_b']);
  });

  it('no keys is not an error', async () => {
    const client = () => fakeClient({ keys: { list: () => pagedOf([[]]) } });
    const result = await run(['keys', 'list'], bufferIO({ env }), { client });
    expect(result).toMatchObject({ code: 0, out: '', err: 'No keys.\n' });
  });
});

describe('seller keys issue', () => {
  it('prints the key once on stdout and the warning on stderr', async () => {
    const create = vi.fn(async () => ISSUED);
    const result = await run(['keys', 'issue', '--name', 'ci', '--scope', 'orders'], bufferIO({ env }), { client: () => fakeClient({ keys: { create } }) });
    expect(result.code).toBe(0);
    expect(create).toHaveBeenCalledWith({ name: 'ci', scopes: ['orders'] });
    expect(result.out).toBe(`${OTHER_KEY}\n`);
    expect(result.err).toMatch(/cannot be shown again/);
    expect(result.err).not.toContain(OTHER_KEY);
  });

  it('with --json prints the full answer', async () => {
    const create = vi.fn(async () => ISSUED);
    const result = await run(['keys', 'issue', '--name', 'ci', '--scope', 'orders', '--scope', 'stock', '--json'], bufferIO({ env }), { client: () => fakeClient({ keys: { create } }) });
    expect(create).toHaveBeenCalledWith({ name: 'ci', scopes: ['orders', 'stock'] });
    expect(JSON.parse(result.out)).toEqual(ISSUED);
  });

  it('refuses an unknown scope before any request (exit 2)', async () => {
    const create = vi.fn();
    const result = await run(['keys', 'issue', '--name', 'ci', '--scope', 'root'], bufferIO({ env }), { client: () => fakeClient({ keys: { create } }) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('unknown scope root');
    expect(create).not.toHaveBeenCalled();
  });

  it('needs --name and --scope without a terminal', async () => {
    const client = () => fakeClient({ keys: { create: vi.fn() } });
    const noName = await run(['keys', 'issue', '--scope', 'orders'], bufferIO({ env }), { client });
    expect(noName.code).toBe(2);
    expect(noName.err).toContain('--name is required');
    const noScope = await run(['keys', 'issue', '--name', 'ci'], bufferIO({ env }), { client });
    expect(noScope.code).toBe(2);
    expect(noScope.err).toContain('--scope is required');
  });

  it('asks for name and scopes on a terminal', async () => {
    const create = vi.fn(async () => ISSUED);
    const prompter = scriptedPrompter({ text: ['ci'], checkbox: [['orders', 'stock']] });
    const result = await run(['keys', 'issue'], bufferIO({ env, tty: true }), { client: () => fakeClient({ keys: { create } }), prompter });
    expect(result.code).toBe(0);
    expect(create).toHaveBeenCalledWith({ name: 'ci', scopes: ['orders', 'stock'] });
  });
});

describe('seller keys revoke', () => {
  const revokeClient = () => {
    const revoke = vi.fn(async (id: string) => ({ id, revoked: true }));
    return { revoke, client: () => fakeClient({ keys: { revoke } }) };
  };

  it('needs --yes without a terminal (exit 2) and sends nothing', async () => {
    const { revoke, client } = revokeClient();
    const result = await run(['keys', 'revoke', 'key_a'], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--yes');
    expect(revoke).not.toHaveBeenCalled();
  });

  it('revokes with --yes', async () => {
    const { revoke, client } = revokeClient();
    const result = await run(['keys', 'revoke', 'key_a', '--yes'], bufferIO({ env }), { client });
    expect(result).toMatchObject({ code: 0, out: 'Revoked key key_a.\n' });
    expect(revoke).toHaveBeenCalledWith('key_a');
  });

  it('asks on a terminal; "no" cancels with exit 2', async () => {
    const { revoke, client } = revokeClient();
    const prompter = scriptedPrompter({ confirm: [false] });
    const result = await run(['keys', 'revoke', 'key_a'], bufferIO({ env, tty: true }), { client, prompter });
    expect(result.code).toBe(2);
    expect(result.err).toBe('error: cancelled\n');
    expect(prompter.asked[0]).toContain('key_a');
    expect(revoke).not.toHaveBeenCalled();
  });

  it('asks on a terminal; "yes" revokes', async () => {
    const { revoke, client } = revokeClient();
    const result = await run(['keys', 'revoke', 'key_a'], bufferIO({ env, tty: true }), { client, prompter: scriptedPrompter({ confirm: [true] }) });
    expect(result.code).toBe(0);
    expect(revoke).toHaveBeenCalledOnce();
  });
});
