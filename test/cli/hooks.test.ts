import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signWebhook } from '../../sdk/webhooks/index.ts';
import { tailProbe } from '../../cli/commands/hooks-probe.ts';
import { createDeps } from '../../cli/lib/deps.ts';
import { apiError, bufferIO, fakeClient, LIVE_KEY, run, scriptedPrompter, tempConfigDir, tableBody } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
let env: Record<string, string>;
beforeEach(() => {
  config = tempConfigDir();
  env = { SELLER_CONFIG_DIR: config.dir, SERVICE_API_KEY: LIVE_KEY };
});
afterEach(() => config.cleanup());

const SECRET = `whsec_${'S3cr3t'.repeat(5)}ab`;
const URL_ = 'https://shop.example.com/hooks';
const ACTIVE = { url: URL_, events: ['order.paid', 'order.message'], status: 'active', failures: 0, pausedAt: null };
const OFF = { url: null, events: [], status: 'off', failures: 0, pausedAt: null };

const mode = (path: string) => statSync(path).mode & 0o777;

describe('seller hooks show', () => {
  it('shows the subscription as fields', async () => {
    const client = () => fakeClient({ hooks: { get: async () => ACTIVE } });
    const result = await run(['hooks', 'show'], bufferIO({ env }), { client });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/URL:\s+https:\/\/shop\.example\.com\/hooks/);
    expect(result.out).toMatch(/Events:\s+order\.paid, order\.message/);
    expect(result.out).toMatch(/Status:\s+active/);
  });

  it('says delivery is off when there is no subscription', async () => {
    const client = () => fakeClient({ hooks: { get: async () => OFF } });
    const result = await run(['hooks', 'show'], bufferIO({ env }), { client });
    expect(result.out).toMatch(/No event subscription/);
    expect(result.err).toMatch(/seller hooks set/);
  });

  it('hints at resume when paused', async () => {
    const client = () => fakeClient({ hooks: { get: async () => ({ ...ACTIVE, status: 'paused', failures: 20, pausedAt: '2026-01-01T00:00:00.000Z' }) } });
    const result = await run(['hooks', 'show'], bufferIO({ env }), { client });
    expect(result.err).toMatch(/seller hooks resume/);
  });

  it('--json prints the answer', async () => {
    const client = () => fakeClient({ hooks: { get: async () => ACTIVE } });
    const result = await run(['--json', 'hooks', 'show'], bufferIO({ env }), { client });
    expect(JSON.parse(result.out)).toEqual(ACTIVE);
  });
});

describe('seller hooks set', () => {
  const created = (events = ['order.paid']) => ({ ...ACTIVE, events, secret: SECRET });

  it('prints the new secret once on stdout, with a warning on stderr', async () => {
    const set = vi.fn(async () => created());
    const result = await run(['hooks', 'set', '--url', URL_, '--event', 'order.paid'], bufferIO({ env }), { client: () => fakeClient({ hooks: { set } }) });
    expect(result.code).toBe(0);
    expect(set).toHaveBeenCalledWith({ url: URL_, events: ['order.paid'] });
    expect(result.out).toBe(`${SECRET}\n`);
    expect(result.err).toMatch(/only time the signing secret is shown/);
    expect(result.err).not.toContain(SECRET);
  });

  it('refuses a kind one or two edits from a known one before the call, with the right spelling', async () => {
    const set = vi.fn(async () => created(['order.paid']));
    const result = await run(['hooks', 'set', '--url', URL_, '--event', 'order.paid', '--event', 'order.payd'], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set } }),
    });
    expect(result.code).toBe(2);
    expect(set).not.toHaveBeenCalled();
    expect(result.err).toMatch(/unknown event kind "order\.payd"; did you mean "order\.paid"\? Nothing was changed/);
  });

  it('sends a far-unknown kind; when the service leaves it out, the secret is still shown and the exit is 1 naming it', async () => {
    const set = vi.fn(async () => created(['order.paid']));
    const result = await run(['hooks', 'set', '--url', URL_, '--event', 'order.paid', '--event', 'payout.sent'], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set } }),
    });
    expect(set).toHaveBeenCalledWith({ url: URL_, events: ['order.paid', 'payout.sent'] });
    expect(result.code).toBe(1);
    expect(result.out).toBe(`${SECRET}\n`);
    expect(result.err).toMatch(/error: the service did not subscribe to "payout\.sent" \(it does not offer it\); the subscription holds: order\.paid/);
  });

  it('--secret-file writes the secret with mode 0600 instead of printing it', async () => {
    const path = join(config.dir, 'webhook.secret');
    const set = vi.fn(async () => created());
    const result = await run(['hooks', 'set', '--url', URL_, '--event', 'order.paid', '--secret-file', path], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set } }),
    });
    expect(result.code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(`${SECRET}\n`);
    expect(mode(path)).toBe(0o600);
    expect(result.out).not.toContain(SECRET);
    expect(result.err).not.toContain(SECRET);
    expect(result.err).toContain(path);
    // No temporary file is left behind.
    expect(readdirSync(config.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('--secret-file in a directory that cannot be written fails before the call (exit 2)', async () => {
    const set = vi.fn(async () => created());
    const path = join(config.dir, 'missing-dir', 'webhook.secret');
    const result = await run(['hooks', 'set', '--url', URL_, '--event', 'order.paid', '--secret-file', path], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set } }),
    });
    expect(result.code).toBe(2);
    expect(set).not.toHaveBeenCalled();
    expect(result.err).toMatch(/--secret-file: cannot write/);
  });

  it('with --json and --secret-file prints the subscription and the file, never the secret', async () => {
    const path = join(config.dir, 'webhook.secret');
    const result = await run(['--json', 'hooks', 'set', '--url', URL_, '--event', 'order.paid', '--secret-file', path], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set: async () => created() } }),
    });
    expect(JSON.parse(result.out)).toEqual({ ...ACTIVE, events: ['order.paid'], secretFile: path });
    expect(result.out + result.err).not.toContain(SECRET);
    expect(readFileSync(path, 'utf8').trim()).toBe(SECRET);
  });

  it('with --json alone prints the whole answer, secret included', async () => {
    const result = await run(['--json', 'hooks', 'set', '--url', URL_, '--event', 'order.paid'], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set: async () => created() } }),
    });
    expect(JSON.parse(result.out).secret).toBe(SECRET);
    expect(result.err).toMatch(/only time/);
  });

  it('an edit keeps the secret: with a --secret-file that does not exist it says the file was not written and how to get one (exit 1)', async () => {
    const path = join(config.dir, 'webhook.secret');
    const result = await run(['hooks', 'set', '--url', URL_, '--event', 'order.paid', '--secret-file', path], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set: async () => ({ ...ACTIVE, secret: null }) } }),
    });
    expect(result.code).toBe(1);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(config.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(result.out).toMatch(/Status:\s+active/);
    expect(result.err).toMatch(/secret is unchanged/);
    expect(result.err).toContain(`${path} was not written: the subscription already existed`);
    expect(result.err).toContain('run the same command with --rotate-secret');
  });

  it('an edit with an existing secret file leaves it as it is (exit 0)', async () => {
    const path = join(config.dir, 'webhook.secret');
    writeFileSync(path, 'whsec_old\n', { mode: 0o600 });
    const result = await run(['hooks', 'set', '--url', URL_, '--event', 'order.paid', '--secret-file', path], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set: async () => ({ ...ACTIVE, secret: null }) } }),
    });
    expect(result.code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('whsec_old\n');
    expect(result.err).toContain('was left as it is');
  });

  it('--rotate-secret on an existing subscription writes the new secret to --secret-file (the README sequence then verifies)', async () => {
    const path = join(config.dir, 'webhook.secret');
    const rotateSecret = vi.fn(async () => ({ secret: SECRET }));
    const result = await run(['hooks', 'set', '--url', URL_, '--event', 'order.paid', '--secret-file', path, '--rotate-secret'], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set: async () => ({ ...ACTIVE, secret: null }), rotateSecret } }),
    });
    expect(result.code, result.err).toBe(0);
    expect(rotateSecret).toHaveBeenCalledTimes(1);
    expect(readFileSync(path, 'utf8').trim()).toBe(SECRET);
    expect(mode(path)).toBe(0o600);
    expect(result.out + result.err).not.toContain(SECRET);
    expect(result.err).toContain('new signing secret');
  });

  it('--rotate-secret on a new subscription does not rotate the fresh secret', async () => {
    const path = join(config.dir, 'webhook.secret');
    const rotateSecret = vi.fn();
    const result = await run(['hooks', 'set', '--url', URL_, '--event', 'order.paid', '--secret-file', path, '--rotate-secret'], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { set: async () => created(), rotateSecret } }),
    });
    expect(result.code).toBe(0);
    expect(rotateSecret).not.toHaveBeenCalled();
    expect(readFileSync(path, 'utf8').trim()).toBe(SECRET);
  });

  it('without --url when not interactive is a usage error naming the flag', async () => {
    const set = vi.fn();
    const result = await run(['hooks', 'set', '--event', 'order.paid'], bufferIO({ env }), { client: () => fakeClient({ hooks: { set } }) });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--url is required/);
    expect(set).not.toHaveBeenCalled();
  });

  it('asks for the address and the events on a terminal', async () => {
    const set = vi.fn(async () => created(['order.new', 'stock.out']));
    const prompter = scriptedPrompter({ text: [URL_], checkbox: [['order.new', 'stock.out']] });
    const result = await run(['hooks', 'set'], bufferIO({ env, tty: true }), { client: () => fakeClient({ hooks: { set } }), prompter });
    expect(result.code).toBe(0);
    expect(set).toHaveBeenCalledWith({ url: URL_, events: ['order.new', 'stock.out'] });
  });

  /** `hooks set --url <url>` against a service that refuses the address for `reason`. */
  const refusedSet = (url: string, reason: string) => {
    const set = async () => {
      throw apiError(409, { error: 'rejected', detail: reason, refusal: { kind: 'url', field: 'url', reason } });
    };
    return run(['hooks', 'set', '--url', url, '--event', 'order.paid'], bufferIO({ env }), { client: () => fakeClient({ hooks: { set } }) });
  };

  it('a url refusal is reported with its reason (exit 1)', async () => {
    const result = await refusedSet('http://example.com', 'https_only');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/refused: url/);
    expect(result.err).toMatch(/^error: the webhook address must begin with https:\/\/ \(rejected: url\)$/m);
    expect(result.err).not.toMatch(/calls only public addresses/);
  });

  it('an address the service cannot reach (public_host_only) gets the hint for receiving on this computer', async () => {
    const result = await refusedSet('https://printer.corp/hook', 'public_host_only');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/the service calls only public addresses/);
    expect(result.err).toMatch(/seller hooks probe --forward-to/);
  });
});

describe('seller hooks rotate-secret', () => {
  it('prints the new secret once', async () => {
    const rotateSecret = vi.fn(async () => ({ secret: SECRET }));
    const result = await run(['hooks', 'rotate-secret'], bufferIO({ env }), { client: () => fakeClient({ hooks: { rotateSecret } }) });
    expect(result.code).toBe(0);
    expect(result.out).toBe(`${SECRET}\n`);
    expect(result.err).toMatch(/only time/);
  });

  it('--secret-file replaces an existing file, leaving it 0600', async () => {
    const path = join(config.dir, 'webhook.secret');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o644);
    const result = await run(['hooks', 'rotate-secret', '--secret-file', path], bufferIO({ env }), {
      client: () => fakeClient({ hooks: { rotateSecret: async () => ({ secret: SECRET }) } }),
    });
    expect(result.code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(`${SECRET}\n`);
    expect(mode(path)).toBe(0o600);
    expect(result.out).toBe('');
  });

  it('a failed call leaves the file alone and no temporary file', async () => {
    const path = join(config.dir, 'webhook.secret');
    writeFileSync(path, 'old\n');
    const rotateSecret = async () => {
      throw apiError(404, { error: 'not_found', detail: 'no event subscription' });
    };
    const result = await run(['hooks', 'rotate-secret', '--secret-file', path], bufferIO({ env }), { client: () => fakeClient({ hooks: { rotateSecret } }) });
    expect(result.code).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect(readdirSync(config.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('seller hooks delete', () => {
  it('needs --yes when not interactive', async () => {
    const del = vi.fn();
    const result = await run(['hooks', 'delete'], bufferIO({ env }), { client: () => fakeClient({ hooks: { delete: del } }) });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--yes/);
    expect(del).not.toHaveBeenCalled();
  });

  it('--yes switches delivery off', async () => {
    const del = vi.fn(async () => OFF);
    const result = await run(['hooks', 'delete', '--yes'], bufferIO({ env }), { client: () => fakeClient({ hooks: { delete: del } }) });
    expect(result.code).toBe(0);
    expect(del).toHaveBeenCalled();
    expect(result.out).toMatch(/delivery is off/);
  });

  it('asks on a terminal; "no" cancels (exit 2)', async () => {
    const del = vi.fn(async () => OFF);
    const prompter = scriptedPrompter({ confirm: [false] });
    const result = await run(['hooks', 'delete'], bufferIO({ env, tty: true }), { client: () => fakeClient({ hooks: { delete: del } }), prompter });
    expect(result.code).toBe(2);
    expect(prompter.asked[0]).toMatch(/Switch webhook delivery off/);
    expect(del).not.toHaveBeenCalled();
  });

  it('asks on a terminal; "yes" deletes', async () => {
    const del = vi.fn(async () => OFF);
    const result = await run(['hooks', 'delete'], bufferIO({ env, tty: true }), {
      client: () => fakeClient({ hooks: { delete: del } }),
      prompter: scriptedPrompter({ confirm: [true] }),
    });
    expect(result.code).toBe(0);
    expect(del).toHaveBeenCalled();
  });
});

describe('seller hooks resume / test', () => {
  it('resume reports the status', async () => {
    const result = await run(['hooks', 'resume'], bufferIO({ env }), { client: () => fakeClient({ hooks: { resume: async () => ACTIVE } }) });
    expect(result.out).toMatch(/Subscription active/);
  });

  it('test sends order.paid by default', async () => {
    const test = vi.fn(async () => ({ delivery: 'dlv_abc', event: 'order.paid' }));
    const result = await run(['hooks', 'test'], bufferIO({ env }), { client: () => fakeClient({ hooks: { test } }) });
    expect(test).toHaveBeenCalledWith({});
    expect(result.out).toMatch(/test order\.paid event: delivery dlv_abc/);
  });

  it('test --event picks the kind; a kind our list does not know is passed on for the service to judge', async () => {
    const test = vi.fn(async () => ({ delivery: 'dlv_abc', event: 'stock.out' }));
    const ok = await run(['hooks', 'test', '--event', 'stock.out'], bufferIO({ env }), { client: () => fakeClient({ hooks: { test } }) });
    expect(ok.code).toBe(0);
    expect(test).toHaveBeenCalledWith({ event: 'stock.out' });
    const other = await run(['hooks', 'test', '--event', 'payout.sent'], bufferIO({ env }), { client: () => fakeClient({ hooks: { test } }) });
    expect(other.code).toBe(0);
    expect(test).toHaveBeenLastCalledWith({ event: 'payout.sent' });
  });
});

describe('seller hooks deliveries', () => {
  const entry = {
    id: 'dlv_1',
    event: 'order.paid',
    delivery: 'dlv_1',
    attempts: 3,
    lastStatus: 500,
    lastError: 'answer 500',
    nextAttemptAt: '2026-01-01T00:05:00.000Z',
    deliveredAt: null,
    test: true,
  };

  it('prints a table and passes --limit', async () => {
    const deliveries = vi.fn(async () => ({ items: [entry], nextCursor: 'c2' }));
    const result = await run(['hooks', 'deliveries', '--limit', '5'], bufferIO({ env: { ...env, NO_COLOR: '1' }, tty: true }), {
      client: () => fakeClient({ hooks: { deliveries } }),
    });
    expect(result.code).toBe(0);
    expect(deliveries).toHaveBeenCalledWith({ limit: 5 });
    expect(result.out.split('\n')[0]).toMatch(/^EVENT\s+DELIVERY\s+ATTEMPTS\s+LAST STATUS\s+LAST ERROR\s+NEXT ATTEMPT\s+DELIVERED\s+TEST$/);
    expect(result.out).toMatch(/order\.paid\s+dlv_1\s+3\s+500\s+answer 500\s+2026-01-01T00:05:00\.000Z\s+-\s+test/);
    expect(result.err).toMatch(/--cursor c2/);
  });

  it('is tab-separated when piped, and says so when empty', async () => {
    const piped = await run(['hooks', 'deliveries'], bufferIO({ env }), { client: () => fakeClient({ hooks: { deliveries: async () => ({ items: [entry], nextCursor: null }) } }) });
    expect(tableBody(piped.out)).toBe('order.paid\tdlv_1\t3\t500\tanswer 500\t2026-01-01T00:05:00.000Z\t-\ttest\n');
    const empty = await run(['hooks', 'deliveries'], bufferIO({ env }), { client: () => fakeClient({ hooks: { deliveries: async () => ({ items: [], nextCursor: null }) } }) });
    expect(empty).toMatchObject({ code: 0, out: '', err: 'No deliveries yet.\n' });
  });

  it('refuses --limit over 200 before any request', async () => {
    const deliveries = vi.fn();
    const result = await run(['hooks', 'deliveries', '--limit', '500'], bufferIO({ env }), { client: () => fakeClient({ hooks: { deliveries } }) });
    expect(result.code).toBe(2);
    expect(deliveries).not.toHaveBeenCalled();
  });
});

describe('seller hooks probe', () => {
  const PROBE = 'http://127.0.0.1:8787/hooks-probe/prb_x';
  const hitOf = (delivery: string, receivedAt: string, secret = SECRET) => {
    const at = Date.parse(receivedAt);
    const signed = signWebhook(
      { event: 'order.paid', at: receivedAt, data: { order: 'ord_1', number: 1001, status: 'awaiting_delivery', slaMinutes: 60 }, delivery, attempt: 1 },
      secret,
      { now: at },
    );
    return { receivedAt, headers: { 'content-type': 'application/json', ...signed.headers }, body: signed.body };
  };

  it('--once prints the address, how to subscribe and the hits, oldest first', async () => {
    const hits = [hitOf('dlv_2', '2026-01-01T00:00:02.000Z'), hitOf('dlv_1', '2026-01-01T00:00:01.000Z')];
    const probe = vi.fn(async () => ({ items: hits }));
    const client = () => fakeClient({ hooks: { createProbe: async () => ({ url: PROBE }), get: async () => OFF, probe } });
    const result = await run(['hooks', 'probe', '--once'], bufferIO({ env }), { client });
    expect(result.code).toBe(0);
    expect(result.out.split('\n')[0]).toBe(`Probe receiver: ${PROBE}`);
    expect(result.err).toContain(`seller hooks set --url ${PROBE} --event order.paid`);
    const lines = result.out.trim().split('\n').slice(1);
    expect(lines.map((l) => l.split('\t')[2])).toEqual(['dlv_1', 'dlv_2']);
    expect(lines[0]).toMatch(/^2026-01-01T00:00:01\.000Z\torder\.paid\tdlv_1\tattempt 1\t\{"event":"order\.paid"/);
  });

  it('checks signatures with a secret, judged at the time each hit came', async () => {
    const hits = [hitOf('dlv_bad', '2026-01-01T00:00:02.000Z', 'whsec_other'), hitOf('dlv_ok', '2026-01-01T00:00:01.000Z')];
    const client = () => fakeClient({ hooks: { createProbe: async () => ({ url: PROBE }), get: async () => ({ ...ACTIVE, url: PROBE }), probe: async () => ({ items: hits }) } });
    const result = await run(['--json', 'hooks', 'probe', '--once'], bufferIO({ env: { ...env, SERVICE_WEBHOOK_SECRET: SECRET } }), { client });
    const records = result.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => [r.delivery, r.valid, r.reason])).toEqual([
      ['dlv_ok', true, undefined],
      ['dlv_bad', false, 'mismatch'],
    ]);
    expect(records[0].body).toBe(hits[1]!.body);
    expect(records[0].attempt).toBe(1);
    expect(result.err).toMatch(/Your subscription delivers here/);
  });

  it('tails: prints each new hit once, until stopped', async () => {
    const all = [hitOf('dlv_1', '2026-01-01T00:00:01.000Z'), hitOf('dlv_2', '2026-01-01T00:00:02.000Z'), hitOf('dlv_3', '2026-01-01T00:00:03.000Z')];
    const controller = new AbortController();
    let polls = 0;
    const probe = vi.fn(async () => {
      polls += 1;
      if (polls === 4) controller.abort();
      if (polls === 2) throw apiError(500, { error: 'internal' });
      return { items: all.slice(0, Math.min(polls, 3)).reverse() };
    });
    const io = bufferIO({ env });
    const deps = createDeps(io, { json: true }, { client: () => fakeClient({ hooks: { createProbe: async () => ({ url: PROBE }), get: async () => OFF, probe } }) });
    await tailProbe({ once: false, intervalSeconds: 0.01 }, deps, controller.signal);
    const deliveries = io.out().trim().split('\n').map((l) => JSON.parse(l).delivery);
    expect(deliveries).toEqual(['dlv_1', 'dlv_2', 'dlv_3']);
    expect(io.err()).toMatch(/polling failed/);
  });

  it('an authentication failure ends the tail (exit 4)', async () => {
    const probe = async () => {
      throw apiError(401, { error: 'revoked' });
    };
    const client = () => fakeClient({ hooks: { createProbe: async () => ({ url: PROBE }), get: async () => OFF, probe } });
    const result = await run(['hooks', 'probe', '--interval', '0.01'], bufferIO({ env }), { client });
    expect(result.code).toBe(4);
  });
});
