/** Auto-delivery stock: counts and refill; units sealed at rest, never returned. */
import { addUnits, stockCounts } from '../domain/stock.ts';
import { apiHandlers } from '../http/handlers.ts';
import { ownCard } from './listings.ts';

export const stockHandlers = apiHandlers({
  'stock.get': (ctx, { params }) => {
    const card = ownCard(ctx, params.number);
    return { number: card.number, ...stockCounts(ctx.caller.doc, card.number) };
  },

  'stock.refill': (ctx, { params, body }) => {
    const card = ownCard(ctx, params.number);
    const { added, duplicates } = addUnits(ctx.svc.sealer, ctx.caller.doc, card.number, body.items, ctx.now);
    if (added > 0) card.updatedAt = ctx.now.toISOString();
    return { number: card.number, added, duplicates, free: stockCounts(ctx.caller.doc, card.number).free };
  },
});
