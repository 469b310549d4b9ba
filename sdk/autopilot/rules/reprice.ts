/**
 * Repricing with a floor: a named card's price moves toward the usual price of its position (the
 * median of live cards, `catalog.usualPrice`) plus `offsetRub`, within the seller's floor and
 * ceiling, by at most `maxStepRub` a change, and at most once per `intervalMinutes`. An unknown
 * usual price (fewer than three live cards) changes nothing. Every change is appended to the audit
 * log (JSON Lines: time, card, before, after, usual price, floor, ceiling) before the next one;
 * `--dry-run` prints the change and writes nothing.
 */
import type { Card, CardUpdate } from '../../records.ts';
import { idempotencyKey, type RuleContext } from '../context.ts';
import { AUTOPILOT_WORDS, failureOf, part, says } from '../words.ts';

export interface RepriceCard {
  floor: number;
  ceiling: number;
  offsetRub: number;
  maxStepRub?: number | undefined;
}

/** What decided a change: the floor or the ceiling stopped it, or it moved toward the usual price (its words: `why.<toward>` in words.ts). */
export type RepriceToward = 'floor' | 'ceiling' | 'usual';

/** The price to set now, or `null` to leave it; `why` says what decided, and `toward`, for a change, as data. */
export function repriceStep(
  current: number,
  usual: number | null,
  cfg: RepriceCard,
  lastChangeMs: number | undefined,
  nowMs: number,
  intervalMs: number,
): { after: number | null; why: string; toward?: RepriceToward } {
  if (lastChangeMs !== undefined && nowMs - lastChangeMs < intervalMs) return { after: null, why: 'changed less than an interval ago' };
  if (usual === null) return { after: null, why: 'no usual price (fewer than three live cards)' };
  const target = Math.min(cfg.ceiling, Math.max(cfg.floor, usual + cfg.offsetRub));
  let after = target;
  if (cfg.maxStepRub !== undefined) after = current + Math.max(-cfg.maxStepRub, Math.min(cfg.maxStepRub, target - current));
  // A price outside the bounds (set by hand) is brought inside them.
  after = Math.min(cfg.ceiling, Math.max(cfg.floor, after));
  if (after === current) return { after: null, why: target === cfg.floor ? 'at the floor' : target === cfg.ceiling ? 'at the ceiling' : 'at the target' };
  const toward: RepriceToward = after === cfg.floor ? 'floor' : after === cfg.ceiling ? 'ceiling' : 'usual';
  return { after, why: AUTOPILOT_WORDS[`why.${toward}`], toward };
}

/** The whole PATCH body of a card with another price (PATCH replaces every editable field). */
export function updateOf(card: Card, priceRub: number): CardUpdate {
  return {
    productType: card.productType,
    deliveryMethod: card.deliveryMethod,
    priceRub,
    slaMinutes: card.slaMinutes,
    guaranteeDays: card.guaranteeDays,
    description: card.description,
    ...(card.creditsType !== null ? { creditsType: card.creditsType } : {}),
    ...(card.creditsAmount !== null ? { creditsAmount: card.creditsAmount } : {}),
    ...(card.creditsRate !== null ? { creditsRate: card.creditsRate } : {}),
  };
}

async function audit(path: string, line: Record<string, unknown>): Promise<void> {
  const { appendFile, mkdir } = await import('node:fs/promises');
  const { dirname } = await import('node:path');
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
}

export async function runReprice(ctx: RuleContext): Promise<void> {
  const cfg = ctx.config.reprice;
  if (!cfg) return;
  const intervalMs = cfg.intervalMinutes * 60_000;
  for (const item of cfg.cards) {
    const key = String(item.card);
    const last = ctx.state.reprice[key];
    const lastMs = last === undefined ? undefined : Date.parse(last);
    if (lastMs !== undefined && ctx.now() - lastMs < intervalMs) continue;
    let card: Card;
    let usual: number | null;
    try {
      card = await ctx.client.listings.get(item.card);
      usual = (await ctx.client.catalog.usualPrice({ service: card.service, productType: card.productType })).usualPriceRub;
    } catch (error) {
      ctx.emit({ rule: 'reprice', type: 'error', card: item.card, ...says('cannotReadPrice', { card: item.card, reason: failureOf(error) }) });
      continue;
    }
    const { after, why, toward } = repriceStep(card.priceRub, usual, item, lastMs, ctx.now(), intervalMs);
    if (after === null || toward === undefined) continue;
    const detail = { before: card.priceRub, after, usual, floor: item.floor, ceiling: item.ceiling };
    const said = says('repriced', { card: item.card, before: card.priceRub, after, usual, floor: item.floor, ceiling: item.ceiling, toward: part(`why.${toward}`) });
    if (ctx.dryRun) {
      ctx.emit({ rule: 'reprice', type: 'would-reprice', card: item.card, dryRun: true, ...said, detail });
      continue;
    }
    try {
      await ctx.client.listings.update(item.card, updateOf(card, after), { idempotencyKey: idempotencyKey('reprice', item.card, card.updatedAt, after) });
    } catch (error) {
      ctx.emit({ rule: 'reprice', type: 'error', card: item.card, ...says('priceNotChanged', { card: item.card, reason: failureOf(error) }), detail });
      continue;
    }
    const at = new Date(ctx.now()).toISOString();
    ctx.state.reprice[key] = at;
    await ctx.save();
    try {
      await audit(cfg.auditLog, { at, card: item.card, service: card.service, productType: card.productType, ...detail, why });
    } catch (error) {
      ctx.emit({ rule: 'reprice', type: 'error', card: item.card, ...says('auditFailed', { card: item.card, reason: failureOf(error) }) });
    }
    ctx.emit({ rule: 'reprice', type: 'repriced', card: item.card, ...said, detail });
  }
}
