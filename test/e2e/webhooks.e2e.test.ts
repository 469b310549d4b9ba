/**
 * Webhooks end to end through a real server on a port: a seller subscribes a local receiver, an
 * order is paid through the sandbox, the receiver gets a signed `order.paid` and verifies it; and
 * the probe flow (createProbe → subscribe the probe → test → read what the probe got, verify it).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventData } from '../../sdk/contract/index.ts';
import { verifyWebhook } from '../../sdk/webhooks/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: TestServer;
let receiver: http.Server;
let receiverUrl: string;
const got: Received[] = [];

beforeAll(async () => {
  server = await startTestServer({ allowLocalHooks: true });
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/service`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await server.close();
});

async function api<T = any>(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a paid order reaches the subscriber, signed', () => {
  it('subscribe → card → order → pay → a verified order.paid', async () => {
    const seller = await server.newSeller();
    const set = await api(seller.apiKey, 'PUT', '/hooks', { url: receiverUrl, events: ['order.paid'] });
    expect(set.status).toBe(200);
    const secret: string = set.body.secret;
    expect(secret).toMatch(/^whsec_/);

    // A card on a catalogue position that sells codes, switched on.
    const positions = (await api(seller.apiKey, 'GET', '/catalog/services?limit=200')).body.items as any[];
    const position = positions.find((p) => p.productTypes.includes('code') && p.deliveryMethods.code?.includes('code'));
    expect(position, 'a catalogue position selling codes').toBeTruthy();
    const created = await api(seller.apiKey, 'POST', '/listings', {
      service: position.slug,
      tariff: position.tariffs[0].slug,
      productType: 'code',
      deliveryMethod: 'code',
      priceRub: 450,
      slaMinutes: position.slaChoices[0],
      guaranteeDays: position.guaranteeChoices[0],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const number: number = created.body.number;
    expect((await api(seller.apiKey, 'POST', `/listings/${number}/state`, { active: true })).status).toBe(200);

    // The buyer orders and pays, through the sandbox.
    const order = await server.sandbox<any>('POST', '/orders', { number });
    await server.sandbox('POST', `/orders/${order.id}/pay`);

    const delivery = await until('the order.paid delivery', () => got.find((r) => r.headers['x-service-event'] === 'order.paid'));
    expect(delivery.url).toBe('/webhooks/service');
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-service-attempt']).toBe('1');
    const event = verifyWebhook(delivery.body, delivery.headers, secret);
    expect(event.event).toBe('order.paid');
    expect(event.data).toEqual({ order: order.id, number, status: 'awaiting_delivery', slaMinutes: position.slaChoices[0] });
    expect(EventData['order.paid'].safeParse(event.data).success).toBe(true);
    expect('test' in event).toBe(false);
    expect(event.delivery).toBe(delivery.headers['x-service-delivery']);
    expect(Math.abs(Date.parse(event.at) - Date.now())).toBeLessThan(60_000);
    // No buyer identity anywhere in what the subscriber gets.
    expect(delivery.body).not.toMatch(/buy_|buyer/);
    // A wrong secret does not verify.
    expect(() => verifyWebhook(delivery.body, delivery.headers, 'whsec_wrongwrongwrongwrongwrongwrong12')).toThrow();

    // Only the subscribed kind was sent (no order.new), and the log says delivered.
    expect(got.filter((r) => r.headers['x-service-event'] !== 'order.paid')).toEqual([]);
    const log = await until('the log entry', async () => {
      const items = (await api(seller.apiKey, 'GET', '/hooks/deliveries')).body.items as any[];
      return items.find((d) => d.id === event.delivery && d.deliveredAt !== null);
    });
    expect(log).toMatchObject({ event: 'order.paid', attempts: 1, lastStatus: 204, lastError: null, nextAttemptAt: null, test: false });
  });
});

describe('the probe receiver', () => {
  it('createProbe → subscribe it → test → the probe shows the raw body, whose signature verifies', async () => {
    const seller = await server.newSeller();
    const probe = await api(seller.apiKey, 'POST', '/hooks/probe');
    expect(probe.status).toBe(201);
    expect(probe.body.url.startsWith(`${server.url}/hooks-probe/prb_`)).toBe(true);

    const set = await api(seller.apiKey, 'PUT', '/hooks', { url: probe.body.url, events: ['order.paid', 'stock.out'] });
    expect(set.status).toBe(200);
    const secret: string = set.body.secret;

    const test = await api(seller.apiKey, 'POST', '/hooks/test', { event: 'stock.out' });
    expect(test.status).toBe(202);

    const hit = await until('the probe hit', async () => (await api(seller.apiKey, 'GET', '/hooks/probe')).body.items[0]);
    expect(hit.headers['x-service-delivery']).toBe(test.body.delivery);
    const event = verifyWebhook(hit.body, hit.headers, secret);
    expect(event).toMatchObject({ event: 'stock.out', delivery: test.body.delivery, attempt: 1, test: true });
    expect(Math.abs(Date.parse(hit.receivedAt) - Date.now())).toBeLessThan(60_000);

    // The probe address is a real route of the server: anything posted to it is kept as it came.
    const raw = '{"hello":  "probe"}';
    const direct = await fetch(probe.body.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw });
    expect(direct.status).toBe(204);
    const items = (await api(seller.apiKey, 'GET', '/hooks/probe')).body.items;
    expect(items[0].body).toBe(raw);
    expect(items[1].body).toBe(hit.body);

    const log = (await api(seller.apiKey, 'GET', '/hooks/deliveries')).body.items;
    expect(log[0]).toMatchObject({ id: test.body.delivery, attempts: 1, lastStatus: 204, test: true });
  });
});
