/**
 * The webhook sender against hostile receivers and resolvers (server/webhooks/sender.ts, address.ts):
 * every attempt resolves and checks, the connection goes to the checked address, a redirect is not
 * followed, a receiver's answer is read up to a bound and then cut, the timeout covers slow DNS,
 * slow headers and slow bodies, and `--allow-local-hooks` relaxes loopback only.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkHookUrl, resolveAndCheck, type ResolveLookup } from '../../server/webhooks/address.ts';
import { sendAttempt, type SignedDelivery } from '../../server/webhooks/sender.ts';

const DELIVERY: SignedDelivery = { body: '{"event":"order.paid"}', headers: { 'content-type': 'application/json', 'x-service-signature': 'sha256=00' } };

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))));
});

async function receiver(handler: http.RequestListener): Promise<{ port: number; hits: http.IncomingMessage[] }> {
  const hits: http.IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, hits };
}

const within = async <T>(ms: number, work: Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = performance.now();
  const value = await work;
  const took = performance.now() - started;
  expect(took, `took ${took.toFixed(0)} ms`).toBeLessThan(ms);
  return { value, ms: took };
};

describe('a hostile receiver', () => {
  it('an endless answer body: the attempt is judged on the status and the connection is cut after a bounded read', async () => {
    let written = 0;
    let closed!: () => void;
    const cut = new Promise<void>((resolve) => (closed = resolve));
    const { port } = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (!res.destroyed && written < 2 * 1024 ** 3) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      res.on('close', () => closed());
      pump();
    });
    const { value } = await within(5_000, sendAttempt(`http://localhost:${port}/h`, DELIVERY, { allowLocal: true, timeoutMs: 10_000 }));
    expect(value).toEqual({ ok: true, status: 200, error: null });
    await within(5_000, cut);
    // what the receiver pushed before the cut is bounded by socket buffers, not by the body (2 GiB)
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('slow headers: the attempt times out at its deadline', async () => {
    const { port } = await receiver(() => {
      /* never answers */
    });
    const { value } = await within(3_000, sendAttempt(`http://127.0.0.1:${port}/h`, DELIVERY, { allowLocal: true, timeoutMs: 300 }));
    expect(value.ok).toBe(false);
    expect(value.status).toBeNull();
    expect(value.error).toMatch(/timed out/);
  });

  it('a slow (dribbling) body after a 2xx: the result comes at the headers and the connection is cut at the deadline', async () => {
    let closedAt = 0;
    let closed!: () => void;
    const cut = new Promise<void>((resolve) => (closed = resolve));
    const { port } = await receiver((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 50);
      res.on('close', () => {
        clearInterval(timer);
        closedAt = performance.now();
        closed();
      });
    });
    const started = performance.now();
    const { value } = await within(2_000, sendAttempt(`http://127.0.0.1:${port}/h`, DELIVERY, { allowLocal: true, timeoutMs: 400 }));
    expect(value.ok).toBe(true);
    await within(3_000, cut);
    expect(closedAt - started).toBeLessThan(2_500);
  });

  it('a redirect is not followed, even to a public-looking or loopback place', async () => {
    const target = await receiver((_req, res) => res.end('ok'));
    const { port } = await receiver((_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${target.port}/steal` });
      res.end();
    });
    const { value } = await within(3_000, sendAttempt(`http://127.0.0.1:${port}/h`, DELIVERY, { allowLocal: true, timeoutMs: 2_000 }));
    expect(value).toEqual({ ok: false, status: 307, error: 'redirect not followed' });
    await new Promise((r) => setTimeout(r, 100));
    expect(target.hits).toHaveLength(0);
  });
});

describe('resolution and pinning', () => {
  it('every attempt resolves once and connects to the checked address (no second DNS query)', async () => {
    const { port, hits } = await receiver((_req, res) => res.end());
    const asked: string[] = [];
    const lookup: ResolveLookup = async (name) => {
      asked.push(name);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    for (let i = 0; i < 2; i++) {
      const r = await sendAttempt(`http://hooks.localhost:${port}/h`, DELIVERY, { allowLocal: true, lookup, timeoutMs: 2_000 });
      expect(r.ok, r.error ?? '').toBe(true);
    }
    expect(asked).toEqual(['hooks.localhost', 'hooks.localhost']);
    expect(hits.map((h) => h.headers.host)).toEqual([`hooks.localhost:${port}`, `hooks.localhost:${port}`]);
  });

  it('a name resolving to any denied address is refused before connecting; so is slow DNS (deadline)', async () => {
    const answers: Record<string, string[]> = {
      'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
      'meta.example.com': ['169.254.169.254'],
      'mapped.example.com': ['::ffff:127.0.0.1'],
      'loop.example.com': ['127.0.0.1'],
    };
    const lookup: ResolveLookup = async (name) => (answers[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    for (const name of Object.keys(answers)) {
      const r = await sendAttempt(`https://${name}/h`, DELIVERY, { allowLocal: false, lookup, timeoutMs: 2_000 });
      expect(r, name).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^address refused/) });
    }
    const never: ResolveLookup = () => new Promise(() => {});
    const { value } = await within(2_000, sendAttempt('https://slow.example.com/h', DELIVERY, { allowLocal: false, lookup: never, timeoutMs: 200 }));
    expect(value.error).toMatch(/timed out/);
  });

  it('--allow-local-hooks relaxes loopback only', async () => {
    const relaxed = { allowLocal: true };
    for (const ok of ['http://127.0.0.1:8080/h', 'http://localhost/h', 'http://[::1]:9/h', 'http://x.localhost/h']) {
      expect(checkHookUrl(ok, relaxed).ok, ok).toBe(true);
    }
    for (const bad of [
      'http://10.0.0.1/h',
      'https://192.168.1.1/h',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/h',
      'http://[fd00::1]/h',
      'http://[fe80::1]/h',
      'http://printer.local/h',
      'http://intranet/h',
      'http://example.com/h', // public, but http: stays https-only off loopback
    ]) {
      expect(checkHookUrl(bad, relaxed).ok, bad).toBe(false);
    }
    const lookup: ResolveLookup = async () => [{ address: '169.254.169.254', family: 4 }];
    expect((await resolveAndCheck('x.localhost', { allowLoopback: true, lookup })).ok).toBe(false);
    expect((await resolveAndCheck('x.localhost', { allowLoopback: false, lookup: async () => [{ address: '127.0.0.1', family: 4 }] })).ok).toBe(false);
  });
});
