/**
 * The seller's own records: identity, money and stats, feedback, work mode, admission papers.
 * Scopes: `payouts`, `stats`, `orders` (questions, reviews, complaints, work mode), `documents`.
 */
import { z } from 'zod';
import { IdParam, intParam, page, pageQuery, prefixedId, Rub, Scope, Text, Timestamp, boolParam } from './common.ts';
import { KeyMode, SellerType } from './enums.ts';
import { op } from './operation.ts';

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
  orders: z.number().int(),
  completed: z.number().int(),
  refunded: z.number().int(),
  averageRub: Rub,
  listings: z.array(z.object({ number: z.number().int(), revenueRub: Rub, orders: z.number().int() })),
});

export const Client = z.object({
  client: z.string(),
  orders: z.number().int(),
  spentRub: Rub,
  lastOrderAt: Timestamp,
});

export const Rating = z.object({
  score: z.number().nullable(),
  reviews: z.number().int(),
  positive: z.number().int(),
  negative: z.number().int(),
  completedOrders: z.number().int(),
  disputeRate: z.number(),
});

export const Question = z.object({
  id: prefixedId('q'),
  number: z.number().int(),
  text: z.string(),
  answer: z.string().nullable(),
  at: Timestamp,
});

export const Review = z.object({
  id: prefixedId('rev'),
  number: z.number().int(),
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
}, 'an IANA time zone such as Europe/Moscow');

export const QuietHours = z.strictObject({ from: HHMM, to: HHMM, tz: IanaZone });
export const WorkMode = z.object({
  capacity: z.number().int().nullable(),
  doNotDisturb: z.boolean(),
  quietHours: z.object({ from: z.string(), to: z.string(), tz: z.string() }).nullable(),
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
});

export const PAYOUT_KINDS = ['sbp_only_self', 'phone_format', 'bik_bad', 'account_bad', 'name_needed', 'kpp_bad'] as const;

const feedbackText = z.strictObject({ text: Text(FEEDBACK_TEXT_MAX) });

export const accountOperations = {
  'me.get': op({
    id: 'me.get',
    method: 'GET',
    path: '/me',
    scope: null,
    summary: 'Who this key belongs to: seller, mode, the key and whether admission is complete.',
    answer: Me,
  }),
  'payouts.list': op({
    id: 'payouts.list',
    method: 'GET',
    path: '/payouts',
    scope: 'payouts',
    summary: 'List payouts to the seller.',
    query: z.strictObject({ ...pageQuery }),
    answer: page(Payout),
    paging: 'cursor',
  }),
  'stats.get': op({
    id: 'stats.get',
    method: 'GET',
    path: '/stats',
    scope: 'stats',
    summary: 'Revenue and order counts for a period, with revenue per card.',
    query: z.strictObject({ period: z.enum(STATS_PERIODS).optional(), sort: z.enum(['revenue']).optional() }),
    answer: Stats,
  }),
  'clients.list': op({
    id: 'clients.list',
    method: 'GET',
    path: '/clients',
    scope: 'stats',
    summary: 'Pseudonymous buyers of the seller with their order counts and spend.',
    query: z.strictObject({ limit: intParam(1, 200).optional(), skip: intParam(0).optional() }),
    answer: z.object({ items: z.array(Client), total: z.number().int() }),
    paging: 'skip',
  }),
  'rating.get': op({
    id: 'rating.get',
    method: 'GET',
    path: '/rating',
    scope: 'stats',
    summary: "The seller's rating, computed from reviews and orders.",
    answer: Rating,
  }),
  'questions.list': op({
    id: 'questions.list',
    method: 'GET',
    path: '/questions',
    scope: 'orders',
    summary: 'Buyer questions about the cards.',
    query: z.strictObject({ onlyUnanswered: boolParam.optional(), ...pageQuery }),
    answer: page(Question),
    paging: 'cursor',
  }),
  'questions.answer': op({
    id: 'questions.answer',
    method: 'POST',
    path: '/questions/{id}/answer',
    scope: 'orders',
    summary: 'Answer a buyer question (the contact filter applies).',
    params: IdParam,
    body: feedbackText,
    answer: Question,
    refusals: ['contacts'],
  }),
  'reviews.list': op({
    id: 'reviews.list',
    method: 'GET',
    path: '/reviews',
    scope: 'orders',
    summary: 'Reviews of the seller.',
    query: z.strictObject({ ...pageQuery }),
    answer: page(Review),
    paging: 'cursor',
  }),
  'reviews.reply': op({
    id: 'reviews.reply',
    method: 'POST',
    path: '/reviews/{id}/reply',
    scope: 'orders',
    summary: 'Reply to a review (the contact filter applies).',
    params: IdParam,
    body: feedbackText,
    answer: Review,
    refusals: ['contacts'],
  }),
  'complaints.list': op({
    id: 'complaints.list',
    method: 'GET',
    path: '/complaints',
    scope: 'orders',
    summary: 'Complaints the seller filed about buyers.',
    query: z.strictObject({ ...pageQuery }),
    answer: page(Complaint),
    paging: 'cursor',
  }),
  'complaints.create': op({
    id: 'complaints.create',
    method: 'POST',
    path: '/complaints',
    scope: 'orders',
    summary: 'File a complaint about the buyer of an order.',
    body: z.strictObject({ order: prefixedId('ord'), reason: z.enum(COMPLAINT_REASONS), text: Text(FEEDBACK_TEXT_MAX) }),
    answer: Complaint,
    status: 201,
    refusals: ['contacts'],
  }),
  'workMode.get': op({
    id: 'workMode.get',
    method: 'GET',
    path: '/work-mode',
    scope: 'orders',
    summary: 'Capacity, do-not-disturb, quiet hours, and the presence the marketplace decided.',
    answer: WorkMode,
  }),
  'workMode.set': op({
    id: 'workMode.set',
    method: 'PUT',
    path: '/work-mode',
    scope: 'orders',
    summary: 'Set capacity, do-not-disturb and quiet hours (presence cannot be set).',
    body: WorkModeSet,
    answer: WorkMode,
  }),
  'papers.get': op({
    id: 'papers.get',
    method: 'GET',
    path: '/papers',
    scope: 'documents',
    summary: 'Admission papers: what is filled, whether admission is complete, what is missing.',
    answer: Papers,
  }),
  'papers.setNickname': op({
    id: 'papers.setNickname',
    method: 'PUT',
    path: '/papers/nickname',
    scope: 'documents',
    summary: 'Set the public nickname (3–32 characters, unique, not a contact detail).',
    body: z.strictObject({ nickname: z.string().trim().min(3).max(32).regex(/^[\p{L}\p{N}_.-]+$/u, 'letters, digits, _ . -') }),
    answer: z.object({ nickname: z.string() }),
    refusals: ['nickname_taken', 'contacts'],
  }),
  'papers.acceptOffer': op({
    id: 'papers.acceptOffer',
    method: 'POST',
    path: '/papers/offer',
    scope: 'documents',
    summary: 'Accept the seller offer.',
    answer: z.object({ offerAccepted: z.literal(true), acceptedAt: Timestamp }),
  }),
  'papers.setStatus': op({
    id: 'papers.setStatus',
    method: 'PUT',
    path: '/papers/status',
    scope: 'documents',
    summary: 'Set the seller type and tax number; answers the name found in the registry.',
    body: z.strictObject({ sellerType: SellerType, inn: z.string().max(20) }),
    answer: z.object({ sellerType: SellerType, inn: z.string(), registryName: z.string(), needsConfirm: z.boolean() }),
    refusals: ['inn_bad'],
  }),
  'papers.confirmRegistry': op({
    id: 'papers.confirmRegistry',
    method: 'POST',
    path: '/papers/registry-confirm',
    scope: 'documents',
    summary: 'Confirm that the registry name is the seller.',
    answer: z.object({ confirmed: z.boolean(), already: z.boolean() }),
    refusals: ['no_status'],
  }),
  'papers.setPayout': op({
    id: 'papers.setPayout',
    method: 'PUT',
    path: '/papers/payout',
    scope: 'documents',
    summary: 'Set payout details (bank account or SBP phone); only the account tail is ever returned.',
    body: PayoutSet,
    answer: PayoutDetails,
    refusals: PAYOUT_KINDS,
  }),
} as const;
