import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { minutes, nearestSlugs } from '../../cli/commands/catalog.ts';
import { apiError } from './helpers.ts';
import { bufferIO, fakeClient, LIVE_KEY, pagedOf, run, tempConfigDir } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
let env: Record<string, string>;
beforeEach(() => {
  config = tempConfigDir();
  env = { SERVICE_API_KEY: LIVE_KEY, SELLER_CONFIG_DIR: config.dir, NO_COLOR: '1' };
});
afterEach(() => config.cleanup());

const NETFLIX: Record<string, unknown> & { slug: string } = {
  slug: 'netflix',
  title: 'Netflix',
  category: 'video',
  tariffs: [{ slug: 'premium', title: 'Premium' }],
  productTypes: ['subscription', 'account'],
  deliveryMethods: { subscription: ['own_account', 'invite'], account: ['credentials'] },
  slaChoices: [15, 90, 1440],
  guaranteeChoices: [0, 30],
};
const STEAM = { ...NETFLIX, slug: 'steam', title: 'Steam wallet', category: 'games', productTypes: ['credits'], deliveryMethods: { credits: ['transfer'] }, creditsTypes: ['pack', 'rate'] };

describe('seller catalog list', () => {
  it('passes filters and shows one page with a hint about the next', async () => {
    const list = vi.fn(() => pagedOf([[NETFLIX], [STEAM]]));
    const result = await run(['catalog', 'list', '--search', 'net', '--category', 'video', '--limit', '1'], bufferIO({ env, tty: true }), { client: () => fakeClient({ catalog: { list } }) });
    expect(result.code).toBe(0);
    expect(list).toHaveBeenCalledWith({ q: 'net', category: 'video', limit: 1, cursor: undefined });
    expect(result.out).toMatch(/^SLUG\s+TITLE\s+CATEGORY\s+PRODUCT TYPES\nnetflix\s+Netflix\s+video\s+subscription, account\n$/);
    expect(result.err).toContain('--cursor 1');
  });

  it('fetches every page with --all, as one JSON page with --json', async () => {
    const client = () => fakeClient({ catalog: { list: () => pagedOf([[NETFLIX], [STEAM]]) } });
    const result = await run(['catalog', 'list', '--all', '--json'], bufferIO({ env }), { client });
    const page = JSON.parse(result.out);
    expect(page.items.map((p: { slug: string }) => p.slug)).toEqual(['netflix', 'steam']);
    expect(page.nextCursor).toBeNull();
    expect(result.err).toBe('');
  });
});

describe('seller catalog show', () => {
  it('shows product types with their delivery methods, SLA and guarantee choices', async () => {
    const get = vi.fn(async () => STEAM);
    const result = await run(['catalog', 'show', 'steam'], bufferIO({ env, tty: true }), { client: () => fakeClient({ catalog: { get } }) });
    expect(get).toHaveBeenCalledWith('steam');
    expect(result.out).toContain('Steam wallet (steam)');
    // In minutes, the unit `--sla` takes.
    expect(result.out).toMatch(/SLA choices:\s+15 min, 90 min, 1440 min/);
    expect(result.out).toMatch(/Guarantee:\s+none, 30 d/);
    expect(result.out).toMatch(/Credits types:\s+pack, rate/);
    expect(result.out).toMatch(/credits\s+transfer/);
  });

  it('a mistyped slug names the nearest slugs, not other sellers\' records (exit 1)', async () => {
    const get = vi.fn(async () => {
      throw apiError(404, { error: 'not_found', detail: 'no such position' });
    });
    const list = vi.fn(() => pagedOf([[NETFLIX, STEAM, { ...NETFLIX, slug: 'spotify' }], [{ ...NETFLIX, slug: 'spotify-family' }, { ...NETFLIX, slug: 'yandex-plus' }]]));
    const result = await run(['catalog', 'show', 'spotfy'], bufferIO({ env }), { client: () => fakeClient({ catalog: { get, list } }) });
    expect(result.code).toBe(1);
    expect(result.err).toContain('no position "spotfy" in the catalogue');
    expect(result.err).toContain('did you mean "spotify"');
    expect(result.err).not.toContain('other sellers');
    const far = await run(['catalog', 'show', 'zzzzzz'], bufferIO({ env }), { client: () => fakeClient({ catalog: { get, list } }) });
    expect(far.err).toContain('find the slug with `seller catalog list --search TEXT`');
  });

  it('nearestSlugs: edits within a third of the length, swaps, and containment; nearest first', () => {
    const slugs = ['spotify', 'spotify-family', 'netflix', 'steam', 'steam-wallet', 'yandex-plus'];
    expect(nearestSlugs('spotfy', slugs)).toEqual(['spotify']);
    expect(nearestSlugs('sptoify', slugs)).toEqual(['spotify']);
    expect(nearestSlugs('netflx', slugs)).toEqual(['netflix']);
    expect(nearestSlugs('steem', slugs)).toEqual(['steam']);
    expect(nearestSlugs('steam', ['steam-wallet', 'steamy'])).toEqual(['steamy', 'steam-wallet']);
    expect(nearestSlugs('yandex', slugs)).toEqual(['yandex-plus']);
    expect(nearestSlugs('xbox', slugs)).toEqual([]);
  });

  it('omits credits types when the position has none', async () => {
    const result = await run(['catalog', 'show', 'netflix'], bufferIO({ env, tty: true }), { client: () => fakeClient({ catalog: { get: async () => NETFLIX } }) });
    expect(result.out).not.toContain('Credits');
    expect(result.out).toMatch(/subscription\s+own_account, invite/);
    expect(result.out).toMatch(/account\s+credentials/);
  });

  it('formats minutes', () => {
    expect([0, 15, 60, 90, 1440, 1500].map(minutes)).toEqual(['0 min', '15 min', '1 h', '1 h 30 min', '1 d', '1 d 1 h']);
  });
});
