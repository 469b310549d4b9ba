/**
 * The change stream's replay (server/sandbox/change-replay.ts): numbered events, what a reconnect
 * missed, and its bounds (events, bytes, age), gaps while nobody reads, and ids it cannot resume from.
 */
import { describe, expect, it } from 'vitest';
import { ChangeReplay, REPLAY_BYTES, REPLAY_EVENTS, REPLAY_MS } from '../../server/sandbox/change-replay.ts';

/** A replay on a hand-moved time, with one stream open; `add` answers the id it gave. */
function replayOf(limits: { events?: number; bytes?: number; ms?: number } = {}) {
  const time = { now: 1_000_000 };
  const replay = new ChangeReplay({ ...limits, now: () => time.now });
  replay.opened();
  const add = (text: string, sellerId?: string): string => {
    let given = '';
    replay.add(sellerId, (id) => ((given = id), text));
    return given;
  };
  return { replay, time, add };
}

describe('the change replay', () => {
  it('numbers events in order under its epoch; ready\'s id is the last', () => {
    const { replay, add } = replayOf();
    expect(replay.head).toBe(`${replay.epoch}-0`);
    expect([add('a'), add('b')]).toEqual([`${replay.epoch}-1`, `${replay.epoch}-2`]);
    expect(replay.head).toBe(`${replay.epoch}-2`);
    expect(new ChangeReplay().epoch).not.toBe(replay.epoch);
  });

  it('answers what came after an id, in order; nothing when nothing came; only the seller\'s and everyone\'s for one seller', () => {
    const { replay, add } = replayOf();
    const first = add('a', 's1');
    add('b', 's2');
    add('clock');
    add('c', 's1');
    expect(replay.since(first, undefined)).toEqual(['b', 'clock', 'c']);
    expect(replay.since(first, 's1')).toEqual(['clock', 'c']);
    expect(replay.since(replay.head, undefined)).toEqual([]);
    expect(replay.since(`${replay.epoch}-0`, undefined)).toEqual(['a', 'b', 'clock', 'c']);
  });

  it('cannot resume from an id of another epoch, a malformed one, or one ahead of the last', () => {
    const { replay, add } = replayOf();
    add('a');
    expect(replay.since('0badcafe-1', undefined)).toBeNull();
    expect(replay.since('7', undefined)).toBeNull();
    expect(replay.since('', undefined)).toBeNull();
    expect(replay.since(`${replay.epoch}-2`, undefined)).toBeNull();
    expect(replay.since(`${replay.epoch}-x`, undefined)).toBeNull();
  });

  it(`keeps at most ${REPLAY_EVENTS} events by default: an id from before the oldest dropped cannot resume`, () => {
    const { replay, add } = replayOf();
    const before = replay.head;
    const first = add('e');
    const second = add('e');
    for (let i = 0; i < REPLAY_EVENTS - 1; i++) add('e');
    expect(replay.size).toBe(REPLAY_EVENTS);
    expect(replay.since(before, undefined)).toBeNull();
    // the dropped event was read by whoever names it: all after it are kept
    expect(replay.since(first, undefined)).toHaveLength(REPLAY_EVENTS);
    expect(replay.since(second, undefined)).toHaveLength(REPLAY_EVENTS - 1);
  });

  it(`keeps at most ${REPLAY_BYTES / 1024} KiB of text by default, and an event bigger than that not at all`, () => {
    const { replay, add } = replayOf();
    const before = replay.head;
    const big = 'x'.repeat(REPLAY_BYTES / 4);
    const first = add(big);
    for (let i = 0; i < 3; i++) add(big);
    expect(replay.since(before, undefined)).toHaveLength(4);
    add(big);
    expect(replay.since(before, undefined)).toBeNull();
    expect(replay.since(first, undefined)).toHaveLength(4);
    const last = replay.head;
    add('y'.repeat(REPLAY_BYTES + 1));
    expect(replay.size).toBe(0);
    expect(replay.since(last, undefined)).toBeNull();
    expect(replay.since(replay.head, undefined)).toEqual([]);
  });

  it(`keeps an event ${REPLAY_MS / 60_000} minutes at most by default`, () => {
    const { replay, time, add } = replayOf();
    const before = replay.head;
    const first = add('old');
    time.now += REPLAY_MS / 2;
    add('new');
    expect(replay.since(before, undefined)).toEqual(['old', 'new']);
    time.now += REPLAY_MS / 2;
    expect(replay.since(before, undefined)).toBeNull();
    expect(replay.since(first, undefined)).toEqual(['new']);
    expect(replay.size).toBe(1);
  });

  it('records while a stream is open and a while after the last closed; a change later is a gap no earlier id resumes across', () => {
    const { replay, time, add } = replayOf({ ms: 1000 });
    add('a');
    const seen = replay.head;
    replay.closed();
    time.now += 999;
    expect(replay.recording()).toBe(true);
    time.now += 1;
    expect(replay.recording()).toBe(false);
    expect(replay.since(seen, undefined)).toEqual([]); // nothing changed: it still resumes
    replay.gap();
    expect(replay.since(seen, undefined)).toBeNull();
    expect(replay.since(replay.head, undefined)).toEqual([]);
    replay.opened();
    expect(replay.recording()).toBe(true);
  });

  it('never records before a stream was opened', () => {
    const replay = new ChangeReplay();
    expect(replay.recording()).toBe(false);
  });
});
