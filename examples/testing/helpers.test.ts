/**
 * No server at all: signed webhook deliveries and records of the contract, for code that only
 * reads them (a receiver, a report). Runs anywhere the SDK runs, browsers and edge runtimes too.
 * npm i -D vitest (service-seller/testing comes with the SDK)
 */
import { fakeEvent, fakeOrder, signTestWebhook } from 'service-seller/testing';
import { expect, test } from 'vitest';
import { onWebhook, overdue } from './shop.ts';

const SECRET = 'whsec_for_tests';

test('the receiver acts on a signed delivery and refuses a forged one', async () => {
  const event = fakeEvent('order.paid', { order: 'ord_123' });
  const { body, headers } = await signTestWebhook(event, SECRET);
  expect(await onWebhook(body, headers, SECRET)).toBe('deliver ord_123');
  await expect(onWebhook(body.replace('ord_123', 'ord_456'), headers, SECRET)).rejects.toMatchObject({ reason: 'mismatch' });
});

test('overdue() picks the orders past their deadline', () => {
  const now = new Date('2026-12-01T12:00:00.000Z');
  const late = fakeOrder({ deliverBy: '2026-12-01T11:00:00.000Z' });
  const onTime = fakeOrder({ deliverBy: '2026-12-01T13:00:00.000Z' });
  const done = fakeOrder({ status: 'delivered', deliverBy: '2026-12-01T11:00:00.000Z' });
  expect(overdue([late, onTime, done], now)).toEqual([late.id]);
});
