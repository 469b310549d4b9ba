/**
 * Type-level tests: checked by `tsc` (the test file is in tsconfig), and run by vitest as a no-op.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  isRejected,
  PagedCall,
  RejectedError,
  SandboxClient,
  SellerClient,
  type ApiOperationId,
  type Card,
  type ImageUpload,
  type Order,
  type RefusalKindOf,
  type RequestOptions,
  type Tolerant,
} from '../../sdk/index.ts';

const client = new SellerClient({ apiKey: 'k' });
const sb = new SandboxClient({ adminToken: 't' });

describe('derived method types', () => {
  it('path parameters come first, typed by name', () => {
    expectTypeOf(client.orders.deliver).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(client.listings.get).parameter(0).toEqualTypeOf<number>();
    expectTypeOf(client.catalog.get).parameter(0).toEqualTypeOf<string>();
  });

  it('the input is the body z.input, optional when nothing is required', () => {
    expectTypeOf(client.orders.deliver).parameters.toEqualTypeOf<
      [string, ({ nextChargeDay?: string | undefined; note?: string | undefined } | undefined)?, (RequestOptions | undefined)?]
    >();
    expectTypeOf(client.orders.decline).parameter(1).toEqualTypeOf<{ reason: string }>();
    expectTypeOf(client.stock.refill).parameters.toEqualTypeOf<[number, { items: string[] }, (RequestOptions | undefined)?]>();
  });

  it('operations without input take the options right after the path', () => {
    expectTypeOf(client.orders.confirm).parameters.toEqualTypeOf<[string, (RequestOptions | undefined)?]>();
    expectTypeOf(client.me.get).parameters.toEqualTypeOf<[(RequestOptions | undefined)?]>();
  });

  it('queries are typed from z.input and required when a field is; enums are open (the catalogue decides)', () => {
    expectTypeOf(client.catalog.usualPrice).parameter(0).toEqualTypeOf<{
      service: string;
      productType: 'subscription' | 'account' | 'credits' | 'code' | (string & {});
    }>();
    expectTypeOf(client.listings.list).parameter(0).exclude<undefined>().toHaveProperty('active').toEqualTypeOf<
      boolean | 'true' | 'false' | '1' | '0' | (string & {}) | undefined
    >();
    // A product type our enums do not list, offered by a real position, is accepted.
    expectTypeOf<{ service: 'x'; productType: 'gift_card' }>().toMatchTypeOf<Parameters<typeof client.catalog.usualPrice>[0]>();
    type UP = Parameters<typeof client.catalog.usualPrice>;
    expectTypeOf<UP['length']>().toEqualTypeOf<1 | 2>();
    const neverRun = () => {
      // @ts-expect-error a required query is required
      void client.catalog.usualPrice();
      // @ts-expect-error a card number is a number
      void client.listings.get('1001');
      // @ts-expect-error unknown body fields are refused by the strict body type
      void client.orders.decline('ord_1', { reason: 'x', extra: 1 });
    };
    void neverRun;
  });

  it('the image upload takes bytes and a content type', () => {
    expectTypeOf(client.listings.setImage).parameters.toEqualTypeOf<[number, ImageUpload, (RequestOptions | undefined)?]>();
    expectTypeOf<ImageUpload['contentType']>().toEqualTypeOf<'image/png' | 'image/jpeg' | 'image/webp'>();
  });

  it('answers are the z.output of the answer schema, read tolerantly: open enums and unknown fields', () => {
    expectTypeOf(client.listings.get).returns.resolves.toEqualTypeOf<Tolerant<Card>>();
    expectTypeOf<Tolerant<Order>['status']>().toEqualTypeOf<Order['status'] | (string & {})>();
    expectTypeOf<Tolerant<Order>['priceRub']>().toEqualTypeOf<number>();
    // A field the contract does not know is reachable, as unknown.
    expectTypeOf<Tolerant<Order>['someNewField']>().toEqualTypeOf<unknown>();
    // A strict record (strict mode, or the contract's own types) fits where a tolerant one is read.
    expectTypeOf<Card>().toMatchTypeOf<Tolerant<Card>>();
    expectTypeOf(client.orders.deliver).returns.resolves.toHaveProperty('noteRejected').toEqualTypeOf<string | null>();
  });

  it('paged lists return a PagedCall: a page when awaited, items when iterated', () => {
    type Page = Tolerant<{ items: Order[]; nextCursor: string | null }>;
    expectTypeOf(client.orders.list).returns.toEqualTypeOf<PagedCall<Tolerant<Order>, Page>>();
    expectTypeOf(client.orders.list()).resolves.toEqualTypeOf<Page>();
    expectTypeOf(client.listings.list()).toMatchTypeOf<AsyncIterable<Tolerant<Card>>>();
    expectTypeOf(client.clients.list()).resolves.toHaveProperty('total').toEqualTypeOf<number>();
    // Lists that are not paged (no cursor, no total) stay plain promises.
    expectTypeOf(client.orders.vaults).returns.toMatchTypeOf<Promise<Tolerant<{ items: { side: 'own' | 'other'; opened: boolean }[] }>>>();
  });

  it('the sandbox drops its section', () => {
    expectTypeOf(sb.pay).parameters.toEqualTypeOf<[string, (RequestOptions | undefined)?]>();
    expectTypeOf(sb.advanceClock).parameter(0).toEqualTypeOf<{ seconds: number; lease?: string | undefined; force?: boolean | undefined }>();
    expectTypeOf(sb.createSeller).returns.resolves.toEqualTypeOf<Tolerant<{ sellerId: string; keyId: string; apiKey: string }>>();
  });
});

describe('refusal kinds', () => {
  it('RefusalKindOf is the operation\'s union', () => {
    expectTypeOf<RefusalKindOf<'orders.deliver'>>().toEqualTypeOf<'not_found' | 'state_moved' | 'need_next_charge'>();
    expectTypeOf<RefusalKindOf<'hooks.set'>>().toEqualTypeOf<'url' | 'no_events' | 'vault_off'>();
    expectTypeOf<RefusalKindOf<'me.get'>>().toEqualTypeOf<never>();
    expectTypeOf<RefusalKindOf<'sandbox.createOrder'>>().toEqualTypeOf<
      'test_card' | 'real_card' | 'inactive' | 'capacity' | 'do_not_disturb'
    >();
  });

  it('isRejected narrows err.refusal.kind', () => {
    const err: unknown = new Error('x');
    if (isRejected(err, 'orders.deliver')) {
      expectTypeOf(err).toEqualTypeOf<RejectedError<'not_found' | 'state_moved' | 'need_next_charge'>>();
      expectTypeOf(err.refusal.kind).toEqualTypeOf<'not_found' | 'state_moved' | 'need_next_charge'>();
    }
    if (isRejected(err)) expectTypeOf(err.refusal.kind).toEqualTypeOf<string>();
  });

  it('operation ids are the table keys', () => {
    expectTypeOf<'orders.deliver'>().toMatchTypeOf<ApiOperationId>();
  });
});
