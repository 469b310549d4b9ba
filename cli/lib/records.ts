/**
 * The records the CLI shows, as the SDK reads them by default (tolerant, sdk/open.ts): a status,
 * product type or field the contract does not know is shown as it came, never refused. Commands take
 * these types, not the contract's strict ones, so that the compiler finds every place a lookup by
 * a known value needs a fallback (see `labelOf`).
 */
import type { z } from 'zod';
import type * as C from '../../sdk/contract/index.ts';
import type { Tolerant, Widened } from '../../sdk/open.ts';

export type Card = Tolerant<C.Card>;
export type Position = Tolerant<C.Position>;
export type Order = Tolerant<C.Order>;
export type OrderWithMessages = Tolerant<C.OrderWithMessages>;
export type Papers = Tolerant<z.output<typeof C.Papers>>;
export type Hooks = Tolerant<z.output<typeof C.Hooks>>;
export type Delivery = Tolerant<z.output<typeof C.Delivery>>;
export type ProbeHit = Tolerant<z.output<typeof C.ProbeHit>>;
export type WorkMode = Tolerant<z.output<typeof C.WorkMode>>;
export type WorkModeSet = Widened<z.input<typeof C.WorkModeSet>>;
export type ProductType = Widened<C.ProductType>;
export type DeliveryMethod = Widened<C.DeliveryMethod>;
export type CreditsType = Widened<C.CreditsType>;
export type SellerType = Widened<C.SellerType>;
export type OrderStatus = Widened<C.OrderStatus>;

/** The label of a known value, or the value itself (one the contract does not know yet). */
export function labelOf(labels: Readonly<Record<string, string>>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value]! : value;
}
