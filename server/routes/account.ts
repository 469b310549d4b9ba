/** The seller's own records: papers, payout details, work mode, questions, reviews, complaints, payouts, stats, clients, rating. */
import { apiHandlers } from '../http/handlers.ts';

export const accountHandlers = apiHandlers({});
