/**
 * The seller's own records: papers, payout details, work mode, questions, reviews, complaints,
 * payouts, stats, clients, rating. The rules live in server/domain (papers, work-mode, stats, the
 * contact rule); this module reads the caller's document, applies them and shapes the answers; a
 * domain refusal is answered as it is.
 */
import { PAGE_LIMIT_DEFAULT, type KeyMode } from '../../sdk/contract/index.ts';
import { contactsRefusal } from '../domain/contacts-rule.ts';
import * as papers from '../domain/papers.ts';
import { clientsOf, payoutsOf, ratingOf, statsOf, withMoments } from '../domain/stats.ts';
import { presenceOf } from '../domain/work-mode.ts';
import { apiHandlers, type ApiContext } from '../http/handlers.ts';
import { pageOf } from '../http/paging.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { QuestionRecord, ReviewRecord } from '../store/records/account.ts';
import { newId } from '../ids.ts';

const newestFirst = <T extends { at: string; id: string }>(r: T) => `${r.at}|${r.id}`;

const questionView = (q: QuestionRecord) => ({ id: q.id, number: q.number, text: q.text, answer: q.answer, at: q.at });
const reviewView = (r: ReviewRecord) => ({ id: r.id, number: r.number, stars: r.stars, text: r.text, reply: r.reply, at: r.at });

const workModeView = (doc: SellerDoc, now: Date) => ({
  capacity: doc.workMode.capacity,
  doNotDisturb: doc.workMode.doNotDisturb,
  quietHours: doc.workMode.quietHours,
  presence: presenceOf(doc, now),
});

/** A stable per-seller pseudonym of a buyer (keyed hash; not reversible, differs between sellers). */
const pseudonym = (ctx: ApiContext) => (buyerId: string) => `cl_${ctx.svc.sealer.hash(buyerId, `client:${ctx.caller.seller.id}`).slice(0, 16)}`;

const modeOf = (ctx: ApiContext): KeyMode => ctx.caller.key.mode;

export const accountHandlers = apiHandlers({
  // ---- papers and payout details --------------------------------------------------------------

  'papers.get': ({ caller }) => papers.papersView(caller.doc.papers),

  // The nickname index is derived from the sellers' papers: nothing in the shared document to write.
  'papers.setNickname': ({ svc, caller }, { body }) =>
    papers.setNickname(svc.store.shared, caller.seller.id, caller.doc.papers, body.nickname),

  'papers.acceptOffer': ({ caller, now }) => papers.acceptOffer(caller.doc.papers, now),

  'papers.setStatus': ({ caller }, { body }) => papers.setStatus(caller.doc.papers, body.sellerType, body.inn),

  'papers.confirmRegistry': ({ caller }) => papers.confirmRegistry(caller.doc.papers),

  'papers.setPayout': ({ svc, caller, now }, { body }) => papers.setPayout(svc.sealer, caller.seller.id, caller.doc.papers, body, now),

  // ---- work mode -------------------------------------------------------------------------------

  'workMode.get': ({ caller, now }) => workModeView(caller.doc, now),

  'workMode.set': ({ caller, now }, { body }) => {
    const mode = caller.doc.workMode;
    if (body.capacity !== undefined) mode.capacity = body.capacity;
    if (body.doNotDisturb !== undefined) mode.doNotDisturb = body.doNotDisturb;
    if (body.quietHours !== undefined) mode.quietHours = body.quietHours;
    return workModeView(caller.doc, now);
  },

  // ---- questions, reviews, complaints -------------------------------------------------------------

  'questions.list': ({ caller }, { query }) => {
    const questions = Object.values(caller.doc.questions);
    const all = query.onlyUnanswered ? questions.filter((q) => q.answer === null) : questions;
    const page = pageOf(all, query, { key: newestFirst, desc: true });
    return { items: page.items.map(questionView), nextCursor: page.nextCursor };
  },

  /** Answering again replaces the answer (a seller may correct it). */
  'questions.answer': (ctx, { params, body }) => {
    const q = Object.hasOwn(ctx.caller.doc.questions, params.id) ? ctx.caller.doc.questions[params.id] : undefined;
    if (!q) throw ctx.notFound('question');
    const refusal = contactsRefusal(body.text, 'text');
    if (refusal) return refusal;
    q.answer = body.text;
    return questionView(q);
  },

  'reviews.list': ({ caller }, { query }) => {
    const page = pageOf(Object.values(caller.doc.reviews), query, { key: newestFirst, desc: true });
    return { items: page.items.map(reviewView), nextCursor: page.nextCursor };
  },

  /** Replying again replaces the reply. */
  'reviews.reply': (ctx, { params, body }) => {
    const r = Object.hasOwn(ctx.caller.doc.reviews, params.id) ? ctx.caller.doc.reviews[params.id] : undefined;
    if (!r) throw ctx.notFound('review');
    const refusal = contactsRefusal(body.text, 'text');
    if (refusal) return refusal;
    r.reply = body.text;
    return reviewView(r);
  },

  'complaints.list': ({ caller }, { query }) => pageOf(Object.values(caller.doc.complaints), query, { key: newestFirst, desc: true }),

  'complaints.create': (ctx, { body }) => {
    if (!Object.hasOwn(ctx.caller.doc.orders, body.order)) throw ctx.notFound('order');
    const refusal = contactsRefusal(body.text, 'text');
    if (refusal) return refusal;
    const complaint = { id: newId('cmp'), order: body.order, reason: body.reason, text: body.text, at: ctx.now.toISOString() };
    ctx.caller.doc.complaints[complaint.id] = complaint;
    return complaint;
  },

  // ---- money and numbers -----------------------------------------------------------------------------

  'payouts.list': (ctx, { query }) => {
    const all = payoutsOf(withMoments(Object.values(ctx.caller.doc.orders), ctx.caller.doc.events), ctx.caller.doc.papers, {
      sellerId: ctx.caller.seller.id,
      mode: modeOf(ctx),
      now: ctx.now,
    });
    return pageOf(all, query, { key: (p) => `${p.createdAt}|${p.id}`, desc: true });
  },

  /** Without `period`, everything (`all`). */
  'stats.get': (ctx, { query }) =>
    statsOf(Object.values(ctx.caller.doc.orders), { period: query.period ?? 'all', sort: query.sort, mode: modeOf(ctx), now: ctx.now }),

  'clients.list': (ctx, { query }) => {
    const all = clientsOf(Object.values(ctx.caller.doc.orders), { mode: modeOf(ctx), pseudonym: pseudonym(ctx) });
    const skip = query.skip ?? 0;
    return { items: all.slice(skip, skip + (query.limit ?? PAGE_LIMIT_DEFAULT)), total: all.length };
  },

  'rating.get': (ctx) => {
    const orders = withMoments(Object.values(ctx.caller.doc.orders), ctx.caller.doc.events);
    return ratingOf(Object.fromEntries(orders.map((o) => [o.id, o])), Object.values(ctx.caller.doc.reviews), modeOf(ctx));
  },
});
