/**
 * Sandbox: the buyer asks a question about a card, or reviews a completed order. Both land in the
 * seller's document with an event (`question.new`, `review.new`) in the same write.
 *
 * A review needs a `completed` order (else `state_moved`), and an order takes one review: a second
 * one is refused with `state_moved` too (the order has moved on past reviewing).
 */
import { recordEvent } from '../domain/events.ts';
import { refuse } from '../domain/refusal.ts';
import { sandboxHandlers } from '../http/handlers.ts';
import { newId } from '../ids.ts';
import type { QuestionRecord, ReviewRecord } from '../store/records/account.ts';

const reviewView = (r: ReviewRecord) => ({ id: r.id, number: r.number, stars: r.stars, text: r.text, reply: r.reply, at: r.at });

export const feedbackSandboxHandlers = sandboxHandlers({
  'sandbox.createQuestion': async (ctx, { body }) => {
    const shared = ctx.svc.store.shared;
    const sellerId = Object.hasOwn(shared.cardIndex, String(body.number)) ? shared.cardIndex[String(body.number)] : undefined;
    if (!sellerId) throw ctx.notFound('card', body.number);
    const doc = await ctx.tx.seller(sellerId);
    const card = Object.hasOwn(doc.cards, String(body.number)) ? doc.cards[String(body.number)] : undefined;
    // a deleted card kept hidden for its orders is not on show: nobody can ask about it
    if (!card || card.hidden) throw ctx.notFound('card', body.number);
    const question: QuestionRecord = { id: newId('q'), number: body.number, text: body.text, answer: null, at: ctx.now.toISOString() };
    doc.questions[question.id] = question;
    recordEvent(ctx.svc, doc, 'question.new', { question: question.id, number: question.number }, ctx.now);
    return { ...question };
  },

  'sandbox.review': async (ctx, { params, body }) => {
    const index = ctx.svc.store.shared.orderIndex;
    const sellerId = Object.hasOwn(index, params.id) ? index[params.id] : undefined;
    if (!sellerId) throw ctx.notFound('order', params.id);
    const doc = await ctx.tx.seller(sellerId);
    const order = Object.hasOwn(doc.orders, params.id) ? doc.orders[params.id] : undefined;
    if (!order) throw ctx.notFound('order', params.id);
    if (order.status !== 'completed') {
      return refuse('state_moved', { reason: 'not_completed', status: order.status }, `only a completed order can be reviewed; this one is ${order.status}`);
    }
    if (Object.values(doc.reviews).some((r) => r.order === order.id)) {
      return refuse('state_moved', { reason: 'reviewed' }, 'this order has a review already');
    }
    const review: ReviewRecord = {
      id: newId('rev'),
      order: order.id,
      number: order.number,
      stars: body.stars,
      text: body.text,
      reply: null,
      at: ctx.now.toISOString(),
    };
    doc.reviews[review.id] = review;
    recordEvent(ctx.svc, doc, 'review.new', { review: review.id, number: review.number }, ctx.now);
    return reviewView(review);
  },
});
