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

/** A stock.refill stub that counts every item as added unless it was seen before. */
function refillStub() {
  const seen = new Set<string>();
  return vi.fn(async (number: number, body: { items: string[] }, _options?: { idempotencyKey?: string }) => {
    let added = 0;
    for (const item of body.items) if (!seen.has(item)) (seen.add(item), added++);
    return { number, added, duplicates: body.items.length - added, free: seen.size };
  });
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
  it('sends 2500 lines as 3 batches with deterministic keys, and the same keys on a re-run', async () => {
    const path = write('codes.txt', `${lines(2500).join('\n')}\n`);
    const refill = refillStub();
    const client = () => fakeClient({ stock: { refill } });
    const first = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client });
    expect(first.code).toBe(0);
    expect(refill).toHaveBeenCalledTimes(3);
    const batches = [lines(2500).slice(0, 1000), lines(2500).slice(1000, 2000), lines(2500).slice(2000)];
    batches.forEach((items, i) => {
      expect(refill.mock.calls[i]).toEqual([1001, { items }, { idempotencyKey: `stock-1001-${i}-${sha32(items)}` }]);
    });
    expect(first.out).toBe('Added 2500 items to card 1001; free stock: 2500.\n');
    // Piped stderr: plain progress lines.
    expect(first.err).toBe('sent 1000/2500 items\nsent 2000/2500 items\nsent 2500/2500 items\n');

    const again = await run(['--json', 'stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client });
    expect(refill.mock.calls.slice(3).map((c) => c[2])).toEqual(refill.mock.calls.slice(0, 3).map((c) => c[2]));
    expect(JSON.parse(again.out)).toEqual({ number: 1001, added: 0, duplicates: 2500, free: 2500 });
  });

  it('skips blank lines and strips \\r; reports duplicates; reads stdin with --file -', async () => {
    const refill = refillStub();
    const stdin = 'alpha\r\n\r\nbeta\r\n   \nalpha\r\n';
    const result = await run(['--json', 'stock', 'refill', '1001', '--file', '-'], bufferIO({ env, stdin }), { client: () => fakeClient({ stock: { refill } }) });
    expect(result.code).toBe(0);
    expect(refill).toHaveBeenCalledTimes(1);
    expect(refill.mock.calls[0]![1]).toEqual({ items: ['alpha', 'beta', 'alpha'] });
    expect(JSON.parse(result.out)).toEqual({ number: 1001, added: 2, duplicates: 1, free: 2 });
    expect(result.err).toBe('');
  });

  it('sums added and duplicates across batches', async () => {
    const path = write('mixed.txt', [...lines(1000), ...lines(500)].join('\n'));
    const refill = refillStub();
    const result = await run(['stock', 'refill', '1001', '-f', path], bufferIO({ env }), { client: () => fakeClient({ stock: { refill } }) });
    expect(result.out).toBe('Added 1000 items to card 1001 (500 duplicates skipped); free stock: 1000.\n');
  });

  it('draws a progress bar on a terminal', async () => {
    const path = write('codes.txt', lines(1500).join('\n'));
    const result = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env, tty: true }), { client: () => fakeClient({ stock: { refill: refillStub() } }) });
    expect(result.err).toContain('\r[####################----------] 1000/1500 items');
    expect(result.err).toMatch(/\r\[#{30}\] 1500\/1500 items\n$/);
  });

  it('refuses items over 4096 characters before sending anything, with their line numbers (exit 2)', async () => {
    const path = write('long.txt', ['ok', '', 'x'.repeat(4097), 'y'.repeat(4096), 'z'.repeat(5000)].join('\n'));
    const refill = refillStub();
    const result = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client: () => fakeClient({ stock: { refill } }) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('lines 3, 5 are longer than 4096 characters (nothing was sent)');
    expect(refill).not.toHaveBeenCalled();
  });

  it('needs --file, and a file with items', async () => {
    const refill = refillStub();
    const client = () => fakeClient({ stock: { refill } });
    const noFile = await run(['stock', 'refill', '1001'], bufferIO({ env }), { client });
    expect(noFile.code).toBe(2);
    expect(noFile.err).toContain('--file is required');
    const empty = await run(['stock', 'refill', '1001', '--file', write('empty.txt', '\n\n')], bufferIO({ env }), { client });
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('has no items');
    const missing = await run(['stock', 'refill', '1001', '--file', join(files, 'nope.txt')], bufferIO({ env }), { client });
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('no such file');
    expect(refill).not.toHaveBeenCalled();
  });

  it('after a failed batch says how far it got and that a re-run is safe', async () => {
    const path = write('codes.txt', lines(2500).join('\n'));
    const ok = refillStub();
    const refill = vi.fn(async (number: number, body: { items: string[] }, options?: { idempotencyKey?: string }) => {
      if (refill.mock.calls.length === 2) throw apiError(503, { error: 'internal' });
      return ok(number, body, options);
    });
    const result = await run(['stock', 'refill', '1001', '--file', path], bufferIO({ env }), { client: () => fakeClient({ stock: { refill } }) });
    expect(result.code).toBe(1);
    expect(result.err).toContain('1000 of 2500 items went through before the failure (1000 added).');
    expect(result.err).toContain('Run the same command again');
    expect(result.out).toBe('');
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
