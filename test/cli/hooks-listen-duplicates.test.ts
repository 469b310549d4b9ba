/**
 * `seller hooks listen --forward-to` against the sandbox's duplicate deliveries (issue #27, section
 * 4): a delivery that comes again after its forward was answered 2xx is not forwarded twice, and
 * its line says so; one whose forward failed is forwarded when it comes again.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForwardedDeliveries } from '../../cli/commands/hooks-forwarded.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';
import { bufferIO, run, tempConfigDir } from './helpers.ts';

describe('ForwardedDeliveries', () => {
  it('sends a delivery once after a success, again after a failure, one send at a time', async () => {
    const forwarded = new ForwardedDeliveries();
    const sends: string[] = [];
    const send = (id: string, status: number) => () => {
      sends.push(`${id}:${status}`);
      return Promise.resolve(status);
    };
    const ok = (status: number) => status < 300;
    expect(await forwarded.forward('dlv_a', send('dlv_a', 500), ok)).toBe(500);
    expect(await forwarded.forward('dlv_a', send('dlv_a', 204), ok)).toBe(204);
    expect(await forwarded.forward('dlv_a', send('dlv_a', 204), ok)).toBe('duplicate');
    // Two at once: the second waits for the first, and is a duplicate of its success.
    const both = await Promise.all([forwarded.forward('dlv_b', send('dlv_b', 200), ok), forwarded.forward('dlv_b', send('dlv_b', 200), ok)]);
    expect(both).toEqual([200, 'duplicate']);
    expect(sends).toEqual(['dlv_a:500', 'dlv_a:204', 'dlv_b:200']);
  });

  it('forgets the oldest ids past its bound', async () => {
    const forwarded = new ForwardedDeliveries(2);
    const ok = () => true;
    for (const id of ['a', 'b', 'c']) await forwarded.forward(id, async () => 1, ok);
    expect(await forwarded.forward('a', async () => 2, ok)).toBe(2);
    expect(await forwarded.forward('c', async () => 3, ok)).toBe('duplicate');
  });
});

describe('hooks listen --forward-to with the sandbox duplicating deliveries', () => {
  const world = useSellerWorld({ server: { allowLocalHooks: true, rateLimit: NO_RATE_LIMIT } });
  const config = tempConfigDir();
  let receiver: Server;
  let receiverUrl: string;
  const forwardedBodies: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        forwardedBodies.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/app`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    config.cleanup();
  });

  it('forwards a duplicated delivery once; the second line is marked a duplicate', async () => {
    // The subscription first, for its secret; then it points at the listener.
    const { secret } = await world.client.hooks.set({ url: 'http://127.0.0.1:9/placeholder', events: ['order.paid'] });
    const secretFile = join(config.dir, 'secret');
    writeFileSync(secretFile, `${secret}\n`);
    const io = bufferIO({ env: { SELLER_CONFIG_DIR: config.dir, LANG: 'C' } });
    const done = run(['hooks', 'listen', '--port', '0', '--secret-file', secretFile, '--forward-to', receiverUrl, '--count', '2', '--json'], io);
    const url = await waitFor('the listening line', () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.err())?.[1]);
    await world.client.hooks.set({ url, events: ['order.paid'] });
    await world.sandbox.addFault({ sellerId: world.sellerId, hooks: 'duplicate', times: 1 });

    const { delivery } = await world.client.hooks.test({});
    const { code } = await done;
    expect(code).toBe(0);
    const lines = io.out().trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.delivery, l.attempt, l.valid, l.duplicate ?? false, l.forward?.status ?? null])).toEqual([
      [delivery, 1, true, false, 204],
      [delivery, 2, true, true, null],
    ]);
    expect(forwardedBodies).toHaveLength(1);
    expect(JSON.parse(forwardedBodies[0]!)).toMatchObject({ delivery, attempt: 1 });
  });
});
