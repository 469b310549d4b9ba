/**
 * The verbs that act: the marketplace and the buyer through the sandbox (as `seller sandbox …`
 * does), the seller through the seller API with its own key. Each gets its step's arguments
 * (checked, names filled in) and records what it made in the run's state.
 */
import { STOCK_BATCH_MAX } from '../contract/constants.ts';
import { faultBody } from '../sandbox-faults.ts';
import type { SandboxClient } from '../sandbox.ts';
import type { MadeOrder } from './result.ts';
import type { RunState } from './state.ts';
import type { VerbName } from './verbs.ts';

/** What an act gets: the sandbox client, the run's state, its step's arguments and its fallback name. */
export interface ActContext {
  sb: SandboxClient;
  state: RunState;
  /** `as`, or `#<step number>`. */
  name: string;
}

type Args = Record<string, any>;
type Act = (ctx: ActContext, args: Args) => Promise<void>;

/** After a buyer's or the marketplace's action on an order: its status as answered. */
const statusOf = (order: MadeOrder, answer: { status: string }) => {
  order.status = answer.status;
};

const orderAct =
  (call: (sb: SandboxClient, id: string, args: Args) => Promise<{ status: string }>): Act =>
  async ({ sb, state }, args) => {
    const order = state.order(args.order);
    statusOf(order, await call(sb, order.id, args));
  };

/** `count` distinct units for a card, unique to the run: `<run>-<card>-<n>`. */
function generatedUnits(runId: string, card: number, from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${runId}-${card}-${from + i + 1}`);
}

export const ACTS: Record<Exclude<VerbName, 'expect' | 'clock'>, Act> = {
  seller: async ({ sb, state, name }, a) => {
    const made = await sb.createSeller({ admission: a.admission, sellerType: a.type, mode: a.test ? 'test' : undefined, scopes: a.scopes });
    state.add({ kind: 'seller', name, id: made.sellerId, keyId: made.keyId, key: made.apiKey });
  },
  admission: async ({ sb, state }, a) => {
    await sb.setAdmission(state.seller(a.seller).id, { complete: a.state === 'complete', sellerType: a.type });
  },
  status: async ({ sb, state }, a) => {
    await sb.setSellerStatus(state.seller(a.seller).id, { status: a.status });
  },

  card: async ({ state, name }, a) => {
    const { as: _as, seller, active, autoIssue, test, ...body } = a;
    const client = state.client(seller);
    const { number } = await client.listings.create(body as Parameters<typeof client.listings.create>[0]);
    if (test) await client.listings.setTest(number, { isTest: true });
    if (active || autoIssue) await client.listings.setState(number, { active: true, ...(autoIssue ? { autoIssue: true } : {}) });
    state.add({ kind: 'card', name, number, seller, sellerId: state.seller(seller).id });
  },
  stock: async ({ state }, a) => {
    const card = state.card(a.card);
    const client = state.client(card.seller);
    const items: string[] = a.items ?? [];
    for (let from = 0; from < (a.count ?? 0); from += STOCK_BATCH_MAX) {
      await client.stock.refill(card.number, { items: generatedUnits(state.runId, card.number, from, Math.min(STOCK_BATCH_MAX, a.count - from)) });
    }
    for (let from = 0; from < items.length; from += STOCK_BATCH_MAX) await client.stock.refill(card.number, { items: items.slice(from, from + STOCK_BATCH_MAX) });
  },
  on: async ({ state }, a) => {
    const card = state.card(a.card);
    await state.client(card.seller).listings.setState(card.number, { active: true, ...(a.autoIssue === undefined ? {} : { autoIssue: a.autoIssue }) });
  },
  off: async ({ state }, a) => {
    const card = state.card(a.card);
    await state.client(card.seller).listings.setState(card.number, { active: false });
  },
  hooks: async ({ state }, a) => {
    const client = state.client(a.seller);
    const url = a.url === 'probe' ? (await client.hooks.createProbe()).url : a.url;
    await client.hooks.set({ url, events: a.events });
  },
  deliver: async ({ state }, a) => {
    const { order: name, ...body } = a;
    const order = state.order(name);
    const answer = await state.client(order.seller).orders.deliver(order.id, body);
    order.status = answer.status;
    state.noteRejected.set(order.id, answer.noteRejected);
  },
  reply: async ({ state }, a) => {
    const order = state.order(a.order);
    await state.client(order.seller).orders.message(order.id, { text: a.text });
  },
  request: async ({ state, name }, a) => {
    const { as: _as, seller, ...body } = a;
    const request = await state.client(seller).catalogRequests.create(body as { title: string });
    state.add({ kind: 'request', name, id: request.id, seller, status: request.status });
  },

  buy: async ({ sb, state, name }, a) => {
    const card = state.card(a.card);
    const order = await sb.createOrder({ number: card.number, testBuyer: a.testBuyer });
    state.add({ kind: 'order', name, id: order.id, number: order.number, card: card.name, seller: card.seller, status: order.status });
  },
  pay: orderAct((sb, id) => sb.pay(id)),
  cancel: orderAct((sb, id) => sb.cancel(id)),
  accept: orderAct((sb, id) => sb.accept(id)),
  vault: orderAct((sb, id, a) => sb.vault(id, { secret: a.secret })),
  dispute: orderAct((sb, id, a) => sb.dispute(id, { text: a.text })),
  resolve: orderAct((sb, id, a) => sb.resolve(id, { winner: a.winner })),
  message: async ({ sb, state }, a) => {
    await sb.message(state.order(a.order).id, { text: a.text });
  },
  review: async ({ sb, state, name }, a) => {
    const review = await sb.review(state.order(a.order).id, { stars: a.stars, text: a.text });
    state.add({ kind: 'review', name, id: review.id, order: a.order, stars: review.stars });
  },
  question: async ({ sb, state, name }, a) => {
    const question = await sb.createQuestion({ number: state.card(a.card).number, text: a.text });
    state.add({ kind: 'question', name, id: question.id, number: question.number });
  },
  fault: async ({ sb, state, name }, a) => {
    const { as: _as, seller, bot, ...flags } = a;
    const body = faultBody({ ...flags, seller: seller === undefined ? undefined : state.seller(seller).id, bot: bot === undefined ? undefined : state.bot(bot).id });
    const fault = await sb.addFault({ ...body, ...(state.runLease ? { runLease: state.runLease } : {}) });
    const what = fault.hooks ? `hooks ${fault.hooks}` : `${fault.op} ${fault.status ?? (fault.latencyMs ? `latency ${fault.latencyMs}ms` : fault.drop ? 'drop' : 'drop-after')}`;
    state.add({ kind: 'fault', name, id: fault.id, seller: seller ?? bot ?? null, what, hits: fault.hits });
  },
  telegram: async ({ sb, state, name }, a) => {
    if (a.bot === undefined) {
      const bot = await sb.createTelegramBot({ username: a.username });
      state.add({ kind: 'bot', name, id: bot.id, username: bot.username, token: bot.token });
      return;
    }
    const bot = state.bot(a.bot);
    if (a.say !== undefined) {
      await sb.telegramSay(bot.id, a.chat, { text: a.say });
      return;
    }
    // The newest of the bot's messages with a button of this data (labels are translated, data is not).
    await sb.telegramPress(bot.id, a.chat, { data: a.press });
  },
  decide: async ({ sb, state }, a) => {
    const request = state.get(a.request) as { id: string; status: string };
    request.status = (await sb.decideCatalogRequest(request.id, { approve: a.approve })).status;
  },
};
