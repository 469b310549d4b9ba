/**
 * `service-seller/testing` (issue 28): `signTestWebhook` gives deliveries both verifiers accept, and
 * the factories give records the contract's schemas accept, for any valid partial (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Card } from '../../sdk/contract/listings.ts';
import { Order } from '../../sdk/contract/orders.ts';
import { WebhookEvent } from '../../sdk/contract/events.ts';
import { CREDITS_TYPES, DELIVERY_METHODS, EVENT_KINDS, ORDER_STATUSES, PRODUCT_TYPES } from '../../sdk/contract/constants.ts';
import { fakeCard, fakeEvent, fakeOrder, signTestWebhook } from '../../sdk/testing/index.ts';
import { verifyWebhook } from '../../sdk/webhooks/verify.ts';
import { verifyWebhookAsync } from '../../sdk/webhooks/verify-web.ts';
import { WebhookVerificationError } from '../../sdk/webhooks/errors.ts';

const SECRET = 'whsec_test_secret';

// Valid values of the contract's fields.
const timestamp = fc.date({ min: new Date('2000-01-01T00:00:00.000Z'), max: new Date('2100-01-01T00:00:00.000Z'), noInvalidDate: true }).map((d) => d.toISOString());
const day = fc.date({ min: new Date('2000-01-01T00:00:00.000Z'), max: new Date('2100-01-01T00:00:00.000Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const slug = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/);
const id = (prefix: string) => fc.stringMatching(new RegExp(`^${prefix}_[A-Za-z0-9]{1,30}$`));
const int = fc.integer({ min: -1_000_000, max: 1_000_000 });
const count = fc.nat({ max: 1_000_000 });

const orderPartial = fc.record(
  {
    id: id('ord'),
    number: int,
    service: slug,
    tariff: slug,
    productType: fc.constantFrom(...PRODUCT_TYPES),
    deliveryMethod: fc.constantFrom(...DELIVERY_METHODS),
    priceRub: count,
    status: fc.constantFrom(...ORDER_STATUSES),
    isTest: fc.boolean(),
    needsAction: fc.boolean(),
    slaMinutes: int,
    deliverBy: fc.option(timestamp, { nil: null }),
    guaranteeDays: int,
    guaranteeUntil: fc.option(timestamp, { nil: null }),
    nextChargeDay: fc.option(day, { nil: null }),
    createdAt: timestamp,
    paidAt: fc.option(timestamp, { nil: null }),
    updatedAt: timestamp,
  },
  { requiredKeys: [] },
);

const cardPartial = fc.record(
  {
    number: int,
    service: slug,
    tariff: slug,
    productType: fc.constantFrom(...PRODUCT_TYPES),
    deliveryMethod: fc.constantFrom(...DELIVERY_METHODS),
    priceRub: count,
    slaMinutes: int,
    guaranteeDays: int,
    description: fc.string(),
    creditsType: fc.option(fc.constantFrom(...CREDITS_TYPES), { nil: null }),
    creditsAmount: fc.option(int, { nil: null }),
    creditsRate: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
    declaredStock: int,
    confirmRequired: fc.boolean(),
    isActive: fc.boolean(),
    isTest: fc.boolean(),
    autoIssue: fc.boolean(),
    stock: fc.record({ free: count, issued: count }),
    image: fc.option(fc.record({ url: fc.webUrl() }), { nil: null }),
    createdAt: timestamp,
    updatedAt: timestamp,
  },
  { requiredKeys: [] },
);

/** Valid event data fields, any kind's (a kind keeps only the ones of its schema when parsed). */
const eventDataPartial = fc.record({ order: id('ord'), number: int, status: fc.constantFrom(...ORDER_STATUSES), slaMinutes: int }, { requiredKeys: [] });

describe('fakeOrder, fakeCard, fakeEvent', () => {
  it('fakeOrder() of any valid partial is an Order of the contract, the partial kept', () => {
    fc.assert(
      fc.property(orderPartial, (partial) => {
        const order = fakeOrder(partial);
        expect(Order.strict().parse(order)).toEqual(order);
        expect(order).toMatchObject(partial);
      }),
    );
  });

  it('fakeCard() of any valid partial is a Card of the contract, the partial kept', () => {
    fc.assert(
      fc.property(cardPartial, (partial) => {
        const card = fakeCard(partial);
        expect(Card.strict().parse(card)).toEqual(card);
        expect(card).toMatchObject(partial);
      }),
    );
  });

  it('fakeEvent() of every kind, with any valid data, is a webhook event of the contract', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EVENT_KINDS), eventDataPartial, (kind, data) => {
        const picked = Object.fromEntries(Object.entries(data).filter(([name]) => name in fakeEvent(kind).data));
        const event = fakeEvent(kind, picked);
        expect(WebhookEvent.parse(event)).toMatchObject({ event: kind, data: picked, attempt: 1 });
      }),
    );
  });

  it('the schemas catch a fake given an invalid field (the checks above can fail)', () => {
    expect(Order.safeParse(fakeOrder({ priceRub: -1 })).success).toBe(false);
    expect(Card.safeParse(fakeCard({ createdAt: 'yesterday' })).success).toBe(false);
    expect(WebhookEvent.safeParse(fakeEvent('order.paid', { order: 'not-an-order-id' })).success).toBe(false);
  });

  it('a fake order awaiting payment is unpaid and needs no action; a disputed one needs action', () => {
    expect(fakeOrder({ status: 'awaiting_payment' })).toMatchObject({ paidAt: null, deliverBy: null, needsAction: false });
    expect(fakeOrder({ status: 'disputed' }).needsAction).toBe(true);
    expect(fakeOrder().id).not.toBe(fakeOrder().id);
  });
});

describe('signTestWebhook', () => {
  it('signs a whole delivery that verifyWebhook and verifyWebhookAsync accept', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...EVENT_KINDS), fc.integer({ min: 1, max: 20 }), async (kind, attempt) => {
        const { body, headers } = await signTestWebhook({ ...fakeEvent(kind), attempt }, SECRET);
        const sync = verifyWebhook(body, headers, SECRET);
        const web = await verifyWebhookAsync(body, headers, SECRET);
        expect(web).toEqual(sync);
        expect(sync).toMatchObject({ event: kind, attempt });
        expect(headers).toMatchObject({ 'x-service-event': kind, 'x-service-delivery': sync.delivery, 'x-service-attempt': String(attempt) });
      }),
      { numRuns: 30 },
    );
  });

  it('fills the envelope: a delivery id, attempt 1, `at` and the timestamp in unix seconds', async () => {
    const { event, data } = fakeEvent('stock.out');
    const { body, headers } = await signTestWebhook({ event, data }, SECRET, { timestamp: 1_800_000_000 });
    expect(headers['x-service-timestamp']).toBe('1800000000');
    const parsed = verifyWebhook(body, headers, SECRET, { now: 1_800_000_000_000 });
    expect(parsed).toMatchObject({ event: 'stock.out', attempt: 1, at: '2027-01-15T08:00:00.000Z', delivery: expect.stringMatching(/^dlv_/) });
  });

  it('is refused with another secret, a changed body or an old timestamp', async () => {
    const signed = await signTestWebhook(fakeEvent('order.new'), SECRET);
    expect(() => verifyWebhook(signed.body, signed.headers, 'whsec_other')).toThrow(WebhookVerificationError);
    await expect(verifyWebhookAsync(signed.body.replace('"attempt":1', '"attempt":2'), signed.headers, SECRET)).rejects.toMatchObject({ reason: 'mismatch' });
    const old = await signTestWebhook(fakeEvent('order.new'), SECRET, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(() => verifyWebhook(old.body, old.headers, SECRET)).toThrow(/tolerance/);
  });
});
