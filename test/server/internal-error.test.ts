/**
 * An unexpected failure (here: a seller's write fails on the disk) is answered 500 `internal` with
 * nothing of the failure in the answer, and its request id finds it in the server log: the log line
 * at `error` carries that id and the error.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { Store } from '../../server/store/store.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { breakSellerJournal, useFileStore } from '../helpers/file-store.ts';
import { ADMIN, call, expectError, newSeller } from './helpers.ts';

const files = useFileStore('seller-internal-error-test-');

describe('an internal error', () => {
  it('is answered 500 without details, and logged at error under the request id of the answer', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    const app = await buildApp({ store: await Store.open({ dataDir: files.dir }), adminToken: ADMIN, logger: { level: 'error', stream } });
    files.track(app);
    const seller = await newSeller(app, { admission: 'complete' });
    expect((await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).status).toBe(201);
    expect(lines).toEqual([]); // nothing below `error` is logged

    await breakSellerJournal(files.dir, seller.sellerId);
    const failed = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD);
    expectError(failed, 500, 'internal');
    expect(failed.text).not.toContain(files.dir);
    expect(failed.text).not.toMatch(/EISDIR|rename|stack/i);
    const id = String(failed.headers['x-request-id']);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const logged = lines.map((line) => JSON.parse(line) as { level: number; reqId?: string; msg: string; err?: { message: string; stack: string } });
    const entry = logged.find((l) => l.reqId === id);
    expect(entry, lines.join('')).toBeDefined();
    expect(entry!.level).toBe(50);
    expect(entry!.msg).toBe('unexpected error');
    expect(entry!.err?.message).toMatch(/EISDIR|directory/i);
    expect(lines.join('')).not.toContain(seller.apiKey);
  });
});
