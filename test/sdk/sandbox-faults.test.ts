/**
 * `faultBody`: a fault written as flags (the CLI, a scenario's `fault:` step) becomes the sandbox's
 * AddFaultBody, or a FaultFlagsError naming the flag; and the contract's AddFaultBody refuses the
 * bodies that break its cross-field rules.
 */
import { describe, expect, it } from 'vitest';
import { AddFaultBody } from '../../sdk/contract/index.ts';
import { faultBody, FaultFlagsError, type FaultFlags } from '../../sdk/sandbox-faults.ts';

describe('faultBody', () => {
  it.each<[FaultFlags, unknown]>([
    [{ op: 'orders.deliver', status: 503, times: 2 }, { op: 'orders.deliver', status: 503, times: 2 }],
    [{ seller: 'slr_abc', op: 'orders.deliver', status: '429' }, { sellerId: 'slr_abc', op: 'orders.deliver', status: 429 }],
    [{ op: '*', latency: '2s', for: '10m' }, { op: '*', latencyMs: 2000, forMs: 600_000 }],
    [{ op: 'orders.list', latency: '250ms' }, { op: 'orders.list', latencyMs: 250 }],
    [{ op: 'orders.deliver', drop: true, every: '3' }, { op: 'orders.deliver', drop: true, every: 3 }],
    [{ op: 'orders.deliver', dropAfter: true, times: '1' }, { op: 'orders.deliver', dropAfter: true, times: 1 }],
    [{ hooks: 'duplicate' }, { hooks: 'duplicate' }],
    [{ seller: 'slr_x', hooks: 'delay:2s', times: 3 }, { sellerId: 'slr_x', hooks: 'delay', delayMs: 2000, times: 3 }],
    [{ hooks: 'reorder', drop: false }, { hooks: 'reorder' }],
    [{ op: '*', status: 503, retryAfter: '5s' }, { op: '*', status: 503, retryAfterMs: 5000 }],
    [{ op: '*', status: 429, retryAfter: '1500ms' }, { op: '*', status: 429, retryAfterMs: 1500 }],
  ])('%j', (flags, body) => {
    const made = faultBody(flags);
    expect(made).toEqual(body);
    expect(AddFaultBody.safeParse(made).success).toBe(true);
  });

  it.each<[FaultFlags, string, string]>([
    [{ op: 'orders.deliver' }, 'status', 'missing'],
    [{ op: 'orders.deliver', status: 503, drop: true }, 'drop', 'conflict'],
    [{ op: 'orders.deliver', hooks: 'fail' }, 'op', 'conflict'],
    [{ status: 503 }, 'op', 'missing'],
    [{ op: 'orders.delivr', status: 503 }, 'op', 'unknown_op'],
    [{ op: 'sandbox.pay', status: 503 }, 'op', 'unknown_op'],
    [{ op: 'orders.deliver', status: 404 }, 'status', 'invalid'],
    [{ op: 'orders.deliver', status: '50x' }, 'status', 'invalid'],
    [{ op: 'orders.deliver', latency: 'soon' }, 'latency', 'invalid'],
    [{ op: 'orders.deliver', latency: '2m' }, 'latency', 'invalid'],
    [{ op: 'orders.deliver', latency: '0ms' }, 'latency', 'invalid'],
    [{ hooks: 'twice' }, 'hooks', 'invalid'],
    [{ hooks: 'delay' }, 'hooks', 'missing'],
    [{ hooks: 'delay:2h' }, 'hooks', 'invalid'],
    [{ hooks: 'fail:3' }, 'hooks', 'invalid'],
    [{ op: '*', status: 500, times: 0 }, 'times', 'invalid'],
    [{ op: '*', status: 500, times: '2.5' }, 'times', 'invalid'],
    [{ op: '*', status: 500, every: 1 }, 'every', 'invalid'],
    [{ op: '*', status: 500, for: 'a while' }, 'for', 'invalid'],
    [{ seller: ' ', op: '*', status: 500 }, 'seller', 'invalid'],
    [{ op: '*', latency: '1s', retryAfter: '5s' }, 'retryAfter', 'conflict'],
    [{ op: '*', status: 503, retryAfter: 'later' }, 'retryAfter', 'invalid'],
    [{ op: '*', status: 503, retryAfter: '2h' }, 'retryAfter', 'invalid'],
  ])('%j is refused at %s (%s)', (flags, field, code) => {
    const err = (() => {
      try {
        faultBody(flags);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(FaultFlagsError);
    expect(err).toMatchObject({ field, code });
    expect((err as FaultFlagsError).detail.length).toBeGreaterThan(0);
  });
});

describe('faultBody names every problem', () => {
  it('the rules across flags (the contract’s own) first, then each flag’s value; the first is also field, code and detail', () => {
    const err = (() => {
      try {
        faultBody({ op: 'orders.delivr', status: 404, drop: true, every: 1 });
      } catch (e) {
        return e as FaultFlagsError;
      }
      throw new Error('accepted');
    })();
    expect(err.problems.map((p) => `${p.field} ${p.code}`)).toEqual(['drop conflict', 'op unknown_op', 'status invalid', 'every invalid']);
    expect(err).toMatchObject({ field: 'drop', code: 'conflict', detail: 'one effect per fault, not status and drop' });
  });
});

describe('AddFaultBody (the server reads it)', () => {
  it.each<[unknown, string]>([
    [{ op: 'orders.deliver' }, 'status'],
    [{ op: 'orders.deliver', status: 503, latencyMs: 10 }, 'latencyMs'],
    [{ status: 503 }, 'op'],
    [{ hooks: 'fail', op: 'orders.deliver' }, 'op'],
    [{ hooks: 'delay' }, 'delayMs'],
    [{ hooks: 'fail', delayMs: 10 }, 'delayMs'],
    [{ op: 'sandbox.pay', status: 503 }, 'op'],
    [{ op: 'orders.deliver', status: 404 }, 'status'],
    [{ op: 'orders.deliver', drop: false }, 'drop'],
    [{ op: 'orders.deliver', status: 503, every: 1 }, 'every'],
    [{ hooks: 'fail', retryAfterMs: 1000 }, 'retryAfterMs'],
    [{ op: 'orders.deliver', status: 503, extra: 1 }, ''],
  ])('%j is refused at %s', (body, path) => {
    const result = AddFaultBody.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.'))).toContain(path);
  });
});
