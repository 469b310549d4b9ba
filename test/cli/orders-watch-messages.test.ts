import { describe, expect, it } from 'vitest';
import { mayCarryMessage } from '../../cli/commands/orders-watch-messages.ts';
import type { Order } from '../../cli/lib/records.ts';
import { netflixOrder } from '../helpers/fixtures.ts';

const at = (iso: string, patch: Partial<Order> = {}): Order => ({
  ...netflixOrder('ord_watchMessage01', 'awaiting_delivery', { deliverBy: null, createdAt: '2026-11-26T09:00:00.000Z', paidAt: null, updatedAt: iso }),
  ...patch,
});

describe('orders watch: which changes are read again for a buyer message', () => {
  const before = at('2026-11-26T10:00:00.000Z', { status: 'awaiting_payment', needsAction: false });

  it('a change of the same status that now needs the seller', () => {
    const seen = at('2026-11-26T10:00:00.000Z', { status: 'awaiting_delivery', needsAction: false });
    expect(mayCarryMessage(seen, at('2026-11-26T10:05:00.000Z', { status: 'awaiting_delivery', needsAction: true }))).toBe(true);
  });

  it('a move and a message in the same poll (paid, then written to): read too', () => {
    expect(mayCarryMessage(before, at('2026-11-26T10:05:00.000Z', { status: 'awaiting_delivery', needsAction: true }))).toBe(true);
  });

  it('not an order seen for the first time, one that needs nothing, or one that did not change', () => {
    expect(mayCarryMessage(undefined, at('2026-11-26T10:05:00.000Z', { needsAction: true }))).toBe(false);
    expect(mayCarryMessage(before, at('2026-11-26T10:05:00.000Z', { status: 'delivered', needsAction: false }))).toBe(false);
    const same = at('2026-11-26T10:00:00.000Z', { status: 'awaiting_delivery', needsAction: true });
    expect(mayCarryMessage(same, same)).toBe(false);
  });
});
