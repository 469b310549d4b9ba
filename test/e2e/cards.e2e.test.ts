/**
 * A card and its stock through the `seller` binary against a real server that keeps its data on
 * disk: find a position, create a card from it with flags, refill the stock from a file (with a
 * duplicate line), switch auto-delivery on, read the card back, and check that no stock item is
 * stored in clear text anywhere under the server's data directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card, Position } from '../../sdk/contract/index.ts';
import { ensureBuilt, runSeller } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer | undefined;
let dataDir: string;
let work: string;

beforeAll(async () => {
  await ensureBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'seller-data-'));
  work = mkdtempSync(join(tmpdir(), 'seller-cards-e2e-'));
  server = await startTestServer({ memory: false, dataDir });
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** Every file under a directory. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('cards and stock through the CLI', () => {
  it('names missing flags, and refuses a choice the position does not allow, before calling (exit 2)', async () => {
    const { apiKey } = await server!.newSeller({ admission: 'complete' });
    const env = { SERVICE_BASE_URL: server!.url, SERVICE_API_KEY: apiKey };
    const missing = await runSeller(['cards', 'create', '--service', 'spotify', '--type', 'code', '--price', '100'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing flags: --tariff --sla --guarantee');
    const wrong = await runSeller(['cards', 'create', '--service', 'spotify', '--tariff', 'family', '--type', 'code', '--sla', '7', '--guarantee', '0', '--price', '100'], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--sla: 7 is not allowed');
    expect(wrong.stderr).toContain('30, 60, 180, 720');
    const listed = await runSeller(['--json', 'cards', 'list'], { env });
    expect(JSON.parse(listed.stdout).items).toEqual([]);
  }, 60_000);

  it('creates a card from a position, refills its stock, switches auto-delivery on; secrets stay sealed', async () => {
    const { apiKey } = await server!.newSeller({ admission: 'complete' });
    const env = { SERVICE_BASE_URL: server!.url, SERVICE_API_KEY: apiKey };
    const seller = async (...args: string[]) => {
      const result = await runSeller(args, { env });
      if (result.code !== 0) throw new Error(`seller ${args.join(' ')} → ${result.code}\n${result.stderr}`);
      return result;
    };

    // Find a position that sells codes (stock-able).
    const shown = await seller('catalog', 'show', 'spotify');
    expect(shown.stdout).toMatch(/code\s+code/);
    const position = JSON.parse((await seller('--json', 'catalog', 'show', 'spotify')).stdout) as Position;
    expect(position.deliveryMethods.code).toContain('code');

    // Create a card from it with flags.
    const created = await seller(
      '--json', 'cards', 'create',
      '--service', position.slug,
      '--tariff', position.tariffs[0]!.slug,
      '--type', 'code',
      '--delivery', 'code',
      '--sla', String(position.slaChoices[0]),
      '--guarantee', String(position.guaranteeChoices[0]),
      '--price', '390',
      '--description', 'Code within minutes',
    );
    const { number, isActive, isTest } = JSON.parse(created.stdout) as { number: number; isActive: boolean; isTest: boolean };
    expect(isActive).toBe(false);
    expect(isTest).toBe(false);

    // Refill from a file with CRLF line ends, a blank line and a duplicate line.
    const secrets = Array.from({ length: 5 }, (_, i) => `SPOTIFY-${randomBytes(6).toString('hex')}-${i}`);
    const file = join(work, 'codes.txt');
    writeFileSync(file, [...secrets.slice(0, 3), '', secrets[1]!, ...secrets.slice(3)].join('\r\n') + '\r\n');
    const refilled = JSON.parse((await seller('--json', 'stock', 'refill', String(number), '--file', file)).stdout);
    expect(refilled).toEqual({ number, added: 5, duplicates: 1, alreadySent: 0, free: 5, issued: 0 });

    // A second run is safe: the batch is replayed, nothing is added twice.
    await seller('stock', 'refill', String(number), '--file', file);
    expect(JSON.parse((await seller('--json', 'stock', 'show', String(number))).stdout)).toEqual({ number, free: 5, issued: 0 });

    // Switch on with auto-delivery.
    const on = await seller('cards', 'on', String(number), '--auto');
    expect(on.stdout).toContain('with auto-delivery');

    const card = JSON.parse((await seller('--json', 'cards', 'show', String(number))).stdout) as Card;
    expect(card).toMatchObject({ number, isActive: true, autoIssue: true, stock: { free: 5, issued: 0 }, productType: 'code', priceRub: 390 });

    // The update sends the whole body: the price changes, the description stays.
    await seller('cards', 'update', String(number), '--price', '410');
    const updated = JSON.parse((await seller('--json', 'cards', 'show', String(number))).stdout) as Card;
    expect(updated).toMatchObject({ priceRub: 410, description: 'Code within minutes', isActive: true });

    // No stock item appears in clear text in any data file.
    await server!.close();
    server = undefined;
    const stored = filesUnder(dataDir);
    expect(stored.length).toBeGreaterThan(0);
    for (const path of stored) {
      const bytes = readFileSync(path);
      for (const secret of secrets) expect(bytes.includes(secret), `${secret} found in ${path}`).toBe(false);
    }
  }, 120_000);

});
