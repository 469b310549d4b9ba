/** The autopilot's decisions, rule by rule, and its configuration checks (sdk/autopilot). */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AutopilotConfigError,
  backlogStep,
  defineAutopilot,
  dueWarnings,
  fileAutopilotStore,
  loadAutopilotConfig,
  noteToSend,
  parseAutopilotConfig,
  pickDeliverRule,
  replyStep,
  repriceStep,
  ServiceClock,
  stockStep,
  emptyState,
} from '../../sdk/autopilot/index.ts';
import { deliverOrder, resumeDelivery } from '../../sdk/autopilot/rules/deliver.ts';
import { idempotencyKey, type RuleContext } from '../../sdk/autopilot/context.ts';
import type { AutopilotEvent, JournalEntry } from '../../sdk/autopilot/index.ts';
import type { SellerClient } from '../../sdk/client.ts';
import { RejectedError, SellerError, ServerError } from '../../sdk/errors.ts';
import { netflixOrder } from '../helpers/fixtures.ts';

const times = { deliverBy: '2030-01-01T12:00:00.000Z', createdAt: '2030-01-01T10:00:00.000Z', paidAt: '2030-01-01T11:00:00.000Z', updatedAt: '2030-01-01T11:00:00.000Z' };
const action = { command: 'true' };

describe('config', () => {
  it('names the path of every wrong value', () => {
    const bad = { deliver: [{ match: { productType: 'Gift Card' }, action: { command: 'x', hook: 'https://a.example' } }], reprice: { auditLog: 'a', cards: [{ card: 1, floor: 500, ceiling: 400 }] }, extra: 1 };
    let error: unknown;
    try {
      parseAutopilotConfig(bad, 'autopilot.yaml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AutopilotConfigError);
    const paths = (error as AutopilotConfigError).issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['deliver[0].match.productType', 'deliver[0].action', 'reprice.cards[0].floor', '(top level)']));
    expect((error as Error).message).toMatch(/^autopilot.yaml: \d+ errors/);
  });

  it('refuses a config without rules, and templates or notes that hold contacts', () => {
    expect(() => defineAutopilot({})).toThrow(/no rule configured/);
    expect(() => defineAutopilot({ replies: { templates: [{ keywords: ['when'], text: 'write me at seller@example.com' }] } })).toThrow(/replies.templates\[0\].text: the text contains an e-mail address; contacts are not allowed: the marketplace would refuse it/);
    expect(() => defineAutopilot({ deliver: [{ match: {}, action, note: 'call +7 912 345-67-89' }] })).toThrow(/deliver\[0\].note/);
  });

  it('fills the defaults', () => {
    const config = defineAutopilot({ deadline: { warnMinutesBefore: 10 } });
    expect(config).toMatchObject({ pollSeconds: 5, concurrency: 4, deadline: { disputes: true } });
  });

  it('reads YAML and JSON files; a YAML duplicate key or a wrong extension is an error naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'autopilot-config-'));
    try {
      writeFileSync(join(dir, 'a.yaml'), 'deadline:\n  warnMinutesBefore: 15\nbacklog:\n  above: 10\n  set: { doNotDisturb: true }\n');
      expect((await loadAutopilotConfig(join(dir, 'a.yaml'))).backlog).toEqual({ above: 10, set: { doNotDisturb: true } });
      writeFileSync(join(dir, 'b.yaml'), 'deadline:\n  warnMinutesBefore: 15\ndeadline:\n  warnMinutesBefore: 5\n');
      await expect(loadAutopilotConfig(join(dir, 'b.yaml'))).rejects.toThrow(/b.yaml.*\n.*not valid YAML/);
      writeFileSync(join(dir, 'c.json'), '{"deadline": {"warnMinutesBefore": "soon"}}');
      await expect(loadAutopilotConfig(join(dir, 'c.json'))).rejects.toThrow(/deadline.warnMinutesBefore/);
      await expect(loadAutopilotConfig(join(dir, 'c.toml'))).rejects.toThrow(/\.json, \.yaml or \.yml/);
      await expect(loadAutopilotConfig(join(dir, 'none.json'))).rejects.toThrow(/no such file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deliver', () => {
  const rules = defineAutopilot({
    deliver: [
      { name: 'netflix-subs', match: { service: 'netflix', productType: ['subscription'] }, action },
      { match: { card: [2002] }, action },
    ],
  }).deliver;

  it('takes an order awaiting delivery by the first matching rule only', () => {
    expect(pickDeliverRule(netflixOrder('ord_a', 'awaiting_delivery', times), rules)?.name).toBe('netflix-subs');
    expect(pickDeliverRule({ ...netflixOrder('ord_a', 'awaiting_delivery', times), number: 2002, service: 'x' }, rules)?.name).toBe('deliver#1');
    expect(pickDeliverRule({ ...netflixOrder('ord_a', 'awaiting_delivery', times), productType: 'account' }, rules)).toBeUndefined();
    for (const status of ['awaiting_payment', 'awaiting_confirmation', 'delivered', 'cancelled'] as const) {
      expect(pickDeliverRule(netflixOrder('ord_a', status, times), rules), status).toBeUndefined();
    }
  });

  /**
   * A context whose every save records what a crash right after it would leave: the journal on
   * disk and the events printed so far. The service delivers whatever it is asked to.
   */
  /** The events that end an order's delivery: each must be printed before the journal closes the order. */
  const CLOSING = ['delivered', 'already-delivered', 'failed', 'refused', 'skipped'];

  function crashPoints(status: 'awaiting_delivery' | 'delivered', deliver: (...args: unknown[]) => Promise<unknown> = async () => ({ status: 'delivered', noteRejected: null })) {
    const events: Array<Omit<AutopilotEvent, 'at'>> = [];
    const saves: Array<{ phases: Record<string, string>; reported: string[] }> = [];
    const order = netflixOrder('ord_a', status, times);
    const client = {
      orders: {
        get: async () => order,
        deliver,
        putVault: async () => ({}),
      },
    } as unknown as SellerClient;
    const ctx: RuleContext = {
      client,
      config: defineAutopilot({ deliver: [{ name: 'subs', match: { service: 'netflix' }, action: { command: `node -e "process.stdout.write('{}')"` } }] }),
      state: emptyState(),
      save: async () => {
        const phases = Object.fromEntries(Object.entries(ctx.state.journal).map(([id, entry]) => [id, entry.phase]));
        saves.push({ phases, reported: events.filter((e) => CLOSING.includes(e.type)).map((e) => e.order!) });
      },
      emit: (event) => void events.push(event),
      dryRun: false,
      now: () => Date.parse(times.paidAt),
      signal: new AbortController().signal,
    };
    return { ctx, order, events, saves };
  }

  it('prints an order delivered before the journal closes it (a crash between the two reports it again, never not at all)', async () => {
    const { ctx, order, events, saves } = crashPoints('awaiting_delivery');
    await deliverOrder(ctx, order, ctx.config.deliver![0]!, 'subs');
    expect(events.map((e) => e.type)).toEqual(['delivered']);
    expect(saves.at(-1)?.phases).toEqual({ ord_a: 'done' });
    for (const save of saves) if (save.phases.ord_a === 'done') expect(save.reported).toContain('ord_a');

    // After a restart: an order the killed run delivered (journalled `ready`) is reported before it is
    // closed, as `already-delivered` and with no call: the killed run may have printed `delivered`.
    const sent: string[] = [];
    const resumed = crashPoints('delivered', async () => sent.push('deliver'));
    const entry: JournalEntry = { phase: 'ready', rule: 'subs', at: '', attempts: 1, delivery: {} };
    resumed.ctx.state.journal.ord_a = entry;
    await resumeDelivery(resumed.ctx, 'ord_a', entry, { restart: true });
    expect(sent).toEqual([]);
    expect(resumed.events.map((e) => e.type)).toEqual(['resumed', 'already-delivered']);
    expect(resumed.events[1]!.say?.form).toBe('alreadyDelivered');
    expect(resumed.saves.at(-1)?.phases).toEqual({ ord_a: 'done' });
    for (const save of resumed.saves) if (save.phases.ord_a === 'done') expect(save.reported).toContain('ord_a');
  });

  it('in a run, a ready order found delivered (its answer lost) is sent again under its key and the replay makes it delivered', async () => {
    const keys: unknown[] = [];
    const resumed = crashPoints('delivered', async (...args: unknown[]) => {
      keys.push((args[2] as { idempotencyKey?: string }).idempotencyKey);
      return { status: 'delivered', noteRejected: null };
    });
    const entry: JournalEntry = { phase: 'ready', rule: 'subs', at: '', attempts: 2, delivery: {} };
    resumed.ctx.state.journal.ord_a = entry;
    await resumeDelivery(resumed.ctx, 'ord_a', entry, { restart: false });
    expect(keys).toEqual([idempotencyKey('deliver', 'ord_a', 2)]);
    expect(resumed.events.map((e) => e.type)).toEqual(['resumed', 'delivered']);
    expect(resumed.saves.at(-1)?.phases).toEqual({ ord_a: 'done' });
    for (const save of resumed.saves) if (save.phases.ord_a === 'done') expect(save.reported).toContain('ord_a');
  });

  it.each<[string, () => Promise<unknown>, string, string]>([
    ['refused (need_next_charge)', async () => Promise.reject(new RejectedError({ code: 'rejected', status: 409, refusal: { kind: 'need_next_charge', reason: 'required' }, text: 'the next charge day is required' })), 'refused', 'failed'],
    ['moved on (state_moved)', async () => Promise.reject(new RejectedError({ code: 'rejected', status: 409, refusal: { kind: 'state_moved' }, text: 'the order was refunded' })), 'skipped', 'skipped'],
    ['not authorised (bad_key)', async () => Promise.reject(new SellerError({ code: 'bad_key', status: 401, text: 'unknown key' })), 'failed', 'failed'],
  ])('a delivery %s is printed before the journal closes it', async (_name, deliver, type, phase) => {
    const { ctx, order, events, saves } = crashPoints('awaiting_delivery', deliver);
    await deliverOrder(ctx, order, ctx.config.deliver![0]!, 'subs');
    expect(events.map((e) => e.type)).toEqual([type]);
    expect(saves.at(-1)?.phases).toEqual({ ord_a: phase });
    for (const save of saves) if (save.phases.ord_a === phase) expect(save.reported).toContain('ord_a');
  });

  it.each<[string, SellerError]>([
    ['503 (unavailable: nothing was done, retry later)', new ServerError({ code: 'unavailable', status: 503, text: 'service unavailable' })],
    ['500 (internal)', new ServerError({ code: 'internal', status: 500, text: 'internal error' })],
    ['429 (rate)', new SellerError({ code: 'rate', status: 429, text: 'too many requests' })],
    ['a failed connection', new SellerError({ code: 'connection', text: 'could not reach the service' })],
  ])('a delivery whose retries all met %s stays ready for the next round, not failed', async (_name, error) => {
    const { ctx, order, events, saves } = crashPoints('awaiting_delivery', async () => Promise.reject(error));
    await deliverOrder(ctx, order, ctx.config.deliver![0]!, 'subs');
    expect(events.map((e) => e.type)).toEqual(['retrying']);
    expect(saves.at(-1)?.phases).toEqual({ ord_a: 'ready' });
  });

  it('a failed action is printed before the journal closes the order', async () => {
    const { ctx, order, events, saves } = crashPoints('awaiting_delivery');
    const rule = defineAutopilot({ deliver: [{ name: 'subs', match: { service: 'netflix' }, action: { command: `node -e "process.exit(3)"` } }] }).deliver![0]!;
    await deliverOrder(ctx, order, rule, 'subs');
    expect(events.map((e) => e.type)).toEqual(['failed']);
    expect(saves.at(-1)?.phases).toEqual({ ord_a: 'failed' });
    for (const save of saves) if (save.phases.ord_a === 'failed') expect(save.reported).toContain('ord_a');
  });

  it('in a run, a ready order found delivered otherwise (the send again is refused) is already-delivered, closed, and not failed', async () => {
    const sent: string[] = [];
    const refused = async () => {
      sent.push('deliver');
      throw new RejectedError({ code: 'rejected', status: 409, refusal: { kind: 'state_moved' }, text: 'the order is delivered' });
    };
    const resumed = crashPoints('delivered', refused);
    const entry: JournalEntry = { phase: 'ready', rule: 'subs', at: '', attempts: 1, delivery: {} };
    resumed.ctx.state.journal.ord_a = entry;
    await resumeDelivery(resumed.ctx, 'ord_a', entry, { restart: false });
    expect(sent).toEqual(['deliver']);
    expect(resumed.events.map((e) => e.type)).toEqual(['resumed', 'already-delivered']);
    expect(resumed.events[1]!.say?.form).toBe('deliveredOtherwise');
    expect(resumed.saves.at(-1)?.phases).toEqual({ ord_a: 'done' });
  });

  it('in a run, a ready order found delivered whose send again cannot reach the service stays ready for the next round', async () => {
    const unreachable = async () => {
      throw new SellerError({ code: 'connection', text: 'could not reach the service' });
    };
    const resumed = crashPoints('delivered', unreachable);
    const entry: JournalEntry = { phase: 'ready', rule: 'subs', at: '', attempts: 1, delivery: {} };
    resumed.ctx.state.journal.ord_a = entry;
    await resumeDelivery(resumed.ctx, 'ord_a', entry, { restart: false });
    expect(resumed.events.map((e) => e.type)).toEqual(['resumed', 'retrying']);
    expect(entry.phase).toBe('ready');
  });

  it('withholds a note with contacts, prefers the action’s note', () => {
    expect(noteToSend('Enjoy!', 'Rule note')).toEqual({ note: 'Enjoy!' });
    expect(noteToSend(undefined, 'Rule note')).toEqual({ note: 'Rule note' });
    expect(noteToSend('mail me: a@b.example', 'Rule note')).toEqual({ withheld: ['email'] });
    expect(noteToSend(undefined, undefined)).toEqual({});
  });
});

describe('deadline guard', () => {
  const cfg = { warnMinutesBefore: 15, disputes: true };
  const deliverBy = Date.parse(times.deliverBy);
  const order = netflixOrder('ord_a', 'awaiting_delivery', times);

  it('warns once within the window, not before it', () => {
    expect(dueWarnings([order], deliverBy - 16 * 60_000, cfg, {})).toEqual([]);
    const due = dueWarnings([order], deliverBy - 10 * 60_000, cfg, {});
    expect(due).toMatchObject([{ kind: 'sla', minutesLeft: 10 }]);
    expect(dueWarnings([order], deliverBy - 5 * 60_000, cfg, { ord_a: due[0]!.key })).toEqual([]);
  });

  it('a deadline already passed with no warning given is "missed", once; one warned about before is not', () => {
    const due = dueWarnings([order], deliverBy + 30 * 60_000, cfg, {});
    expect(due).toMatchObject([{ kind: 'missed', minutesLeft: -30 }]);
    expect(dueWarnings([order], deliverBy + 40 * 60_000, cfg, { ord_a: due[0]!.key })).toEqual([]);
    const warned = dueWarnings([order], deliverBy - 10 * 60_000, cfg, {});
    expect(dueWarnings([order], deliverBy + 30 * 60_000, cfg, { ord_a: warned[0]!.key })).toEqual([]);
  });

  it('warns about a dispute once; not about closed orders', () => {
    const disputed = { ...netflixOrder('ord_d', 'disputed', times), needsAction: true };
    const due = dueWarnings([disputed, netflixOrder('ord_c', 'completed', times)], deliverBy, cfg, {});
    expect(due.map((w) => w.kind)).toEqual(['dispute']);
    expect(dueWarnings([disputed], deliverBy, cfg, { ord_d: due[0]!.key })).toEqual([]);
    expect(dueWarnings([disputed], deliverBy, { ...cfg, disputes: false }, {})).toEqual([]);
  });
});

describe('backlog', () => {
  it('engages above the threshold and restores at restoreAt, with hysteresis', () => {
    const cfg = { above: 5, restoreAt: 2 };
    expect(backlogStep(5, cfg, false)).toBeNull();
    expect(backlogStep(6, cfg, false)).toBe('engage');
    expect(backlogStep(4, cfg, true)).toBeNull();
    expect(backlogStep(2, cfg, true)).toBe('restore');
    expect(backlogStep(5, { above: 5 }, true)).toBe('restore');
  });
});

describe('stock care', () => {
  const card = (isActive: boolean, autoIssue: boolean, free: number) => ({ isActive, autoIssue, stock: { free, issued: 0 } });
  const cfg = { lowAt: 2, reenableAutoDelivery: true };

  it('switches auto-delivery back on only where the empty stock switched it off', () => {
    const out = stockStep(card(true, false, 0), cfg, { offByStock: false, lowAlerted: false });
    expect(out.memory.offByStock).toBe(true);
    expect(stockStep(card(true, false, 5), cfg, out.memory).reenable).toBe(true);
    // Switched off by the seller with stock left: never touched.
    expect(stockStep(card(true, false, 5), cfg, undefined).reenable).toBe(false);
    // The card itself switched off: never touched.
    const off = stockStep(card(false, false, 0), cfg, out.memory);
    expect(off.memory.offByStock).toBe(false);
    expect(stockStep(card(false, false, 5), cfg, off.memory).reenable).toBe(false);
    expect(stockStep(card(true, false, 5), { ...cfg, reenableAutoDelivery: false }, out.memory).reenable).toBe(false);
  });

  it('alerts once when low, again after it rose above', () => {
    const first = stockStep(card(true, true, 2), cfg, undefined);
    expect(first.low).toBe(true);
    expect(stockStep(card(true, true, 1), cfg, first.memory).low).toBe(false);
    const refilled = stockStep(card(true, true, 9), cfg, first.memory);
    expect(stockStep(card(true, true, 2), cfg, refilled.memory).low).toBe(true);
  });
});

describe('repricing', () => {
  const cfg = { floor: 400, ceiling: 900, offsetRub: 0 };
  const hour = 3_600_000;

  it('never goes below the floor nor above the ceiling', () => {
    expect(repriceStep(500, 325, cfg, undefined, 0, hour)).toEqual({ after: 400, why: 'stopped at the floor', toward: 'floor' });
    expect(repriceStep(400, 325, cfg, undefined, 0, hour)).toEqual({ after: null, why: 'at the floor' });
    expect(repriceStep(500, 5000, cfg, undefined, 0, hour)).toMatchObject({ after: 900 });
    expect(repriceStep(300, 100, cfg, undefined, 0, hour)).toMatchObject({ after: 400 }); // a price under the floor is lifted
  });

  it('moves by at most maxStepRub, at most once per interval, and not without a usual price', () => {
    expect(repriceStep(500, 700, { ...cfg, maxStepRub: 50 }, undefined, 0, hour)).toMatchObject({ after: 550 });
    expect(repriceStep(500, 650, { ...cfg, offsetRub: -100 }, undefined, 0, hour)).toMatchObject({ after: 550 });
    expect(repriceStep(500, 700, cfg, 0, hour - 1, hour)).toMatchObject({ after: null });
    expect(repriceStep(500, 700, cfg, 0, hour, hour)).toMatchObject({ after: 700 });
    expect(repriceStep(500, null, cfg, undefined, 0, hour)).toMatchObject({ after: null });
  });
});

describe('replies', () => {
  const templates = defineAutopilot({ replies: { templates: [{ name: 'when', keywords: ['When', 'how long'], text: 'Within the hour.' }] } }).replies!.templates;
  const msg = (id: string, from: 'buyer' | 'seller', text: string) => ({ id, from, text, at: times.createdAt });

  it('answers the buyer’s latest message once, then stops at the cap', () => {
    const first = replyStep([msg('msg_1', 'buyer', 'so WHEN is it coming?')], templates, undefined, 1);
    expect(first).toMatchObject({ kind: 'reply', message: 'msg_1', name: 'when' });
    expect(replyStep([msg('msg_1', 'buyer', 'when?')], templates, { count: 1, lastMessage: 'msg_1' }, 1)).toEqual({ kind: 'none' });
    const thread = [msg('msg_1', 'buyer', 'when?'), msg('msg_2', 'seller', 'Within the hour.'), msg('msg_3', 'buyer', 'how long still?')];
    expect(replyStep(thread, templates, { count: 1, lastMessage: 'msg_1' }, 1)).toEqual({ kind: 'capped', message: 'msg_3' });
    expect(replyStep(thread, templates, { count: 1, lastMessage: 'msg_1' }, 2)).toMatchObject({ kind: 'reply', message: 'msg_3' });
  });

  it('leaves unmatched messages and messages the seller already answered', () => {
    expect(replyStep([msg('msg_1', 'buyer', 'thanks!')], templates, undefined, 1)).toEqual({ kind: 'unmatched', message: 'msg_1' });
    expect(replyStep([msg('msg_1', 'buyer', 'when?'), msg('msg_2', 'seller', 'soon')], templates, undefined, 1)).toEqual({ kind: 'none' });
  });
});

describe('the service clock and the state file', () => {
  it('learns how far the service is ahead, never backwards', () => {
    let local = 1_000_000;
    const clock = new ServiceClock(() => local);
    clock.observe(new Date(local - 5000).toISOString());
    expect(clock.now()).toBe(local);
    clock.observe(new Date(local + 60_000).toISOString());
    expect(clock.now()).toBe(local + 60_000);
    clock.observe(new Date(local + 1000).toISOString());
    local += 10;
    expect(clock.now()).toBe(local + 60_000);
  });

  it('writes the state atomically, shares writes, and refuses a file that is not a state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'autopilot-state-'));
    try {
      const path = join(dir, 'sub', 'state.json');
      const store = fileAutopilotStore(path);
      expect(await store.load()).toEqual(emptyState());
      const state = emptyState();
      const saves = [];
      for (let i = 0; i < 20; i++) {
        state.warned[`ord_${i}`] = 'x';
        saves.push(store.save(state));
      }
      await Promise.all(saves);
      expect(Object.keys((await store.load()).warned)).toHaveLength(20);
      writeFileSync(path, '{"since": "x"}');
      await expect(store.load()).rejects.toThrow(/not an autopilot state file/);
      writeFileSync(path, 'garbage');
      await expect(store.load()).rejects.toThrow(/invalid JSON/);
      expect(readFileSync(path, 'utf8')).toBe('garbage');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
