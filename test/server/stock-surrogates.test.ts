/**
 * Stock units must be well-formed Unicode: a unit holding a lone surrogate is refused as
 * `bad_request` naming the item (sdk/contract/listings.ts `StockRefill`), never stored changed
 * (as U+FFFD) nor merged with another unit; units with paired surrogates (emoji) are kept apart.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StockRefill } from '../../sdk/contract/index.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { call, expectError, makeApp, newSeller, type SellerCreated } from './helpers.ts';

let app: FastifyInstance;
let seller: SellerCreated;
let number: number;

beforeAll(async () => {
  app = await makeApp({ rateLimit: { perMinute: 1e6, burst: 1e6 } });
  seller = await newSeller(app, { admission: 'complete' });
  number = (await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).body.number;
});
afterAll(async () => {
  await app.close();
});

/** A refill sent as raw JSON text (so that `\ud800` escapes reach the server as they are). */
const refill = (json: string) => call(app, seller.apiKey, 'POST', `/api/v1/listings/${number}/stock`, { raw: json, contentType: 'application/json' });
const free = async () => (await call(app, seller.apiKey, 'GET', `/api/v1/listings/${number}/stock`)).body.free as number;

describe('stock units and lone surrogates', () => {
  it.each([
    ['a high surrogate alone', '"code-\\ud800"', 1],
    ['a low surrogate alone', '"\\udc00code"', 1],
    ['a pair reversed', '"code-\\ude00\\ud83d"', 1],
    ['at the fourth item', '"fine", "also fine", "bad\\udbff"', 3],
  ])('%s → bad_request naming the item; nothing is added', async (_name, items, index) => {
    const before = await free();
    const res = await refill(`{"items": ["ok-first", ${items}]}`);
    expectError(res, 400, 'bad_request');
    expect(res.body.detail.message).toBe(`body.items.${index}: a stock item must be well-formed Unicode text (it holds a lone surrogate)`);
    expect(await free()).toBe(before);
  });

  it('two units differing only by a lone surrogate are refused, not merged into one', async () => {
    const res = await refill('{"items": ["same\\ud800", "same\\udbff"]}');
    expectError(res, 400, 'bad_request');
    expect(res.body.detail.message).toMatch(/^body\.items\.0: .*; body\.items\.1: /);
  });

  it('paired surrogates (emoji) are well-formed: kept, and two different emoji are two units', async () => {
    const before = await free();
    const res = await refill('{"items": ["gift-\\ud83d\\ude00", "gift-\\ud83d\\ude01", "gift-😀"]}');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ added: 2, duplicates: 1 });
    expect(await free()).toBe(before + 2);
  });

  it('the contract schema refuses it too (the SDK checks before sending)', () => {
    expect(StockRefill.safeParse({ items: ['x\ud800'] }).success).toBe(false);
    expect(StockRefill.safeParse({ items: ['x\ud83d\ude00'] }).success).toBe(true);
  });
});
