/**
 * What a mock starts with: its sellers (like the demo seller: live, admission complete, a key of
 * every scope) and their cards and stock. Sellers are created as the demo seller is
 * (server/demo.ts); cards and stock through the seller API itself, with the SDK's client, so a seed
 * that breaks a rule fails with the server's refusal.
 */
import { SCOPES, type KeyMode, type NewCard, type Scope, type SellerType } from '../../sdk/contract/index.ts';
import { SellerClient } from '../../sdk/index.ts';
import { UnitOfWork, type ServerContext } from '../context.ts';
import { createSeller } from '../sandbox/sellers.ts';

/**
 * A card to create for a seller: the body of `listings.create` (where `stock` is the declared
 * quantity), switched on unless `active: false`, with `items` put in its stock.
 */
export type CardSeed = NewCard & {
  /** Switched on. @default true */
  active?: boolean;
  /** Stock items (codes, credentials) put in the card's stock (`stock.refill`). */
  items?: string[];
  /** Switched on with auto-delivery from its stock. @default false */
  autoIssue?: boolean;
};

/** A seller to create. Every field has the demo seller's value by default. */
export interface SellerSeed {
  /** @default 'live' */
  mode?: KeyMode;
  /** @default 'ip' */
  sellerType?: SellerType;
  /** @default 'complete' */
  admission?: 'complete' | 'none';
  /** Its first key's scopes. @default every scope */
  scopes?: Scope[];
  cards?: CardSeed[];
}

/** A seller of the mock: its id and key, and the numbers of the cards it was seeded with. */
export interface MockSeller {
  /** The name a scenario gave it (`seller: { as: shop }`); none for a seeded seller. */
  name?: string;
  sellerId: string;
  keyId: string;
  apiKey: string;
  /** The numbers of its seeded cards, in the order given. */
  cards: number[];
  /** The webhook signing secret, once the seller subscribes (`hooks.set`); a rotation updates it. */
  webhookSecret?: string | undefined;
}

/**
 * Creates the sellers, then their cards. `same` (a reset) gives each seller the id and key it had;
 * card numbers come out the same too, since a new store numbers from the start again.
 */
export async function seedSellers(
  svc: ServerContext,
  seeds: readonly SellerSeed[],
  api: { baseUrl: string; fetch: typeof fetch },
  same?: readonly MockSeller[],
): Promise<MockSeller[]> {
  const sellers: MockSeller[] = [];
  const tx = new UnitOfWork(svc);
  for (const [i, seed] of seeds.entries()) {
    const created = await createSeller(
      svc,
      tx,
      { mode: seed.mode ?? 'live', sellerType: seed.sellerType ?? 'ip', admission: seed.admission ?? 'complete', scopes: seed.scopes ?? [...SCOPES], keyName: 'mock' },
      svc.clock.now(),
      same?.[i],
    );
    sellers.push({ ...created, cards: [] });
  }
  await tx.commit();
  for (const [i, seed] of seeds.entries()) {
    const seller = sellers[i]!;
    const client = new SellerClient({ baseUrl: api.baseUrl, apiKey: seller.apiKey, fetch: api.fetch, maxRetries: 0 });
    for (const card of seed.cards ?? []) seller.cards.push(await seedCard(client, card));
  }
  return sellers;
}

async function seedCard(client: SellerClient, seed: CardSeed): Promise<number> {
  const { active = true, items, autoIssue = false, ...body } = seed;
  const { number } = await client.listings.create(body);
  if (items && items.length > 0) await client.stock.refill(number, { items });
  if (active || autoIssue) await client.listings.setState(number, { active: true, autoIssue });
  return number;
}
