/** The delivery ladder (gaps.md): at once, +10 s, +1 min, +5 min, +30 min, +2 h, +6 h, +12 h; 8 attempts. */
import { describe, expect, it } from 'vitest';
import { LADDER_DELAYS_SECONDS, MAX_ATTEMPTS, nextAttemptAt, PAUSE_AFTER_FAILURES } from '../../server/webhooks/ladder.ts';

const T = Date.parse('2026-03-01T10:00:00.000Z');

describe('ladder', () => {
  it('has 8 attempts with the documented delays', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(LADDER_DELAYS_SECONDS).toEqual([0, 10, 60, 300, 1800, 7200, 21600, 43200]);
    expect(PAUSE_AFTER_FAILURES).toBe(20);
  });

  it('the first attempt is due at once', () => {
    expect(nextAttemptAt(0, T)).toBe(T);
  });

  it('after each failed attempt the next is due after the next step', () => {
    expect(nextAttemptAt(1, T)).toBe(T + 10_000);
    expect(nextAttemptAt(2, T)).toBe(T + 60_000);
    expect(nextAttemptAt(3, T)).toBe(T + 5 * 60_000);
    expect(nextAttemptAt(4, T)).toBe(T + 30 * 60_000);
    expect(nextAttemptAt(5, T)).toBe(T + 2 * 3_600_000);
    expect(nextAttemptAt(6, T)).toBe(T + 6 * 3_600_000);
    expect(nextAttemptAt(7, T)).toBe(T + 12 * 3_600_000);
  });

  it('gives up after the 8th attempt', () => {
    expect(nextAttemptAt(8, T)).toBeNull();
    expect(nextAttemptAt(9, T)).toBeNull();
  });

  it('the whole ladder spans a little over 20 hours', () => {
    let at = T;
    for (let n = 1; n < MAX_ATTEMPTS; n++) at = nextAttemptAt(n, at)!;
    expect(at - T).toBe((10 + 60 + 300 + 1800 + 7200 + 21600 + 43200) * 1000);
  });

  it('refuses a negative or fractional attempt count', () => {
    expect(() => nextAttemptAt(-1, T)).toThrow(RangeError);
    expect(() => nextAttemptAt(1.5, T)).toThrow(RangeError);
  });
});
