/**
 * Durations as people write them, one parser for the SDK (scenario files, fault options) and the CLI:
 * `90` (seconds), `45s`, `15m`, `2h`, `3d`, `1w`, `1h30m`, and the Russian units `45с`, `30мин`, `2ч`, `1д`,
 * `1н` (`1ч30мин`). Spaces between an amount and its unit, or between parts, are allowed (`2 ч`, `1h 30m`).
 */

const UNIT_SECONDS: Record<string, number> = {
  s: 1, sec: 1, 'с': 1, 'сек': 1,
  m: 60, min: 60, 'мин': 60, 'м': 60,
  h: 3600, 'ч': 3600,
  d: 86_400, 'д': 86_400,
  w: 604_800, 'н': 604_800, 'нед': 604_800,
};

// Built from a string, which the bundler writes as ASCII escapes (the `seller` bundle stays ASCII:
// test/cli/bundle-text.test.ts); a regex literal's Cyrillic would stay as it is.
const PART = new RegExp('(\\d+)\\s*(sec|min|сек|мин|нед|[smhdwсмчдн])(?![a-zа-яё])', 'giy');

/** The duration in whole seconds, or `undefined` when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const source = text.trim().toLowerCase();
  if (/^\d+$/.test(source)) return Number(source);
  if (source === '') return undefined;
  let total = 0;
  let at = 0;
  while (at < source.length) {
    PART.lastIndex = at;
    const part = PART.exec(source);
    if (!part) return undefined;
    total += Number(part[1]) * UNIT_SECONDS[part[2]!]!;
    at = PART.lastIndex;
    while (source[at] === ' ') at++;
  }
  return total;
}
