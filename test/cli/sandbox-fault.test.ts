/**
 * `seller sandbox fault add|list|clear` in-process against a real server: the flags become a fault
 * the server applies, `--json` is the sandbox's answer, the list and the clearing; bad flags exit 2
 * naming the flag (an unknown operation id with the nearest one suggested), in English and Russian.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bufferIO, run, tableBody, tempConfigDir } from './helpers.ts';

let server: TestServer;
let config: ReturnType<typeof tempConfigDir>;
let seller: { sellerId: string; apiKey: string };

const cli = (argv: string[], env: Record<string, string> = {}) =>
  run(argv, bufferIO({ env: { SELLER_CONFIG_DIR: config.dir, SERVICE_BASE_URL: server.url, SERVICE_ADMIN_TOKEN: server.adminToken, LANG: 'C', ...env } }));

const me = () => fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${seller.apiKey}` } });

beforeAll(async () => {
  server = await startTestServer();
  config = tempConfigDir();
  seller = await server.newSeller();
});
afterEach(async () => {
  await server.sandbox('DELETE', '/faults');
});
afterAll(async () => {
  await server.close();
  config.cleanup();
});

describe('seller sandbox fault', () => {
  it('add prints the id; the server answers the status; list shows it; clear ID removes it', async () => {
    const added = await cli(['sandbox', 'fault', 'add', '--seller', seller.sellerId, '--op', 'me.get', '--status', '503', '--times', '2']);
    expect(added.code, added.err).toBe(0);
    const id = added.out.trim();
    expect(id).toMatch(/^flt_/);
    expect(added.err).toContain(`fault ${id}: me.get → 503 for ${seller.sellerId}, 2 hits left`);
    expect((await me()).status).toBe(503);

    const listed = await cli(['sandbox', 'fault', 'list']);
    expect(listed.code).toBe(0);
    expect(tableBody(listed.out)).toBe(`${id}\t${seller.sellerId}\tme.get → 503\t1 hit left\t1\n`);

    expect((await cli(['sandbox', 'fault', 'clear', id])).out).toBe('1 fault cleared\n');
    expect((await me()).status).toBe(200);
    const again = await cli(['sandbox', 'fault', 'clear', id]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('not_found');
  });

  it('list shows a used-up fault as ended, with its hits', async () => {
    const id = (await cli(['sandbox', 'fault', 'add', '--op', 'me.get', '--status', '500', '--times', '1'])).out.trim();
    expect((await me()).status).toBe(500);
    expect((await me()).status).toBe(200);
    const listed = await cli(['sandbox', 'fault', 'list']);
    expect(tableBody(listed.out)).toMatch(new RegExp(`^${id}\tevery seller\tme\.get → 500\tended \\S.*\t1\n$`));
    const ru = await cli(['sandbox', 'fault', 'list'], { LANG: 'ru_RU.UTF-8' });
    expect(tableBody(ru.out)).toMatch(new RegExp(`^${id}\tвсех продавцов\tme\.get → 500\tзакончился \\S.*\t1\n$`));
  });

  it('--retry-after: the status fault sends it, the add and the list say it', async () => {
    const added = await cli(['sandbox', 'fault', 'add', '--op', 'me.get', '--status', '503', '--retry-after', '5s']);
    expect(added.code, added.err).toBe(0);
    expect(added.err).toContain('me.get → 503, Retry-After 5s for every seller');
    const res = await me();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(JSON.parse((await cli(['sandbox', 'fault', 'list', '--json'])).out).items[0]).toMatchObject({ status: 503, retryAfterMs: 5000 });
  });

  it('--json answers the fault; clear without an id clears every fault', async () => {
    const json = await cli(['sandbox', 'fault', 'add', '--op', '*', '--latency', '250ms', '--for', '10m', '--json']);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ id: expect.stringMatching(/^flt_/), op: '*', latencyMs: 250, forMs: 600_000, hits: 0 });
    expect((await cli(['sandbox', 'fault', 'add', '--hooks', 'delay:2s', '--every', '2'])).code).toBe(0);
    const listed = JSON.parse((await cli(['sandbox', 'fault', 'list', '--json'])).out);
    expect(listed.items.map((f: { op?: string; hooks?: string }) => f.op ?? f.hooks)).toEqual(['*', 'delay']);
    expect(JSON.parse((await cli(['sandbox', 'fault', 'clear', '--json'])).out)).toEqual({ cleared: 2 });
    expect((await cli(['sandbox', 'fault', 'list'])).err).toContain('no faults in force');
  });

  it.each<[string[], RegExp]>([
    [['--op', 'orders.delivr', '--status', '503'], /--op: orders\.delivr is not an operation of the seller API\ndid you mean orders\.deliver\?/],
    [['--op', 'sandbox.pay', '--status', '503'], /--op: sandbox\.pay is not an operation/],
    [['--op', 'orders.deliver'], /name one effect/],
    [['--status', '503'], /--op: name a seller-API operation id/],
    [['--op', 'orders.deliver', '--status', '503', '--drop'], /one effect per fault/],
    [['--op', 'orders.deliver', '--status', '404'], /--status: one of 429, 500, 502, 503/],
    [['--op', 'orders.deliver', '--latency', 'soon'], /--latency: a duration/],
    [['--hooks', 'twice'], /--hooks: duplicate, reorder, fail, or delay:DUR/],
    [['--hooks', 'fail', '--op', 'orders.deliver'], /webhook chaos names no operation/],
    [['--op', '*', '--status', '500', '--every', '1'], /--every: a whole number from 2/],
    [['--op', '*', '--status', '500', '--times', '0'], /--times: a whole number from 1/],
    [['--op', '*', '--latency', '1s', '--retry-after', '5s'], /--retry-after goes with --status only/],
    [['--op', '*', '--status', '503', '--retry-after', 'later'], /--retry-after: a duration such as 5s or 1m/],
  ])('add %j exits 2 naming the flag, adding nothing', async (flags, message) => {
    const r = await cli(['sandbox', 'fault', 'add', ...flags]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(await server.sandbox('GET', '/faults')).toEqual({ items: [] });
  });

  it('speaks Russian under a Russian locale, with the same --json', async () => {
    const bad = await cli(['sandbox', 'fault', 'add', '--op', 'orders.delivr', '--status', '503'], { LANG: 'ru_RU.UTF-8' });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('не операция API продавца');
    expect(bad.err).toContain('orders.deliver');
    const added = await cli(['sandbox', 'fault', 'add', '--op', 'me.get', '--status', '500', '--times', '3'], { LANG: 'ru_RU.UTF-8' });
    expect(added.err).toContain('осталось 3 срабатывания');
    const cleared = await cli(['sandbox', 'fault', 'clear'], { LANG: 'ru_RU.UTF-8' });
    expect(cleared.out).toBe('снят 1 сбой\n');
  });
});
