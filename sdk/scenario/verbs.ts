/**
 * The scenario format's verbs, as data checked by zod: for each verb the schema of its arguments,
 * which of them name earlier results (and of what kind), and what kind of result it makes (`as`).
 * Bodies the contract already defines (a new card, a catalogue request, a delivery, the buyer's
 * texts) are the contract's own schemas, so the format follows the API.
 */
import { z } from 'zod';
import { Scope } from '../contract/common.ts';
import { EventKind, OrderStatus, SellerType } from '../contract/enums.ts';
import { NewCatalogRequest } from '../contract/catalog.ts';
import { NewCard } from '../contract/listings.ts';
import { Deliver } from '../contract/orders.ts';
import { sandboxOperations } from '../contract/sandbox.ts';
import { parseDuration } from '../duration.ts';
import { faultBody, FaultFlagsError, type FaultFlags } from '../sandbox-faults.ts';

/** What a named result is. */
export type NameKind = 'seller' | 'card' | 'order' | 'request' | 'question' | 'review' | 'fault' | 'bot';

/** A name given with `as` and used by later steps (`order: o1`). */
export const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const Name = z.string().regex(NAME, 'a name: a letter or _, then letters, digits, _ or - (at most 64)');

/** A duration as the CLI takes one (`90s`, `30m`, `2h`, `1d`, `1h30m`), or seconds; in seconds. */
export const Duration = z
  .union([z.number().int().min(0), z.string()])
  .transform((value, ctx) => {
    const seconds = typeof value === 'number' ? value : parseDuration(value);
    if (seconds === undefined) {
      ctx.addIssue({ code: 'custom', message: `not a duration: write it as 90s, 30m, 2h, 1d or 1h30m` });
      return z.NEVER;
    }
    return seconds;
  });

const as = { as: Name.optional() };

/** How long an expectation may wait: at most 10 minutes. */
const Within = Duration.refine((seconds) => seconds <= 600, 'an expectation waits at most 10m');
const order = { order: Name };
const bodyOf = <S extends z.ZodType | undefined>(schema: S) => (schema as unknown as z.ZodObject).shape;

/** One verb: its arguments, the names they hold (field → kind) and what its `as` names. */
export interface Verb {
  args: z.ZodType;
  refs: Record<string, NameKind>;
  makes?: NameKind;
  /** Where the verb is played: the marketplace/buyer (sandbox), the seller (its key), or the runner. */
  side: 'sandbox' | 'seller' | 'runner';
}

const v = (side: Verb['side'], args: z.ZodType, refs: Record<string, NameKind> = {}, makes?: NameKind): Verb =>
  makes ? { side, args, refs, makes } : { side, args, refs };

/** The arguments of `expect`: about an order, a card's stock, or a webhook event. */
export const ExpectOrder = z.strictObject({
  order: Name,
  status: OrderStatus.optional(),
  /** The delivery's note was withheld by the contact filter (true) or sent (false). */
  noteWithheld: z.boolean().optional(),
  /** How many messages the order's conversation holds. */
  messages: z.number().int().min(0).optional(),
  within: Within.optional(),
});
export const ExpectStock = z.strictObject({
  stock: Name,
  free: z.number().int().min(0).optional(),
  issued: z.number().int().min(0).optional(),
  within: Within.optional(),
});
export const ExpectWebhook = z.strictObject({
  webhook: EventKind,
  /** Whose events: by default the seller of `order` or `card`. */
  seller: Name.optional(),
  order: Name.optional(),
  card: Name.optional(),
  /** A delivery of it reached the subscriber (a 2xx). */
  delivered: z.boolean().optional(),
  /** Exactly this many such events (default: at least one). */
  count: z.number().int().min(0).optional(),
  within: Within.optional(),
}).refine((w) => w.seller !== undefined || w.order !== undefined || w.card !== undefined, 'say whose events: seller, order or card');

/** A message in a Telegram chat of the emulator (issue #36): from the bot by default, its text containing `text`, with a button of callback data `button`. */
export const ExpectTelegram = z.strictObject({
  telegram: Name,
  chat: z.number().int().min(1),
  text: z.string().min(1).optional(),
  button: z.string().min(1).optional(),
  from: z.enum(['bot', 'user']).default('bot'),
  /** Exactly this many such messages (default: at least one). */
  count: z.number().int().min(0).optional(),
  within: Within.optional(),
});

/** A fault step's fault (`as`) fired: exactly `hits` times (default: at least once), in force or ended. */
export const ExpectFault = z.strictObject({
  fault: Name,
  hits: z.number().int().min(0).optional(),
  within: Within.optional(),
});

export const EXPECT_KINDS = {
  webhook: { args: ExpectWebhook, refs: { seller: 'seller', order: 'order', card: 'card' } },
  telegram: { args: ExpectTelegram, refs: { telegram: 'bot' } },
  stock: { args: ExpectStock, refs: { stock: 'card' } },
  order: { args: ExpectOrder, refs: { order: 'order' } },
  fault: { args: ExpectFault, refs: { fault: 'fault' } },
} as const satisfies Record<string, { args: z.ZodType; refs: Record<string, NameKind> }>;

const timesOrDuration = z.union([z.number(), z.string()]).transform(String);

/**
 * A `fault:` step: `seller sandbox fault add`'s flags as keys (`drop-after` or `dropAfter`), `seller`
 * naming a seller of the scenario (none: every seller). Checked by `faultBody()` itself before the
 * run (every problem it names), with a stand-in seller id; the run gives it the seller's.
 */
export const FaultStep = z
  .strictObject({
    ...as,
    seller: Name.optional(),
    bot: Name.optional(),
    op: z.string().optional(),
    status: z.union([z.number(), z.string()]).optional(),
    retryAfter: timesOrDuration.optional(),
    latency: timesOrDuration.optional(),
    drop: z.boolean().optional(),
    'drop-after': z.boolean().optional(),
    dropAfter: z.boolean().optional(),
    hooks: z.string().optional(),
    times: z.union([z.number(), z.string()]).optional(),
    for: timesOrDuration.optional(),
    every: z.union([z.number(), z.string()]).optional(),
  })
  .transform((step, ctx) => {
    const { as: name, 'drop-after': dash, dropAfter, ...flags } = step;
    const written: FaultFlags = { ...flags, ...(dash ?? dropAfter) === undefined ? {} : { dropAfter: dash ?? dropAfter } };
    try {
      faultBody({ ...written, seller: written.seller === undefined ? undefined : 'sel_standin', bot: written.bot === undefined ? undefined : 1 });
    } catch (error) {
      if (!(error instanceof FaultFlagsError)) throw error;
      for (const problem of error.problems) {
        const field = problem.field === 'dropAfter' && dash !== undefined ? 'drop-after' : problem.field;
        ctx.addIssue({ code: 'custom', path: [field], message: problem.detail });
      }
      return z.NEVER;
    }
    return { ...(name === undefined ? {} : { as: name }), ...written };
  });

/**
 * A `telegram:` step (issue #36): `{as: phone}` makes a bot of the emulator; `{bot: phone, chat: 1,
 * say: "/pause"}` is the person writing to it; `{bot: phone, chat: 1, press: DATA}` the person
 * pressing the newest button of that callback data (data, since labels are translated).
 */
export const TelegramStep = z
  .strictObject({
    ...as,
    username: z.string().optional(),
    bot: Name.optional(),
    chat: z.number().int().min(1).optional(),
    say: z.string().trim().min(1).max(4096).optional(),
    press: z.string().min(1).max(64).optional(),
  })
  .superRefine((step, ctx) => {
    const acts = (['say', 'press'] as const).filter((k) => step[k] !== undefined);
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (step.bot === undefined) {
      for (const k of ['chat', ...acts] as const) if (step[k] !== undefined) problem(k, 'only with bot: a new bot takes as (and username) only');
      return;
    }
    if (step.as !== undefined || step.username !== undefined) problem(step.as !== undefined ? 'as' : 'username', 'a new bot names no bot; with bot, say or press');
    if (step.chat === undefined) problem('chat', 'required with bot: the private chat (the person\'s id)');
    if (acts.length !== 1) problem('say', 'with bot, give exactly one of say or press');
  });

const text = (key: 'sandbox.message' | 'sandbox.dispute') => bodyOf(sandboxOperations[key].body).text as z.ZodType;

export const VERBS = {
  // the marketplace's side of a seller
  seller: v(
    'sandbox',
    z.strictObject({
      ...as,
      type: SellerType.optional(),
      admission: z.enum(['complete', 'none']).default('complete'),
      test: z.boolean().optional(),
      scopes: z.array(Scope).min(1).optional(),
    }),
    {},
    'seller',
  ),
  admission: v('sandbox', z.strictObject({ seller: Name, state: z.enum(['complete', 'none']), type: SellerType.optional() }), { seller: 'seller' }),
  status: v('sandbox', z.strictObject({ seller: Name, status: z.enum(['active', 'blocked', 'not_seller']) }), { seller: 'seller' }),
  // the seller, with its key
  card: v(
    'seller',
    NewCard.extend({ ...as, seller: Name, active: z.boolean().optional(), autoIssue: z.boolean().optional(), test: z.boolean().optional() }),
    { seller: 'seller' },
    'card',
  ),
  stock: v(
    'seller',
    z
      .strictObject({ card: Name, count: z.number().int().min(1).max(100_000).optional(), items: z.array(z.string().min(1)).min(1).optional() })
      .refine((s) => (s.count === undefined) !== (s.items === undefined), 'give exactly one of count or items'),
    { card: 'card' },
  ),
  on: v('seller', z.strictObject({ card: Name, autoIssue: z.boolean().optional() }), { card: 'card' }),
  off: v('seller', z.strictObject({ card: Name }), { card: 'card' }),
  hooks: v(
    'seller',
    z.strictObject({
      seller: Name,
      /** `probe`: the service's own test receiver for this seller; else an address the server accepts. */
      url: z.string().min(1).max(2000),
      events: z.array(EventKind).min(1),
    }),
    { seller: 'seller' },
  ),
  deliver: v('seller', Deliver.extend({ ...order }), { order: 'order' }),
  reply: v('seller', z.strictObject({ ...order, text: text('sandbox.message') }), { order: 'order' }),
  request: v('seller', NewCatalogRequest.extend({ ...as, seller: Name }), { seller: 'seller' }, 'request'),
  // the buyer and the marketplace
  buy: v('sandbox', z.strictObject({ ...as, card: Name, testBuyer: z.boolean().optional() }), { card: 'card' }, 'order'),
  pay: v('sandbox', z.strictObject(order), { order: 'order' }),
  cancel: v('sandbox', z.strictObject(order), { order: 'order' }),
  accept: v('sandbox', z.strictObject(order), { order: 'order' }),
  message: v('sandbox', z.strictObject({ ...order, text: text('sandbox.message') }), { order: 'order' }),
  vault: v('sandbox', z.strictObject({ ...order, ...bodyOf(sandboxOperations['sandbox.vault'].body) }), { order: 'order' }),
  dispute: v('sandbox', z.strictObject({ ...order, text: text('sandbox.dispute') }), { order: 'order' }),
  resolve: v('sandbox', z.strictObject({ ...order, ...bodyOf(sandboxOperations['sandbox.resolve'].body) }), { order: 'order' }),
  review: v(
    'sandbox',
    z.strictObject({ ...as, ...order, stars: z.number().int().min(1).max(5), text: z.string().max(2000).default('') }),
    { order: 'order' },
    'review',
  ),
  question: v('sandbox', z.strictObject({ ...as, card: Name, text: bodyOf(sandboxOperations['sandbox.createQuestion'].body).text as z.ZodType }), { card: 'card' }, 'question'),
  decide: v('sandbox', z.strictObject({ request: Name, approve: z.boolean() }), { request: 'request' }),
  clock: v('sandbox', z.strictObject({ advance: Duration })),
  // the service misbehaving on purpose (sdk/sandbox-faults.ts): the keys are `seller sandbox fault add`'s flags
  fault: v('sandbox', FaultStep, { seller: 'seller', bot: 'bot' }, 'fault'),
  // the person on the seller's phone, in the Telegram emulator
  telegram: v('sandbox', TelegramStep, { bot: 'bot' }, 'bot'),
  // the runner's own
  expect: v('runner', z.unknown()),
} as const satisfies Record<string, Verb>;

export type VerbName = keyof typeof VERBS;
export const VERB_NAMES = Object.keys(VERBS) as VerbName[];

/** Which of `EXPECT_KINDS` an expectation is: the first of webhook, telegram, stock, order, fault among its keys. */
export function expectKind(args: unknown): keyof typeof EXPECT_KINDS | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  return (['webhook', 'telegram', 'stock', 'order', 'fault'] as const).find((k) => Object.hasOwn(args, k));
}

/** The fields `${name.field}` may read of each kind of result. */
export const FIELDS: Record<NameKind | 'run', readonly string[]> = {
  seller: ['id', 'key', 'keyId'],
  card: ['number'],
  order: ['id', 'number', 'status'],
  request: ['id'],
  question: ['id'],
  review: ['id'],
  fault: ['id'],
  bot: ['id', 'username', 'token'],
  run: ['id'],
};
