import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchKey, parseStockItems, stockBatches } from '../../cli/commands/stock.ts';
import { apiError, bufferIO, fakeClient, LIVE_KEY, run, tempConfigDir } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
let env: Record<string, string>;
let files: string;
beforeEach(() => {
  config = tempConfigDir();
  env = { SERVICE_API_KEY: LIVE_KEY, SELLER_CONFIG_DIR: config.dir, NO_COLOR: '1' };
  files = mkdtempSync(join(tmpdir(), 'seller-stock-'));
});
afterEach(() => {
  config.cleanup();
  rmSync(files, { recursive: true, force: true });
});

const lines = (n: number, prefix = 'code-') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
const sha32 = (items: string[]) => createHash('sha256').update(items.join('\n')).digest('hex').slice(0, 32);

/**
 * A stub of the server's refill (through `client.request`) and `stock.get`: counts every item as
 * added unless it was seen before, and replays the stored answer of a key it has seen (as the
 * server does, with `replayed: true`).
 */
function refillStub() {
  const seen = new Set<string>();
  const answers = new Map<string, unknown>();
  const request = vi.fn(async (req: { method: string; path: string; body?: unknown; idempotencyKey?: string; signal?: AbortSignal }) => {
    const key = req.idempotencyKey!;
    const stored = answers.get(key);
    if (stored !== undefined) return { status: 201, headers: new Headers(), body: stored, requestId: 'req_x', replayed: true };
    const number = Number(/\/listings\/(\d+)\/stock$/.exec(req.path)![1]);
    const { items } = req.body as { items: string[] };
    let added = 0;
    for (const item of items) if (!seen.has(item)) (seen.add(item), added++);
    const body = { number, added, duplicates: items.length - added, free: seen.size };
    answers.set(key, body);
    return { status: 201, headers: new Headers(), body, requestId: 'req_x', replayed: false };
  });
  const get = vi.fn(async (number: number) => ({ number, free: seen.size, issued: 0 }));
  /** The refill calls as [number, body, options], like the SDK method's arguments. */
  const calls = () =>
    request.mock.calls.map(([req]) => [Number(/\/listings\/(\d+)\//.exec(req.path)![1]), req.body, { idempotencyKey: req.idempotencyKey }] as const);
  return { request, get, calls, client: () => fakeClient({ request, stock: { get } }) };
}

function write(name: string, text: string): string {
  const path = join(files, name);
  writeFileSync(path, text);
  return path;
}

describe('parsing the items', () => {
  it('one item per line; blank lines skipped; a trailing \\r stripped; line numbers kept', () => {
    expect(parseStockItems('\uFEFFa\r\n\r\n  \nb c \n\nd')).toEqual({ items: ['a', 'b c ', 'd'], lines: [1, 4, 6] });
    expect(parseStockItems('\n\n')).toEqual({ items: [], lines: [] });
  });

  it('keys derive from the card, the batch place and the items', () => {
    expect(batchKey(1001, 0, ['a', 'b'])).toBe(`stock-1001-0-${sha32(['a', 'b'])}`);
    expect(batchKey(1001, 0, ['a', 'b'])).not.toBe(batchKey(1002, 0, ['a', 'b']));
    expect(batchKey(1001, 0, ['a', 'b'])).not.toBe(batchKey(1001, 1, ['a', 'b']));
    expect(stockBatches(7, lines(2500)).map((b) => b.items.length)).toEqual([1000, 1000, 500]);
  });
});

describe('seller stock refill', () => {
  it('sends 2500 lines as 3 batches with deterministic keys; a re-run reports its batches as already sent, not added', async () => {
    const path = write('codes.txt', `${lines(2500).join('\n')}\n`);
    const stub = refillStub();
    const first = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client: stub.client });
    expect(first.code).toBe(0);
    expect(stub.request).toHaveBeenCalledTimes(3);
    const batches = [lines(2500).slice(0, 1000), lines(2500).slice(1000, 2000), lines(2500).slice(2000)];
    batches.forEach((items, i) => {
      expect(stub.calls()[i]).toEqual([1001, { items }, { idempotencyKey: `stock-1001-${i}-${sha32(items)}` }]);
      expect(stub.request.mock.calls[i]![0]).toMatchObject({ method: 'POST', path: '/api/v1/listings/1001/stock' });
    });
    expect(first.out).toBe('Added 2500 items to card 1001; stock now: 2500 free, 0 issued.\n');
    // Piped stderr: plain progress lines.
    expect(first.err).toBe('sent 1000/2500 items\nsent 2000/2500 items\nsent 2500/2500 items\n');

    const again = await run(['--json', 'stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client: stub.client });
    expect(stub.calls().slice(3).map((c) => c[2])).toEqual(stub.calls().slice(0, 3).map((c) => c[2]));
    expect(JSON.parse(again.out)).toEqual({ number: 1001, added: 0, duplicates: 0, alreadySent: 2500, free: 2500, issued: 0 });
    const plain = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client: stub.client });
    expect(plain.out).toBe('Added 0 items to card 1001 (2500 items were already sent by an earlier run of this command); stock now: 2500 free, 0 issued.\n');
  });

  it('skips blank lines and strips \\r; reports duplicates; reads stdin with --file -', async () => {
    const stub = refillStub();
    const stdin = 'alpha\r\n\r\nbeta\r\n   \nalpha\r\n';
    const result = await run(['--json', 'stock', 'refill', '1001', '--file', '-'], bufferIO({ env, stdin }), { client: stub.client });
    expect(result.code).toBe(0);
    expect(stub.request).toHaveBeenCalledTimes(1);
    expect(stub.calls()[0]![1]).toEqual({ items: ['alpha', 'beta', 'alpha'] });
    expect(JSON.parse(result.out)).toEqual({ number: 1001, added: 2, duplicates: 1, alreadySent: 0, free: 2, issued: 0 });
    expect(result.err).toBe('');
  });

  it('sums added and duplicates across batches', async () => {
    const path = write('mixed.txt', [...lines(1000), ...lines(500)].join('\n'));
    const stub = refillStub();
    const result = await run(['stock', 'refill', '1001', '-f', path], bufferIO({ env }), { client: stub.client });
    expect(result.out).toBe('Added 1000 items to card 1001 (500 duplicates skipped); stock now: 1000 free, 0 issued.\n');
  });

  it('draws a progress bar on a terminal', async () => {
    const path = write('codes.txt', lines(1500).join('\n'));
    const result = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env, tty: true }), { client: refillStub().client });
    expect(result.err).toContain('\r[####################----------] 1000/1500 items');
    expect(result.err).toMatch(/\r\[#{30}\] 1500\/1500 items\n$/);
  });

  it('refuses items over 4096 characters before sending anything, with their line numbers (exit 2)', async () => {
    const path = write('long.txt', ['ok', '', 'x'.repeat(4097), 'y'.repeat(4096), 'z'.repeat(5000)].join('\n'));
    const stub = refillStub();
    const result = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client: stub.client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('lines 3, 5 are longer than 4096 characters (nothing was sent)');
    expect(stub.request).not.toHaveBeenCalled();
  });

  it('needs --file, and a file with items', async () => {
    const stub = refillStub();
    const client = stub.client;
    const noFile = await run(['stock', 'refill', '1001'], bufferIO({ env }), { client });
    expect(noFile.code).toBe(2);
    expect(noFile.err).toContain('--file is required');
    const empty = await run(['stock', 'refill', '1001', '--file', write('empty.txt', '\n\n')], bufferIO({ env }), { client });
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('has no items');
    const missing = await run(['stock', 'refill', '1001', '--file', join(files, 'nope.txt')], bufferIO({ env }), { client });
    expect(missing.code).toBe(2); // one exit code for a file that cannot be read (cli/lib/input.ts)
    expect(missing.err).toContain('--file: cannot read');
    expect(missing.err).toContain('no such file');
    expect(stub.request).not.toHaveBeenCalled();
  });

  it('after a failed batch says how far it got and that a re-run is safe', async () => {
    const path = write('codes.txt', lines(2500).join('\n'));
    const ok = refillStub();
    const request = vi.fn(async (req: Parameters<typeof ok.request>[0]) => {
      if (request.mock.calls.length === 2) throw apiError(503, { error: 'internal' });
      return ok.request(req);
    });
    const result = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client: () => fakeClient({ request, stock: { get: ok.get } }) });
    expect(result.code).toBe(1);
    expect(result.err).toContain('1000 of 2500 items went through before the failure (1000 added).');
    expect(result.err).toContain('Run the same command again');
    expect(result.out).toBe('');
  });

  it('Ctrl-C during a batch aborts it and says how many items the server confirmed and that a re-run finishes (exit 130)', async () => {
    const path = write('codes.txt', lines(2500).join('\n'));
    const ok = refillStub();
    let inFlight: AbortSignal | undefined;
    const request = vi.fn(async (req: Parameters<typeof ok.request>[0]) => {
      if (request.mock.calls.length < 2) return ok.request(req);
      // The second batch hangs until the person presses Ctrl-C (a real SIGINT listener runs).
      inFlight = req.signal;
      setImmediate(() => process.emit('SIGINT'));
      return new Promise<never>((_resolve, reject) => req.signal!.addEventListener('abort', () => reject(req.signal!.reason)));
    });
    const sigints = process.listenerCount('SIGINT');
    const result = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client: () => fakeClient({ request, stock: { get: ok.get } }) });
    expect(inFlight?.aborted).toBe(true);
    expect(result.code).toBe(130);
    expect(result.err).toContain('Interrupted: the server confirmed 1000 of 2500 items (1000 added now, 0 duplicates, 0 already sent before); the batch of 1000 in flight may or may not have reached it.');
    expect(result.err).toContain('Run the same command again to finish the job');
    expect(request).toHaveBeenCalledTimes(2);
    expect(result.out).toBe('');
    expect(process.listenerCount('SIGINT')).toBe(sigints);
  });
});

describe('seller stock show', () => {
  it('shows free and issued counts', async () => {
    const get = vi.fn(async () => ({ number: 1001, free: 7, issued: 2 }));
    const result = await run(['stock', 'show', '1001'], bufferIO({ env }), { client: () => fakeClient({ stock: { get } }) });
    expect(get).toHaveBeenCalledWith(1001);
    expect(result.out).toMatch(/Card:\s+1001\nFree:\s+7\nIssued:\s+2\n/);
    const json = await run(['--json', 'stock', 'show', '1001'], bufferIO({ env }), { client: () => fakeClient({ stock: { get } }) });
    expect(JSON.parse(json.out)).toEqual({ number: 1001, free: 7, issued: 2 });
  });
});
