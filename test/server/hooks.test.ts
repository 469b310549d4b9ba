/**
 * The event subscription (spec: Event subscription, set hooks refusals; gaps.md: Hooks read, Test,
 * Deliveries log entry, Probe): set, get, delete, rotate, resume, test, deliveries, probe.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_KINDS, EventData, WebhookEvent } from '../../sdk/contract/index.ts';
import { verifyWebhook } from '../../sdk/webhooks/index.ts';
import { Clock } from '../../server/clock.ts';
import { webhooksIdle } from '../../server/webhooks/outbox.ts';
import { call, expectError, makeApp, newSeller, type SellerCreated } from './helpers.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const SECRET = /^whsec_[0-9A-Za-z]{32}$/;
const PUBLIC = 'https://hooks.example.com/service';

let app: FastifyInstance;
let local: FastifyInstance;

/** No name resolves here: attempts to the public test hosts fail without touching the network. */
const noDns = async (hostname: string): Promise<never> => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

beforeAll(async () => {
  app = await makeApp({ clock: new Clock(0, () => T0), hookLookup: noDns });
  local = await makeApp({ allowLocalHooks: true, clock: new Clock(0, () => T0) });
});
afterAll(async () => {
  await app.close();
  await local.close();
});

const hooks = (a: FastifyInstance, key: string) => call(a, key, 'GET', '/api/v1/hooks');
const setHooks = (a: FastifyInstance, key: string, body: unknown) => call(a, key, 'PUT', '/api/v1/hooks', body);

async function subscribed(a = app, events: string[] = ['order.paid']): Promise<SellerCreated & { secret: string }> {
  const seller = await newSeller(a);
  const res = await setHooks(a, seller.apiKey, { url: PUBLIC, events });
  expect(res.status, res.text).toBe(200);
  return { ...seller, secret: res.body.secret };
}

function expectRefusal(res: { status: number; body: any; text: string; headers: any }, kind: string, details: Record<string, unknown> = {}) {
  expectError(res, 409, 'rejected');
  expect(res.body.refusal).toMatchObject({ kind, ...details });
}

describe('get', () => {
  it('no subscription → status off, url null, events []', async () => {
    const seller = await newSeller(app);
    const res = await hooks(app, seller.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: null, events: [], status: 'off', failures: 0, pausedAt: null });
  });

  it('needs the hooks scope', async () => {
    const seller = await newSeller(app, { scopes: ['orders'] });
    const res = await hooks(app, seller.apiKey);
    expectError(res, 403, 'scope');
    expect(res.body.detail).toMatchObject({ needed: 'hooks' });
  });
});

describe('set: creation', () => {
  it('answers the subscription with a new secret, once', async () => {
    const seller = await newSeller(app);
    const res = await setHooks(app, seller.apiKey, { url: PUBLIC, events: ['order.paid', 'order.new'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      url: PUBLIC,
      events: ['order.new', 'order.paid'],
      status: 'active',
      failures: 0,
      pausedAt: null,
      secret: expect.stringMatching(SECRET),
    });
    const read = await hooks(app, seller.apiKey);
    expect(read.body).toEqual({ url: PUBLIC, events: ['order.new', 'order.paid'], status: 'active', failures: 0, pausedAt: null });
    expect(read.text).not.toContain(res.body.secret);
  });

  it('events are normalised: unknown kinds and duplicates dropped, canonical order', async () => {
    const seller = await newSeller(app);
    const res = await setHooks(app, seller.apiKey, {
      url: PUBLIC,
      events: ['stock.out', 'order.paid', 'junk', 'order.paid', 'ORDER.NEW', 'question.new', 'stock.out', ''],
    });
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual(['order.paid', 'stock.out', 'question.new']);
  });

  it('every known kind can be subscribed', async () => {
    const seller = await newSeller(app);
    const res = await setHooks(app, seller.apiKey, { url: PUBLIC, events: [...EVENT_KINDS].reverse() });
    expect(res.body.events).toEqual([...EVENT_KINDS]);
  });

  it('the secret is stored sealed, never in the clear', async () => {
    const seller = await subscribed();
    const doc = await app.service.store.seller(seller.sellerId);
    expect(JSON.stringify(doc)).not.toContain(seller.secret);
    expect(app.service.sealer.open(doc.hooks!.sealedSecret, `hook:${seller.sellerId}`)).toBe(seller.secret);
  });

  it('an idempotent replay answers the same secret and creates nothing new', async () => {
    const seller = await newSeller(app);
    const headers = { 'idempotency-key': 'create-hooks-1' };
    const first = await call(app, seller.apiKey, 'PUT', '/api/v1/hooks', { url: PUBLIC, events: ['order.paid'] }, headers);
    const again = await call(app, seller.apiKey, 'PUT', '/api/v1/hooks', { url: PUBLIC, events: ['order.paid'] }, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});

describe('set: edits', () => {
  it('an edit answers secret null and keeps the secret', async () => {
    const seller = await subscribed();
    const res = await setHooks(app, seller.apiKey, { url: 'https://other.example.org/in', events: ['stock.out'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: 'https://other.example.org/in', events: ['stock.out'], status: 'active', failures: 0, pausedAt: null, secret: null });
    const doc = await app.service.store.seller(seller.sellerId);
    expect(app.service.sealer.open(doc.hooks!.sealedSecret, `hook:${seller.sellerId}`)).toBe(seller.secret);
  });

  it('an edit clears the pause and resets the failure counter', async () => {
    const seller = await subscribed();
    const doc = await app.service.store.seller(seller.sellerId);
    Object.assign(doc.hooks!, { status: 'paused', failures: 20, pausedAt: '2026-03-01T09:00:00.000Z' });
    expect((await hooks(app, seller.apiKey)).body).toMatchObject({ status: 'paused', failures: 20, pausedAt: '2026-03-01T09:00:00.000Z' });
    const res = await setHooks(app, seller.apiKey, { url: PUBLIC, events: ['order.paid'] });
    expect(res.body).toMatchObject({ status: 'active', failures: 0, pausedAt: null, secret: null });
    expect((await hooks(app, seller.apiKey)).body).toMatchObject({ status: 'active', failures: 0, pausedAt: null });
  });

  it('a refused edit changes nothing', async () => {
    const seller = await subscribed();
    expectRefusal(await setHooks(app, seller.apiKey, { url: 'https://10.0.0.1/', events: ['stock.out'] }), 'url');
    expectRefusal(await setHooks(app, seller.apiKey, { url: 'https://new.example.com/', events: [] }), 'no_events');
    expect((await hooks(app, seller.apiKey)).body).toEqual({ url: PUBLIC, events: ['order.paid'], status: 'active', failures: 0, pausedAt: null });
  });
});

describe('set: refusals', () => {
  let seller: SellerCreated;
  beforeAll(async () => {
    seller = await newSeller(app);
  });

  it.each([
    ['not a url', 'malformed'],
    ['/relative/path', 'malformed'],
    ['https://', 'malformed'],
    ['http://hooks.example.com/in', 'https_only'],
    ['ftp://hooks.example.com/in', 'https_only'],
    ['https://user:pass@hooks.example.com/in', 'credentials'],
    ['https://user@hooks.example.com/in', 'credentials'],
    ['https://10.0.0.1/in', 'public_host_only'],
    ['https://192.168.1.10/in', 'public_host_only'],
    ['https://169.254.169.254/latest', 'public_host_only'],
    ['https://100.64.0.1/', 'public_host_only'],
    ['https://127.0.0.1/in', 'public_host_only'],
    ['https://[::1]/in', 'public_host_only'],
    ['https://[::ffff:127.0.0.1]/in', 'public_host_only'],
    ['https://0x7f000001/in', 'public_host_only'],
    ['https://localhost/in', 'public_host_only'],
    ['https://printer.local/in', 'public_host_only'],
    ['https://intranet/in', 'public_host_only'],
    ['http://127.0.0.1:8080/in', 'public_host_only'],
  ])('%s → url (%s)', async (url, reason) => {
    const res = await setHooks(app, seller.apiKey, { url, events: ['order.paid'] });
    expectRefusal(res, 'url', { field: 'url', reason });
    expect(typeof res.body.detail).toBe('string');
  });

  it('with --allow-local-hooks: http on loopback is accepted, nothing else is relaxed', async () => {
    const s = await newSeller(local);
    for (const url of ['http://127.0.0.1:8080/in', 'http://localhost:9/x', 'https://127.0.0.1/in', 'http://[::1]:80/']) {
      const res = await setHooks(local, s.apiKey, { url, events: ['order.paid'] });
      expect(res.status, `${url}: ${res.text}`).toBe(200);
    }
    expectRefusal(await setHooks(local, s.apiKey, { url: 'http://10.0.0.1/in', events: ['order.paid'] }), 'url', { reason: 'public_host_only' });
    expectRefusal(await setHooks(local, s.apiKey, { url: 'http://hooks.example.com/in', events: ['order.paid'] }), 'url', { reason: 'https_only' });
    expectRefusal(await setHooks(local, s.apiKey, { url: 'http://u:p@127.0.0.1/in', events: ['order.paid'] }), 'url', { reason: 'credentials' });
  });

  it('a public host name is accepted at save time (names are resolved and checked at send time)', async () => {
    const s = await newSeller(app);
    const res = await setHooks(app, s.apiKey, { url: 'https://resolves-to-loopback.example.net/in', events: ['order.paid'] });
    expect(res.status).toBe(200);
  });

  it('an empty event set → no_events', async () => {
    expectRefusal(await setHooks(app, seller.apiKey, { url: PUBLIC, events: [] }), 'no_events', { field: 'events', allowed: [...EVENT_KINDS] });
  });

  it('only unknown kinds → no_events', async () => {
    expectRefusal(await setHooks(app, seller.apiKey, { url: PUBLIC, events: ['order.shipped', 'junk', 'junk'] }), 'no_events');
  });

  it('the address is judged before the events', async () => {
    expectRefusal(await setHooks(app, seller.apiKey, { url: 'http://hooks.example.com/', events: [] }), 'url', { reason: 'https_only' });
  });

  it('missing or mistyped fields → 400 bad_request', async () => {
    expectError(await setHooks(app, seller.apiKey, { url: PUBLIC }), 400, 'bad_request');
    expectError(await setHooks(app, seller.apiKey, { events: ['order.paid'] }), 400, 'bad_request');
    expectError(await setHooks(app, seller.apiKey, { url: PUBLIC, events: 'order.paid' }), 400, 'bad_request');
    expectError(await setHooks(app, seller.apiKey, { url: PUBLIC, events: ['order.paid'], secret: 'mine' }), 400, 'bad_request');
  });

  it('nothing refused was stored', async () => {
    expect((await hooks(app, seller.apiKey)).body.status).toBe('off');
  });
});

describe('vault_off', () => {
  const saved = process.env.SERVICE_HOOK_VAULT;
  afterEach(() => {
    if (saved === undefined) delete process.env.SERVICE_HOOK_VAULT;
    else process.env.SERVICE_HOOK_VAULT = saved;
  });

  it('hookSecrets: false → set hooks is refused vault_off, nothing stored', async () => {
    const off = await makeApp({ hookSecrets: false });
    try {
      const s = await newSeller(off);
      expectRefusal(await setHooks(off, s.apiKey, { url: PUBLIC, events: ['order.paid'] }), 'vault_off');
      expect((await hooks(off, s.apiKey)).body.status).toBe('off');
    } finally {
      await off.close();
    }
  });

  it('SERVICE_HOOK_VAULT=off has the same effect', async () => {
    process.env.SERVICE_HOOK_VAULT = 'off';
    const off = await makeApp();
    try {
      expect(off.service.options.hookSecrets).toBe(false);
      const s = await newSeller(off);
      expectRefusal(await setHooks(off, s.apiKey, { url: PUBLIC, events: ['order.paid'] }), 'vault_off');
    } finally {
      await off.close();
    }
  });

  it('the address and events are judged first', async () => {
    const off = await makeApp({ hookSecrets: false });
    try {
      const s = await newSeller(off);
      expectRefusal(await setHooks(off, s.apiKey, { url: 'https://10.0.0.1/', events: ['order.paid'] }), 'url');
      expectRefusal(await setHooks(off, s.apiKey, { url: PUBLIC, events: [] }), 'no_events');
    } finally {
      await off.close();
    }
  });

  it('rotation is refused vault_off too', async () => {
    const seller = await subscribed();
    app.service.options.hookSecrets = false;
    try {
      expectRefusal(await call(app, seller.apiKey, 'POST', '/api/v1/hooks/secret'), 'vault_off');
    } finally {
      app.service.options.hookSecrets = true;
    }
  });
});

describe('delete', () => {
  it('switches delivery off; a repeat answers off too', async () => {
    const seller = await subscribed();
    const res = await call(app, seller.apiKey, 'DELETE', '/api/v1/hooks');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: null, events: [], status: 'off', failures: 0, pausedAt: null });
    expect((await hooks(app, seller.apiKey)).body.status).toBe('off');
    expect((await call(app, seller.apiKey, 'DELETE', '/api/v1/hooks')).body.status).toBe('off');
  });

  it('a new subscription after delete is a creation: a new secret', async () => {
    const seller = await subscribed();
    await call(app, seller.apiKey, 'DELETE', '/api/v1/hooks');
    const res = await setHooks(app, seller.apiKey, { url: PUBLIC, events: ['order.paid'] });
    expect(res.body.secret).toMatch(SECRET);
    expect(res.body.secret).not.toBe(seller.secret);
  });

  it('pending deliveries stop', async () => {
    const seller = await subscribed();
    const doc = await app.service.store.seller(seller.sellerId);
    Object.assign(doc.hooks!, { status: 'paused', failures: 20, pausedAt: '2026-03-01T09:00:00.000Z' });
    const t = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', {});
    expect(t.status).toBe(202);
    await webhooksIdle(app.service);
    let log = await call(app, seller.apiKey, 'GET', '/api/v1/hooks/deliveries');
    expect(log.body.items[0]).toMatchObject({ id: t.body.delivery, attempts: 0, nextAttemptAt: '2026-03-01T10:00:00.000Z' });
    await call(app, seller.apiKey, 'DELETE', '/api/v1/hooks');
    log = await call(app, seller.apiKey, 'GET', '/api/v1/hooks/deliveries');
    expect(log.body.items[0]).toMatchObject({ id: t.body.delivery, attempts: 0, nextAttemptAt: null, lastError: 'delivery switched off' });
  });
});

describe('rotate', () => {
  it('no subscription → 404 not_found', async () => {
    const seller = await newSeller(app);
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/hooks/secret'), 404, 'not_found');
  });

  it('answers a new secret once; reads never show it', async () => {
    const seller = await subscribed();
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/secret');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ secret: expect.stringMatching(SECRET) });
    expect(res.body.secret).not.toBe(seller.secret);
    const doc = await app.service.store.seller(seller.sellerId);
    expect(app.service.sealer.open(doc.hooks!.sealedSecret, `hook:${seller.sellerId}`)).toBe(res.body.secret);
    const read = await hooks(app, seller.apiKey);
    expect(read.text).not.toContain(res.body.secret);
    expect(read.body.status).toBe('active');
  });
});

describe('resume', () => {
  it('no subscription → 404 not_found', async () => {
    const seller = await newSeller(app);
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/hooks/resume'), 404, 'not_found');
  });

  it('a paused subscription becomes active with the counter at 0', async () => {
    const seller = await subscribed();
    const doc = await app.service.store.seller(seller.sellerId);
    Object.assign(doc.hooks!, { status: 'paused', failures: 20, pausedAt: '2026-03-01T09:00:00.000Z' });
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/resume');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: PUBLIC, events: ['order.paid'], status: 'active', failures: 0, pausedAt: null });
  });

  it('an active subscription stays active', async () => {
    const seller = await subscribed();
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/resume');
    expect(res.body.status).toBe('active');
  });
});

describe('test and the deliveries log', () => {
  it('no subscription → 404 not_found', async () => {
    const seller = await newSeller(app);
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', {}), 404, 'not_found');
  });

  it('an unknown event kind → 400 bad_request', async () => {
    const seller = await subscribed();
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', { event: 'order.shipped' }), 400, 'bad_request');
  });

  it('→ 202 {delivery, event}, default order.paid; the body may be omitted', async () => {
    const seller = await subscribed();
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test');
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ delivery: expect.stringMatching(/^dlv_[0-9A-Za-z]+$/), event: 'order.paid' });
  });

  it('log entries have the documented shape, newest first, paged', async () => {
    const seller = await subscribed();
    const ids: string[] = [];
    for (const event of ['order.paid', 'stock.out', 'review.new']) {
      const res = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', { event });
      expect(res.body.event).toBe(event);
      ids.push(res.body.delivery);
    }
    // The public test host does not resolve here: the attempts fail and the log says why.
    await webhooksIdle(app.service);
    const all = await call(app, seller.apiKey, 'GET', '/api/v1/hooks/deliveries');
    expect(all.status).toBe(200);
    expect(all.body.items.map((d: any) => d.id)).toEqual([...ids].reverse());
    expect(all.body.nextCursor).toBeNull();
    for (const d of all.body.items) {
      expect(Object.keys(d).sort()).toEqual(
        ['id', 'event', 'delivery', 'attempts', 'lastStatus', 'lastError', 'nextAttemptAt', 'deliveredAt', 'test'].sort(),
      );
      expect(d.delivery).toBe(d.id);
      expect(d.test).toBe(true);
      expect(d).toMatchObject({
        attempts: 1,
        lastStatus: null,
        lastError: 'address not resolved: cannot resolve hooks.example.com (ENOTFOUND)',
        nextAttemptAt: '2026-03-01T10:00:10.000Z',
        deliveredAt: null,
      });
    }
    const first = await call(app, seller.apiKey, 'GET', '/api/v1/hooks/deliveries?limit=2');
    expect(first.body.items.map((d: any) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call(app, seller.apiKey, 'GET', `/api/v1/hooks/deliveries?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((d: any) => d.id)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();
    expectError(await call(app, seller.apiKey, 'GET', '/api/v1/hooks/deliveries?limit=0'), 400, 'bad_request');
  });

  it("a seller sees only its own deliveries", async () => {
    const a = await subscribed();
    const b = await subscribed();
    await call(app, a.apiKey, 'POST', '/api/v1/hooks/test', {});
    const log = await call(app, b.apiKey, 'GET', '/api/v1/hooks/deliveries');
    expect(log.body.items).toEqual([]);
  });
});

describe('probe', () => {
  it('createProbe → 201 {url}: an absolute address of this server, the same on every call', async () => {
    const seller = await newSeller(app);
    const res = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe');
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^http:\/\/localhost\/hooks-probe\/prb_[0-9A-Za-z]{32}$/);
    const again = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe');
    expect(again.body.url).toBe(res.body.url);
    const other = await call(app, (await newSeller(app)).apiKey, 'POST', '/api/v1/hooks/probe');
    expect(other.body.url).not.toBe(res.body.url);
  });

  it('nothing received yet → items []', async () => {
    const seller = await newSeller(app);
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/hooks/probe')).body).toEqual({ items: [] });
  });

  it('the probe address is accepted without --allow-local-hooks; a test event arrives signed, raw', async () => {
    const seller = await newSeller(app);
    const { url } = (await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe')).body;
    const set = await setHooks(app, seller.apiKey, { url, events: ['order.paid'] });
    expect(set.status, set.text).toBe(200);
    const secret = set.body.secret as string;
    const t = await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', { event: 'order.message' });
    await webhooksIdle(app.service);

    const probe = await call(app, seller.apiKey, 'GET', '/api/v1/hooks/probe');
    expect(probe.status).toBe(200);
    expect(probe.body.items).toHaveLength(1);
    const hit = probe.body.items[0];
    expect(hit.receivedAt).toBe('2026-03-01T10:00:00.000Z');
    expect(hit.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-event': 'order.message',
      'x-service-delivery': t.body.delivery,
      'x-service-timestamp': expect.stringMatching(/^\d+$/),
      'x-service-attempt': '1',
      'x-service-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
    });
    expect(typeof hit.body).toBe('string');
    const event = verifyWebhook(hit.body, hit.headers, secret);
    expect(event).toMatchObject({ event: 'order.message', delivery: t.body.delivery, attempt: 1, test: true, at: '2026-03-01T10:00:00.000Z' });
    expect(WebhookEvent.safeParse(JSON.parse(hit.body)).success).toBe(true);
    expect(EventData['order.message'].safeParse(event.data).success).toBe(true);

    const log = await call(app, seller.apiKey, 'GET', '/api/v1/hooks/deliveries');
    expect(log.body.items[0]).toEqual({
      id: t.body.delivery,
      event: 'order.message',
      delivery: t.body.delivery,
      attempts: 1,
      lastStatus: 204,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: '2026-03-01T10:00:00.000Z',
      test: true,
    });
  });

  it('test events of every kind carry data of the documented shape', async () => {
    const seller = await newSeller(app);
    const { url } = (await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe')).body;
    const secret = (await setHooks(app, seller.apiKey, { url, events: ['order.paid'] })).body.secret;
    for (const kind of EVENT_KINDS) await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', { event: kind });
    await webhooksIdle(app.service);
    const probe = await call(app, seller.apiKey, 'GET', `/api/v1/hooks/probe?limit=${EVENT_KINDS.length}`);
    expect(probe.body.items).toHaveLength(EVENT_KINDS.length);
    const seen = new Set<string>();
    for (const hit of probe.body.items) {
      const event = verifyWebhook(hit.body, hit.headers, secret);
      expect(EventData[event.event].safeParse(event.data).success, hit.body).toBe(true);
      expect(hit.body).not.toMatch(/buyer|email|phone/i);
      seen.add(event.event);
    }
    expect(seen).toEqual(new Set(EVENT_KINDS));
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/hooks/probe?limit=2')).body.items).toHaveLength(2);
  });

  it('the own probe address is recognised on loopback under another port (a restart with --port 0)', async () => {
    const seller = await newSeller(app);
    const { url } = (await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe')).body;
    const moved = `http://127.0.0.1:4321${new URL(url).pathname}`;
    const set = await setHooks(app, seller.apiKey, { url: moved, events: ['order.paid'] });
    expect(set.status, set.text).toBe(200);
    await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', {});
    await webhooksIdle(app.service);
    const probe = await call(app, seller.apiKey, 'GET', '/api/v1/hooks/probe');
    expect(probe.body.items).toHaveLength(1);
    expect(() => verifyWebhook(probe.body.items[0].body, probe.body.items[0].headers, set.body.secret)).not.toThrow();
    // Another path on the same loopback host is an ordinary address.
    expectRefusal(await setHooks(app, seller.apiKey, { url: `http://127.0.0.1:4321/hooks-probe/prb_${'x'.repeat(32)}`, events: ['order.paid'] }), 'url', {
      reason: 'public_host_only',
    });
  });

  it("another seller's probe address is an ordinary (local) address: refused", async () => {
    const owner = await newSeller(app);
    const { url } = (await call(app, owner.apiKey, 'POST', '/api/v1/hooks/probe')).body;
    const other = await newSeller(app);
    expectRefusal(await setHooks(app, other.apiKey, { url, events: ['order.paid'] }), 'url', { reason: 'public_host_only' });
  });

  it('the receiver route answers 404 for an unknown token', async () => {
    const res = await app.inject({ method: 'POST', url: '/hooks-probe/prb_00000000000000000000000000000000', payload: '{}' });
    expect(res.statusCode).toBe(404);
    // `..` is resolved before routing: the path is /api/v1/me, which takes GET only (not the receiver)
    const bad = await app.inject({ method: 'POST', url: '/hooks-probe/../api/v1/me', payload: '{}' });
    expect(bad.statusCode).toBe(405);
  });

  it('the receiver keeps any body as raw text', async () => {
    const seller = await newSeller(app);
    const { url } = (await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe')).body;
    const path = new URL(url).pathname;
    const raw = '{"b": 1,   "a": [2, 3]}';
    const res = await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: raw });
    expect(res.statusCode).toBe(204);
    await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    const probe = await call(app, seller.apiKey, 'GET', '/api/v1/hooks/probe');
    expect(probe.body.items.map((h: any) => h.body)).toEqual(['hello', raw]);
  });
});

describe('no answer carries the secret', () => {
  it('get, deliveries, probe, resume, delete', async () => {
    const seller = await newSeller(app);
    const { url } = (await call(app, seller.apiKey, 'POST', '/api/v1/hooks/probe')).body;
    const secret = (await setHooks(app, seller.apiKey, { url, events: ['order.paid'] })).body.secret as string;
    await call(app, seller.apiKey, 'POST', '/api/v1/hooks/test', {});
    await webhooksIdle(app.service);
    const answers = [
      await hooks(app, seller.apiKey),
      await call(app, seller.apiKey, 'GET', '/api/v1/hooks/deliveries'),
      await call(app, seller.apiKey, 'GET', '/api/v1/hooks/probe'),
      await setHooks(app, seller.apiKey, { url, events: ['order.new'] }),
      await call(app, seller.apiKey, 'POST', '/api/v1/hooks/resume'),
      await call(app, seller.apiKey, 'DELETE', '/api/v1/hooks'),
    ];
    for (const a of answers) expect(a.text).not.toContain(secret);
  });
});
