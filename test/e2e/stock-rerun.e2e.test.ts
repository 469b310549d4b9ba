/**
 * `seller stock refill` run twice against a real server (issue 15, item 1): refill 2,500 codes, sell
 * two (auto-delivery issues them), run the same refill again. The server replays the stored answers of
 * the same batch keys; the re-run must not print them as fresh: it says 0 added, 2,500 already sent,
 * and the stock as it is now (2,498 free, 2 issued).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SellerClient } from '../../sdk/client.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { ensureBuilt, runSeller } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let work: string;

beforeAll(async () => {
  await ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'seller-stock-rerun-'));
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a re-run of stock refill', () => {
  it('reports replayed batches as already sent and the current counts, not the stored answers', async () => {
    const { apiKey } = await server.newSeller({ admission: 'complete' });
    const env = { SERVICE_BASE_URL: server.url, SERVICE_API_KEY: apiKey };
    const client = new SellerClient({ apiKey, baseUrl: server.url });
    const { number } = await client.listings.create({ ...CODE_CARD, productType: 'code', deliveryMethod: 'code' });
    const file = join(work, 'codes.txt');
    writeFileSync(file, `${Array.from({ length: 2500 }, (_, i) => `CODE-${number}-${i}`).join('\n')}\n`);

    const first = await runSeller(['--json', 'stock', 'refill', String(number), '--file', file], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ number, added: 2500, duplicates: 0, alreadySent: 0, free: 2500, issued: 0 });

    // Sell two: auto-delivery issues two codes.
    await client.listings.setState(number, { active: true, autoIssue: true });
    for (let i = 0; i < 2; i++) {
      const order = await server.sandbox<{ id: string }>('POST', '/orders', { number });
      await server.sandbox('POST', `/orders/${order.id}/pay`, {});
    }
    expect(await client.stock.get(number)).toEqual({ number, free: 2498, issued: 2 });

    const again = await runSeller(['stock', 'refill', String(number), '--file', file], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(
      `Added 0 items to card ${number} (2500 items were already sent by an earlier run of this command); stock now: 2498 free, 2 issued.\n`,
    );
    const json = await runSeller(['--json', 'stock', 'refill', String(number), '--file', file], { env });
    expect(JSON.parse(json.stdout)).toEqual({ number, added: 0, duplicates: 0, alreadySent: 2500, free: 2498, issued: 2 });

    // The same codes under new batch keys (one more line in front shifts every batch): all duplicates.
    writeFileSync(file, `NEW-${number}\n${Array.from({ length: 2500 }, (_, i) => `CODE-${number}-${i}`).join('\n')}\n`);
    const shifted = await runSeller(['--json', 'stock', 'refill', String(number), '--file', file], { env });
    expect(JSON.parse(shifted.stdout)).toMatchObject({ added: 1, duplicates: 2500, alreadySent: 0, free: 2499, issued: 2 });
  }, 120_000);
});
