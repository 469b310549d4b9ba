/**
 * The autopilot's outbox (sdk/autopilot/outbox.ts) and the top-level `notify` of its config: which
 * events are chosen (what needs a human by default, sales on demand, a channel's own choice), a
 * config with only `notify` is valid, and the outbox sends each decided message once, in order per
 * target, waiting a 429's `retry_after`, retrying a failure, dropping one a retry cannot mend, and
 * keeping what it has not sent in the state (sent by the next run).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineAutopilot, NotifyFailure, chosen, type NotifyChannel } from '../../sdk/autopilot/index.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { Outbox } from '../../sdk/autopilot/outbox.ts';
import { emptyState, fileAutopilotStore, writeAll, type AutopilotState, type OutboxEntry } from '../../sdk/autopilot/state.ts';
import { OutboxLog, readOutboxLog } from '../../sdk/autopilot/outbox-log.ts';
import { waitFor } from '../helpers/wait.ts';

/** The entries a log's text holds, in seq order. */
const replayOutbox = (text: string) => readOutboxLog(text).entries;

/** Runs `work` with a new temporary directory, removed afterwards. */
async function inTempDir(work: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
  try {
    await work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const event = (rule: AutopilotEvent['rule'], type: string, order?: string): AutopilotEvent => ({ at: new Date().toISOString(), rule, type, message: `${rule} ${type}`, order });

describe('notify config', () => {
  it('is valid alone (a watcher that tells), with telegram, a command or a hook; never with both of command and hook', () => {
    const config = defineAutopilot({ notify: { telegram: { chats: [1] } } });
    expect(config.notify).toMatchObject({ sales: false, telegram: { chats: [1], apiRoot: 'https://api.telegram.org' } });
    expect(() => defineAutopilot({ notify: { command: 'x', hook: 'https://example.com/h' } })).toThrow(/at most one of command or hook/);
    expect(() => defineAutopilot({ notify: {} })).toThrow(/give telegram, a command or a hook/);
    expect(() => defineAutopilot({ notify: { telegram: { chats: [1], token: 'x' } } as never })).toThrow();
  });
});

describe('chosen events', () => {
  it('what needs a human by default; sales adds paid and delivered; a list chooses by type or rule.type', () => {
    expect(chosen(event('orders', 'needs-hand'), undefined, false)).toBe(true);
    expect(chosen(event('deliver', 'failed'), undefined, false)).toBe(true);
    expect(chosen(event('webhooks', 'refused'), undefined, false)).toBe(false);
    expect(chosen(event('deliver', 'delivered'), undefined, false)).toBe(false);
    expect(chosen(event('deliver', 'delivered'), undefined, true)).toBe(true);
    expect(chosen(event('orders', 'paid'), undefined, true)).toBe(true);
    expect(chosen(event('reprice', 'repriced'), ['repriced'], false)).toBe(true);
    expect(chosen(event('orders', 'needs-hand'), ['deliver.failed'], false)).toBe(false);
    expect(chosen(event('autopilot', 'notify-failed'), ['notify-failed'], false)).toBe(false);
  });
});

/** A channel that answers each send with the next of `answers` (an error thrown, or 'ok'), recording what it sent. */
function channel(answers: Array<'ok' | Error>, targets = ['1']): NotifyChannel & { sent: string[]; tries: number } {
  const ch = {
    name: 'telegram',
    targets,
    sent: [] as string[],
    tries: 0,
    send: async (e: AutopilotEvent, to: string) => {
      ch.tries++;
      const answer = answers.shift() ?? 'ok';
      if (answer !== 'ok') throw answer;
      ch.sent.push(`${to}:${e.order}`);
    },
  };
  return ch;
}

function outbox(ch: NotifyChannel, state: AutopilotState = emptyState()) {
  const dropped: OutboxEntry[] = [];
  const box = new Outbox({ state, save: async () => {}, channels: [ch], config: defineAutopilot({ notify: { telegram: { chats: [1] } } }).notify!, dropped: (entry) => dropped.push(entry), random: () => 0 });
  return { box, state, dropped };
}

describe('the outbox', () => {
  it('two 429s, then ok: sent once, after the retry_after', async () => {
    const ch = channel([new NotifyFailure('429', { retryAfterMs: 50 }), new NotifyFailure('429', { retryAfterMs: 50 })]);
    const { box, state } = outbox(ch);
    box.start();
    box.offer(event('orders', 'needs-hand', 'ord_1'));
    await waitFor('sent', () => ch.sent.length === 1 && state.outbox.length === 0);
    await box.stop(100);
    expect(ch.sent).toEqual(['1:ord_1']);
    expect(ch.tries).toBe(3);
  });

  it('a failing disk: nothing is sent before it is written, and the write is tried again', async () => {
    const ch = channel([]);
    const state = emptyState();
    let saves = 0;
    const box = new Outbox({
      state,
      save: async () => {
        if (++saves === 1) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
      channels: [ch],
      config: defineAutopilot({ notify: { telegram: { chats: [1] } } }).notify!,
      dropped: () => {},
    });
    box.start();
    box.offer(event('orders', 'needs-hand', 'ord_1'));
    await waitFor('the first write tried', () => saves === 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(ch.sent).toEqual([]);
    await waitFor('sent after the write succeeded', () => ch.sent.length === 1, { ms: 5_000 });
    await box.stop(100);
    expect(ch.sent).toEqual(['1:ord_1']);
    expect(saves).toBeGreaterThanOrEqual(2);
  });

  it('a failing target keeps its order and holds only its own messages; a permanent failure is dropped', async () => {
    const ch = channel([new Error('socket hang up'), new NotifyFailure('403: blocked', { permanent: true })], ['1', '2']);
    const { box, dropped } = outbox(ch);
    box.start();
    box.offer(event('orders', 'needs-hand', 'ord_1'));
    box.offer(event('orders', 'needs-hand', 'ord_2'));
    await waitFor('sent', () => ch.sent.length === 3);
    await box.stop(100);
    // Chat 1's first send failed (retried), chat 2's first was refused for good (dropped); each chat in order.
    expect(ch.sent.filter((s) => s.startsWith('1:'))).toEqual(['1:ord_1', '1:ord_2']);
    expect(ch.sent.filter((s) => s.startsWith('2:'))).toEqual(['2:ord_2']);
    expect(dropped.map((e) => `${e.to}:${e.event.order}`)).toEqual(['2:ord_1']);
  });

  it("the backlogs of chats that are down hide no message for another chat, even one left for a chat since taken out of chats", async () => {
    // Chats 1 and 2 are down (their messages wait); the message a run before left for chat 9 goes meanwhile.
    const ch = channel([], ['1', '2']);
    ch.send = async (e, to) => {
      if (to !== '9') throw new Error('down');
      ch.sent.push(`${to}:${e.order}`);
    };
    const state = emptyState();
    const entry = (seq: number, to: string): OutboxEntry => ({ seq, channel: 'telegram', to, event: event('orders', 'needs-hand', `ord_${seq}`), tries: 0 });
    state.outbox = [...Array.from({ length: 300 }, (_, i) => entry(i + 1, '1')), entry(301, '2'), entry(302, '9')];
    state.outboxSeq = 302;
    const { box } = outbox(ch, state);
    box.start();
    await waitFor("chat 9's message sent", () => ch.sent.length === 1);
    await box.stop(20);
    expect(ch.sent).toEqual(['9:ord_302']);
    expect(state.outbox.map((e) => e.to).filter((to) => to !== '1')).toEqual(['2']);
  });

  it('what a stop leaves unsent stays in the state, and the next outbox sends it', async () => {
    const down = channel(Array.from({ length: 50 }, () => new Error('down')));
    const first = outbox(down);
    first.box.start();
    first.box.offer(event('autopilot', 'stopped'));
    await waitFor('tried', () => down.tries > 0);
    await first.box.stop(50);
    expect(first.state.outbox).toHaveLength(1);
    const up = channel([]);
    const next = outbox(up, JSON.parse(JSON.stringify(first.state)) as AutopilotState);
    next.box.start();
    await waitFor('sent after the restart', () => up.sent.length === 1 && next.state.outbox.length === 0);
    await next.box.stop(50);
  });

  it('hands a channel with sendMany what waits for a target, in order; it takes what fits in one message', async () => {
    const calls: string[][] = [];
    let fail = true;
    const ch: NotifyChannel = {
      name: 'telegram',
      targets: ['1'],
      sales: true,
      send: async () => {
        throw new Error('send is not used when sendMany is given');
      },
      sendMany: async (events) => {
        calls.push(events.map((e) => e.order!));
        if (fail) {
          fail = false;
          throw new NotifyFailure('429', { retryAfterMs: 80 });
        }
        return Math.min(2, events.length);
      },
    };
    const { box, state } = outbox(ch);
    box.start();
    for (const id of ['ord_1', 'ord_2', 'ord_3']) box.offer(event('orders', 'paid', id));
    expect(state.outbox).toHaveLength(3);
    await waitFor('all sent', () => state.outbox.length === 0);
    await box.stop(100);
    // The first try failed (429) for ord_1 alone or with what was durable by then; after the wait,
    // the backlog came together: two in one message, then the last.
    expect(calls.at(-2)).toEqual(['ord_1', 'ord_2', 'ord_3']);
    expect(calls.at(-1)).toEqual(['ord_3']);
  });
});

describe('the outbox at a channel\'s pace', () => {
  it('sends a target no faster than paceMs; what comes meanwhile goes together; a stop sends the rest at once', async () => {
    const sends: Array<{ at: number; orders: string[] }> = [];
    const ch: NotifyChannel = {
      name: 'telegram',
      targets: ['1'],
      sales: true,
      paceMs: 1500,
      send: async () => {
        throw new Error('send is not used when sendMany is given');
      },
      sendMany: async (events) => {
        sends.push({ at: Date.now(), orders: events.map((e) => e.order!) });
        return events.length;
      },
    };
    const { box, state } = outbox(ch);
    box.start();
    box.offer(event('orders', 'paid', 'ord_1'));
    await waitFor('the first', () => sends.length === 1);
    for (const id of ['ord_2', 'ord_3', 'ord_4']) box.offer(event('orders', 'paid', id));
    await waitFor('the second', () => sends.length === 2);
    expect(sends[1]!.at - sends[0]!.at).toBeGreaterThanOrEqual(1490);
    expect(sends.map((s) => s.orders)).toEqual([['ord_1'], ['ord_2', 'ord_3', 'ord_4']]);
    // At the pace, ord_5 would wait ~1.5 s, past the stop's 500 ms grace: sent, it went at once.
    box.offer(event('orders', 'paid', 'ord_5'));
    await box.stop(500);
    expect(sends.at(-1)!.orders).toEqual(['ord_5']);
    expect(state.outbox).toEqual([]);
  });

  it('waiting out the pace while events keep coming leaves no timer or listener behind (a burst once warned of a leak)', async () => {
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', warned);
    try {
      const sends: string[][] = [];
      const ch: NotifyChannel = {
        name: 'telegram',
        targets: ['1'],
        sales: true,
        paceMs: 1000,
        send: async () => {},
        sendMany: async (events) => (sends.push(events.map((e) => e.order!)), events.length),
      };
      const { box } = outbox(ch);
      box.start();
      box.offer(event('orders', 'paid', 'ord_0'));
      await waitFor('the first', () => sends.length === 1);
      // Each offer wakes the sender, which waits out the rest of the pace again: 20 waits within one pace.
      for (let i = 1; i <= 20; i++) {
        box.offer(event('orders', 'paid', `ord_${i}`));
        await new Promise((r) => setTimeout(r, 30));
      }
      await waitFor('the rest', () => sends.flat().length === 21, { ms: 5_000 });
      await box.stop(100);
      expect(sends).toHaveLength(2);
    } finally {
      process.off('warning', warned);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });
});

describe('the outbox on disk (its own file beside the state)', () => {
  const entry = (seq: number, order = `ord_${seq}`): OutboxEntry => ({ seq, channel: 'telegram', to: '1', event: event('orders', 'paid', order), tries: 0 });

  it('appends what changed: a write costs the change, not what waits', () => {
    const log = new OutboxLog();
    const outbox = [entry(1), entry(2)];
    const first = log.next(outbox)!;
    expect(first.append!.trim().split('\n')).toHaveLength(2);
    first.done();
    expect(log.next(outbox)).toBeUndefined();
    outbox[0]!.tries = 1;
    outbox[0]!.due = new Date(5).toISOString();
    outbox.push(entry(3));
    const second = log.next(outbox)!;
    expect(second.append!.trim().split('\n').map((l) => Object.keys(JSON.parse(l))[0])).toEqual(['set', 'add']);
    second.done();
    const third = log.next([outbox[2]!])!;
    expect(JSON.parse(third.append!.trim())).toEqual({ del: [1, 2] });
    third.done();
    expect(replayOutbox(first.append! + second.append! + third.append!)).toEqual([outbox[2]]);
  });

  it('reads again idempotently, skips a torn line, and keeps seq order', () => {
    const a = entry(1);
    const b = entry(2);
    const text = [JSON.stringify({ add: b }), JSON.stringify({ add: a }), JSON.stringify({ add: a }), '{"add":{"seq":3,"chan', '', JSON.stringify({ set: { seq: 1, tries: 2, due: null } }), JSON.stringify({ del: [9] })].join('\n');
    expect(replayOutbox(text)).toEqual([{ ...a, tries: 2 }, b]);
    expect(replayOutbox('')).toEqual([]);
  });

  it('is rewritten whole when its lines far outnumber its entries', () => {
    const log = new OutboxLog();
    let appended = 0;
    let whole: string | undefined;
    for (let seq = 1; seq <= 1200 && whole === undefined; seq++) {
      const write = log.next([entry(seq)])!;
      if (write.whole !== undefined) whole = write.whole;
      else appended++;
      write.done();
    }
    expect(appended).toBeGreaterThan(400);
    expect(whole).toBeDefined();
    expect(replayOutbox(whole!)).toHaveLength(1);
  });

  it("saveOutbox writes the outbox's file only; a later run gives no seq again, even after a rewrite and with a stale state file", () =>
    inTempDir(async (dir) => {
      const path = join(dir, 'state.json');
      const store = fileAutopilotStore(path);
      const state = emptyState();
      state.journal['ord_1'] = { phase: 'done', rule: 'r', at: new Date().toISOString(), attempts: 1 };
      await store.save(state);
      const written = readFileSync(path, 'utf8');
      // Many messages decided and sent, as the outbox saves them: the state file is not written again.
      for (let seq = 1; seq <= 1500; seq++) {
        state.outboxSeq = seq;
        state.outbox.push(entry(seq));
        await store.saveOutbox!(state);
        state.outbox.shift();
        await store.saveOutbox!(state);
      }
      expect(readFileSync(path, 'utf8')).toBe(written);
      // The outbox's file was rewritten whole on the way (far more lines than entries) and is small.
      expect(readFileSync(`${path}.outbox`, 'utf8').split('\n').length).toBeLessThan(1000);
      // The state file says outboxSeq 0; the outbox's file remembers 1500.
      const next = await fileAutopilotStore(path).load();
      expect(next.outbox).toEqual([]);
      expect(next.outboxSeq).toBe(1500);
    }));

  it("a state write carries what the outbox's file has not reached: a crash loses no message decided before it, and sends none sent again", () =>
    inTempDir(async (dir) => {
      const path = join(dir, 'state.json');
      const store = fileAutopilotStore(path);
      const state = emptyState();
      await store.saveOutbox!(state);
      // A sale decided, then its delivery's journal closed, before the outbox's own write: one state write holds both.
      state.outbox.push(entry(1));
      state.outboxSeq = 1;
      state.journal['ord_1'] = { phase: 'done', rule: 'r', at: new Date().toISOString(), attempts: 1 };
      await store.save(state);
      const onDisk = JSON.parse(readFileSync(path, 'utf8'));
      expect(onDisk.journal).toHaveProperty('ord_1');
      expect(onDisk.outboxTail.map((e: OutboxEntry) => e.seq)).toEqual([1]);
      expect((await fileAutopilotStore(path).load()).outbox.map((e) => e.seq)).toEqual([1]);
      // The outbox's file reaches it, it is sent and removed there; the state file still holds the old tail (a crash now).
      await store.saveOutbox!(state);
      state.outbox.shift();
      await store.saveOutbox!(state);
      expect(JSON.parse(readFileSync(path, 'utf8')).outboxTail).toHaveLength(1);
      const after = await fileAutopilotStore(path).load();
      expect(after.outbox).toEqual([]);
      expect(after).not.toHaveProperty('outboxTail');
      // The next state write has no tail: everything decided is in the outbox's file.
      await store.save(state);
      expect(JSON.parse(readFileSync(path, 'utf8'))).not.toHaveProperty('outboxTail');
    }));

  it("an entry's tries and due reach the disk however often its JSON was made before", () =>
    inTempDir(async (dir) => {
      const path = join(dir, 'state.json');
      const store = fileAutopilotStore(path);
      const state = emptyState();
      state.outbox.push(entry(1));
      state.outboxSeq = 1;
      await store.save(state);
      // Tried (an entry read back from the state's tail is on disk, so it may be sent) before the outbox's file has it.
      state.outbox[0]!.tries = 2;
      state.outbox[0]!.due = new Date(60_000).toISOString();
      await store.save(state);
      expect((await fileAutopilotStore(path).load()).outbox[0]).toMatchObject({ tries: 2, due: new Date(60_000).toISOString() });
      await store.saveOutbox!(state);
      expect(replayOutbox(readFileSync(`${path}.outbox`, 'utf8'))[0]).toMatchObject({ tries: 2, due: new Date(60_000).toISOString() });
    }));

  it('a state written in pieces (the document and its tail) is written whole however short the writes', async () => {
    const written: string[] = [];
    // A file that takes at most 7 bytes a write.
    const handle = {
      writev: async (buffers: Buffer[]) => {
        const bytes = Buffer.concat(buffers).subarray(0, 7);
        written.push(bytes.toString('utf8'));
        return { bytesWritten: bytes.length, buffers };
      },
    };
    await writeAll(handle as never, ['{"journal":{"ord_1":"done"}', ',"outboxTail":[{"seq":1}]}']);
    expect(written.join('')).toBe('{"journal":{"ord_1":"done"},"outboxTail":[{"seq":1}]}');
    expect(written.length).toBe(Math.ceil(written.join('').length / 7));
  });

  it('a directory removed while running is made again at the next write', () =>
    inTempDir(async (dir) => {
      const path = join(dir, 'nested', 'state.json');
      const store = fileAutopilotStore(path);
      const state = emptyState();
      await store.save(state);
      rmSync(join(dir, 'nested'), { recursive: true });
      state.outbox.push(entry(1));
      await store.saveOutbox!(state);
      state.paused = true;
      await store.save(state);
      const read = await fileAutopilotStore(path).load();
      expect(read.paused).toBe(true);
      expect(read.outbox.map((e) => e.seq)).toEqual([1]);
    }));

  it('a file store keeps the outbox in <state>.outbox, reads it back, and reads an older state with the outbox inside', () =>
    inTempDir(async (dir) => {
      const path = join(dir, 'state.json');
      const store = fileAutopilotStore(path);
      const state = emptyState();
      state.outbox.push(entry(1), entry(2));
      state.outboxSeq = 2;
      await store.save(state);
      expect(JSON.parse(readFileSync(path, 'utf8'))).not.toHaveProperty('outbox');
      state.outbox.shift();
      await store.save(state);
      expect((await fileAutopilotStore(path).load()).outbox.map((e) => e.seq)).toEqual([2]);

      const older = join(dir, 'older.json');
      writeFileSync(older, JSON.stringify({ ...emptyState(), outbox: [entry(7)], outboxSeq: 3 }));
      const read = await fileAutopilotStore(older).load();
      expect(read.outbox.map((e) => e.seq)).toEqual([7]);
      expect(read.outboxSeq).toBe(7);
    }));
});
