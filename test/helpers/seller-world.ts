/**
 * A seller's world for end-to-end tests, in one call: a started `seller-server` (test/helpers/server.ts;
 * in memory unless `server` says otherwise), a seller with its key, an SDK client and a sandbox
 * client, optionally a card (with stock), and the environment of a `seller` run as that seller, in a
 * language (`lang: 'ru'` sets LANG=ru_RU.UTF-8). `world.newShop()` adds another seller on the same
 * server; `world.close()` ends it all.
 *
 * `useSellerWorld()` starts one in `beforeAll` (building the CLI first with `cli: true`) and closes it
 * in `afterAll`: its fields are there from the first test on. `startSellerWorld()` starts one inside a
 * test, which closes it itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { SandboxClient, type SandboxClientOptions } from '../../sdk/sandbox.ts';
import { SellerClient, type SellerClientOptions } from '../../sdk/client.ts';
import type { StartOptions } from '../../server/index.ts';
import { ensureBuilt, runSeller, spawnSeller, type SellerResult, type SellerRunOptions } from './cli.ts';
import { CODE_CARD, NO_RATE_LIMIT } from './fixtures.ts';
import { startTestServer, type TestServer } from './server.ts';

/** The body of a new card (POST /api/v1/listings). */
export type CardBody = Parameters<SellerClient['listings']['create']>[0];

/** The language of a `seller` run: `ru` is LANG=ru_RU.UTF-8, `en` LANG=C. */
export type Lang = 'ru' | 'en';

export interface CardOptions {
  /** Fields over the card's body: CODE_CARD, or with `fromCatalog` the catalogue's (see `catalogCard`). */
  body?: Partial<CardBody>;
  /** Build the body from what the catalogue answers for spotify (`'guaranteed'`: its first guarantee above 0). */
  fromCatalog?: true | 'guaranteed';
  /** Switched on. @default true */
  active?: boolean;
  /** Codes put in its stock. */
  stock?: string[];
  /** Switched on with auto-delivery from its stock. */
  autoIssue?: boolean;
}


/** A switched-on spotify subscription by invite with a guarantee (from the catalogue, 390 ₽): its delivery needs a next charge day. */
export const SUBSCRIPTION_CARD: CardOptions = { fromCatalog: 'guaranteed', body: { productType: 'subscription', deliveryMethod: 'invite' } };

export interface ShopOptions {
  /** How the sandbox creates the seller. @default { admission: 'complete' } */
  seller?: Parameters<TestServer['newSeller']>[0];
  /** More options of the seller's SDK client (`strict`, `maxRetries`, `fetch`…). */
  client?: Partial<SellerClientOptions>;
  /** A card of the seller's: `shop.card` is its number. */
  card?: CardOptions;
  /** The language of its `seller` runs (none set: English, as under LANG=C). */
  lang?: Lang;
  /** More environment for its `seller` runs. */
  env?: Record<string, string>;
}

export interface RunOptions extends SellerRunOptions {
  /** This run's language, over the shop's. */
  lang?: Lang;
}

/** A seller on a test server. */
export interface Shop {
  sellerId: string;
  keyId: string;
  apiKey: string;
  client: SellerClient;
  /** SERVICE_BASE_URL, SERVICE_API_KEY (and LANG, and the shop's `env`) of a `seller` run as this seller. */
  env: Record<string, string>;
  /** Runs the built `seller ARGS…` as this seller to the end (needs `cli: true` or `ensureBuilt()`). */
  run(args: string[], options?: RunOptions): Promise<SellerResult>;
  /** Starts the built `seller ARGS…` as this seller and leaves it running. */
  spawn(args: string[], options?: Omit<RunOptions, 'input' | 'timeoutMs'>): ReturnType<typeof spawnSeller>;
  /** A new card of this seller; answers its number. */
  newCard(options?: CardOptions): Promise<number>;
}

/** A shop, with `card` when it was asked for one. */
export type ShopWith<O extends ShopOptions> = Shop & (O extends { card: CardOptions } ? { card: number } : unknown);

export interface WorldOptions extends ShopOptions {
  /** Options of the server, over startTestServer's (in memory, port 0, a test admin token). */
  server?: StartOptions;
  /** More options of the sandbox client. */
  sandbox?: Partial<SandboxClientOptions>;
  /** Build the `seller` binary first (`ensureBuilt()`). */
  cli?: boolean;
  /** A temporary directory of this name (a prefix), removed at close: `world.dir`. */
  dir?: string;
}

export type SellerWorld<O extends WorldOptions = WorldOptions> = ShopWith<O> & (O extends { dir: string } ? { dir: string } : unknown) & {
  server: TestServer;
  sandbox: SandboxClient;
  /** A buyer's order of `card`, paid (through the sandbox client); answers its id. */
  buy(card: number): Promise<string>;
  /** SERVICE_BASE_URL and SERVICE_ADMIN_TOKEN of a `seller sandbox …` run (the buyer's side). */
  adminEnv: Record<string, string>;
  /** Another seller on the same server. */
  newShop<S extends ShopOptions>(options?: S): Promise<ShopWith<S>>;
  /** Closes the server, its open connections too. */
  close(): Promise<void>;
};

const LANG: Record<Lang, string> = { ru: 'ru_RU.UTF-8', en: 'C' };
const langEnv = (lang: Lang | undefined): Record<string, string> => (lang ? { LANG: LANG[lang] } : {});

/** A card body of spotify's first tariff at 390 ₽, with its first SLA and first guarantee (the first above 0 when `guaranteed`) as the catalogue answers them. */
export async function catalogCard(client: SellerClient, guaranteed = false): Promise<CardBody> {
  const position = await client.catalog.get('spotify');
  return {
    service: position.slug,
    tariff: position.tariffs[0]!.slug,
    productType: 'code',
    deliveryMethod: 'code',
    priceRub: 390,
    slaMinutes: position.slaChoices[0]!,
    guaranteeDays: guaranteed ? position.guaranteeChoices.find((days) => days > 0)! : position.guaranteeChoices[0]!,
  };
}

/** A new card through `client`; answers its number. */
export async function newCard(client: SellerClient, options: CardOptions = {}): Promise<number> {
  const base = options.fromCatalog ? await catalogCard(client, options.fromCatalog === 'guaranteed') : CODE_CARD;
  const { number } = await client.listings.create({ ...base, ...options.body });
  if (options.stock) await client.stock.refill(number, { items: options.stock });
  if (options.active ?? true) await client.listings.setState(number, { active: true, ...(options.autoIssue ? { autoIssue: true } : {}) });
  return number;
}

async function openShop<O extends ShopOptions>(server: TestServer, options: O): Promise<ShopWith<O>> {
  const key = await server.newSeller(options.seller);
  const client = new SellerClient({ apiKey: key.apiKey, baseUrl: server.url, ...options.client });
  const env = { SERVICE_BASE_URL: server.url, SERVICE_API_KEY: key.apiKey, ...langEnv(options.lang), ...options.env };
  const withLang = ({ lang, ...o }: RunOptions) => ({ ...o, env: { ...env, ...langEnv(lang), ...o.env } });
  const shop: Shop = {
    ...key,
    client,
    env,
    run: (args, o = {}) => runSeller(args, withLang(o)),
    spawn: (args, o = {}) => spawnSeller(args, withLang(o)),
    newCard: (o) => newCard(client, o),
  };
  return (options.card ? { ...shop, card: await shop.newCard(options.card) } : shop) as ShopWith<O>;
}

/** Starts a world (see the top of this file); the caller closes it. */
export async function startSellerWorld<O extends WorldOptions>(options: O = {} as O): Promise<SellerWorld<O>> {
  if (options.cli) await ensureBuilt();
  const server = await startTestServer(options.server);
  try {
    const shop = await openShop(server, options);
    const dir = options.dir === undefined ? undefined : mkdtempSync(join(tmpdir(), options.dir));
    const sandbox = new SandboxClient({ adminToken: server.adminToken, baseUrl: server.url, ...options.sandbox });
    return {
      ...shop,
      ...(dir === undefined ? {} : { dir }),
      server,
      sandbox,
      buy: async (card: number) => {
        const order = await sandbox.createOrder({ number: card });
        await sandbox.pay(order.id);
        return order.id;
      },
      adminEnv: { SERVICE_BASE_URL: server.url, SERVICE_ADMIN_TOKEN: server.adminToken },
      newShop: (o = {} as never) => openShop(server, o),
      close: async () => {
        const closing = server.close();
        server.app.server.closeAllConnections();
        await closing;
        if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      },
    } as SellerWorld<O>;
  } catch (err) {
    await server.close();
    throw err;
  }
}

/** A world started in `beforeAll` and closed in `afterAll`; its fields are there from the first test on. */
export function useSellerWorld<O extends WorldOptions>(options: O = {} as O): SellerWorld<O> {
  const world = {} as SellerWorld<O>;
  let started = false;
  beforeAll(async () => {
    Object.assign(world, await startSellerWorld(options));
    started = true;
  }, 120_000);
  afterAll(async () => {
    await world.close?.();
  });
  // Read before its beforeAll ran (at collection time, say), the world says so instead of answering undefined.
  return new Proxy(world, {
    get(target, key, receiver) {
      if (!started) throw new Error(`the seller world is not started yet (reading ${String(key)}): use it in a test or a hook`);
      return Reflect.get(target, key, receiver);
    },
  });
}
