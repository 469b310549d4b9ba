/**
 * The seller's own records: identity, money and stats, feedback, work mode, admission papers.
 * Scopes: `payouts`, `stats`, `orders` (questions, reviews, complaints, work mode), `documents`.
 */
import { z } from 'zod';
import { IdParam, intParam, page, pageQuery, prefixedId, Rub, Scope, Text, Timestamp, boolParam } from './common.ts';
import { KeyMode, SellerType } from './enums.ts';
import { op } from './operation.ts';
import { accountRoutes as R } from './routes/account.ts';

const FEEDBACK_TEXT_MAX = 2000;

export const Me = z.object({
  sellerId: z.string(),
  nickname: z.string().nullable(),
  sellerType: SellerType.nullable(),
  mode: KeyMode,
  key: z.object({ id: prefixedId('key'), prefix: z.string(), scopes: z.array(Scope) }),
  admissionComplete: z.boolean(),
});

export const Payout = z.object({
  id: prefixedId('pay'),
  amountRub: Rub,
  status: z.enum(['scheduled', 'paid', 'failed']),
  method: z.enum(['account', 'sbp']),
  accountTail: z.string().nullable(),
  createdAt: Timestamp,
  paidAt: Timestamp.nullable(),
});

export const STATS_PERIODS = ['today', 'week', 'month', 'all'] as const;
export const Stats = z.object({
  period: z.enum(STATS_PERIODS),
  revenueRub: Rub,
  orders: z.number().int().min(0),
  completed: z.number().int().min(0),
  refunded: z.number().int().min(0),
  averageRub: Rub,
  listings: z.array(z.object({ number: z.number().int().min(1), revenueRub: Rub, orders: z.number().int().min(0) })),
});

export const Client = z.object({
  client: z.string(),
  orders: z.number().int().min(0),
  spentRub: Rub,
  lastOrderAt: Timestamp,
});

export const Rating = z.object({
  score: z.number().nullable(),
  reviews: z.number().int().min(0),
  positive: z.number().int().min(0),
  negative: z.number().int().min(0),
  completedOrders: z.number().int().min(0),
  disputeRate: z.number(),
});

export const Question = z.object({
  id: prefixedId('q'),
  number: z.number().int().min(1),
  text: z.string(),
  answer: z.string().nullable(),
  at: Timestamp,
});

export const Review = z.object({
  id: prefixedId('rev'),
  number: z.number().int().min(1),
  stars: z.number().int().min(1).max(5),
  text: z.string(),
  reply: z.string().nullable(),
  at: Timestamp,
});

export const COMPLAINT_REASONS = ['fraud', 'abuse', 'chargeback', 'other'] as const;
export const Complaint = z.object({
  id: prefixedId('cmp'),
  order: prefixedId('ord'),
  reason: z.enum(COMPLAINT_REASONS),
  text: z.string(),
  at: Timestamp,
});

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time HH:MM');
const IanaZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'an IANA time zone such as Europe/Moscow').meta({ description: 'An IANA time zone (tz database name), such as Europe/Moscow.', examples: ['Europe/Moscow'] });

export const QuietHours = z.strictObject({ from: HHMM, to: HHMM, tz: IanaZone });
export const WorkMode = z.object({
  capacity: z.number().int().min(1).max(10_000).nullable(),
  doNotDisturb: z.boolean(),
  quietHours: z.object({ from: z.string(), to: z.string(), tz: z.string().meta({ description: 'An IANA time zone (tz database name), such as Europe/Moscow.', examples: ['Europe/Moscow'] }) }).nullable(),
  presence: z.enum(['online', 'away', 'offline']),
});
/** `presence` is decided by the marketplace; sending it is `bad_request` (a strict object). */
export const WorkModeSet = z.strictObject({
  capacity: z.number().int().min(1).max(10_000).nullable().optional(),
  doNotDisturb: z.boolean().optional(),
  quietHours: QuietHours.nullable().optional(),
});

export const PayoutDetails = z.object({
  method: z.enum(['account', 'sbp']).nullable(),
  accountTail: z.string().nullable(),
  filled: z.boolean(),
});

export const Papers = z.object({
  nickname: z.string().nullable(),
  offerAccepted: z.boolean(),
  sellerType: SellerType.nullable(),
  inn: z.string().nullable(),
  registryName: z.string().nullable(),
  registryConfirmed: z.boolean(),
  payout: PayoutDetails,
  complete: z.boolean(),
  missing: z.array(z.enum(['nickname', 'offer', 'status', 'registry', 'payout'])),
});

export const PayoutSet = z.strictObject({
  method: z.enum(['account', 'sbp']),
  account: z.string().max(40).optional(),
  bik: z.string().max(20).optional(),
  name: z.string().max(300).optional(),
  kpp: z.string().max(20).optional(),
  phone: z.string().max(20).optional(),
}).meta({
  // The OpenAPI document's example (sdk/openapi-examples.ts): a bank account that passes the BIK's check
  // key, with a KPP (looked at for a company only), so any seller type's server accepts it.
  examples: [{ method: 'account', account: '40702810700000067890', bik: '044525225', name: 'Петров Иван Сергеевич', kpp: '773601001' }],
});

export { PAYOUT_KINDS } from './constants.ts';

const feedbackText = z.strictObject({ text: Text(FEEDBACK_TEXT_MAX) });

export const accountOperations = {
  'me.get': op(R['me.get'], {
    answer: Me,
  }),
  'payouts.list': op(R['payouts.list'], {
    query: z.strictObject({ ...pageQuery }),
    answer: page(Payout),
  }),
  'stats.get': op(R['stats.get'], {
    query: z.strictObject({ period: z.enum(STATS_PERIODS).optional(), sort: z.enum(['revenue']).optional() }),
    answer: Stats,
  }),
  'clients.list': op(R['clients.list'], {
    query: z.strictObject({ limit: intParam(1, 200).optional(), skip: intParam(0).optional() }),
    answer: z.object({ items: z.array(Client), total: z.number().int().min(0) }),
  }),
  'rating.get': op(R['rating.get'], {
    answer: Rating,
  }),
  'questions.list': op(R['questions.list'], {
    query: z.strictObject({ onlyUnanswered: boolParam.optional(), ...pageQuery }),
    answer: page(Question),
  }),
  'questions.answer': op(R['questions.answer'], {
    params: IdParam,
    body: feedbackText,
    answer: Question,
  }),
  'reviews.list': op(R['reviews.list'], {
    query: z.strictObject({ ...pageQuery }),
    answer: page(Review),
  }),
  'reviews.reply': op(R['reviews.reply'], {
    params: IdParam,
    body: feedbackText,
    answer: Review,
  }),
  'complaints.list': op(R['complaints.list'], {
    query: z.strictObject({ ...pageQuery }),
    answer: page(Complaint),
  }),
  'complaints.create': op(R['complaints.create'], {
    body: z.strictObject({ order: prefixedId('ord'), reason: z.enum(COMPLAINT_REASONS), text: Text(FEEDBACK_TEXT_MAX) }),
    answer: Complaint,
  }),
  'workMode.get': op(R['workMode.get'], {
    answer: WorkMode,
  }),
  'workMode.set': op(R['workMode.set'], {
    body: WorkModeSet,
    answer: WorkMode,
  }),
  'papers.get': op(R['papers.get'], {
    answer: Papers,
  }),
  'papers.setNickname': op(R['papers.setNickname'], {
    body: z.strictObject({ nickname: z.string().trim().min(3).max(32).regex(/^[\p{L}\p{N}_.-]+$/u, 'letters, digits, _ . -') }),
    answer: z.object({ nickname: z.string() }),
  }),
  'papers.acceptOffer': op(R['papers.acceptOffer'], {
    answer: z.object({ offerAccepted: z.literal(true), acceptedAt: Timestamp }),
  }),
  'papers.setStatus': op(R['papers.setStatus'], {
    // The example's INN is of the fixture registry (server/seed/registry.ts), with a right check digit.
    body: z.strictObject({ sellerType: SellerType, inn: z.string().max(20) }).meta({ examples: [{ sellerType: 'self_employed', inn: '165512345632' }] }),
    answer: z.object({ sellerType: SellerType, inn: z.string(), registryName: z.string(), needsConfirm: z.boolean() }),
  }),
  'papers.confirmRegistry': op(R['papers.confirmRegistry'], {
    answer: z.object({ confirmed: z.boolean(), already: z.boolean() }),
  }),
  'papers.setPayout': op(R['papers.setPayout'], {
    body: PayoutSet,
    answer: PayoutDetails,
  }),
} as const;
