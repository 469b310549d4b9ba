/**
 * The msw mock answers as `seller-server` does (issues 28 and 35): every case of the table
 * (msw-parity.cases.ts) runs against a real seller-server over a socket and through the mock's msw
 * handlers, each with the same rate limit and the same frozen service clock, and sees the same
 * thing once ids, keys and times are normalised: statuses, bodies, every header a client reads,
 * every fault kind, and the webhook deliveries with their verification.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../server/clock.ts';
import { SandboxClient } from '../../sdk/sandbox.ts';
import { createSellerMock, type SellerMock } from '../../server/msw/index.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { CASES, PARITY_NOW, PARITY_RATE_LIMIT, type Target } from './msw-parity.cases.ts';

let real: TestServer;
let mock: SellerMock;
const msw = setupServer();
let server: Target;
let throughMock: Target;

beforeAll(async () => {
  real = await startTestServer({ allowLocalHooks: true, rateLimit: PARITY_RATE_LIMIT, clock: new Clock(0, () => PARITY_NOW) });
  mock = await createSellerMock({ server: { rateLimit: PARITY_RATE_LIMIT }, now: PARITY_NOW });
  msw.use(...mock.handlers);
  msw.listen({ onUnhandledRequest: 'bypass' });
  server = {
    kind: 'server',
    baseUrl: real.url,
    adminToken: real.adminToken,
    sandbox: new SandboxClient({ baseUrl: real.url, adminToken: real.adminToken, maxRetries: 0 }),
    receiver: async (secret) => {
      const receiver = await startReceiver(secret);
      return { url: receiver.url, got: () => receiver.got, close: receiver.close };
    },
  };
  let receivers = 0;
  throughMock = {
    kind: 'mock',
    baseUrl: mock.baseUrl,
    adminToken: mock.adminToken,
    // Through msw, as the code under test reaches the mock.
    sandbox: new SandboxClient({ baseUrl: mock.baseUrl, adminToken: mock.adminToken, maxRetries: 0 }),
    receiver: async () => {
      const url = `https://receiver-${++receivers}.example/hooks`;
      return { url, got: () => mock.webhooks.filter((w) => w.url === url), close: async () => {} };
    },
  };
});
afterAll(async () => {
  msw.close();
  await mock?.close();
  await real?.close();
});

describe('the msw mock and seller-server', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s: the same through the mock', async (_name, c) => {
    const fromServer = await c.run(server);
    c.shows(fromServer);
    const fromMock = await c.run(throughMock);
    expect(fromMock).toEqual(fromServer);
  });
});
