import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order, OrderStatus } from '../../sdk/contract/index.ts';
import type { WatchOptions } from '../../sdk/watch.ts';
import { parseSince } from '../../cli/commands/orders-common.ts';
import { parseClock } from '../../cli/commands/sandbox.ts';
import { netflixOrder } from '../helpers/fixtures.ts';
import { apiError, bufferIO, fakeClient, LIVE_KEY, pagedOf, run, scriptedPrompter, tempConfigDir, tableBody } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
let env: Record<string, string>;
beforeEach(() => {
  config = tempConfigDir();
  env = { SELLER_CONFIG_DIR: config.dir, SERVICE_API_KEY: LIVE_KEY };
});
afterEach(() => config.cleanup());

function order(id: string, status: OrderStatus = 'awaiting_delivery', updatedAt = '2026-11-21T08:00:00.000Z'): Order {
  return netflixOrder(id, status, {
    deliverBy: '2026-11-21T09:00:00.000Z',
    createdAt: '2026-11-21T07:59:00.000Z',
    paidAt: '2026-11-21T08:00:00.000Z',
    updatedAt,
  });
}

/** The orders section: `get` and `vaults` answer an invite order with no vaults unless a test stubs them. */
const client = (stubs: Record<string, unknown>) => () =>
  fakeClient({ orders: { get: async (id: string) => order(id), vaults: async () => ({ items: [] }), ...stubs } });

describe('seller orders list', () => {
  it('prints a table of every page with --all and passes the filters', async () => {
    const list = vi.fn(() => pagedOf([[order('ord_a')], [order('ord_b', 'delivered')]]));
    const result = await run(['orders', 'list', '--needs-action', '--status', 'awaiting_delivery', '--all'], bufferIO({ env }), { client: client({ list }) });
    expect(result.code).toBe(0);
    expect(list).toHaveBeenCalledWith({ status: 'awaiting_delivery', needsAction: true, updatedSince: undefined, limit: undefined, cursor: undefined });
    expect(tableBody(result.out).split('\n')[0]).toBe('ord_a\t#1001\tnetflix/premium\t500 RUB\tawaiting_delivery\tneeds action\t2026-11-21T09:00:00.000Z\t2026-11-21T08:00:00.000Z');
    expect(result.out).toMatch(/^ord_b\t.*\tdelivered\t-\t/m);
  });

  it('turns --since 2h into updatedSince two hours ago; passes a status our list does not know on to the service', async () => {
    const list = vi.fn(() => pagedOf([[]]));
    const before = Date.now();
    const result = await run(['orders', 'list', '--since', '2h'], bufferIO({ env }), { client: client({ list }) });
    expect(result).toMatchObject({ code: 0, err: 'No orders.\n' });
    // The service's clock is read first (an answer without a Date header leaves this computer's).
    const since = Date.parse((list.mock.calls.at(-1) as unknown as [{ updatedSince: string }])[0].updatedSince);
    expect(Math.abs(before - 2 * 3600_000 - since)).toBeLessThan(5000);
    const other = await run(['orders', 'list', '--status', 'on_hold'], bufferIO({ env }), { client: client({ list }) });
    expect(other.code).toBe(0);
    expect((list.mock.calls.at(-1) as unknown as [{ status: string }])[0].status).toBe('on_hold');
    const badSince = await run(['orders', 'list', '--since', 'soon'], bufferIO({ env }), { client: client({ list }) });
    expect(badSince.code).toBe(2);
    expect(badSince.err).toMatch(/--since: "soon" is not/);
  });

  it('with --json prints the page; a next cursor is mentioned without --all', async () => {
    const list = vi.fn(() => pagedOf([[order('ord_a')], [order('ord_b')]]));
    const json = await run(['orders', 'list', '--json'], bufferIO({ env }), { client: client({ list }) });
    expect(JSON.parse(json.out)).toEqual({ items: [order('ord_a')], nextCursor: '1' });
    const human = await run(['orders', 'list'], bufferIO({ env }), { client: client({ list }) });
    expect(human.err).toMatch(/More orders: add --all, or --cursor 1/);
  });
});

describe('parseSince', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z');
  it('reads times, dates, now, all and ages', () => {
    expect(parseSince('2026-11-20T10:00:00Z', now)).toBe('2026-11-20T10:00:00.000Z');
    expect(parseSince('2026-11-20', now)).toBe('2026-11-20T00:00:00.000Z');
    expect(parseSince('now', now)).toBe('2026-11-21T12:00:00.000Z');
    expect(parseSince('all', now)).toBe('1970-01-01T00:00:00.000Z');
    expect(parseSince('1h30m', now)).toBe('2026-11-21T10:30:00.000Z');
    expect(parseSince('1d', now)).toBe('2026-11-20T12:00:00.000Z');
    expect(() => parseSince('yesterday', now)).toThrow(/is not/);
  });
});

describe('seller orders deliver: the vault rule of code and credentials orders', () => {
  const codeOrder = (id: string) => ({ ...order(id), productType: 'code', deliveryMethod: 'code' });
  it.each(['code', 'credentials'])('a %s order with an empty own vault is refused before the call (exit 2)', async (method) => {
    const deliver = vi.fn();
    const get = vi.fn(async (id: string) => ({ ...codeOrder(id), deliveryMethod: method }));
    const vaults = vi.fn(async () => ({ items: [{ side: 'other', opened: false }] }));
    const result = await run(['orders', 'deliver', 'ord_a'], bufferIO({ env }), { client: client({ get, vaults, deliver }) });
    expect(result.code).toBe(2);
    expect(result.err).toContain(`ord_a is a ${method} order and your vault is empty: the buyer would get nothing`);
    expect(result.err).toContain('seller orders vault put ord_a');
    expect(deliver).not.toHaveBeenCalled();
  });

  it('with the own vault filled, or with --without-vault, it delivers; other methods are not checked', async () => {
    const answer = { order: 'ord_a', status: 'delivered', noteRejected: null };
    const deliver = vi.fn(async () => answer);
    const filled = vi.fn(async () => ({ items: [{ side: 'own', opened: false }] }));
    const ok = await run(['orders', 'deliver', 'ord_a'], bufferIO({ env }), { client: client({ get: async (id: string) => codeOrder(id), vaults: filled, deliver }) });
    expect(ok.code, ok.err).toBe(0);
    const empty = vi.fn(async () => ({ items: [] }));
    const forced = await run(['orders', 'deliver', 'ord_a', '--without-vault'], bufferIO({ env }), { client: client({ get: async (id: string) => codeOrder(id), vaults: empty, deliver }) });
    expect(forced.code, forced.err).toBe(0);
    expect(empty).not.toHaveBeenCalled();
    const invite = await run(['orders', 'deliver', 'ord_a'], bufferIO({ env }), { client: client({ vaults: empty, deliver }) });
    expect(invite.code).toBe(0);
    expect(empty).not.toHaveBeenCalled();
    expect(deliver).toHaveBeenCalledTimes(3);
  });
});

describe('seller orders show', () => {
  it('shows the fields, vault sides, messages and the next step', async () => {
    const get = vi.fn(async () => ({
      ...order('ord_a'),
      messages: [{ id: 'msg_1', from: 'buyer', text: 'hello\nthere', at: '2026-11-21T08:01:00.000Z' }],
    }));
    const vaults = vi.fn(async () => ({ items: [{ side: 'other', opened: false }] }));
    const result = await run(['orders', 'show', 'ord_a'], bufferIO({ env }), { client: client({ get, vaults }) });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Order ord_a: card #1001, netflix\/premium/);
    expect(result.out).toMatch(/Status:\s+awaiting_delivery \(needs action\)/);
    expect(result.out).toMatch(/Vaults:\s+the buyer's: not opened/);
    expect(result.out).toMatch(/buyer\s+hello/);
    expect(result.err).toMatch(/Next: seller orders deliver ord_a --next-charge YYYY-MM-DD/);
  });

  it('a zero guarantee reads "none", never "0 d, until <now>"; a real one keeps its end', async () => {
    const vaults = vi.fn(async () => ({ items: [] }));
    const none = vi.fn(async () => ({ ...order('ord_a', 'delivered'), guaranteeDays: 0, guaranteeUntil: '2026-11-21T08:00:00.000Z', messages: [] }));
    const zero = await run(['orders', 'show', 'ord_a'], bufferIO({ env }), { client: client({ get: none, vaults }) });
    expect(zero.out).toMatch(/^Guarantee:\s+none$/m);
    expect(zero.out).not.toMatch(/0 d/);
    const some = vi.fn(async () => ({ ...order('ord_a', 'delivered'), guaranteeDays: 30, guaranteeUntil: '2026-12-21T08:00:00.000Z', messages: [] }));
    const thirty = await run(['orders', 'show', 'ord_a'], bufferIO({ env }), { client: client({ get: some, vaults }) });
    expect(thirty.out).toMatch(/^Guarantee:\s+30 d, until 2026-12-21T08:00:00.000Z$/m);
  });

  it('with --json prints the order with its vaults', async () => {
    const get = vi.fn(async () => ({ ...order('ord_a'), messages: [] }));
    const vaults = vi.fn(async () => ({ items: [{ side: 'own', opened: true }] }));
    const result = await run(['orders', 'show', 'ord_a', '--json'], bufferIO({ env }), { client: client({ get, vaults }) });
    expect(JSON.parse(result.out)).toEqual({ ...order('ord_a'), messages: [], vaults: [{ side: 'own', opened: true }] });
    expect(result.err).toBe('');
  });
});

describe('seller orders deliver', () => {
  it('warns clearly when the service rejected a note the offline check passed, and tells how to send it as a message', async () => {
    const deliver = vi.fn(async () => ({ order: 'ord_a', status: 'delivered', noteRejected: 'contacts: the note contains a phone number' }));
    const result = await run(['orders', 'deliver', 'ord_a', '--next-charge', '2036-12-21', '--note', 'see you soon'], bufferIO({ env }), {
      client: client({ deliver }),
    });
    expect(result.code).toBe(0);
    expect(deliver).toHaveBeenCalledWith('ord_a', { nextChargeDay: '2036-12-21', note: 'see you soon' });
    expect(result.out).toBe('Delivered ord_a: now delivered.\n');
    expect(result.err).toMatch(/^warning: the order was delivered, but the note was NOT sent to the buyer: contacts: the note contains a phone number$/m);
    expect(result.err).toContain('seller orders message ord_a --text');
  });

  it('with --json prints the answer and still warns on stderr; no warning for an accepted note', async () => {
    const answer = { order: 'ord_a', status: 'delivered', noteRejected: 'contacts' };
    const json = await run(['orders', 'deliver', 'ord_a', '--note', 'x', '--json'], bufferIO({ env }), { client: client({ deliver: async () => answer }) });
    expect(JSON.parse(json.out)).toEqual(answer);
    expect(json.err).toMatch(/NOT sent/);
    const clean = await run(['orders', 'deliver', 'ord_a'], bufferIO({ env }), { client: client({ deliver: async () => ({ ...answer, noteRejected: null }) }) });
    expect(clean).toMatchObject({ code: 0, err: '' });
  });

  it('reads the note from a file or stdin, and refuses both --note and --note-file', async () => {
    const deliver = vi.fn(async () => ({ order: 'ord_a', status: 'delivered', noteRejected: null }));
    await run(['orders', 'deliver', 'ord_a', '--note-file', '-'], bufferIO({ env, stdin: 'Thanks!\n' }), { client: client({ deliver }) });
    expect(deliver).toHaveBeenLastCalledWith('ord_a', { nextChargeDay: undefined, note: 'Thanks!' });
    const both = await run(['orders', 'deliver', 'ord_a', '--note', 'a', '--note-file', '-'], bufferIO({ env }), { client: client({ deliver }) });
    expect(both.code).toBe(2);
    const badDate = await run(['orders', 'deliver', 'ord_a', '--next-charge', '31.02.2026'], bufferIO({ env }), { client: client({ deliver }) });
    expect(badDate.code).toBe(1);
    expect(badDate.err).toContain('"31.02.2026" is not a real date');
    const missing = await run(['orders', 'deliver', 'ord_a', '--note-file', join(tmpdir(), 'no-such-note-file.txt')], bufferIO({ env }), { client: client({ deliver }) });
    expect(missing.code).toBe(2); // the same exit code and wording as every file a command reads (cli/lib/input.ts)
    expect(missing.err).toMatch(/--note-file: cannot read .*no-such-note-file\.txt: no such file \(ENOENT\)/);
    expect(deliver).toHaveBeenCalledTimes(1);
  });

  it('adds a hint to need_next_charge and state_moved refusals', async () => {
    const refuse = (kind: string) => async () => {
      throw apiError(409, { error: 'rejected', detail: `refused ${kind}`, refusal: { kind } });
    };
    const need = await run(['orders', 'deliver', 'ord_a'], bufferIO({ env }), { client: client({ deliver: refuse('need_next_charge') }) });
    expect(need.code).toBe(1);
    expect(need.err).toMatch(/^error: a subscription .* --next-charge YYYY-MM-DD\) \(rejected: need_next_charge\)$/m);
    expect(need.err).toMatch(/refused: need_next_charge/);
    expect(need.err).toMatch(/hint: add --next-charge YYYY-MM-DD/);
    const moved = await run(['orders', 'deliver', 'ord_a'], bufferIO({ env }), { client: client({ deliver: refuse('state_moved') }) });
    expect(moved.err).toContain('hint: the order moved on; re-read it with `seller orders show ord_a`');
    const confirm = await run(['orders', 'confirm', 'ord_a'], bufferIO({ env }), { client: client({ confirm: refuse('state_moved') }) });
    expect(confirm.err).toContain('re-read it with `seller orders show ord_a`');
  });
});

describe('seller orders message, decline, dispute-reply', () => {
  it('sends text from the flag or stdin; a contacts refusal gets a hint', async () => {
    const message = vi.fn(async () => ({ id: 'msg_1', from: 'seller', text: 'hi', at: '2026-11-21T08:00:00.000Z' }));
    const sent = await run(['orders', 'message', 'ord_a', '--text', 'hi'], bufferIO({ env }), { client: client({ message }) });
    expect(sent).toMatchObject({ code: 0, out: 'Sent msg_1 to the buyer of ord_a.\n' });
    await run(['orders', 'message', 'ord_a', '--text', '-'], bufferIO({ env, stdin: 'from stdin\n' }), { client: client({ message }) });
    expect(message).toHaveBeenLastCalledWith('ord_a', { text: 'from stdin' });
    const refused = await run(['orders', 'message', 'ord_a', '--text', 'mail me'], bufferIO({ env }), {
      client: client({ message: async () => { throw apiError(409, { error: 'rejected', refusal: { kind: 'contacts', field: 'text' } }); } }),
    });
    expect(refused.err).toMatch(/hint: remove e-mail addresses/);
    const missing = await run(['orders', 'message', 'ord_a'], bufferIO({ env }), { client: client({ message }) });
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--text is required/);
  });

  it('decline asks for the reason on a terminal; dispute-reply names not_disputed', async () => {
    const decline = vi.fn(async () => order('ord_a', 'declined'));
    const prompter = scriptedPrompter({ text: ['out of stock'] });
    const declined = await run(['orders', 'decline', 'ord_a'], bufferIO({ env, tty: true }), { client: client({ decline }), prompter });
    expect(declined.out).toMatch(/Declined ord_a: now declined/);
    expect(decline).toHaveBeenCalledWith('ord_a', { reason: 'out of stock' });
    const reply = await run(['orders', 'dispute-reply', 'ord_a', '--text', 'done'], bufferIO({ env }), {
      client: client({ disputeReply: async () => { throw apiError(409, { error: 'rejected', refusal: { kind: 'not_disputed' } }); } }),
    });
    expect(reply.err).toMatch(/hint: only a disputed order takes a dispute reply/);
  });
});

describe('seller orders vault', () => {
  it('reveal prints the secret once on stdout and warns on stderr', async () => {
    const reveal = vi.fn(async () => ({ secret: 'login: a / pass: b' }));
    const result = await run(['orders', 'vault', 'reveal', 'ord_a', '--yes'], bufferIO({ env }), { client: client({ reveal }) });
    expect(result).toMatchObject({ code: 0, out: 'login: a / pass: b\n' });
    expect(result.err).toMatch(/warning: .*cannot be read again/);
    expect(result.err).not.toContain('pass: b');
    const json = await run(['orders', 'vault', 'reveal', 'ord_a', '--json', '--yes'], bufferIO({ env }), { client: client({ reveal }) });
    expect(JSON.parse(json.out)).toEqual({ secret: 'login: a / pass: b' });
    expect(json.err).toMatch(/cannot be read again/);
  });

  it('reveal of an opened vault says it can be read once', async () => {
    const reveal = async () => { throw apiError(409, { error: 'rejected', refusal: { kind: 'already_opened' } }); };
    const result = await run(['orders', 'vault', 'reveal', 'ord_a', '-y'], bufferIO({ env }), { client: client({ reveal }) });
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/hint: the buyer's vault can be read only once/);
  });

  it('put reads the secret from stdin, a file, or a hidden prompt; never from a flag', async () => {
    const putVault = vi.fn(async () => ({ side: 'own', opened: false }));
    const piped = await run(['orders', 'vault', 'put', 'ord_a'], bufferIO({ env, stdin: 's3cret\n' }), { client: client({ putVault }) });
    expect(piped.code).toBe(0);
    expect(putVault).toHaveBeenLastCalledWith('ord_a', { secret: 's3cret' });
    expect(piped.out).not.toContain('s3cret');

    const dir = mkdtempSync(join(tmpdir(), 'vault-'));
    try {
      writeFileSync(join(dir, 'secret.txt'), 'from-file\n');
      await run(['orders', 'vault', 'put', 'ord_a', '--secret-file', join(dir, 'secret.txt')], bufferIO({ env }), { client: client({ putVault }) });
      expect(putVault).toHaveBeenLastCalledWith('ord_a', { secret: 'from-file' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const prompter = scriptedPrompter({ secret: ['typed'] });
    await run(['orders', 'vault', 'put', 'ord_a'], bufferIO({ env, tty: true }), { client: client({ putVault }), prompter });
    expect(putVault).toHaveBeenLastCalledWith('ord_a', { secret: 'typed' });
    expect(prompter.asked).toEqual(['Credentials for the buyer']);

    const flag = await run(['orders', 'vault', 'put', 'ord_a', '--secret', 'x'], bufferIO({ env }), { client: client({ putVault }) });
    expect(flag.code).toBe(2);
    const empty = await run(['orders', 'vault', 'put', 'ord_a'], bufferIO({ env, stdin: '' }), { client: client({ putVault }) });
    expect(empty.code).toBe(2);
    expect(putVault).toHaveBeenCalledTimes(3);
  });

  it('list shows sides and opened flags', async () => {
    const vaults = async () => ({ items: [{ side: 'own', opened: true }, { side: 'other', opened: false }] });
    const result = await run(['orders', 'vault', 'list', 'ord_a'], bufferIO({ env }), { client: client({ vaults }) });
    expect(tableBody(result.out)).toBe('yours (for the buyer)\tyes\nthe buyer\'s (for you)\tno\n');
  });
});

describe('seller orders watch', () => {
  /** A fake `orders.watch` that yields the given orders and ends; records its options. */
  function fakeWatch(orders: Order[], during?: (options: WatchOptions) => unknown) {
    return vi.fn(async function* (options: WatchOptions) {
      await during?.(options);
      for (const o of orders) yield o;
    });
  }

  it('with --json prints one JSON object per line and nothing else on stdout', async () => {
    const changes = [order('ord_a', 'awaiting_payment'), order('ord_a', 'awaiting_delivery', '2026-11-21T08:00:01.000Z'), order('ord_b')];
    const watch = fakeWatch(changes);
    const result = await run(['orders', 'watch', '--json', '--since', 'all', '--interval', '0.5'], bufferIO({ env }), { client: client({ watch }) });
    expect(result.code).toBe(0);
    const lines = result.out.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual(changes);
    expect(result.out.endsWith('\n')).toBe(true);
    const options = watch.mock.calls[0]![0];
    expect(options).toMatchObject({ since: '1970-01-01T00:00:00.000Z', intervalMs: 500, store: undefined });
    expect(options.signal).toBeInstanceOf(AbortSignal);
    expect(result.err).toMatch(/Watching orders changed since 1970-01-01T00:00:00.000Z/);
  });

  it('starts from now by default and prints a tab-separated line per change when piped', async () => {
    const watch = fakeWatch([order('ord_a')]);
    const before = Date.now();
    const result = await run(['orders', 'watch'], bufferIO({ env }), { client: client({ watch }) });
    expect(Math.abs(Date.parse(watch.mock.calls[0]![0].since as string) - before)).toBeLessThan(5000);
    expect(watch.mock.calls[0]![0].intervalMs).toBe(5000);
    // Titled once, as `orders list` piped is (issue 37, item 7): a bare yes/no needs its column's name.
    expect(result.out).toBe('UPDATED\tID\tCARD\tSTATUS\tNEEDS ACTION\tPRICE RUB\n2026-11-21T08:00:00.000Z\tord_a\t1001\tawaiting_delivery\tyes\t500\n');
  });

  it('on a terminal shows the status change of an order seen before', async () => {
    const watch = fakeWatch([order('ord_a', 'awaiting_payment'), order('ord_a', 'awaiting_delivery', '2026-11-21T08:00:01.000Z')]);
    const result = await run(['orders', 'watch'], bufferIO({ env, tty: true }), { client: client({ watch }) });
    const lines = result.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/ord_a\s+#1001\s+awaiting_payment\s+-\s+500 RUB$/);
    expect(lines[1]).toMatch(/ord_a\s+#1001\s+awaiting_payment → awaiting_delivery\s+needs action\s+500 RUB$/);
  });

  it('reports failed polls on stderr', async () => {
    const watch = fakeWatch([order('ord_a')], (options) =>
      options.onError?.(apiError(503, { error: 'internal', detail: 'busy' }), { attempt: 1, delayMs: 2000 }),
    );
    const result = await run(['orders', 'watch', '--json'], bufferIO({ env }), { client: client({ watch }) });
    expect(result.err).toMatch(/warning: polling failed \(internal: the server failed\); retrying in 2 s/);
    expect(result.out.trimEnd().split('\n')).toHaveLength(1);
  });

  it('keeps its position in --state-file and says when it resumes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watch-state-'));
    try {
      const path = join(dir, 'pos.json');
      const watch = fakeWatch([order('ord_a')], (options) => options.store?.set({ since: '2026-11-21T08:00:00.000Z', seen: ['ord_a|2026-11-21T08:00:00.000Z'] }));
      const first = await run(['orders', 'watch', '--state-file', path], bufferIO({ env }), { client: client({ watch }) });
      expect(first.code).toBe(0);
      expect(JSON.parse(readFileSync(path, 'utf8')).since).toBe('2026-11-21T08:00:00.000Z');
      const second = await run(['orders', 'watch', '--state-file', path, '--since', 'all'], bufferIO({ env }), { client: client({ watch }) });
      expect(second.err).toMatch(/Resuming from .*pos\.json: changes since 2026-11-21T08:00:00.000Z \(--since is ignored/);
      writeFileSync(path, 'garbage');
      const broken = await run(['orders', 'watch', '--state-file', path], bufferIO({ env }), { client: client({ watch }) });
      expect(broken.code).toBe(1);
      expect(broken.err).toMatch(/not a watermark file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--exec runs the command per change with the order JSON on stdin and its id and status in the environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watch-exec-'));
    try {
      const log = join(dir, 'log.ndjson');
      const script = join(dir, 'hook.mjs');
      writeFileSync(
        script,
        `import { appendFileSync, readFileSync } from 'node:fs';
const input = readFileSync(0, 'utf8');
appendFileSync(${JSON.stringify(log)}, JSON.stringify({ input, id: process.env.SERVICE_ORDER_ID, status: process.env.SERVICE_ORDER_STATUS }) + '\\n');
console.log('hook saw ' + process.env.SERVICE_ORDER_ID);
if (process.env.SERVICE_ORDER_ID === 'ord_bad') process.exit(3);
`,
      );
      const changes = [order('ord_a', 'awaiting_payment'), order('ord_bad'), order('ord_c', 'delivered')];
      const watch = fakeWatch(changes);
      const result = await run(['orders', 'watch', '--json', '--exec', `node ${script}`], bufferIO({ env }), { client: client({ watch }) });
      expect(result.code).toBe(0);
      const calls = readFileSync(log, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
      expect(calls.map((c) => [c.id, c.status])).toEqual([
        ['ord_a', 'awaiting_payment'],
        ['ord_bad', 'awaiting_delivery'],
        ['ord_c', 'delivered'],
      ]);
      expect(JSON.parse(calls[0].input)).toEqual(changes[0]);
      // stdout stays NDJSON: the command's output goes to stderr with --json.
      expect(result.out.trimEnd().split('\n').map((line) => JSON.parse(line).id)).toEqual(['ord_a', 'ord_bad', 'ord_c']);
      expect(result.err).toContain('hook saw ord_a');
      expect(result.err).toMatch(/warning: --exec failed for ord_bad \(awaiting_delivery\): exit code 3/);

      const human = await run(['orders', 'watch', '--exec', `node ${script}`], bufferIO({ env }), { client: client({ watch: fakeWatch([order('ord_d')]) }) });
      expect(human.out).toContain('hook saw ord_d');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--exec naming a program that is not there fails before the watch starts (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watch-exec-'));
    try {
      const plain = join(dir, 'not-executable.sh');
      writeFileSync(plain, 'echo hi\n', { mode: 0o644 });
      const runnable = join(dir, 'on-order.sh');
      writeFileSync(runnable, '#!/bin/sh\ncat > /dev/null\n', { mode: 0o755 });
      const cases: [string, RegExp][] = [
        [join(dir, 'missing.sh'), /--exec: \S+missing\.sh is not an executable file/],
        [dir, /is not an executable file/],
        [`no-such-program-${process.pid} --flag`, /--exec: no-such-program-\d+ is not a command the shell finds/],
        ['   ', /--exec needs a command/],
      ];
      if (process.getuid?.() !== 0) cases.push([plain, /not-executable\.sh is not an executable file/]); // root may run any file
      for (const [command, message] of cases) {
        const watch = fakeWatch([order('ord_a')]);
        const result = await run(['orders', 'watch', '--exec', command], bufferIO({ env }), { client: client({ watch }) });
        expect(result.code, command).toBe(2);
        expect(result.err, command).toMatch(message);
        expect(watch).not.toHaveBeenCalled();
      }
      // What the shell finds, or reads itself, goes ahead: a path, a program on PATH, a builtin, shell syntax.
      for (const command of [runnable, 'cat > /dev/null', 'true', 'FOO=1 cat > /dev/null', '"$SHELL" -c true']) {
        const watch = fakeWatch([order('ord_a')]);
        const result = await run(['orders', 'watch', '--exec', command], bufferIO({ env }), { client: client({ watch }) });
        expect(result.code, `${command}: ${result.err}`).toBe(0);
        expect(watch).toHaveBeenCalled();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an authentication failure ends the watch with exit 4', async () => {
    const watch = vi.fn(async function* () {
      yield order('ord_a');
      throw apiError(401, { error: 'revoked' });
    });
    const result = await run(['orders', 'watch', '--json'], bufferIO({ env }), { client: client({ watch }) });
    expect(result.code).toBe(4);
    expect(result.out.trimEnd().split('\n')).toHaveLength(1);
    expect(result.err).toMatch(/error: revoked/);
  });
});

describe('seller sandbox', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('needs an admin token (exit 2)', async () => {
    const result = await run(['sandbox', 'clock'], bufferIO({ env }));
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/no admin token: pass --admin-token or set SERVICE_ADMIN_TOKEN/);
  });

  it('seller create prints the key alone on stdout, once, and sends the chosen options', async () => {
    const sandbox = await captureServer(201, { sellerId: 'sel_1', keyId: 'key_1', apiKey: LIVE_KEY });
    try {
      const sbEnv = { ...env, SERVICE_BASE_URL: sandbox.url };
      const result = await run(['sandbox', 'seller', 'create', '--test', '--type', 'ip', '--admission', 'none', '--scope', 'orders', '--admin-token', 'adm'], bufferIO({ env: sbEnv }));
      expect(result).toMatchObject({ code: 0, out: `${LIVE_KEY}\n` });
      expect(result.err).toMatch(/Created seller sel_1 with key key_1/);
      expect(result.err).toMatch(/only time the key is shown/);
      expect(sandbox.calls.map((c) => c.body)).toEqual([{ sellerType: 'ip', admission: 'none', mode: 'test', scopes: ['orders'] }]);
      const bad = await run(['sandbox', 'seller', 'create', '--scope', 'everything', '--admin-token', 'adm'], bufferIO({ env: sbEnv }));
      expect(bad.code).toBe(2);
      expect(sandbox.calls).toHaveLength(1);
    } finally {
      await sandbox.close();
    }
  });

  it('reads amounts for clock advance', () => {
    expect(parseClock(undefined, undefined)).toEqual({});
    expect(parseClock('advance', '3600')).toEqual({ advanceSeconds: 3600 });
    expect(parseClock('advance', '2d')).toEqual({ advanceSeconds: 172_800 });
    expect(parseClock('advance', '1h30m')).toEqual({ advanceSeconds: 5400 });
    expect(() => parseClock('advance', 'soon')).toThrow(/give an amount/);
    expect(() => parseClock('rewind', '1h')).toThrow(/unknown verb/);
  });

  it('sends the admin token and the body to the sandbox routes', async () => {
    const sandbox = await captureServer(200, { now: '2026-11-23T08:00:00.000Z' });
    try {
      const { calls } = sandbox;
      const result = await run(['sandbox', 'clock', 'advance', '2d', '--admin-token', 'adm', '--base-url', sandbox.url], bufferIO({ env }));
      expect(result).toMatchObject({ code: 0, out: '2026-11-23T08:00:00.000Z\n' });
      expect(calls).toEqual([{ method: 'POST', path: '/sandbox/v1/clock/advance', auth: 'Bearer adm', body: { seconds: 172_800 } }]);
      const sbEnv = { ...env, SERVICE_BASE_URL: sandbox.url };
      const fromEnv = await run(['sandbox', 'decide', 'req_1', '--approve'], bufferIO({ env: { ...sbEnv, SERVICE_ADMIN_TOKEN: 'adm2' } }));
      expect(calls[1]).toMatchObject({ path: '/sandbox/v1/catalog/requests/req_1/decide', auth: 'Bearer adm2', body: { approve: true } });
      expect(fromEnv.code).toBe(0); // the stub's answer is no catalogue request: shown as it came…
      const strict = await run(['sandbox', 'decide', 'req_1', '--approve'], bufferIO({ env: { ...sbEnv, SERVICE_ADMIN_TOKEN: 'adm2', SELLER_STRICT: '1' } }));
      expect(strict.code).toBe(1); // …and refused in strict mode
      expect(strict.err).toMatch(/invalid_response/);
      const neither = await run(['sandbox', 'decide', 'req_1', '--admin-token', 'adm'], bufferIO({ env: sbEnv }));
      expect(neither.code).toBe(2);
    } finally {
      await sandbox.close();
    }
  });
});

/** A local HTTP server that answers every request with one JSON answer and keeps what it was sent. */
async function captureServer(status: number, answer: unknown) {
  const calls: Array<{ method: string; path: string; auth: string | null; body: unknown }> = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      calls.push({ method: req.method ?? '', path: req.url ?? '', auth: req.headers.authorization ?? null, body: text ? JSON.parse(text) : undefined });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

// ---------------------------------------------------------------------------------------------
// The live table of `seller orders watch` on a terminal (imports are hoisted; kept here with the tests).
import { runOrdersWatch } from '../../cli/commands/orders-watch.ts';
import { ago, describeChange, dueIn, span, tableOrder, watchFrame, type WatchView } from '../../cli/commands/orders-watch-view.ts';
import { createDeps } from '../../cli/lib/deps.ts';
import { ESC } from '../../cli/lib/live-table.ts';

describe('seller orders watch: the live table', () => {
  const MIN = 60_000;
  const iso = (ms: number) => new Date(ms).toISOString();

  /** An order relative to `now`: `due` minutes to its deadline, changed `changed` minutes ago. */
  function live(id: string, status: OrderStatus, now: number, due: number | null, changed: number, needsAction = status === 'awaiting_delivery'): Order {
    return { ...order(id, status, iso(now - changed * MIN)), needsAction, deliverBy: due === null ? null : iso(now + due * MIN) };
  }

  /** A terminal: stdout and stdin are TTYs, stdout has a size, TERM is set. */
  function terminalIO(extraEnv: Record<string, string | undefined> = {}, columns = 120, rows = 30) {
    const io = bufferIO({ env: { ...env, TERM: 'xterm-256color', ...extraEnv }, tty: true });
    Object.assign(io.stdout, { columns, rows });
    return io;
  }

  /** The frame left on screen: what the last redraw wrote, without escape sequences. */
  function finalFrame(out: string): string[] {
    const last = out.slice(out.lastIndexOf(ESC.clearDown) + ESC.clearDown.length);
    return last.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').trimEnd().split('\n');
  }

  function fakeWatch(orders: Order[], during?: (options: WatchOptions) => unknown) {
    return vi.fn(async function* (options: WatchOptions) {
      await during?.(options);
      for (const o of orders) yield o;
    });
  }

  it('runOrdersWatch on a terminal draws a table of the latest version of each order, in the order that matters', async () => {
    const now = Date.now();
    const changes = [
      live('ord_closed', 'completed', now, null, 1),
      live('ord_soon', 'awaiting_delivery', now, 30, 9),
      live('ord_paying', 'awaiting_payment', now, null, 8),
      live('ord_late', 'awaiting_delivery', now, -3, 20),
      live('ord_given', 'delivered', now, 10, 2, false),
      live('ord_paying', 'awaiting_delivery', now, 50, 0),
    ];
    const io = terminalIO();
    const watch = fakeWatch(changes);
    const deps = createDeps(io, {}, { client: () => fakeClient({ orders: { watch } }) });
    await runOrdersWatch({ since: '2026-11-21T00:00:00.000Z', sinceGiven: true, intervalSeconds: 5 }, deps);

    const out = io.out();
    expect(out.startsWith(ESC.hideCursor)).toBe(true);
    expect(out.endsWith(ESC.showCursor)).toBe(true);
    expect(watch.mock.calls[0]![0].sleep).toBeTypeOf('function'); // it marks the time of each poll
    const frame = finalFrame(out);
    expect(frame[0]).toMatch(/^Orders {2}· {2}5 orders, 3 need action {2}· {2}last poll \d\d:\d\d:\d\d$/);
    expect(frame[1]).toMatch(/^ID\s+CARD\s+STATUS\s+ACTION\s+PRICE\s+DELIVER BY\s+UPDATED$/);
    const rows = frame.slice(2, -1);
    expect(rows.map((line) => line.split(/\s+/)[0])).toEqual(['ord_late', 'ord_soon', 'ord_paying', 'ord_given', 'ord_closed']);
    expect(rows[0]).toMatch(/^ord_late\s+#1001\s+awaiting_delivery\s+● act\s+500 RUB\s+overdue 3 min\s+20 min ago$/);
    expect(rows[1]).toMatch(/\s+in (29|30) min\s+9 min ago$/);
    expect(rows[2]).toMatch(/^ord_paying\s+#1001\s+awaiting_delivery\s+● act\s+500 RUB\s+in (49|50) min\s+just now$/);
    expect(rows[3]).toMatch(/^ord_given\s+#1001\s+delivered\s+500 RUB\s+-\s+2 min ago$/); // no deadline once delivered
    expect(rows[4]).toMatch(/^ord_closed\s+#1001\s+completed\s+500 RUB\s+-\s+1 min ago$/);
    expect(frame.at(-1)).toMatch(/^\d\d:\d\d:\d\d ord_paying paid → awaiting_delivery {2}· {2}stopped$/);
    expect(io.err()).toMatch(/Watching orders changed since 2026-11-21T00:00:00.000Z/);
    expect(io.err()).not.toMatch(/warning/);
  });

  it('colours on a terminal; NO_COLOR keeps the redraw without colours', async () => {
    const now = Date.now();
    const changes = [live('ord_a', 'awaiting_delivery', now, -1, 1), live('ord_b', 'cancelled', now, null, 1)];
    const coloured = await run(['orders', 'watch'], terminalIO(), { client: client({ watch: fakeWatch(changes) }) });
    expect(coloured.code).toBe(0);
    expect(coloured.out).toContain('\u001b[31moverdue 1 min\u001b[39m');
    expect(coloured.out).toContain('\u001b[33m● act\u001b[39m');
    const bare = await run(['orders', 'watch'], terminalIO({ NO_COLOR: '1' }), { client: client({ watch: fakeWatch(changes) }) });
    expect(bare.out).toContain(ESC.clearDown);
    expect(bare.out).not.toMatch(/\u001b\[\d*m/);
    expect(finalFrame(bare.out).slice(2, 4).map((line) => line.split(' ')[0])).toEqual(['ord_a', 'ord_b']);
  });

  it('prints a line per change on TERM=dumb, with --exec on a terminal, and piped', async () => {
    const changes = [order('ord_a', 'awaiting_payment'), order('ord_a', 'awaiting_delivery', '2026-11-21T08:00:01.000Z')];
    const dumb = await run(['orders', 'watch'], terminalIO({ TERM: 'dumb' }), { client: client({ watch: fakeWatch(changes) }) });
    expect(dumb.out).not.toContain('\u001b');
    expect(dumb.out.trimEnd().split('\n')[1]).toMatch(/ord_a\s+#1001\s+awaiting_payment → awaiting_delivery\s+needs action\s+500 RUB$/);
    const exec = await run(['orders', 'watch', '--exec', 'true'], terminalIO(), { client: client({ watch: fakeWatch(changes) }) });
    expect(exec.code).toBe(0);
    expect(exec.out).not.toContain('\u001b');
    expect(exec.out.trimEnd().split('\n')).toHaveLength(2);
    const piped = await run(['orders', 'watch'], bufferIO({ env: { ...env, TERM: 'xterm-256color' } }), { client: client({ watch: fakeWatch(changes) }) });
    expect(piped.out.split('\n')[1]).toBe('2026-11-21T08:00:00.000Z\tord_a\t1001\tawaiting_payment\tno\t500');
    const json = await run(['orders', 'watch', '--json'], terminalIO(), { client: client({ watch: fakeWatch(changes) }) });
    expect(json.out.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(changes);
  });

  it('shows a failed poll in the header instead of writing over the table', async () => {
    const watch = fakeWatch([], async (options) => {
      await options.sleep?.(0); // a good poll
      options.onError?.(apiError(503, { error: 'internal', detail: 'busy' }), { attempt: 1, delayMs: 30_000 });
    });
    const result = await run(['orders', 'watch', '--since', 'all'], terminalIO(), { client: client({ watch }) });
    expect(result.code).toBe(0);
    expect(result.err).not.toMatch(/warning/);
    const frame = finalFrame(result.out);
    expect(frame[0]).toMatch(/^Orders {2}· {2}0 orders {2}· {2}poll failed at \d\d:\d\d:\d\d, retrying in (29|30) s: internal: the server failed$/);
    expect(frame[2]).toBe('No order has changed since 1970-01-01T00:00:00.000Z yet.');
    expect(frame.at(-1)).toBe('no changes yet  ·  stopped');
    // Once the backoff is over (the client may still be retrying), it says so rather than "in 0 s".
    const view: WatchView = { orders: new Map(), since: '1970-01-01T00:00:00.000Z', failure: { what: 'connection: refused', at: 0, retryAt: 1000 } };
    expect(watchFrame(view, { now: 5000, height: 20, color: false })[0]).toMatch(/poll failed at \d\d:\d\d:\d\d, retrying now: connection: refused$/);
  });

  it('a fatal error leaves the last frame and the cursor visible, then reports the error', async () => {
    const watch = vi.fn(async function* () {
      yield order('ord_a');
      throw apiError(401, { error: 'revoked' });
    });
    const result = await run(['orders', 'watch'], terminalIO(), { client: client({ watch }) });
    expect(result.code).toBe(4);
    expect(result.out.endsWith(ESC.showCursor)).toBe(true);
    expect(finalFrame(result.out)[2]).toMatch(/^ord_a\s/);
    expect(result.err).toMatch(/error: revoked/);
  });

  it('cuts the list to the screen with "+N more"', () => {
    const now = Date.parse('2026-11-21T12:00:00.000Z');
    const orders = [1, 2, 3, 4, 5, 6].map((n) => live(`ord_${n}`, 'awaiting_delivery', now, n * 10, n));
    const view: WatchView = { orders: new Map(orders.map((o) => [o.id, o])), since: iso(now), lastPollAt: now };
    const frame = watchFrame(view, { now, height: 7, color: false });
    expect(frame).toHaveLength(7);
    expect(frame.slice(2, 5).map((line) => line.split(' ')[0])).toEqual(['ord_1', 'ord_2', 'ord_3']);
    expect(frame[5]).toBe('+3 more (3 need action)');
    expect(frame[6]).toBe('no changes yet  ·  Ctrl-C to stop');
    expect(watchFrame(view, { now, height: 9, color: false }).slice(2, 8).map((line) => line.split(' ')[0])).toEqual(orders.map((o) => o.id));
  });

  it('orders open before closed, action first, the nearest deadline first, and names changes', () => {
    const now = Date.parse('2026-11-21T12:00:00.000Z');
    const sorted = tableOrder([
      live('ord_refunded', 'refunded', now, null, 1),
      live('ord_completed', 'completed', now, null, 0),
      live('ord_paid_late', 'awaiting_delivery', now, 40, 0),
      live('ord_message', 'delivered', now, null, 0, true),
      live('ord_paid_early', 'awaiting_confirmation', now, 5, 0, true),
      live('ord_new', 'awaiting_payment', now, null, 3),
      live('ord_disputed', 'disputed', now, null, 1, false),
    ]);
    expect(sorted.map((o) => o.id)).toEqual(['ord_paid_early', 'ord_paid_late', 'ord_message', 'ord_disputed', 'ord_new', 'ord_completed', 'ord_refunded']);

    const unpaid = order('ord_a', 'awaiting_payment');
    expect(describeChange(undefined, unpaid)).toBe('ord_a new order (awaiting_payment)');
    expect(describeChange(undefined, order('ord_a'))).toBe('ord_a is awaiting_delivery, needs action');
    expect(describeChange(unpaid, order('ord_a'))).toBe('ord_a paid → awaiting_delivery');
    expect(describeChange(order('ord_a'), order('ord_a', 'delivered'))).toBe('ord_a delivered');
    expect(describeChange(order('ord_a', 'disputed'), order('ord_a', 'completed'))).toBe('ord_a resolved → completed');
    expect(describeChange(order('ord_a', 'delivered'), order('ord_a', 'completed'))).toBe('ord_a completed');
    expect(describeChange(order('ord_a'), order('ord_a'))).toBe('ord_a updated (awaiting_delivery, needs action)');
  });

  it('says times for people', () => {
    const now = Date.parse('2026-11-21T12:00:00.000Z');
    expect([span(45_000), span(12 * MIN + 59_000), span(125 * MIN), span(120 * MIN), span(27 * 60 * MIN), span(48 * 60 * MIN)]).toEqual([
      '45 s',
      '12 min',
      '2 h 5 min',
      '2 h',
      '1 d 3 h',
      '2 d',
    ]);
    expect(dueIn(now + 12 * MIN, now)).toBe('in 12 min');
    expect(dueIn(now - 3 * MIN, now)).toBe('overdue 3 min');
    expect(ago(now - 2000, now)).toBe('just now');
    expect(ago(now + 60_000, now)).toBe('just now'); // a server clock ahead of ours
    expect(ago(now - 90_000, now)).toBe('1 min ago');
  });
});
