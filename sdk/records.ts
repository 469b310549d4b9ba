/**
 * The records as a tolerant client reads them (sdk/open.ts): the contract's record types with their
 * enums opened and room for fields the contract does not know. For code inside this package that
 * handles what the SDK hands out (the CLI, the autopilot); users write `Tolerant<Order>`.
 */
import type { z } from 'zod';
import type * as C from './contract/index.ts';
import type { Tolerant, Widened } from './open.ts';

export type Card = Tolerant<C.Card>;
export type CardUpdate = Widened<C.CardUpdate>;
export type Position = Tolerant<C.Position>;
export type Order = Tolerant<C.Order>;
export type OrderWithMessages = Tolerant<C.OrderWithMessages>;
export type Message = Tolerant<C.Message>;
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
