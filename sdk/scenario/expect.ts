/**
 * Expectations: `expect` reads what is (an order, a card's stock, the events recorded for a seller
 * and their deliveries) and compares it with what the step says. Every reading is one of the
 * sandbox's admin reads, never the seller's API: the run's faults neither refuse them nor count
 * them (a fault's hits are the acts' calls and those of the clients under test). It reads
 * again until it holds or its time is up: `within` (a duration), by default 0 for an order or a
 * stock (the steps before have answered, their changes are made) and 5 s for a webhook (deliveries
 * are sent after the change).
 */
import type { SandboxClient } from '../sandbox.ts';
import type { ExpectationFinding, ExpectedValue } from './errors.ts';
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
  const waitMs = 1000 * (a.within ?? (kind === 'webhook' ? WEBHOOK_WAIT_SECONDS : 0));
  const read = () => (kind === 'webhook' ? readWebhook(sb, state, a) : kind === 'stock' ? readStock(sb, state, a) : readOrder(sb, state, a));
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
