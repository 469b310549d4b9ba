/**
 * An order's conversation in bounded pieces (issue 19's audit, server/store/message-pieces.ts): the
 * first fifty messages in the order record, the rest in pieces of fifty in the seller's `messages`
 * section; the answer puts them back together in order, also after a restart.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES_INLINE, PIECE_MESSAGES, messagePieceKey } from '../../server/store/message-pieces.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { useFileStore } from '../helpers/file-store.ts';
import { call, newSeller, sandbox } from './helpers.ts';

const files = useFileStore('message-pieces-');

/** Every record of a seller's section, from its shard files. */
async function records(dir: string, section: string): Promise<Record<string, any>> {
  const out: Record<string, any> = {};
  for (const f of (await readdir(dir)).filter((n) => n.startsWith(`${section}-`))) Object.assign(out, JSON.parse(await readFile(path.join(dir, f), 'utf8')).records);
  return out;
}

describe("an order's messages", () => {
  it('past the first fifty go into pieces; the answer holds them all in order, also after a restart', async () => {
    let app = await files.fileApp();
    const s = await newSeller(app, { admission: 'complete' });
    const number = (await call(app, s.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body.number;
    await call(app, s.apiKey, 'POST', `/api/v1/listings/${number}/state`, { active: true });
    const id = (await sandbox(app, 'POST', '/orders', { number })).body.id;
    await sandbox(app, 'POST', `/orders/${id}/pay`);
    const total = MESSAGES_INLINE + PIECE_MESSAGES + 7;
    const texts: string[] = [];
    for (let i = 0; i < total; i++) {
      const text = `message ${i}`;
      const res = i % 5 === 4 ? await call(app, s.apiKey, 'POST', `/api/v1/orders/${id}/messages`, { text }) : await sandbox(app, 'POST', `/orders/${id}/message`, { text });
      expect(res.status, res.text).toBeLessThan(300);
      texts.push(text);
    }
    const answer = async () => (await call(app, s.apiKey, 'GET', `/api/v1/orders/${id}`)).body.messages.map((m: { text: string }) => m.text);
    expect(await answer()).toEqual(texts);

    const dir = path.join(files.dir, 'sellers', s.sellerId);
    expect((await records(dir, 'orders'))[id].messages).toHaveLength(MESSAGES_INLINE);
    const pieces = await records(dir, 'messages');
    expect(Object.keys(pieces).sort()).toEqual([messagePieceKey(id, 0), messagePieceKey(id, 1)]);
    expect(pieces[messagePieceKey(id, 0)].messages).toHaveLength(PIECE_MESSAGES);
    expect(pieces[messagePieceKey(id, 1)].messages.map((m: { text: string }) => m.text)).toEqual(texts.slice(MESSAGES_INLINE + PIECE_MESSAGES));

    await files.closeAll();
    app = await files.fileApp();
    expect(await answer()).toEqual(texts);
  });
});
