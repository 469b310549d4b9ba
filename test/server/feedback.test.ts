/**
 * Questions, reviews and complaints (gaps.md: resources †, sandbox routes): the sandbox's buyer asks
 * and reviews, the seller lists, answers, replies and files complaints; the contact filter applies.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../sdk/contract/index.ts';
import { Complaint, Question, Review } from '../../sdk/contract/index.ts';
import type { CardRecord } from '../../server/store/records/listings.ts';
import { orderRecord } from '../helpers/fixtures.ts';
import { call, expectError, issueKey, makeApp, newSeller, sandbox, type Answer, type SellerCreated } from './helpers.ts';

let app: FastifyInstance;
let seller: SellerCreated;
let other: SellerCreated;

beforeEach(async () => {
  app = await makeApp();
  seller = await newSeller(app);
  other = await newSeller(app);
});
afterEach(async () => {
  await app.close();
});

let nextNumber = 5001;

/** A card put straight into the seller's document (the card routes are not this file's subject). */
async function addCard(owner: SellerCreated): Promise<number> {
  const number = nextNumber++;
  const at = app.service.clock.now().toISOString();
  const card: CardRecord = {
    number,
    service: 'netflix',
    tariff: 'standard',
    productType: 'subscription',
    deliveryMethod: 'own_account',
    priceRub: 700,
    slaMinutes: 60,
    guaranteeDays: 30,
    description: 'Netflix Standard on your own account',
    creditsType: null,
    creditsAmount: null,
    creditsRate: null,
    declaredStock: 0,
    confirmRequired: false,
    isActive: true,
    isTest: false,
    autoIssue: false,
    image: null,
    createdAt: at,
    updatedAt: at,
  };
  (await app.service.store.seller(owner.sellerId)).cards[String(number)] = card;
  app.service.store.shared.cardIndex[String(number)] = owner.sellerId;
  return number;
}

/** An order put straight into the seller's document. */
async function addOrder(owner: SellerCreated, status: OrderStatus, number = 5000): Promise<string> {
  const at = app.service.clock.now().toISOString();
  const order = orderRecord({
    number,
    service: 'netflix',
    tariff: 'standard',
    productType: 'subscription',
    deliveryMethod: 'own_account',
    priceRub: 700,
    status,
    guaranteeDays: 30,
    createdAt: at,
    paidAt: at,
    updatedAt: at,
    buyer: { id: 'buyer_secret_id_1', test: false },
  });
  (await app.service.store.seller(owner.sellerId)).orders[order.id] = order;
  app.service.store.shared.orderIndex[order.id] = owner.sellerId;
  return order.id;
}

const events = async (owner: SellerCreated) => (await app.service.store.seller(owner.sellerId)).events;
const advance = (seconds: number) => sandbox(app, 'POST', '/clock/advance', { seconds });

function expectRefusal(res: Answer, kind: string): void {
  expectError(res, 409, 'rejected');
  expect(res.body.refusal.kind, res.text).toBe(kind);
}

const CONTACT_TEXTS = [
  ['an e-mail', 'Write to me at ivan.petrov@gmail.com'],
  ['a phone', 'Call +7 916 123-45-67 any time'],
  ['a messenger link', 'Faster in t.me/ivan_shop'],
] as const;

describe('questions', () => {
  const ask = (number: unknown, text: unknown) => sandbox(app, 'POST', '/questions', { number, text });

  it('the buyer asks about a card: 201, question.new recorded', async () => {
    const number = await addCard(seller);
    const res = await ask(number, 'Does it work in Russia?');
    expect(res.status, res.text).toBe(201);
    const q = Question.parse(res.body);
    expect(q).toMatchObject({ number, text: 'Does it work in Russia?', answer: null });
    expect(q.id).toMatch(/^q_/);
    const ev = (await events(seller)).at(-1)!;
    expect(ev.kind).toBe('question.new');
    expect(ev.data).toEqual({ question: q.id, number });
  });

  it('an unknown card → 404; a bad body → 400', async () => {
    expectError(await ask(999999, 'Hello?'), 404, 'not_found');
    expectError(await ask(await addCard(seller), ''), 400, 'bad_request');
  });

  it('listed newest first, only the seller’s own, onlyUnanswered filters, pages with a cursor', async () => {
    const number = await addCard(seller);
    const ids: string[] = [];
    for (const text of ['first?', 'second?', 'third?']) {
      ids.push((await ask(number, text)).body.id);
      await advance(60);
    }
    await ask(await addCard(other), 'foreign?');
    const all = await call(app, seller.apiKey, 'GET', '/api/v1/questions');
    expect(all.status).toBe(200);
    expect(all.body.items.map((q: { id: string }) => q.id)).toEqual([...ids].reverse());
    expect(all.body.nextCursor).toBeNull();

    await call(app, seller.apiKey, 'POST', `/api/v1/questions/${ids[2]}/answer`, { text: 'Yes.' });
    const open = await call(app, seller.apiKey, 'GET', '/api/v1/questions?onlyUnanswered=true');
    expect(open.body.items.map((q: { id: string }) => q.id)).toEqual([ids[1], ids[0]]);

    const p1 = await call(app, seller.apiKey, 'GET', '/api/v1/questions?limit=2');
    expect(p1.body.items.map((q: { id: string }) => q.id)).toEqual([ids[2], ids[1]]);
    const p2 = await call(app, seller.apiKey, 'GET', `/api/v1/questions?limit=2&cursor=${p1.body.nextCursor}`);
    expect(p2.body.items.map((q: { id: string }) => q.id)).toEqual([ids[0]]);
    expect(p2.body.nextCursor).toBeNull();
  });

  it('answer: stored; answering again replaces it', async () => {
    const q = (await ask(await addCard(seller), 'Is it a family plan?')).body;
    const res = await call(app, seller.apiKey, 'POST', `/api/v1/questions/${q.id}/answer`, { text: 'No, a single profile.' });
    expect(res.status, res.text).toBe(200);
    expect(Question.parse(res.body)).toEqual({ ...q, answer: 'No, a single profile.' });
    const again = await call(app, seller.apiKey, 'POST', `/api/v1/questions/${q.id}/answer`, { text: 'A single profile, 4K.' });
    expect(again.body.answer).toBe('A single profile, 4K.');
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/questions')).body.items[0].answer).toBe('A single profile, 4K.');
  });

  it.each(CONTACT_TEXTS)('an answer with %s → contacts, not stored', async (_label, text) => {
    const q = (await ask(await addCard(seller), 'How to reach you?')).body;
    const res = await call(app, seller.apiKey, 'POST', `/api/v1/questions/${q.id}/answer`, { text });
    expectRefusal(res, 'contacts');
    expect(res.body.refusal.field).toBe('text');
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/questions')).body.items[0].answer).toBeNull();
  });

  it('another seller’s question and an unknown one look the same: 404', async () => {
    const foreign = (await ask(await addCard(other), 'Yours?')).body;
    const a = await call(app, seller.apiKey, 'POST', `/api/v1/questions/${foreign.id}/answer`, { text: 'Mine now' });
    const b = await call(app, seller.apiKey, 'POST', '/api/v1/questions/q_doesnotexist/answer', { text: 'Mine now' });
    expectError(a, 404, 'not_found');
    expectError(b, 404, 'not_found');
    expect(a.body).toEqual(b.body);
  });

  it('an empty answer → 400', async () => {
    const q = (await ask(await addCard(seller), 'Hm?')).body;
    expectError(await call(app, seller.apiKey, 'POST', `/api/v1/questions/${q.id}/answer`, { text: '   ' }), 400, 'bad_request');
  });

  it('needs the orders scope', async () => {
    const k = await issueKey(app, seller.apiKey, ['stats']);
    expectError(await call(app, k.key, 'GET', '/api/v1/questions'), 403, 'scope');
  });
});

describe('reviews', () => {
  const review = (id: string, body: unknown = { stars: 5, text: 'Fast and clean' }) => sandbox(app, 'POST', `/orders/${id}/review`, body);

  it('a completed order: 200 with the review, review.new recorded, no buyer inside', async () => {
    const id = await addOrder(seller, 'completed', 5005);
    const res = await review(id);
    expect(res.status, res.text).toBe(200);
    const r = Review.parse(res.body);
    expect(r).toMatchObject({ number: 5005, stars: 5, text: 'Fast and clean', reply: null });
    expect(res.text).not.toContain('buyer_secret_id_1');
    expect(res.body.order).toBeUndefined();
    const ev = (await events(seller)).at(-1)!;
    expect(ev.kind).toBe('review.new');
    expect(ev.data).toEqual({ review: r.id, number: 5005 });
  });

  it.each(['awaiting_delivery', 'delivered', 'disputed', 'refunded', 'cancelled'] as const)('a %s order → state_moved', async (status) => {
    const id = await addOrder(seller, status);
    const res = await review(id);
    expectRefusal(res, 'state_moved');
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/reviews')).body.items).toEqual([]);
  });

  it('one review per order: a second → state_moved, the first stays', async () => {
    const id = await addOrder(seller, 'completed');
    await review(id, { stars: 4, text: 'ok' });
    expectRefusal(await review(id, { stars: 1, text: 'changed my mind' }), 'state_moved');
    const list = (await call(app, seller.apiKey, 'GET', '/api/v1/reviews')).body.items;
    expect(list).toHaveLength(1);
    expect(list[0].stars).toBe(4);
  });

  it('an unknown order → 404; stars outside 1–5 → 400', async () => {
    expectError(await review('ord_nope'), 404, 'not_found');
    const id = await addOrder(seller, 'completed');
    expectError(await review(id, { stars: 0, text: 'x' }), 400, 'bad_request');
    expectError(await review(id, { stars: 6, text: 'x' }), 400, 'bad_request');
  });

  it('listed newest first, own only; reply stored and replaceable', async () => {
    const a = (await review(await addOrder(seller, 'completed'), { stars: 5, text: 'a' })).body;
    await advance(10);
    const b = (await review(await addOrder(seller, 'completed'), { stars: 3, text: 'b' })).body;
    await review(await addOrder(other, 'completed'), { stars: 1, text: 'foreign' });
    const list = await call(app, seller.apiKey, 'GET', '/api/v1/reviews');
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([b.id, a.id]);
    const page = await call(app, seller.apiKey, 'GET', '/api/v1/reviews?limit=1');
    expect(page.body.items.map((r: { id: string }) => r.id)).toEqual([b.id]);
    expect(page.body.nextCursor).toEqual(expect.any(String));

    const reply = await call(app, seller.apiKey, 'POST', `/api/v1/reviews/${b.id}/reply`, { text: 'Thank you, we will be faster.' });
    expect(reply.status, reply.text).toBe(200);
    expect(Review.parse(reply.body)).toEqual({ ...b, reply: 'Thank you, we will be faster.' });
    const again = await call(app, seller.apiKey, 'POST', `/api/v1/reviews/${b.id}/reply`, { text: 'Thanks!' });
    expect(again.body.reply).toBe('Thanks!');
  });

  it.each(CONTACT_TEXTS)('a reply with %s → contacts', async (_label, text) => {
    const r = (await review(await addOrder(seller, 'completed'))).body;
    expectRefusal(await call(app, seller.apiKey, 'POST', `/api/v1/reviews/${r.id}/reply`, { text }), 'contacts');
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/reviews')).body.items[0].reply).toBeNull();
  });

  it('a reply to another seller’s review → 404 like an unknown one', async () => {
    const foreign = (await review(await addOrder(other, 'completed'))).body;
    expectError(await call(app, seller.apiKey, 'POST', `/api/v1/reviews/${foreign.id}/reply`, { text: 'hi' }), 404, 'not_found');
    expectError(await call(app, seller.apiKey, 'POST', '/api/v1/reviews/rev_nope/reply', { text: 'hi' }), 404, 'not_found');
  });
});

describe('complaints', () => {
  const file = (body: unknown, key = seller.apiKey) => call(app, key, 'POST', '/api/v1/complaints', body);

  it('about the buyer of an own order: 201, listed newest first', async () => {
    const o1 = await addOrder(seller, 'disputed');
    const o2 = await addOrder(seller, 'refunded');
    const c1 = await file({ order: o1, reason: 'fraud', text: 'Claims non-delivery after logging in.' });
    expect(c1.status, c1.text).toBe(201);
    expect(Complaint.parse(c1.body)).toMatchObject({ order: o1, reason: 'fraud', text: 'Claims non-delivery after logging in.' });
    expect(c1.body.id).toMatch(/^cmp_/);
    await advance(5);
    const c2 = await file({ order: o2, reason: 'chargeback', text: 'Charged back after use.' });
    const list = await call(app, seller.apiKey, 'GET', '/api/v1/complaints');
    expect(list.body.items.map((c: { id: string }) => c.id)).toEqual([c2.body.id, c1.body.id]);
    expect(list.text).not.toContain('buyer_secret_id_1');
    expect((await call(app, other.apiKey, 'GET', '/api/v1/complaints')).body.items).toEqual([]);
  });

  it('another seller’s order and an unknown one → the same 404, nothing filed', async () => {
    const foreign = await addOrder(other, 'completed');
    const a = await file({ order: foreign, reason: 'abuse', text: 'Rude.' });
    const b = await file({ order: 'ord_doesnotexist', reason: 'abuse', text: 'Rude.' });
    expectError(a, 404, 'not_found');
    expectError(b, 404, 'not_found');
    expect(a.body).toEqual(b.body);
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/complaints')).body.items).toEqual([]);
  });

  it.each(CONTACT_TEXTS)('a complaint text with %s → contacts', async (_label, text) => {
    expectRefusal(await file({ order: await addOrder(seller, 'completed'), reason: 'other', text }), 'contacts');
    expect((await call(app, seller.apiKey, 'GET', '/api/v1/complaints')).body.items).toEqual([]);
  });

  it.each([
    ['an unknown reason', { reason: 'spam', text: 'x' }],
    ['no text', { reason: 'other' }],
    ['an order id of the wrong shape', { reason: 'other', text: 'x', order: 'not-an-order' }],
  ])('%s → 400', async (_label, body) => {
    const order = await addOrder(seller, 'completed');
    expectError(await file({ order, ...body }), 400, 'bad_request');
  });
});
