import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rub } from '../../cli/commands/money.ts';
import { parseQuiet } from '../../cli/commands/work-mode.ts';
import { apiError, bufferIO, fakeClient, LIVE_KEY, pagedOf, run, scriptedPrompter, tempConfigDir, tableBody } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
let env: Record<string, string>;
beforeEach(() => {
  config = tempConfigDir();
  env = { SELLER_CONFIG_DIR: config.dir, SERVICE_API_KEY: LIVE_KEY };
});
afterEach(() => config.cleanup());

const AT = '2026-11-21T08:00:00.000Z';
const CONTACTS = () => apiError(409, { error: 'rejected', refusal: { kind: 'contacts', field: 'text', reason: 'email' } });

// ---------------------------------------------------------------------------------------------

describe('seller work-mode', () => {
  const MODE = { capacity: 5, doNotDisturb: false, quietHours: { from: '23:00', to: '08:00', tz: 'Europe/Moscow' }, presence: 'online' };

  it('show prints every setting and the presence as read-only', async () => {
    const client = () => fakeClient({ workMode: { get: async () => MODE } });
    const result = await run(['work-mode', 'show'], bufferIO({ env }), { client });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Capacity:\s+5 orders at a time/);
    expect(result.out).toMatch(/Do not disturb:\s+off/);
    expect(result.out).toMatch(/Quiet hours:\s+23:00-08:00 \(Europe\/Moscow\)/);
    expect(result.out).toMatch(/Presence:\s+online \(decided by the marketplace\)/);
  });

  it('set sends only what was given', async () => {
    const set = vi.fn(async () => MODE);
    const client = () => fakeClient({ workMode: { set } });
    const result = await run(['work-mode', 'set', '--capacity', 'none', '--dnd', 'on', '--quiet', '23:00-8:00', '--tz', 'Europe/Moscow'], bufferIO({ env }), { client });
    expect(result.code).toBe(0);
    expect(set).toHaveBeenCalledWith({ capacity: null, doNotDisturb: true, quietHours: { from: '23:00', to: '08:00', tz: 'Europe/Moscow' } });
    await run(['work-mode', 'set', '--no-quiet'], bufferIO({ env }), { client });
    expect(set).toHaveBeenLastCalledWith({ quietHours: null });
    await run(['work-mode', 'set', '--capacity', '3'], bufferIO({ env }), { client });
    expect(set).toHaveBeenLastCalledWith({ capacity: 3 });
  });

  it('refuses bad values and an empty change before any call (exit 2)', async () => {
    const client = vi.fn(() => fakeClient({}));
    const cases: [string[], string][] = [
      [['work-mode', 'set'], 'nothing to change'],
      [['work-mode', 'set', '--capacity', '0'], 'from 1 to 10000'],
      [['work-mode', 'set', '--quiet', '25:00-08:00', '--tz', 'UTC'], 'not a range HH:MM-HH:MM'],
      [['work-mode', 'set', '--quiet', '23:00-08:00', '--tz', 'Mars/Base'], 'is not a time zone'],
      [['work-mode', 'set', '--quiet', '23:00-08:00'], '--tz is required'],
      [['work-mode', 'set', '--tz', 'UTC'], '--tz needs --quiet'],
      [['work-mode', 'set', '--dnd', 'maybe'], "Allowed choices are on, off"],
    ];
    for (const [argv, message] of cases) {
      const result = await run(argv, bufferIO({ env }), { client });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err, argv.join(' ')).toContain(message);
    }
    expect(client).not.toHaveBeenCalled();
  });

  it('has no presence flag, and its help says why', async () => {
    const result = await run(['work-mode', 'set', '--help'], bufferIO({ env }), {});
    expect(result.out).not.toContain('--presence');
    expect(result.out).toContain('the marketplace decides it from your activity');
    const tried = await run(['work-mode', 'set', '--presence', 'online'], bufferIO({ env }), {});
    expect(tried.code).toBe(2);
  });

  it('parseQuiet accepts 9:00 and refuses an empty range', () => {
    expect(parseQuiet('9:00-18:30')).toEqual({ from: '09:00', to: '18:30' });
    expect(() => parseQuiet('10:00-10:00')).toThrow(/empty/);
  });
});

// ---------------------------------------------------------------------------------------------

const question = (id: string, answer: string | null = null) => ({ id, number: 1001, text: `Does ${id} work in Russia?`, answer, at: AT });
const review = (id: string, stars: number, reply: string | null = null) => ({ id, number: 1002, stars, text: 'Fast and fine', reply, at: AT });

describe('seller questions', () => {
  it('list passes --unanswered and prints a table', async () => {
    const list = vi.fn(() => pagedOf([[question('q_1'), question('q_2', 'Yes')]]));
    const result = await run(['questions', 'list', '--unanswered'], bufferIO({ env }), { client: () => fakeClient({ questions: { list } }) });
    expect(result.code).toBe(0);
    expect(list).toHaveBeenCalledWith({ onlyUnanswered: true, limit: undefined, cursor: undefined });
    expect(tableBody(result.out)).toBe(`q_1\t#1001\t${AT}\tDoes q_1 work in Russia?\tunanswered\nq_2\t#1001\t${AT}\tDoes q_2 work in Russia?\tYes\n`);
  });

  it('list with --json and --all prints every page', async () => {
    const list = vi.fn(() => pagedOf([[question('q_1')], [question('q_2')]]));
    const result = await run(['--json', 'questions', 'list', '--all'], bufferIO({ env }), { client: () => fakeClient({ questions: { list } }) });
    expect(JSON.parse(result.out).items.map((q: { id: string }) => q.id)).toEqual(['q_1', 'q_2']);
  });

  it('answer sends the text', async () => {
    const answer = vi.fn(async (id: string, body: { text: string }) => question(id, body.text));
    const result = await run(['questions', 'answer', 'q_1', '--text', 'Yes, it does'], bufferIO({ env }), { client: () => fakeClient({ questions: { answer } }) });
    expect(result).toMatchObject({ code: 0, out: 'Answered q_1 (card #1001).\n' });
    expect(answer).toHaveBeenCalledWith('q_1', { text: 'Yes, it does' });
  });

  it('a contact-filter refusal says what to remove', async () => {
    const answer = async () => {
      throw CONTACTS();
    };
    const result = await run(['questions', 'answer', 'q_1', '--text', 'mail me at a@b.c'], bufferIO({ env }), { client: () => fakeClient({ questions: { answer } }) });
    expect(result.code).toBe(1);
    expect(result.err).toContain('refused: contacts');
    expect(result.err).toContain('remove e-mails, phone numbers and messenger handles');
  });

  it('answer without --text and without a terminal names the flag', async () => {
    const result = await run(['questions', 'answer', 'q_1'], bufferIO({ env }), { client: () => fakeClient({}) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--text is required');
  });
});

describe('seller reviews', () => {
  it('list shows stars on a terminal and numbers when piped', async () => {
    const client = () => fakeClient({ reviews: { list: () => pagedOf([[review('rev_1', 4, 'Thanks')]]) } });
    const tty = await run(['reviews', 'list'], bufferIO({ env: { ...env, NO_COLOR: '1' }, tty: true }), { client });
    expect(tty.out).toContain('★★★★☆');
    const piped = await run(['reviews', 'list'], bufferIO({ env }), { client });
    expect(tableBody(piped.out)).toBe(`rev_1\t#1002\t4\t${AT}\tFast and fine\tThanks\n`);
  });

  it('reply sends the text, and a contacts refusal gets the hint', async () => {
    const reply = vi.fn(async (id: string, body: { text: string }) => review(id, 5, body.text));
    const ok = await run(['reviews', 'reply', 'rev_1', '--text', 'Thank you!'], bufferIO({ env }), { client: () => fakeClient({ reviews: { reply } }) });
    expect(ok).toMatchObject({ code: 0, out: 'Replied to rev_1 (card #1002).\n' });
    const refused = await run(['reviews', 'reply', 'rev_1', '--text', 'tg @me'], bufferIO({ env }), {
      client: () =>
        fakeClient({
          reviews: {
            reply: async () => {
              throw CONTACTS();
            },
          },
        }),
    });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('messenger handles');
  });

  it('reply reads the text from stdin with --text -', async () => {
    const reply = vi.fn(async (id: string, body: { text: string }) => review(id, 5, body.text));
    await run(['reviews', 'reply', 'rev_1', '--text', '-'], bufferIO({ env, stdin: 'Thank you!\n' }), { client: () => fakeClient({ reviews: { reply } }) });
    expect(reply).toHaveBeenCalledWith('rev_1', { text: 'Thank you!' });
  });
});

describe('seller complaints', () => {
  const complaint = { id: 'cmp_1', order: 'ord_1', reason: 'chargeback', text: 'Charged back after delivery', at: AT };

  it('file sends order, reason and text', async () => {
    const create = vi.fn(async () => complaint);
    const result = await run(['complaints', 'file', '--order', 'ord_1', '--reason', 'chargeback', '--text', 'Charged back after delivery'], bufferIO({ env }), {
      client: () => fakeClient({ complaints: { create } }),
    });
    expect(result).toMatchObject({ code: 0, out: 'Filed cmp_1 about the buyer of ord_1 (chargeback).\n' });
    expect(create).toHaveBeenCalledWith({ order: 'ord_1', reason: 'chargeback', text: 'Charged back after delivery' });
  });

  it('names every missing flag without a terminal; a reason our list does not know is passed on', async () => {
    const client = vi.fn(() => fakeClient({}));
    const missing = await run(['complaints', 'file', '--order', 'ord_1'], bufferIO({ env }), { client });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing flags: --reason --text');
    expect(client).not.toHaveBeenCalled();
    const other = await run(['complaints', 'file', '--order', 'ord_1', '--reason', 'rude', '--text', 'x'], bufferIO({ env }), { client });
    expect(other.err).not.toContain('Allowed choices');
    expect(client).toHaveBeenCalled();
  });

  it('asks on a terminal', async () => {
    const create = vi.fn(async () => complaint);
    const prompter = scriptedPrompter({ text: ['ord_1', 'fraud', 'Stolen card'] });
    const result = await run(['complaints', 'file'], bufferIO({ env, tty: true }), { client: () => fakeClient({ complaints: { create } }), prompter });
    expect(result.code).toBe(0);
    expect(create).toHaveBeenCalledWith({ order: 'ord_1', reason: 'fraud', text: 'Stolen card' });
  });

  it('a contacts refusal gets the hint; list prints a table', async () => {
    const create = async () => {
      throw CONTACTS();
    };
    const refused = await run(['complaints', 'file', '--order', 'ord_1', '--reason', 'abuse', '--text', 'call +79991234567'], bufferIO({ env }), {
      client: () => fakeClient({ complaints: { create } }),
    });
    expect(refused.err).toContain('remove e-mails, phone numbers and messenger handles');
    const listed = await run(['complaints', 'list'], bufferIO({ env }), { client: () => fakeClient({ complaints: { list: () => pagedOf([[complaint]]) } }) });
    expect(tableBody(listed.out)).toBe(`cmp_1\tord_1\tchargeback\t${AT}\tCharged back after delivery\n`);
  });
});

// ---------------------------------------------------------------------------------------------

describe('seller stats', () => {
  const STATS = {
    period: 'week',
    revenueRub: 12_500,
    orders: 9,
    completed: 6,
    refunded: 1,
    averageRub: 1563,
    listings: [
      { number: 1002, revenueRub: 10_000, orders: 5 },
      { number: 1001, revenueRub: 2_500, orders: 4 },
    ],
  };

  it('renders a readable summary with revenue per card', async () => {
    const get = vi.fn(async () => STATS);
    const result = await run(['stats', '--period', 'week', '--sort', 'revenue'], bufferIO({ env: { ...env, NO_COLOR: '1' }, tty: true }), { client: () => fakeClient({ stats: { get } }) });
    expect(result.code).toBe(0);
    expect(get).toHaveBeenCalledWith({ period: 'week', sort: 'revenue' });
    const lines = result.out.split('\n');
    expect(lines[0]).toBe('Stats for this week (since Monday 00:00 UTC)');
    expect(result.out).toMatch(/Revenue:\s+12 500 RUB/);
    expect(result.out).toMatch(/Orders:\s+9 paid, 6 completed, 1 refunded/);
    expect(result.out).toMatch(/Average order:\s+1 563 RUB/);
    expect(result.out).toContain('Revenue per card:');
    expect(result.out).toMatch(/^CARD\s+REVENUE\s+ORDERS\s+SHARE$/m);
    expect(result.out).toMatch(/^#1002\s+10 000 RUB\s+5\s+80%$/m);
    expect(result.out).toMatch(/^#1001\s+2 500 RUB\s+4\s+20%$/m);
    expect(result.out.indexOf('#1002')).toBeLessThan(result.out.indexOf('#1001'));
  });

  it('defaults to all time, and says when no card sold', async () => {
    const get = vi.fn(async () => ({ ...STATS, period: 'all', revenueRub: 0, orders: 0, completed: 0, refunded: 0, averageRub: 0, listings: [] }));
    const result = await run(['stats'], bufferIO({ env }), { client: () => fakeClient({ stats: { get } }) });
    expect(get).toHaveBeenCalledWith({ period: 'all', sort: undefined });
    expect(result.out).toContain('Stats for all time');
    expect(result.out).toContain('No card sold in this period.');
  });

  it('--json prints the answer as is; a bad period is a usage error', async () => {
    const get = vi.fn(async () => STATS);
    const json = await run(['--json', 'stats', '--period', 'week'], bufferIO({ env }), { client: () => fakeClient({ stats: { get } }) });
    expect(JSON.parse(json.out)).toEqual(STATS);
    const bad = await run(['stats', '--period', 'year'], bufferIO({ env }), { client: () => fakeClient({ stats: { get } }) });
    expect(bad.code).toBe(2);
  });

  it('rub groups thousands', () => {
    expect(rub(0)).toBe('0 RUB');
    expect(rub(1234567)).toBe('1 234 567 RUB');
  });
});

describe('seller payouts, clients, rating', () => {
  it('payouts show only the account tail', async () => {
    const payout = { id: 'pay_1', amountRub: 9000, status: 'paid', method: 'account', accountTail: '2345', createdAt: AT, paidAt: AT };
    const result = await run(['payouts'], bufferIO({ env }), { client: () => fakeClient({ payouts: { list: () => pagedOf([[payout]]) } }) });
    expect(tableBody(result.out)).toBe(`pay_1\t9 000 RUB\tpaid\taccount …2345\t${AT}\t${AT}\n`);
    const none = await run(['payouts'], bufferIO({ env }), { client: () => fakeClient({ payouts: { list: () => pagedOf([[]]) } }) });
    expect(none.err).toBe('No payouts yet.\n');
  });

  it('clients pass --limit and --skip and say where the page is', async () => {
    const items = [{ client: 'cl_aaaa', orders: 3, spentRub: 1500, lastOrderAt: AT }];
    const list = vi.fn(() => Promise.resolve({ items, total: 7 }));
    const result = await run(['clients', '--limit', '1', '--skip', '2'], bufferIO({ env }), { client: () => fakeClient({ clients: { list } }) });
    expect(result.code).toBe(0);
    expect(list).toHaveBeenCalledWith({ limit: 1, skip: 2 });
    expect(tableBody(result.out)).toBe(`cl_aaaa\t3\t1 500 RUB\t${AT}\n`);
    expect(result.err).toContain('Clients 3-3 of 7. Next: --skip 3');
  });

  it('rating is readable, and --json is the answer', async () => {
    const RATING = { score: 4.5, reviews: 4, positive: 3, negative: 1, completedOrders: 12, disputeRate: 0.0833 };
    const client = () => fakeClient({ rating: { get: async () => RATING } });
    const result = await run(['rating'], bufferIO({ env }), { client });
    expect(result.out).toMatch(/Score:\s+4\.50 \/ 5/);
    expect(result.out).toMatch(/Reviews:\s+4 \(3 positive, 1 negative\)/);
    expect(result.out).toMatch(/Dispute rate:\s+8\.3%/);
    const none = await run(['rating'], bufferIO({ env }), { client: () => fakeClient({ rating: { get: async () => ({ ...RATING, score: null, reviews: 0 }) } }) });
    expect(none.out).toMatch(/Score:\s+no reviews yet/);
    const json = await run(['--json', 'rating'], bufferIO({ env }), { client });
    expect(JSON.parse(json.out)).toEqual(RATING);
  });
});
