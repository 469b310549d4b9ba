/**
 * Expectations: `expect` reads what is (an order, a card's stock, the events recorded for a seller
 * and their deliveries, a fault's hits in the sandbox's table, a Telegram chat) and compares it with
 * what the step says. Every reading is one of the sandbox's admin reads, never the seller's API: the
 * run's faults neither refuse them nor count them (a fault's hits are the acts' calls and those of
 * the clients under test). It reads again until it holds or its time is up: `within` (a duration),
 * by default 0 for an order, a stock or a call fault (the steps before have answered, their changes
 * are made) and 5 s for a webhook or webhook chaos (deliveries are sent after the change) or a
 * Telegram message (the autopilot sends it after what it saw).
 */
import type { SandboxClient } from '../sandbox.ts';
import type { ExpectationFinding, ExpectedValue } from './errors.ts';
import type { MadeFault } from './result.ts';
import type { RunState } from './state.ts';
import { expectKind } from './verbs.ts';

/** The default wait of an expectation about a webhook, in seconds. */
export const WEBHOOK_WAIT_SECONDS = 5;

/** What a reading found: whether it holds, what it is about, each value checked, and the same in English. */
interface Reading extends ExpectationFinding {
  holds: boolean;
  expected: string;
  found: string;
}

export interface ExpectOutcome extends Reading {
  waitedMs: number;
}

type Args = Record<string, any>;

async function readOrder(sb: SandboxClient, state: RunState, a: Args): Promise<Reading> {
  const made = state.order(a.order);
  const { order, messages } = await sb.orderTimeline(made.id);
  made.status = order.status;
  const want: string[] = [];
  const got: string[] = [];
  const checks: ExpectationFinding['checks'] = [];
  let holds = true;
  const check = (field: string, expected: ExpectedValue | undefined, found: ExpectedValue) => {
    if (expected === undefined) return;
    checks.push({ field, expected, found });
    want.push(`${field} ${String(expected)}`);
    got.push(`${field} ${String(found)}`);
    if (expected !== found) holds = false;
  };
  check('status', a.status, order.status);
  check('messages', a.messages, messages.length);
  if (a.noteWithheld !== undefined) {
    const rejected = state.noteRejected.get(made.id);
    check('noteWithheld', a.noteWithheld, rejected === undefined ? 'not delivered by this run' : rejected !== null);
  }
  const subject = { kind: 'order' as const, name: a.order as string, id: made.id };
  return { holds, subject, checks, expected: `order ${a.order} ${want.join(', ') || 'to exist'}`, found: `${made.id} ${got.join(', ') || 'exists'}` };
}

/** A card's stock counts, from its seller's cards as the sandbox lists them. */
async function stockOf(sb: SandboxClient, sellerId: string, number: number): Promise<{ free: number; issued: number }> {
  for await (const card of sb.sellerCards(sellerId, { limit: 100 })) if (card.number === number) return card.stock;
  throw new Error(`scenario runner: card ${number} is not among the cards of ${sellerId}`);
}

async function readStock(sb: SandboxClient, state: RunState, a: Args): Promise<Reading> {
  const card = state.card(a.stock);
  const stock = await stockOf(sb, card.sellerId, card.number);
  const want = [a.free === undefined ? '' : `free ${a.free}`, a.issued === undefined ? '' : `issued ${a.issued}`].filter(Boolean).join(', ');
  const holds = (a.free === undefined || stock.free === a.free) && (a.issued === undefined || stock.issued === a.issued);
  const checks = (['free', 'issued'] as const).filter((f) => a[f] !== undefined).map((f) => ({ field: f, expected: a[f] as number, found: stock[f] }));
  return { holds, subject: { kind: 'stock', name: a.stock, id: card.number }, checks, expected: `card ${a.stock} stock ${want || 'readable'}`, found: `card ${card.number} free ${stock.free}, issued ${stock.issued}` };
}

async function readWebhook(sb: SandboxClient, state: RunState, a: Args): Promise<Reading> {
  const order = a.order === undefined ? undefined : state.order(a.order);
  const card = a.card === undefined ? undefined : state.card(a.card);
  const sellerName: string = a.seller ?? order?.seller ?? card!.seller;
  const { items } = await sb.sellerEvents(state.seller(sellerName).id);
  const kind = items.filter((e) => e.kind === a.webhook);
  const about = kind.filter((e) => (order === undefined || e.data.order === order.id) && (card === undefined || e.data.number === card.number));
  const matching = a.delivered ? about.filter((e) => e.deliveries.some((d) => d.deliveredAt !== null)) : about;
  const holds = a.count === undefined ? matching.length > 0 : matching.length === a.count;
  const subject = [order ? `order ${a.order}` : '', card ? `card ${a.card}` : ''].filter(Boolean).join(' ');
  const expected = `${a.count === undefined ? 'an' : a.count} ${a.webhook} event${a.count === undefined || a.count === 1 ? '' : 's'}${subject ? ` about ${subject}` : ''} of seller ${sellerName}${a.delivered ? ', delivered' : ''}`;
  const attempts = about.flatMap((e) => e.deliveries).map((d) => `${d.attempts} attempt(s), last ${d.lastStatus ?? 'none'}`);
  const found = `${kind.length} ${a.webhook} event(s) in all, ${about.length} about it${a.delivered ? `, ${matching.length} delivered${attempts.length ? ` (${attempts.join('; ')})` : ', no delivery made (is the seller subscribed to it?)'}` : ''}`;
  const checks = [{ field: a.delivered ? 'delivered' : 'events', expected: a.count ?? '>= 1', found: matching.length }];
  const topic = order ? { about: a.order as string } : card ? { about: a.card as string } : {};
  return { holds, subject: { kind: 'webhook', name: a.webhook, seller: sellerName, ...topic }, checks, expected, found };
}

/** A Telegram chat of the emulator: the messages from `from` containing `text` (with a button of data `button`). */
async function readTelegram(sb: SandboxClient, state: RunState, a: Args): Promise<Reading> {
  const bot = state.bot(a.telegram);
  const { items } = await sb.telegramMessages(bot.id, a.chat);
  const from = items.filter((m) => m.from === a.from);
  const matching = from.filter((m) => (a.text === undefined || m.text.includes(a.text)) && (a.button === undefined || m.buttons.some((row) => row.some((b) => b.data === a.button))));
  const holds = a.count === undefined ? matching.length > 0 : matching.length === a.count;
  const what = [a.text === undefined ? '' : `containing "${a.text}"`, a.button === undefined ? '' : `with button ${a.button}`].filter(Boolean).join(' ');
  const expected = `${a.count ?? 'a'} message(s) from the ${a.from} in chat ${a.chat} of bot ${a.telegram}${what ? ` ${what}` : ''}`;
  const last = from.at(-1);
  const found = `${matching.length} such of ${from.length} from the ${a.from}${last ? `; the last: "${last.text.slice(0, 200)}"` : ''}`;
  return { holds, subject: { kind: 'telegram', name: a.telegram, id: a.chat }, checks: [{ field: 'messages', expected: a.count ?? '>= 1', found: matching.length }], expected, found };
}

/** A fault's hits, from the sandbox's table (an ended fault is listed too); the fault step's record keeps them. */
async function readFault(sb: SandboxClient, state: RunState, a: Args): Promise<Reading> {
  const made = state.get(a.fault) as MadeFault;
  const fault = (await sb.listFaults()).items.find((f) => f.id === made.id);
  if (fault) made.hits = fault.hits;
  const holds = fault !== undefined && (a.hits === undefined ? fault.hits > 0 : fault.hits === a.hits);
  const want = a.hits === undefined ? 'at least 1' : String(a.hits);
  const found = fault === undefined ? 'no such fault in the table (cleared?)' : `${fault.hits}${fault.endedAt === null ? ', in force' : `, ended ${fault.endedAt}`}`;
  return {
    holds,
    subject: { kind: 'fault', name: a.fault, id: made.id },
    checks: [{ field: 'hits', expected: a.hits ?? '>= 1', found: fault?.hits ?? made.hits }],
    expected: `fault ${a.fault} hits ${want}`,
    found: `${made.id} hits ${found}`,
  };
}

/** Webhook chaos hits when a delivery is attempted, after the change: its expectation waits as a webhook's does. */
const isChaos = (made: MadeFault): boolean => made.what.startsWith('hooks ');

/** Reads until the expectation holds or its time is up. */
export async function checkExpectation(
  sb: SandboxClient,
  state: RunState,
  a: Args,
  sleep: (ms: number) => Promise<void>,
  /** Called before each reading (it throws when the run was aborted). */
  tick: () => Promise<void> = async () => {},
): Promise<ExpectOutcome> {
  const kind = expectKind(a);
  // A webhook, webhook chaos or a Telegram message comes after the change: waited for by default.
  const waits = kind === 'webhook' || kind === 'telegram' || (kind === 'fault' && isChaos(state.get(a.fault) as MadeFault));
  const waitMs = 1000 * (a.within ?? (waits ? WEBHOOK_WAIT_SECONDS : 0));
  const readers = {
    webhook: () => readWebhook(sb, state, a),
    telegram: () => readTelegram(sb, state, a),
    stock: () => readStock(sb, state, a),
    order: () => readOrder(sb, state, a),
    fault: () => readFault(sb, state, a),
  };
  const read = readers[kind ?? 'order'];
  const start = Date.now();
  let pause = 25;
  for (;;) {
    await tick();
    const reading = await read();
    const waited = Date.now() - start;
    if (reading.holds || waited >= waitMs) return { ...reading, waitedMs: reading.holds ? waited : waitMs };
    await sleep(Math.min(pause, waitMs - waited));
    pause = Math.min(pause * 2, 250);
  }
}
