/**
 * The scenario format's verbs, as data checked by zod: for each verb the schema of its arguments,
 * which of them name earlier results (and of what kind), and what kind of result it makes (`as`).
 * Bodies the contract already defines (a new card, a catalogue request, a delivery, the buyer's
 * texts) are the contract's own schemas, so the format follows the API.
 */
import { z } from 'zod';
import { Scope } from '../contract/common.ts';
import { EventKind, SellerType } from '../contract/enums.ts';
import { NewCatalogRequest } from '../contract/catalog.ts';
import { NewCard } from '../contract/listings.ts';
import { Deliver } from '../contract/orders.ts';
import { sandboxOperations } from '../contract/sandbox.ts';
import { asA, bodyOf, d, described, doc, Duration, Name, order, type NameKind } from './schema-parts.ts';
import { FaultStep, TelegramStep } from './verbs-fault-telegram.ts';

export { NAME, Duration, type NameKind, type VerbDoc } from './schema-parts.ts';
export { EXPECT_KINDS, ExpectFault, ExpectOrder, ExpectStock, ExpectTelegram, ExpectWebhook, expectKind } from './verbs-expect.ts';
export { FaultStep, TelegramStep } from './verbs-fault-telegram.ts';

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
