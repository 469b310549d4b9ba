/**
 * Resuming the sandbox's change stream (issue 35 item 15), through the SDK's `SandboxClient.changes()`
 * and raw requests against a real `seller-server`: every event has an id; a reconnect naming the
 * last one read (`lastEventId`: the `Last-Event-ID` header; `?lastEventId=` too) gets `ready` with
 * `resumed: true` and exactly the events it missed, also when no stream was open meanwhile; an id
 * the server cannot resume from (unknown, another server's, none) gets `resumed: false`.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeEventRead } from '../../sdk/sandbox-changes.ts';
import type { SandboxClient } from '../../sdk/sandbox.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { startSellerWorld, type SellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

type Ev = ChangeEventRead & { [field: string]: any };

/** Reads a stream until `enough` says so (doing `meanwhile` once it is ready), then closes it; answers what it read. */
async function readUntil(
  sb: SandboxClient,
  options: { lastEventId?: string; sellerId?: string },
  enough: (events: Ev[]) => boolean,
  meanwhile?: () => Promise<unknown>,
): Promise<Ev[]> {
  const events: Ev[] = [];
  const stop = AbortSignal.timeout(10_000);
  let doing: Promise<unknown> | undefined;
  for await (const ev of sb.changes({ ...options, signal: stop })) {
    events.push(ev as Ev);
    if (meanwhile && !doing) doing = meanwhile();
    if (enough(events)) {
      await doing;
      return events;
    }
  }
  throw new Error(`the stream ended first: ${events.map((e) => e.type).join(', ')}`);
}

/** A stream read in the background for the whole test: the reference of what was sent. */
function reference(sb: SandboxClient) {
  const stop = new AbortController();
  const events: Ev[] = [];
  const done = (async () => {
    for await (const ev of sb.changes({ signal: stop.signal })) events.push(ev as Ev);
  })().catch(() => undefined);
  return {
    events,
    close: async () => {
      stop.abort();
      await done;
    },
  };
}

const seq = (id: string | undefined): number => Number(id?.split('-')[1]);

/** The first event (`ready`) of a raw request, parsed. */
async function rawReady(world: SellerWorld, query: string, headers: Record<string, string> = {}): Promise<{ id: string; data: Ev }> {
  const stop = new AbortController();
  const res = await fetch(`${world.server.url}/sandbox/v1/changes${query}`, { headers: { authorization: `Bearer ${world.server.adminToken}`, ...headers }, signal: stop.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
  stop.abort();
  const first = text.slice(0, text.indexOf('\n\n')).split('\n');
  expect(first[0]).toBe('event: ready');
  return { id: first[1]!.slice('id: '.length), data: JSON.parse(first[2]!.slice('data: '.length)) as Ev };
}

describe('the change stream resumes', () => {
  it('a reconnect with the last id read gets ready with resumed: true, then exactly the events it missed', async () => {
    const world = await startSellerWorld({ card: { body: CODE_CARD } });
    const all = reference(world.sandbox);
    try {
      await waitFor('the reference stream', () => all.events.some((e) => e.type === 'ready'));
      const before = await readUntil(
        world.sandbox,
        {},
        (es) => es.some((e) => e.type === 'order' && e.change === 'created'),
        () => world.sandbox.createOrder({ number: world.card }),
      );
      const first = before.find((e) => e.type === 'order')!.order as { id: string };
      expect(before[0]).toMatchObject({ type: 'ready', resumed: false });
      const read = before.at(-1)!;
      expect(read.id).toMatch(/^[0-9a-f]+-\d+$/);

      // away: an order paid and another created
      await world.sandbox.pay(first.id);
      const second = await world.sandbox.createOrder({ number: world.card });
      await waitFor('the reference to see them', () => all.events.some((e) => e.type === 'order' && e.order.id === second.id));

      // read up to the ready's id: the last event sent before the reconnect
      const after = await readUntil(world.sandbox, { lastEventId: read.id! }, (es) => es.length > 1 && seq(es.at(-1)!.id) >= seq(es[0]!.id));
      expect(after[0]).toMatchObject({ type: 'ready', resumed: true });
      await waitFor('the reference up to the resumed ready', () => all.events.some((e) => seq(e.id) >= seq(after[0]!.id) && e.type !== 'ready'));
      const missed = all.events.filter((e) => e.type !== 'ready' && seq(e.id) > seq(read.id) && seq(e.id) <= seq(after[0]!.id));
      expect(seq(after[0]!.id)).toBeGreaterThan(seq(read.id));
      expect(missed.map((e) => e.type)).toEqual(expect.arrayContaining(['order', 'order']));
      expect(after.slice(1)).toEqual(missed);
      expect(after.slice(1).map((e) => [e.type, e.change, e.order?.id])).toEqual(
        expect.arrayContaining([
          ['order', 'status', first.id],
          ['order', 'created', second.id],
        ]),
      );
    } finally {
      await all.close();
      await world.close();
    }
  });

  it('resumes when no stream was open meanwhile; one seller\'s stream gets only that seller\'s', async () => {
    const world = await startSellerWorld({ card: { body: CODE_CARD } });
    try {
      const other = await world.newShop({ card: { body: CODE_CARD } });
      const [ready] = await readUntil(world.sandbox, {}, (es) => es.length === 1);
      expect(ready).toMatchObject({ type: 'ready', resumed: false });
      // ready carries the last id: nothing read after it, and the next reconnect resumes from there
      const mine = await world.sandbox.createOrder({ number: world.card });
      const theirs = await world.sandbox.createOrder({ number: other.card });
      const all = await readUntil(world.sandbox, { lastEventId: ready!.id! }, (es) => es.some((e) => e.type === 'order' && e.order.id === theirs.id));
      expect(all[0]).toMatchObject({ type: 'ready', resumed: true });
      expect(all.filter((e) => e.type === 'order').map((e) => e.order.id)).toEqual([mine.id, theirs.id]);

      const own = await readUntil(world.sandbox, { lastEventId: ready!.id!, sellerId: world.sellerId }, (es) => es.some((e) => e.type === 'order' && e.order.id === mine.id));
      expect(own[0]).toMatchObject({ type: 'ready', resumed: true });
      expect(own.every((e) => e.sellerId === undefined || e.sellerId === world.sellerId)).toBe(true);
    } finally {
      await world.close();
    }
  });

  it('takes the id as the Last-Event-ID header or ?lastEventId=; the header first', async () => {
    const world = await startSellerWorld();
    try {
      const { id, data } = await rawReady(world, '');
      expect(data).toMatchObject({ type: 'ready', resumed: false });
      expect((await rawReady(world, '', { 'last-event-id': id })).data.resumed).toBe(true);
      expect((await rawReady(world, `?lastEventId=${encodeURIComponent(id)}`)).data.resumed).toBe(true);
      expect((await rawReady(world, '?lastEventId=nonsense', { 'last-event-id': id })).data.resumed).toBe(true);
      expect((await rawReady(world, `?lastEventId=${encodeURIComponent(id)}`, { 'last-event-id': 'nonsense' })).data.resumed).toBe(false);
    } finally {
      await world.close();
    }
  });

  it('an id it cannot resume from (unknown, another server\'s, ahead of its last) gets resumed: false, the client reads again', async () => {
    const world = await startSellerWorld();
    const elsewhere = await startSellerWorld();
    try {
      const [theirs] = await readUntil(elsewhere.sandbox, {}, (es) => es.length === 1);
      const [mine] = await readUntil(world.sandbox, {}, (es) => es.length === 1);
      const ahead = `${mine!.id!.split('-')[0]}-${seq(mine!.id) + 5}`;
      for (const lastEventId of ['nonsense', theirs!.id!, ahead]) {
        const [ready] = await readUntil(world.sandbox, { lastEventId }, (es) => es.length === 1);
        expect(ready, lastEventId).toMatchObject({ type: 'ready', resumed: false });
      }
    } finally {
      await elsewhere.close();
      await world.close();
    }
  });
});
