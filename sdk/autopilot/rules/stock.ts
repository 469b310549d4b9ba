/**
 * Stock care, for the cards the config names: an alert when a card's free stock falls to `lowAt`
 * or fewer (once, until it rises above again), and after a refill auto-delivery switched back on
 * where the empty stock switched it off. "Switched off by the empty stock" is what `stock.out`
 * does: the card is on, auto-delivery off, and the free stock 0. A card the seller switched off, or
 * whose auto-delivery the seller turned off while it had stock, is never touched.
 */
import type { Card } from '../../records.ts';
import { idempotencyKey, type RuleContext } from '../context.ts';
import { failureOf, says } from '../words.ts';
import { notify } from './notify.ts';

export interface StockMemory {
  offByStock: boolean;
  lowAlerted: boolean;
}

export interface StockStep {
  memory: StockMemory;
  /** Alert: the free stock is low. */
  low: boolean;
  /** Switch auto-delivery back on. */
  reenable: boolean;
}

/** What to do about one card read now, given what was remembered. */
export function stockStep(card: Pick<Card, 'isActive' | 'autoIssue' | 'stock'>, cfg: { lowAt?: number | undefined; reenableAutoDelivery: boolean }, before: StockMemory | undefined): StockStep {
  const memory = { offByStock: before?.offByStock ?? false, lowAlerted: before?.lowAlerted ?? false };
  const free = card.stock.free;
  let low = false;
  if (cfg.lowAt !== undefined) {
    if (free <= cfg.lowAt && !memory.lowAlerted) low = memory.lowAlerted = true;
    else if (free > cfg.lowAt) memory.lowAlerted = false;
  }
  let reenable = false;
  if (card.autoIssue) memory.offByStock = false;
  else if (card.isActive && free === 0) memory.offByStock = true;
  else if (!card.isActive) memory.offByStock = false;
  else if (memory.offByStock && free > 0 && cfg.reenableAutoDelivery) reenable = true;
  return { memory, low, reenable };
}

export async function runStockCare(ctx: RuleContext): Promise<void> {
  const cfg = ctx.config.stock;
  if (!cfg) return;
  for (const item of cfg.cards) {
    let card: Card;
    try {
      card = await ctx.client.listings.get(item.card);
    } catch (error) {
      ctx.emit({ rule: 'stock', type: 'error', card: item.card, ...says('cannotReadCard', { card: item.card, reason: failureOf(error) }) });
      continue;
    }
    const key = String(item.card);
    const decided = stockStep(card, item, ctx.state.stock[key]);
    if (decided.low) {
      ctx.emit({ rule: 'stock', type: 'low', card: item.card, ...says('low', { card: item.card, count: card.stock.free, lowAt: item.lowAt ?? null }), detail: { free: card.stock.free } });
      await notify(ctx, 'stock', cfg.notify, { type: 'low', card: item.card, free: card.stock.free });
    }
    if (decided.reenable) {
      if (ctx.dryRun) {
        ctx.emit({ rule: 'stock', type: 'would-reenable', card: item.card, dryRun: true, ...says('wouldReenable', { card: item.card, free: card.stock.free }) });
      } else {
        try {
          await ctx.client.listings.setState(item.card, { active: true, autoIssue: true }, { idempotencyKey: idempotencyKey('stock', item.card, card.updatedAt) });
          decided.memory.offByStock = false;
          ctx.emit({ rule: 'stock', type: 'reenabled', card: item.card, ...says('reenabled', { card: item.card, free: card.stock.free }), detail: { free: card.stock.free } });
        } catch (error) {
          ctx.emit({ rule: 'stock', type: 'error', card: item.card, ...says('cannotReenable', { card: item.card, reason: failureOf(error) }) });
        }
      }
    } else if (decided.memory.offByStock && !ctx.state.stock[key]?.offByStock) {
      ctx.emit({ rule: 'stock', type: 'out', card: item.card, ...says('out', { card: item.card }) });
    }
    ctx.state.stock[key] = decided.memory;
  }
  await ctx.save();
}
