/** The order state machine as pure functions (server/domain/orders.ts), without HTTP. */
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, Order, type OrderStatus } from '../../sdk/contract/index.ts';
import {
  canBuyerPutVault,
  canMessage,
  canPutVault,
  deadlineOf,
  dueAction,
  needsAction,
  nextDeadline,
  nextStatus,
  orderView,
  orderWithMessages,
  PAYMENT_WINDOW_MS,
  stampUpdate,
  TRANSITIONS,
  type OrderAction,
} from '../../server/domain/orders.ts';
import { orderRecord } from '../helpers/fixtures.ts';
import type { OrderRecord } from '../../server/store/records/orders.ts';
import { newSellerDoc } from '../../server/store/docs.ts';

const T0 = Date.parse('2030-05-01T10:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

function order(over: Partial<OrderRecord> = {}): OrderRecord {
  return orderRecord({ id: 'ord_test1', createdAt: at(T0), deliveredAt: null, updatedAt: at(T0), buyer: { id: 'buy_secretbuyer', test: false }, ...over });
}

/** Each status with the deadlines that make sense for it (not yet due at T0). */
function inStatus(status: OrderStatus): OrderRecord {
  return order({
    status,
    paidAt: status === 'awaiting_payment' ? null : at(T0),
    deliverBy: status === 'awaiting_payment' ? null : at(T0 + HOUR),
    guaranteeUntil: ['delivered', 'completed', 'disputed'].includes(status) ? at(T0 + 7 * DAY) : null,
  });
}

const now = new Date(T0 + 1000);

describe('transitions', () => {
  const expected: Record<Exclude<OrderAction, 'expirePayment' | 'missDeadline' | 'endGuarantee'>, Partial<Record<OrderStatus, OrderStatus>>> = {
    pay: { awaiting_payment: 'awaiting_delivery' },
    confirm: { awaiting_confirmation: 'awaiting_delivery' },
    decline: { awaiting_confirmation: 'declined', awaiting_delivery: 'declined' },
    deliver: { awaiting_delivery: 'delivered' },
    cancel: { awaiting_payment: 'cancelled', awaiting_confirmation: 'cancelled', awaiting_delivery: 'cancelled' },
    accept: { delivered: 'completed' },
    dispute: { delivered: 'disputed', completed: 'disputed' },
    resolveForSeller: { disputed: 'completed' },
    resolveForBuyer: { disputed: 'refunded' },
  };

  for (const [action, moves] of Object.entries(expected)) {
    it(`${action}: exactly ${Object.keys(moves).join(', ')}`, () => {
      for (const status of ORDER_STATUSES) {
        expect(nextStatus(inStatus(status), action as OrderAction, now), `${action} from ${status}`).toBe(moves[status] ?? null);
      }
    });
  }

  it('pay goes to awaiting_confirmation when the card requires confirmation', () => {
    expect(nextStatus(order({ confirmRequired: true }), 'pay', now)).toBe('awaiting_confirmation');
  });

  it('dispute on a completed order only while the guarantee runs', () => {
    const done = order({ status: 'completed', guaranteeUntil: at(T0 + DAY) });
    expect(nextStatus(done, 'dispute', new Date(T0 + DAY - 1))).toBe('disputed');
    expect(nextStatus(done, 'dispute', new Date(T0 + DAY))).toBeNull();
    expect(nextStatus(order({ status: 'completed', guaranteeUntil: null }), 'dispute', now)).toBeNull();
  });

  it('closed states have no way out', () => {
    for (const status of ['cancelled', 'declined', 'refunded'] as const) {
      for (const action of Object.keys(TRANSITIONS) as OrderAction[]) {
        expect(nextStatus(inStatus(status), action, new Date(T0 + 365 * DAY))).toBeNull();
      }
    }
  });
});

describe('deadlines', () => {
  it('unpaid: 24 h after creation → expirePayment (cancelled)', () => {
    const o = order();
    expect(deadlineOf(o)).toBe(T0 + PAYMENT_WINDOW_MS);
    expect(dueAction(o, new Date(T0 + PAYMENT_WINDOW_MS - 1))).toBeNull();
    expect(dueAction(o, new Date(T0 + PAYMENT_WINDOW_MS))).toBe('expirePayment');
    expect(nextStatus(o, 'expirePayment', new Date(T0 + PAYMENT_WINDOW_MS))).toBe('cancelled');
    expect(nextStatus(o, 'expirePayment', new Date(T0))).toBeNull();
  });

  it('paid, awaiting confirmation or delivery: deliverBy → missDeadline (refunded)', () => {
    for (const status of ['awaiting_confirmation', 'awaiting_delivery'] as const) {
      const o = inStatus(status);
      expect(deadlineOf(o)).toBe(T0 + HOUR);
      expect(dueAction(o, new Date(T0 + HOUR - 1))).toBeNull();
      expect(dueAction(o, new Date(T0 + HOUR))).toBe('missDeadline');
      expect(nextStatus(o, 'missDeadline', new Date(T0 + HOUR))).toBe('refunded');
    }
  });

  it('delivered: guaranteeUntil → endGuarantee (completed)', () => {
    const o = inStatus('delivered');
    expect(dueAction(o, new Date(T0 + 7 * DAY))).toBe('endGuarantee');
    expect(nextStatus(o, 'endGuarantee', new Date(T0 + 7 * DAY))).toBe('completed');
    expect(nextStatus(o, 'endGuarantee', new Date(T0 + DAY))).toBeNull();
  });

  it('no deadline for completed, disputed and closed orders', () => {
    for (const status of ['completed', 'disputed', 'cancelled', 'declined', 'refunded'] as const) {
      expect(deadlineOf(inStatus(status))).toBeNull();
      expect(dueAction(inStatus(status), new Date(T0 + 1000 * DAY))).toBeNull();
    }
  });

  it('nextDeadline: the earliest of the orders, or null', () => {
    expect(nextDeadline([])).toBeNull();
    expect(nextDeadline([inStatus('completed')])).toBeNull();
    expect(nextDeadline([order(), inStatus('awaiting_delivery'), inStatus('delivered')])).toBe(T0 + HOUR);
  });
});

describe('needsAction', () => {
  it('per status (gaps.md table)', () => {
    const table: Record<OrderStatus, boolean> = {
      awaiting_payment: false,
      awaiting_confirmation: true,
      awaiting_delivery: true,
      delivered: false,
      completed: false,
      disputed: true,
      cancelled: false,
      declined: false,
      refunded: false,
    };
    for (const status of ORDER_STATUSES) expect(needsAction(inStatus(status)), status).toBe(table[status]);
  });

  it('a dispute needs action until replied', () => {
    expect(needsAction(order({ status: 'disputed', disputeReplied: true }))).toBe(false);
  });

  it('an unread buyer message needs action, except on a closed order', () => {
    for (const status of ['awaiting_payment', 'delivered', 'completed'] as const) {
      expect(needsAction({ ...inStatus(status), unreadBuyerMessage: true }), status).toBe(true);
    }
    expect(needsAction({ ...inStatus('disputed'), disputeReplied: true, unreadBuyerMessage: true })).toBe(true);
    for (const status of ['cancelled', 'declined', 'refunded'] as const) {
      expect(needsAction({ ...inStatus(status), unreadBuyerMessage: true }), status).toBe(false);
    }
  });
});

describe('what each state allows', () => {
  it('messages while not closed; seller vault once paid until completed; buyer vault also before payment', () => {
    const msg = ORDER_STATUSES.filter(canMessage);
    expect(msg).toEqual(['awaiting_payment', 'awaiting_confirmation', 'awaiting_delivery', 'delivered', 'completed', 'disputed']);
    expect(ORDER_STATUSES.filter(canPutVault)).toEqual(['awaiting_confirmation', 'awaiting_delivery', 'delivered', 'disputed']);
    expect(ORDER_STATUSES.filter(canBuyerPutVault)).toEqual(['awaiting_payment', 'awaiting_confirmation', 'awaiting_delivery', 'delivered', 'disputed']);
  });
});

describe('stampUpdate', () => {
  it('uses now when it is later than the last update', () => {
    const doc = { lastOrderUpdate: at(T0) };
    const o = order();
    expect(stampUpdate(doc, o, new Date(T0 + 5))).toBe(at(T0 + 5));
    expect(o.updatedAt).toBe(at(T0 + 5));
    expect(doc.lastOrderUpdate).toBe(at(T0 + 5));
  });

  it('within the same millisecond (or a clock behind), 1 ms after the last: strictly increasing', () => {
    const doc = { lastOrderUpdate: null as string | null };
    const a = order({ id: 'ord_a' });
    const b = order({ id: 'ord_b' });
    const same = new Date(T0);
    const stamps = [stampUpdate(doc, a, same), stampUpdate(doc, b, same), stampUpdate(doc, a, same), stampUpdate(doc, b, new Date(T0 - 1000))];
    expect(stamps).toEqual([at(T0), at(T0 + 1), at(T0 + 2), at(T0 + 3)]);
  });
});

describe('the seller-facing view', () => {
  it('exactly the contract fields, no buyer, no internals', () => {
    const o = order({ status: 'awaiting_delivery', unreadBuyerMessage: true, note: 'n', stockItem: 'itm_x', messages: [{ id: 'msg_1', from: 'buyer', text: 'hi', at: at(T0) }] });
    const view = orderView(o);
    expect(Object.keys(view).sort()).toEqual(Object.keys(Order.shape).sort());
    expect(Order.parse(view)).toEqual(view);
    expect(JSON.stringify(view)).not.toContain('buy_secretbuyer');
    expect(view.needsAction).toBe(true);
    const full = orderWithMessages(newSellerDoc('sel_view'), o);
    expect(full.messages).toEqual([{ id: 'msg_1', from: 'buyer', text: 'hi', at: at(T0) }]);
    expect(JSON.stringify(full)).not.toContain('buy_secretbuyer');
    expect(JSON.stringify(full)).not.toContain('itm_x');
  });
});
