/**
 * The live table of `seller orders watch` in Russian: counts by the language's plural rules,
 * statuses as words, roubles, the deadline as time left, times in the user's zone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useTimeZone } from '../../cli/i18n/format.ts';
import { useLanguage } from '../../cli/i18n/index.ts';
import { describeChange, watchFrame } from '../../cli/commands/orders-watch-view.ts';
import type { Order } from '../../cli/lib/records.ts';

const NOW = Date.parse('2026-11-25T09:00:00.000Z');

function order(n: number, patch: Partial<Order> = {}): Order {
  return {
    id: `ord_${n}`,
    number: 1001,
    service: 'spotify',
    tariff: 'individual',
    productType: 'subscription',
    deliveryMethod: 'invite',
    priceRub: 1299,
    status: 'awaiting_delivery',
    needsAction: true,
    isTest: false,
    slaMinutes: 60,
    guaranteeDays: 30,
    deliverBy: new Date(NOW + 12 * 60_000).toISOString(),
    guaranteeUntil: null,
    nextChargeDay: null,
    createdAt: new Date(NOW - 60_000).toISOString(),
    paidAt: new Date(NOW - 60_000).toISOString(),
    updatedAt: new Date(NOW - 60_000).toISOString(),
    ...patch,
  } as Order;
}

const frame = (orders: Order[]) =>
  watchFrame({ orders: new Map(orders.map((o) => [o.id, o])), since: '2026-11-25T08:00:00.000Z', lastPollAt: NOW }, { now: NOW, height: 20, color: false });

afterEach(async () => {
  await useLanguage('en');
  useTimeZone({});
});

describe('orders watch in Russian', () => {
  it('counts by the plural rules and shows words, roubles, time left and Moscow time', async () => {
    await useLanguage('ru');
    useTimeZone({ tz: 'Europe/Moscow' });
    const one = frame([order(1)]);
    expect(one[0]).toBe('Заказы  ·  1 заказ, 1 ждёт вас  ·  последний опрос 12:00:00');
    expect(one[1]).toMatch(/^ID\s+КАРТОЧКА\s+СОСТОЯНИЕ\s+ДЕЙСТВИЕ\s+ЦЕНА\s+ВЫДАТЬ ДО\s+ИЗМЕНЁН$/);
    expect(one[2]).toMatch(/^ord_1\s+№1001\s+ждёт выдачи\s+● действие\s+1\s299\s₽\s+через 12 мин\s+1 мин назад$/u);
    expect(frame([order(1), order(2)])[0]).toContain('2 заказа, 2 ждут вас');
    expect(frame([1, 2, 3, 4, 5].map((n) => order(n, { needsAction: false })))[0]).toContain('5 заказов  ·');
    expect(frame([order(1, { deliverBy: new Date(NOW - 3 * 60_000).toISOString() })])[2]).toContain('просрочен на 3 мин');
    expect(describeChange(order(1, { status: 'awaiting_payment' }), order(1))).toBe('ord_1 оплачен → ждёт выдачи');
  });

  it('keeps the English table as it was', () => {
    const lines = frame([order(1)]);
    expect(lines[0]).toMatch(/^Orders {2}· {2}1 order, 1 needs action {2}· {2}last poll \d\d:\d\d:\d\d$/);
    expect(lines[2]).toMatch(/^ord_1\s+#1001\s+awaiting_delivery\s+● act\s+1299 RUB\s+in 12 min\s+1 min ago$/);
    expect(describeChange(order(1, { status: 'awaiting_payment' }), order(1))).toBe('ord_1 paid → awaiting_delivery');
  });
});
