/**
 * The zod-free check of a webhook body (sdk/webhooks/json-check.ts over the JSON Schema derived from
 * the contract) accepts exactly what the contract's zod schema accepts: valid events, and events
 * with one field replaced by any JSON value (an unsafe integer among them, which zod's `.int()` refuses).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebhookEvent } from '../../sdk/contract/events.ts';
import { WEBHOOK_EVENT_SCHEMA } from '../../sdk/webhooks/event-schema.derived.ts';
import { checkJson } from '../../sdk/webhooks/json-check.ts';

const STATUSES = ['awaiting_delivery', 'completed', 'no_such_status'];
const at = '2026-11-25T12:00:00.000Z';
const samples: Record<string, unknown>[] = [
  { event: 'order.paid', at, delivery: 'dlv_1', attempt: 1, data: { order: 'ord_1', number: 1001, status: 'awaiting_delivery', slaMinutes: 60 } },
  { event: 'order.message', at, delivery: 'dlv_2', attempt: 2, data: { order: 'ord_1', number: 1001, status: 'delivered', message: { id: 'msg_1', text: 'hi', at } } },
  { event: 'stock.out', at, delivery: 'dlv_3', attempt: 1, test: true, data: { number: 1001 } },
  { event: 'review.new', at, delivery: 'dlv_4', attempt: 1, data: { review: 'rev_1', number: 1001 } },
];

/** `value` with the field at `path` replaced by `replacement` (a copy). */
function replaced(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = { ...(value as Record<string, unknown>) };
  copy[path[0]!] = replaced(copy[path[0]!], path.slice(1), replacement);
  return copy;
}

const paths = (value: unknown, prefix: string[] = []): string[][] =>
  typeof value === 'object' && value !== null
    ? Object.entries(value).flatMap(([key, inner]) => [[...prefix, key], ...paths(inner, [...prefix, key])])
    : [];

describe('the webhook body check without zod', () => {
  it('accepts the samples, as zod does', () => {
    for (const sample of samples) {
      expect(WebhookEvent.safeParse(sample).success).toBe(true);
      expect(checkJson(WEBHOOK_EVENT_SCHEMA, sample)).toBeUndefined();
    }
  });

  it('agrees with zod on every sample with one field replaced by any value', () => {
    const values = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(1e20, -1e20, Number.MAX_SAFE_INTEGER + 1, 1.5, 0, -1, '', 'ord_', 'dlv_x', ...STATUSES, null, [], {}),
    );
    fc.assert(
      fc.property(fc.constantFrom(...samples), fc.nat(), values, (sample, pick, value) => {
        const all = paths(sample);
        const body = replaced(sample, all[pick % all.length]!, value);
        expect(checkJson(WEBHOOK_EVENT_SCHEMA, body) === undefined, JSON.stringify(body)).toBe(WebhookEvent.safeParse(body).success);
      }),
      { numRuns: 2000 },
    );
  });
});
