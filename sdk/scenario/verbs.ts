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
      ctx.addIssue({ code: 'custom', message: `not a duration: write it as 90s, 30m, 2h, 1d or 1h30m`, params: { scenario: 'duration' } });
      return z.NEVER;
    }
    return seconds;
  })
  .meta({ scenarioType: 'duration' });

/** A described field: the reference (./reference.ts: docs/scenarios.md, `seller sandbox run --steps`) reads it. */
const d = <S extends z.ZodType>(schema: S, description: string): S => schema.describe(description);
/** A contract body's fields, each described for the reference. */
function described<T extends z.ZodRawShape>(shape: T, descriptions: { [K in keyof T]: string }): T {
  return Object.fromEntries(Object.entries(shape).map(([k, schema]) => [k, d(schema as z.ZodType, descriptions[k as keyof T])])) as unknown as T;
}

/** `as`: the name the step's result gets. */
const asA = (what: string) => ({ as: d(Name.optional(), `the name of the ${what} made, for later steps`) });

/** How long an expectation may wait: at most 10 minutes. */
const Within = d(Duration.refine((seconds) => seconds <= 600, { message: 'an expectation waits at most 10m', params: { scenario: 'within_max' } }).optional(), 'wait up to this long for it to hold (at most 10m; default: check once)');
const orderName = (what: string) => d(Name, what);
const order = { order: orderName('the order (a name given by buy)') };
const bodyOf = <S extends z.ZodType | undefined>(schema: S) => (schema as unknown as z.ZodObject).shape;

/** One verb: its arguments, the names they hold (field → kind) and what its `as` names. */
export interface Verb {
  args: z.ZodType;
  refs: Record<string, NameKind>;
  makes?: NameKind;
  /** Where the verb is played: the marketplace/buyer (sandbox), the seller (its key), or the runner. */
  side: 'sandbox' | 'seller' | 'runner';
}

/** What a verb does and a step of it, as its arguments' metadata (`.meta({ description, examples })`). */
export interface VerbDoc {
  description: string;
  /** One step as a scenario writes it, such as `pay: { order: o1 }`. */
  example: string;
}

/** Arguments with what they do and an example step: the reference reads both (`z.globalRegistry`). */
const doc = <S extends z.ZodType>(args: S, { description, example }: VerbDoc): S => args.meta({ description, examples: [example] });

const v = (side: Verb['side'], args: z.ZodType, refs: Record<string, NameKind> = {}, makes?: NameKind): Verb =>
  makes ? { side, args, refs, makes } : { side, args, refs };

/** The arguments of `expect`: about an order, a card's stock, or a webhook event. */
export const ExpectOrder = doc(
  z.strictObject({
    order: orderName('the order (a name given by buy)'),
    status: d(OrderStatus.optional(), 'the order is in this status'),
    /** The delivery's note was withheld by the contact filter (true) or sent (false). */
    noteWithheld: d(z.boolean().optional(), 'the delivery\'s note was withheld by the contact filter (true) or sent (false)'),
    /** How many messages the order's conversation holds. */
    messages: d(z.number().int().min(0).optional(), 'the order\'s conversation holds exactly this many messages'),
    within: Within,
  }),
  { description: 'Checks an order: its status, its messages, whether the delivery note was withheld.', example: 'expect: { order: o1, status: awaiting_delivery, within: 30s }' },
);
export const ExpectStock = doc(
  z.strictObject({
    stock: d(Name, 'the card whose stock is checked (a name given by card)'),
    free: d(z.number().int().min(0).optional(), 'exactly this many units not yet issued'),
    issued: d(z.number().int().min(0).optional(), 'exactly this many units issued to buyers'),
    within: Within,
  }),
  { description: 'Checks a card\'s stock: units free and issued.', example: 'expect: { stock: codes, free: 0, issued: 3 }' },
);
export const ExpectWebhook = doc(
  z
    .strictObject({
      webhook: d(EventKind, 'the event kind'),
      /** Whose events: by default the seller of `order` or `card`. */
      seller: d(Name.optional(), 'whose events (a name given by seller); default: the seller of order or card'),
      order: d(Name.optional(), 'only events about this order (a name given by buy)'),
      card: d(Name.optional(), 'only events about this card (a name given by card)'),
      /** A delivery of it reached the subscriber (a 2xx). */
      delivered: d(z.boolean().optional(), 'a delivery of the event reached the subscriber with a 2xx answer (true), or none did (false)'),
      /** Exactly this many such events (default: at least one). */
      count: d(z.number().int().min(0).optional(), 'exactly this many such events (default: at least one)'),
      within: Within,
    })
    .refine((w) => w.seller !== undefined || w.order !== undefined || w.card !== undefined, { message: 'say whose events: seller, order or card', params: { scenario: 'expect_whose' } }),
  { description: 'Checks the webhook events the service sent a seller (one of seller, order or card says whose).', example: 'expect: { webhook: order.paid, order: o1, delivered: true, within: 30s }' },
);

/** A message in a Telegram chat of the emulator (issue #36): from the bot by default, its text containing `text`, with a button of callback data `button`. */
export const ExpectTelegram = doc(
  z.strictObject({
    telegram: d(Name, 'the bot (a name given by a telegram step)'),
    chat: d(z.number().int().min(1), 'the private chat: the person\'s id'),
    text: d(z.string().min(1).optional(), 'a message whose text contains this'),
    button: d(z.string().min(1).optional(), 'a message with a button of this callback data'),
    from: d(z.enum(['bot', 'user']).default('bot'), 'who wrote the message: the bot or the person'),
    /** Exactly this many such messages (default: at least one). */
    count: d(z.number().int().min(0).optional(), 'exactly this many such messages (default: at least one)'),
    within: Within,
  }),
  { description: 'Checks the messages in a Telegram chat of the emulator.', example: 'expect: { telegram: phone, chat: 1, text: "Заказ", within: 30s }' },
);

/** A fault step's fault (`as`) fired: exactly `hits` times (default: at least once), in force or ended. */
export const ExpectFault = doc(
  z.strictObject({
    fault: d(Name, 'the fault (a name given by a fault step)'),
    hits: d(z.number().int().min(0).optional(), 'exactly this many hits (default: at least one)'),
    within: Within,
  }),
  { description: 'Checks that a fault of the run fired, in force or ended.', example: 'expect: { fault: f1, hits: 2 }' },
);

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
    ...asA('fault'),
    seller: d(Name.optional(), 'only this seller\'s calls or deliveries (a name given by seller); default: every seller'),
    bot: d(Name.optional(), 'only this Telegram bot\'s calls, for a telegram.* fault (a name given by a telegram step)'),
    op: d(z.string().optional(), 'a seller-API operation id (orders.deliver) or * for every one; a Telegram method (telegram.sendMessage) or telegram.*'),
    status: d(z.union([z.number(), z.string()]).optional(), 'answer this status instead of running the call: 429, 500, 502 or 503'),
    retryAfter: d(timesOrDuration.optional(), 'with status: the Retry-After it sends (5s, 1m; at most 1h)'),
    latency: d(timesOrDuration.optional(), 'answer late: wait this long (2s, 500ms; at most 60s), then run the call'),
    drop: d(z.boolean().optional(), 'drop the connection before the call runs'),
    'drop-after': d(z.boolean().optional(), 'the same as dropAfter'),
    dropAfter: d(z.boolean().optional(), 'run the call, then drop the connection unanswered (the change is made)'),
    hooks: d(z.string().optional(), 'webhook chaos: duplicate, reorder, fail, or delay:DUR (delay:5s)'),
    times: d(z.union([z.number(), z.string()]).optional(), 'end after this many hits'),
    for: d(timesOrDuration.optional(), 'end after this long on the server clock (30s, 10m)'),
    every: d(z.union([z.number(), z.string()]).optional(), 'hit every Nth matching call only (from 2)'),
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
        // The rule's code and field as data, so a client says the problem in its own words (`scenario: 'fault'`).
        const value = problem.code === 'invalid' || problem.code === 'unknown_op' ? { value: String((step as Record<string, unknown>)[field]).trim() } : {};
        ctx.addIssue({ code: 'custom', path: [field], message: problem.detail, params: { scenario: 'fault', problem: problem.code, field: problem.field, ...value } });
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
    ...asA('bot'),
    username: d(z.string().optional(), 'a new bot\'s username, ending in bot (default: a new sandbox_N_bot)'),
    bot: d(Name.optional(), 'the bot the person writes to (a name given by a telegram step)'),
    chat: d(z.number().int().min(1).optional(), 'with bot: the private chat, the person\'s id'),
    say: d(z.string().trim().min(1).max(4096).optional(), 'with bot: the person writes this text (/pause)'),
    press: d(z.string().min(1).max(64).optional(), 'with bot: the person presses the newest button of this callback data'),
  })
  .superRefine((step, ctx) => {
    const acts = (['say', 'press'] as const).filter((k) => step[k] !== undefined);
    const problem = (path: string, message: string, scenario: string) => ctx.addIssue({ code: 'custom', path: [path], message, params: { scenario } });
    if (step.bot === undefined) {
      for (const k of ['chat', ...acts] as const) if (step[k] !== undefined) problem(k, 'only with bot: a new bot takes as (and username) only', 'telegram_only_with_bot');
      return;
    }
    if (step.as !== undefined || step.username !== undefined) problem(step.as !== undefined ? 'as' : 'username', 'a new bot names no bot; with bot, say or press', 'telegram_new_bot');
    if (step.chat === undefined) problem('chat', 'required with bot: the private chat (the person\'s id)', 'telegram_chat');
    if (acts.length !== 1) problem('say', 'with bot, give exactly one of say or press', 'telegram_one_act');
  });

const text = (key: 'sandbox.message' | 'sandbox.dispute') => bodyOf(sandboxOperations[key].body).text as z.ZodType;
const sellerName = d(Name, 'the seller (a name given by seller)');
const cardName = d(Name, 'the card (a name given by card)');

/** The card fields of the contract's `NewCard`, described. */
const CARD_FIELDS = {
  service: 'the catalogue position\'s slug (spotify); `seller catalog list` shows them',
  tariff: 'one of the position\'s tariffs (individual)',
  productType: 'what is sold; the position says which it offers',
  deliveryMethod: 'how it reaches the buyer; the position says which each product type allows',
  priceRub: 'the price in roubles',
  slaMinutes: 'minutes to deliver after payment: one of the position\'s SLA choices',
  guaranteeDays: 'days of guarantee: one of the position\'s guarantee choices',
  description: 'the card\'s text for buyers (the contact filter reads it)',
  creditsType: 'credits only: pack (a fixed amount) or rate (units per rouble)',
  creditsAmount: 'credits with creditsType pack: units per purchase',
  creditsRate: 'credits with creditsType rate: units per rouble',
  stock: 'the declared quantity, for manual delivery',
  confirmRequired: 'the buyer confirms before paying',
} as const;

export const VERBS = {
  // the marketplace's side of a seller
  seller: v(
    'sandbox',
    doc(
      z.strictObject({
        ...asA('seller'),
        type: d(SellerType.optional(), 'the seller type (default: the sandbox\'s)'),
        admission: d(z.enum(['complete', 'none']).default('complete'), 'whether the seller\'s admission is complete'),
        test: d(z.boolean().optional(), 'a seller in test mode (only test cards)'),
        scopes: d(z.array(Scope).min(1).optional(), 'the scopes of its API key (default: all)'),
      }),
      { description: 'Makes a new seller with an API key (the marketplace\'s side).', example: 'seller: { as: shop, type: ip }' },
    ),
    {},
    'seller',
  ),
  admission: v(
    'sandbox',
    doc(
      z.strictObject({
        seller: sellerName,
        state: d(z.enum(['complete', 'none']), 'complete the admission, or take it back'),
        type: d(SellerType.optional(), 'the seller type to set with it'),
      }),
      { description: 'Completes a seller\'s admission or takes it back.', example: 'admission: { seller: shop, state: complete }' },
    ),
    { seller: 'seller' },
  ),
  status: v(
    'sandbox',
    doc(z.strictObject({ seller: sellerName, status: d(z.enum(['active', 'blocked', 'not_seller']), 'the seller\'s new status') }), {
      description: 'Sets a seller\'s status at the marketplace.',
      example: 'status: { seller: shop, status: blocked }',
    }),
    { seller: 'seller' },
  ),
  // the seller, with its key
  card: v(
    'seller',
    doc(
      z.strictObject({
        ...described(NewCard.shape, CARD_FIELDS),
        ...asA('card'),
        seller: d(Name, 'the seller whose card it is (a name given by seller)'),
        active: d(z.boolean().optional(), 'switch the card on once made'),
        autoIssue: d(z.boolean().optional(), 'switch it on with auto-delivery from its stock'),
        test: d(z.boolean().optional(), 'make it a test card'),
      }),
      {
        description: 'Makes a card with the seller\'s key (checked against the catalogue before the run when the catalogue can be read).',
        example: 'card: { as: codes, seller: shop, service: spotify, tariff: individual, productType: code, deliveryMethod: code, priceRub: 300, slaMinutes: 60, guaranteeDays: 7, active: true }',
      },
    ),
    { seller: 'seller' },
    'card',
  ),
  stock: v(
    'seller',
    doc(
      z
        .strictObject({
          card: cardName,
          count: d(z.number().int().min(1).max(100_000).optional(), 'add this many generated units'),
          items: d(z.array(z.string().min(1)).min(1).optional(), 'add these units'),
        })
        .refine((s) => (s.count === undefined) !== (s.items === undefined), { message: 'give exactly one of count or items', params: { scenario: 'stock_one_of' } }),
      { description: 'Adds units to a card\'s stock: count generated ones, or the items given.', example: 'stock: { card: codes, count: 3 }' },
    ),
    { card: 'card' },
  ),
  on: v(
    'seller',
    doc(z.strictObject({ card: cardName, autoIssue: d(z.boolean().optional(), 'auto-delivery from the stock on (true) or off (false)') }), {
      description: 'Switches a card on.',
      example: 'on: { card: codes, autoIssue: true }',
    }),
    { card: 'card' },
  ),
  off: v('seller', doc(z.strictObject({ card: cardName }), { description: 'Switches a card off.', example: 'off: { card: codes }' }), { card: 'card' }),
  hooks: v(
    'seller',
    doc(
      z.strictObject({
        seller: sellerName,
        /** `probe`: the service's own test receiver for this seller; else an address the server accepts. */
        url: d(z.string().min(1).max(2000), 'probe (the service\'s own test receiver), or an address the server accepts'),
        events: d(z.array(EventKind).min(1), 'the event kinds to send'),
      }),
      { description: 'Subscribes the seller to webhook events.', example: 'hooks: { seller: shop, url: probe, events: [order.paid, order.message] }' },
    ),
    { seller: 'seller' },
  ),
  deliver: v(
    'seller',
    doc(
      z.strictObject({
        ...order,
        ...described(Deliver.shape, {
          nextChargeDay: 'the next charge day at the vendor, YYYY-MM-DD: required for a subscription (or an account with one)',
          note: 'a note to the buyer (the contact filter reads it)',
        }),
      }),
      { description: 'Delivers an order with the seller\'s key.', example: 'deliver: { order: o1, nextChargeDay: 2027-03-01, note: "Welcome" }' },
    ),
    { order: 'order' },
  ),
  reply: v(
    'seller',
    doc(z.strictObject({ ...order, text: d(text('sandbox.message'), 'the seller\'s message to the buyer') }), {
      description: 'The seller writes to the buyer in the order\'s conversation.',
      example: 'reply: { order: o1, text: "Done, check the vault" }',
    }),
    { order: 'order' },
  ),
  request: v(
    'seller',
    doc(
      z.strictObject({
        ...described(NewCatalogRequest.shape, {
          title: 'what to add to the catalogue',
          category: 'its category',
          url: 'a page about it (http or https)',
          comment: 'a word to the marketplace',
        }),
        ...asA('request'),
        seller: d(Name, 'the seller asking (a name given by seller)'),
      }),
      { description: 'The seller asks for a new catalogue position.', example: 'request: { as: r1, seller: shop, title: Midjourney }' },
    ),
    { seller: 'seller' },
    'request',
  ),
  // the buyer and the marketplace
  buy: v(
    'sandbox',
    doc(z.strictObject({ ...asA('order'), card: d(Name, 'the card bought (a name given by card)'), testBuyer: d(z.boolean().optional(), 'a test buyer (the order is a test one)') }), {
      description: 'A buyer orders a card; the order awaits payment.',
      example: 'buy: { as: o1, card: codes }',
    }),
    { card: 'card' },
    'order',
  ),
  pay: v('sandbox', doc(z.strictObject(order), { description: 'The buyer pays the order.', example: 'pay: { order: o1 }' }), { order: 'order' }),
  cancel: v('sandbox', doc(z.strictObject(order), { description: 'The buyer cancels the order.', example: 'cancel: { order: o1 }' }), { order: 'order' }),
  accept: v('sandbox', doc(z.strictObject(order), { description: 'The buyer accepts the delivery: the order completes.', example: 'accept: { order: o1 }' }), { order: 'order' }),
  message: v(
    'sandbox',
    doc(z.strictObject({ ...order, text: d(text('sandbox.message'), 'the buyer\'s message') }), { description: 'The buyer writes to the seller.', example: 'message: { order: o1, text: "Hello, when?" }' }),
    { order: 'order' },
  ),
  vault: v(
    'sandbox',
    doc(z.strictObject({ ...order, ...described(bodyOf(sandboxOperations['sandbox.vault'].body), { secret: 'what the buyer puts in the order\'s vault (a password, a login)' }) }), {
      description: 'The buyer puts a secret in the order\'s vault.',
      example: 'vault: { order: o1, secret: "my-login:my-password" }',
    }),
    { order: 'order' },
  ),
  dispute: v(
    'sandbox',
    doc(z.strictObject({ ...order, text: d(text('sandbox.dispute'), 'why the buyer disputes') }), { description: 'The buyer opens a dispute.', example: 'dispute: { order: o1, text: "The code does not work" }' }),
    { order: 'order' },
  ),
  resolve: v(
    'sandbox',
    doc(z.strictObject({ ...order, ...described(bodyOf(sandboxOperations['sandbox.resolve'].body), { winner: 'who wins the dispute' }) }), {
      description: 'The marketplace resolves the order\'s dispute.',
      example: 'resolve: { order: o1, winner: seller }',
    }),
    { order: 'order' },
  ),
  review: v(
    'sandbox',
    doc(
      z.strictObject({
        ...asA('review'),
        ...order,
        stars: d(z.number().int().min(1).max(5), 'the stars given'),
        text: d(z.string().max(2000).default(''), 'the review\'s text'),
      }),
      { description: 'The buyer reviews the order.', example: 'review: { as: rv1, order: o1, stars: 5, text: "Fast" }' },
    ),
    { order: 'order' },
    'review',
  ),
  question: v(
    'sandbox',
    doc(
      z.strictObject({
        ...asA('question'),
        card: d(Name, 'the card asked about (a name given by card)'),
        text: d(bodyOf(sandboxOperations['sandbox.createQuestion'].body).text as z.ZodType, 'the question'),
      }),
      { description: 'A buyer asks a question about a card.', example: 'question: { as: q1, card: codes, text: "Does it work in Turkey?" }' },
    ),
    { card: 'card' },
    'question',
  ),
  decide: v(
    'sandbox',
    doc(z.strictObject({ request: d(Name, 'the catalogue request (a name given by request)'), approve: d(z.boolean(), 'approve (true) or reject (false)') }), {
      description: 'The marketplace decides a catalogue request.',
      example: 'decide: { request: r1, approve: true }',
    }),
    { request: 'request' },
  ),
  clock: v(
    'sandbox',
    doc(z.strictObject({ advance: d(Duration, 'move the server\'s clock this far ahead (90s, 30m, 2h, 1d, 1h30m, or seconds)') }), {
      description: 'Moves the server\'s clock ahead (for every seller: one such run at a time).',
      example: 'clock: { advance: 2h }',
    }),
  ),
  // the service misbehaving on purpose (sdk/sandbox-faults.ts): the keys are `seller sandbox fault add`'s flags
  fault: v(
    'sandbox',
    doc(FaultStep, {
      description: 'Makes the service misbehave on purpose until the run ends: a status, a latency or a dropped connection for seller-API calls, or webhook chaos (the keys of seller sandbox fault add).',
      example: 'fault: { as: f1, seller: shop, op: orders.deliver, status: 503, times: 2 }',
    }),
    { seller: 'seller', bot: 'bot' },
    'fault',
  ),
  // the person on the seller's phone, in the Telegram emulator
  telegram: v(
    'sandbox',
    doc(TelegramStep, {
      description: 'Makes a bot of the Telegram emulator (as), or is the person writing to it (bot, chat, say) or pressing its button (bot, chat, press).',
      example: 'telegram: { bot: phone, chat: 1, say: /pause }',
    }),
    { bot: 'bot' },
    'bot',
  ),
  // the runner's own
  expect: v('runner', doc(z.unknown(), { description: 'Checks what happened, waiting up to within: an order, a card\'s stock, a webhook event, a Telegram chat or a fault (see its kinds).', example: 'expect: { order: o1, status: delivered, within: 1m }' })),
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
