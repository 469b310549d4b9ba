/**
 * The sandbox page's state (server/sandbox-page/live.ts `Live.follow`) across a broken stream,
 * against a real `seller-server`, every request counted by a fetch around its `SandboxClient`: a
 * reconnect after a short break names the last event id, is resumed, gets what it missed and reads
 * no seller's orders or cards again; a reconnect the server does not resume reads them all again.
 */
import { describe, expect, it } from 'vitest';
import { SandboxClient } from '../../sdk/sandbox.ts';
import { Live } from '../../server/sandbox-page/live.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { startSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

const WAIT = { ms: 15_000 };

describe("the page's live state across a broken stream", () => {
  it('resumes without re-reading the sellers\' orders and cards; re-reads them when the server cannot resume', async () => {
    const world = await startSellerWorld({ card: { body: CODE_CARD } });
    const other = await world.newShop({ card: { body: CODE_CARD } });
    await world.sandbox.createOrder({ number: world.card });

    // Every request of the page's client, with the stream's Last-Event-ID; the stream can be cut, its reconnects held.
    const calls: { path: string; lastEventId: string | undefined }[] = [];
    const net = { cut: new AbortController(), held: Promise.resolve(), spoil: false };
    const counted: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = new Headers(init?.headers);
      if (!url.pathname.endsWith('/changes')) {
        calls.push({ path: url.pathname, lastEventId: undefined });
        return fetch(input, init);
      }
      await net.held;
      if (net.spoil && headers.has('last-event-id')) headers.set('last-event-id', 'from-before-a-restart');
      calls.push({ path: url.pathname, lastEventId: headers.get('last-event-id') ?? undefined });
      const signals = [net.cut.signal, ...(init?.signal ? [init.signal] : [])];
      return fetch(input, { ...init, headers, signal: AbortSignal.any(signals) });
    };
    const reads = (what: 'orders' | 'cards') => calls.filter((c) => c.path.endsWith(`/${what}`)).length;
    const streams = () => calls.filter((c) => c.path.endsWith('/changes'));

    const live = new Live(new SandboxClient({ baseUrl: world.server.url, adminToken: world.server.adminToken, fetch: counted }));
    const stop = new AbortController();
    let refused = false;
    const following = live.follow(stop.signal, () => (refused = true));
    try {
      await waitFor('the first read', () => live.connected && live.orders.size === 1, WAIT);
      const sellers = live.sellers.size;
      expect(sellers).toBeGreaterThanOrEqual(2);
      expect([reads('orders'), reads('cards')]).toEqual([sellers, sellers]);
      expect(streams()).toEqual([{ path: '/sandbox/v1/changes', lastEventId: undefined }]);

      // A short break: the stream is cut, and while it is away an order is made and one of the other seller's paid.
      let release!: () => void;
      net.held = new Promise<void>((resolve) => (release = resolve));
      net.cut.abort();
      net.cut = new AbortController();
      await waitFor('the break seen', () => !live.connected, WAIT);
      const made = await world.sandbox.createOrder({ number: world.card });
      const paid = await world.buy(other.card);
      release();
      await waitFor('the missed orders', () => live.connected && live.orders.has(made.id) && live.orders.get(paid)?.order.status === 'awaiting_delivery', WAIT);
      expect(streams()).toHaveLength(2);
      expect(streams()[1]!.lastEventId).toMatch(/^[0-9a-f]+-\d+$/);
      expect([reads('orders'), reads('cards')]).toEqual([sellers, sellers]);

      // A break the server cannot resume from (here: an id it does not know, as after a restart): all read again.
      net.spoil = true;
      net.cut.abort();
      net.cut = new AbortController();
      await waitFor('the break seen', () => !live.connected, WAIT);
      const later = await world.sandbox.createOrder({ number: other.card });
      await waitFor('the orders read again', () => live.connected && live.orders.has(later.id) && reads('orders') === 2 * sellers, WAIT);
      expect(reads('cards')).toBe(2 * sellers);
      expect(streams()[2]!.lastEventId).toBe('from-before-a-restart');
      expect(refused).toBe(false);
    } finally {
      stop.abort();
      await following;
      await world.close();
    }
  }, 30_000);
});
