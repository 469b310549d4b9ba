import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../sdk/duration.ts';

describe('parseDuration', () => {
  it.each([
    ['90', 90], ['45s', 45], ['15m', 900], ['2h', 7200], ['1d', 86_400], ['1w', 604_800], ['1h30m', 5400],
    ['1h 30m', 5400], ['2ч', 7200], ['30мин', 1800], ['1д', 86_400], ['45с', 45], ['1ч30мин', 5400], ['2 ч', 7200],
    ['30 МИН', 1800], ['10min', 600], [' 5m ', 300],
  ])('%s is %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', 'soon', '2x', 'h2', '1.5h', '-1h', '2hours', '30минут', 'm'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
