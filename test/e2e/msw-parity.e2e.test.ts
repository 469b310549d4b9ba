/**
 * The msw mock answers as `seller-server` does (issue 28): one recorded sequence of calls (a card,
 * its stock, buy, pay, deliver twice, a refusal, an idempotent replay, the reads) sent to a real
 * seller-server over a socket and to the mock through msw gives the same statuses, the same
 * bodies and the same replay marks once ids, keys and times are normalised.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSellerMock, type SellerMock } from '../../server/msw/index.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Target {
  baseUrl: string;
  apiKey: string;
  adminToken: string;
}

interface Step {
  /** `api` (the seller's key) or `sandbox` (the admin token). */
  as: 'api' | 'sandbox';
  method: string;
  /** `{n}` is the card's number, `{order}` the order's id (both from earlier answers). */
  path: string;
  body?: unknown;
  idem?: string;
}

/** The recorded sequence. */
const SEQUENCE: Step[] = [
  { as: 'api', method: 'GET', path: '/api/v1/me' },
  { as: 'api', method: 'POST', path: '/api/v1/listings', body: CODE_CARD, idem: 'card-1' },
  { as: 'api', method: 'POST', path: '/api/v1/listings/{n}/stock', body: { items: ['CODE-A', 'CODE-B'] }, idem: 'stock-1' },
  { as: 'api', method: 'POST', path: '/api/v1/listings/{n}/stock', body: { items: ['CODE-A'] }, idem: 'stock-2' },
  { as: 'api', method: 'POST', path: '/api/v1/listings/{n}/state', body: { active: true }, idem: 'state-1' },
  { as: 'api', method: 'GET', path: '/api/v1/listings/{n}' },
  { as: 'sandbox', method: 'POST', path: '/sandbox/v1/orders', body: { number: '{n}' } },
  { as: 'sandbox', method: 'POST', path: '/sandbox/v1/orders/{order}/pay' },
  { as: 'api', method: 'POST', path: '/api/v1/orders/{order}/deliver', body: {}, idem: 'deliver-1' },
  { as: 'api', method: 'POST', path: '/api/v1/orders/{order}/deliver', body: {}, idem: 'deliver-2' },
  { as: 'api', method: 'POST', path: '/api/v1/orders/{order}/deliver', body: {}, idem: 'deliver-1' },
  { as: 'api', method: 'POST', path: '/api/v1/orders/{order}/deliver', body: {} },
  { as: 'api', method: 'POST', path: '/api/v1/listings', body: { ...CODE_CARD, service: 'no-such-service' }, idem: 'card-2' },
  { as: 'api', method: 'POST', path: '/api/v1/listings', body: { ...CODE_CARD, priceRub: 0 }, idem: 'card-3' },
  { as: 'api', method: 'GET', path: '/api/v1/orders/{order}' },
  { as: 'api', method: 'GET', path: '/api/v1/orders' },
  { as: 'api', method: 'GET', path: '/api/v1/listings/{n}/stock' },
  { as: 'api', method: 'GET', path: '/api/v1/orders/ord_missing' },
  { as: 'api', method: 'GET', path: '/api/v1/nowhere' },
];

interface Answer {
  step: string;
  status: number;
  replayed: string | null;
  contentType: string | null;
  body: unknown;
}

/** Runs the sequence against one target with the global fetch; every answer normalised. */
async function record(target: Target): Promise<Answer[]> {
  const found: { n?: number; order?: string } = {};
  const fill = (text: string) => text.replaceAll('{n}', String(found.n)).replaceAll('{order}', String(found.order));
  const answers: Answer[] = [];
  for (const step of SEQUENCE) {
    const body = step.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(step.body)).replace(`"${found.n}"`, String(found.n)));
    const res = await fetch(`${target.baseUrl}${fill(step.path)}`, {
      method: step.method,
      headers: {
        authorization: `Bearer ${step.as === 'api' ? target.apiKey : target.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(step.idem ? { 'idempotency-key': step.idem } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (step.path === '/api/v1/listings' && res.status === 201) found.n = json.number as number;
    if (step.path === '/sandbox/v1/orders') found.order = json.id as string;
    answers.push({
      step: `${step.method} ${step.path}`,
      status: res.status,
      replayed: res.headers.get('idempotent-replayed'),
      contentType: res.headers.get('content-type'),
      body: normalise(json),
    });
  }
  return answers;
}

const ID = /\b(sel|ord|key|dlv|msg|rev|q|adm|req)_[A-Za-z0-9]{6,}\b/g;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const KEY = /\bservice_(live|test)_[A-Za-z0-9]+/g;

/** Ids, keys, times and the nickname (made of the seller id) replaced by placeholders. */
function normalise(value: unknown): unknown {
  const text = JSON.stringify(value)
    .replace(KEY, 'service_$1_<key>')
    .replace(ID, '$1_<id>')
    .replace(TIME, '<time>')
    .replace(/"nickname":"([a-z-]+)-[a-z0-9]{6}"/g, '"nickname":"$1-<id>"')
    .replace(/"name":"(mock|first key)"/g, '"name":"<key name>"');
  return JSON.parse(text);
}

let real: TestServer;
let mock: SellerMock;
const msw = setupServer();

beforeAll(async () => {
  real = await startTestServer();
  mock = await createSellerMock();
  msw.use(...mock.handlers);
  msw.listen({ onUnhandledRequest: 'bypass' });
});
afterAll(async () => {
  msw.close();
  await mock?.close();
  await real?.close();
});

describe('the msw mock and seller-server', () => {
  it('give the same answers to the recorded sequence once ids, keys and times are normalised', async () => {
    const seller = await real.newSeller({ sellerType: 'ip', admission: 'complete' });
    const fromServer = await record({ baseUrl: real.url, apiKey: seller.apiKey, adminToken: real.adminToken });
    const fromMock = await record({ baseUrl: mock.baseUrl, apiKey: mock.seller.apiKey, adminToken: mock.adminToken });
    expect(fromMock).toEqual(fromServer);
    // The sequence did what it says: a refusal, a replay, a missing key, a not-found.
    const statuses = fromServer.map((a) => a.status);
    expect(statuses).toEqual(expect.arrayContaining([201, 200, 409, 400, 404]));
    expect(fromServer.filter((a) => a.replayed === 'true').map((a) => a.step)).toEqual(['POST /api/v1/orders/{order}/deliver']);
  });
});
