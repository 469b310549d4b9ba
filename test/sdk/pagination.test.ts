import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PagedCall, SellerClient } from '../../sdk/index.ts';

const BASE = 'http://seller.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = new SellerClient({ apiKey: 'service_test_pages', baseUrl: BASE, maxRetries: 0 });

const card = (number: number) => ({
  number,
  service: 'netflix',
  tariff: 'premium',
  productType: 'subscription',
  deliveryMethod: 'invite',
  priceRub: 500,
  slaMinutes: 60,
  guaranteeDays: 30,
  description: '',
  creditsType: null,
  creditsAmount: null,
  creditsRate: null,
  declaredStock: 0,
  confirmRequired: false,
  isActive: true,
  isTest: false,
  autoIssue: false,
  stock: { free: 0, issued: 0 },
  image: null,
  createdAt: '2026-11-21T08:13:39.000Z',
  updatedAt: '2026-11-21T08:13:39.000Z',
});

/** Three pages of listings behind cursors c2 and c3; records every query seen. */
function threePages() {
  const queries: Record<string, string>[] = [];
  const pages: Record<string, { items: ReturnType<typeof card>[]; nextCursor: string | null }> = {
    '': { items: [card(1001), card(1002)], nextCursor: 'c2' },
    c2: { items: [card(1003), card(1004)], nextCursor: 'c3' },
    c3: { items: [card(1005)], nextCursor: null },
  };
  server.use(
    http.get(`${BASE}/api/v1/listings`, ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      queries.push(query);
      const page = pages[query['cursor'] ?? ''];
      return page ? HttpResponse.json(page) : HttpResponse.json({ error: 'bad_request' }, { status: 400 });
    }),
  );
  return queries;
}

describe('cursor paging', () => {
  it('awaiting the call gives the first page only', async () => {
    const queries = threePages();
    const page = await client.listings.list({ active: true });
    expect(page.items.map((c) => c.number)).toEqual([1001, 1002]);
    expect(page.nextCursor).toBe('c2');
    expect(queries).toEqual([{ active: 'true' }]);
  });

  it('for await walks every item of the three pages and keeps the filters', async () => {
    const queries = threePages();
    const numbers: number[] = [];
    for await (const c of client.listings.list({ active: true, service: 'netflix', limit: 2 })) numbers.push(c.number);
    expect(numbers).toEqual([1001, 1002, 1003, 1004, 1005]);
    expect(queries).toEqual([
      { active: 'true', service: 'netflix', limit: '2' },
      { active: 'true', service: 'netflix', limit: '2', cursor: 'c2' },
      { active: 'true', service: 'netflix', limit: '2', cursor: 'c3' },
    ]);
  });

  it('.pages() yields each page', async () => {
    threePages();
    const sizes: number[] = [];
    for await (const page of client.listings.list().pages()) sizes.push(page.items.length);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('the request is lazy and sent once however often the call is awaited', async () => {
    const queries = threePages();
    const call = client.listings.list();
    expect(call).toBeInstanceOf(PagedCall);
    expect(queries).toHaveLength(0);
    const [a, b] = await Promise.all([call, call]);
    expect(a).toBe(b);
    expect(await call).toBe(a);
    expect(queries).toHaveLength(1);
  });

  it('breaking out of the loop stops fetching', async () => {
    const queries = threePages();
    for await (const c of client.listings.list()) if (c.number === 1002) break;
    expect(queries).toHaveLength(1);
  });

  it('an error on a later page rejects the iteration', async () => {
    server.use(
      http.get(`${BASE}/api/v1/orders`, ({ request }) =>
        new URL(request.url).searchParams.get('cursor')
          ? HttpResponse.json({ error: 'not_found' }, { status: 404 })
          : HttpResponse.json({ items: [], nextCursor: 'gone' }),
      ),
    );
    const walk = async () => {
      for await (const _ of client.orders.list()) void _;
    };
    await expect(walk()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('catch and finally work like a promise', async () => {
    server.use(http.get(`${BASE}/api/v1/keys`, () => HttpResponse.json({ error: 'not_found' }, { status: 404 })));
    let done = false;
    const caught = await client.keys.list().catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(NotFoundError);
    await client.keys
      .list()
      .finally(() => {
        done = true;
      })
      .catch(() => undefined);
    expect(done).toBe(true);
  });
});

describe('tolerant paging: a marketplace that names its cursor otherwise', () => {
  for (const name of ['next_cursor', 'nextPageToken', 'next']) {
    it(`follows a page whose cursor is under "${name}" (no nextCursor) to the end`, async () => {
      const cursors: (string | null)[] = [];
      server.use(
        http.get(`${BASE}/api/v1/listings`, ({ request }) => {
          const cursor = new URL(request.url).searchParams.get('cursor');
          cursors.push(cursor);
          if (cursor === null) return HttpResponse.json({ items: [card(1), card(2)], [name]: 'p2' });
          return HttpResponse.json({ items: [card(3)], [name]: null });
        }),
      );
      const numbers: number[] = [];
      for await (const c of client.listings.list()) numbers.push(c.number);
      expect(numbers).toEqual([1, 2, 3]);
      expect(cursors).toEqual([null, 'p2']);
    });
  }

  it('a cursor that is neither a string nor null is an error naming nextCursor', async () => {
    server.use(http.get(`${BASE}/api/v1/listings`, () => HttpResponse.json({ items: [card(1)], nextCursor: 2 })));
    await expect(client.listings.list()).rejects.toMatchObject({ code: 'invalid_response', path: ['nextCursor'] });
  });

  it('skip paging without a total goes on until an empty page', async () => {
    const buyer = (n: number) => ({ client: `c${n}`, orders: 1, spentRub: 100, lastOrderAt: '2026-11-21T08:13:39.000Z' });
    server.use(
      http.get(`${BASE}/api/v1/clients`, ({ request }) => {
        const skip = Number(new URL(request.url).searchParams.get('skip') ?? 0);
        return HttpResponse.json({ items: skip < 4 ? [buyer(skip + 1), buyer(skip + 2)] : [] });
      }),
    );
    const names: string[] = [];
    for await (const c of client.clients.list({ limit: 2 })) names.push(c.client);
    expect(names).toEqual(['c1', 'c2', 'c3', 'c4']);
  });
});

describe('skip paging (clients.list)', () => {
  const buyer = (n: number) => ({ client: `c${n}`, orders: 1, spentRub: 100, lastOrderAt: '2026-11-21T08:13:39.000Z' });

  it('advances skip by the items received until total', async () => {
    const skips: (string | null)[] = [];
    const all = [1, 2, 3, 4, 5].map(buyer);
    server.use(
      http.get(`${BASE}/api/v1/clients`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        skips.push(params.get('skip'));
        const skip = Number(params.get('skip') ?? 0);
        const limit = Number(params.get('limit') ?? 50);
        return HttpResponse.json({ items: all.slice(skip, skip + limit), total: all.length });
      }),
    );
    const first = await client.clients.list({ limit: 2 });
    expect(first).toEqual({ items: all.slice(0, 2), total: 5 });
    skips.length = 0;
    const names: string[] = [];
    for await (const c of client.clients.list({ limit: 2 })) names.push(c.client);
    expect(names).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(skips).toEqual([null, '2', '4']);
  });

  it('stops on an empty page even if total says more', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/clients`, () => {
        calls++;
        return HttpResponse.json({ items: calls === 1 ? [buyer(1)] : [], total: 10 });
      }),
    );
    const seen: string[] = [];
    for await (const c of client.clients.list()) seen.push(c.client);
    expect(seen).toEqual(['c1']);
    expect(calls).toBe(2);
  });
});
