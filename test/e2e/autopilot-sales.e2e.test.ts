/**
 * The autopilot's sales lines (`notify.sales`) through an injected channel, against a real server: a
 * burst of paid orders that a rule delivers is said once each as paid and once as delivered, in
 * order per order, joined into a few messages at the channel's pace; the sales leave no mark in the
 * state document (their delivery's journal remembers them), the outbox lives in its own file and is
 * empty once sent, and a restart says no sale again.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAutopilot, type AutopilotEvent, type NotifyChannel } from '../../sdk/autopilot/index.ts';
import { fileAutopilotStore } from '../../sdk/autopilot/state.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

const world = useSellerWorld({ server: { rateLimit: NO_RATE_LIMIT }, client: { strict: true }, dir: 'autopilot-sales-' });
let card: number;
beforeAll(async () => {
  card = await world.newCard();
});

/** A phone that keeps what it was sent: each message, the events it said. */
function phone(): NotifyChannel & { messages: AutopilotEvent[][] } {
  const messages: AutopilotEvent[][] = [];
  return {
    name: 'telegram',
    targets: ['1'],
    paceMs: 300,
    messages,
    send: async (event) => void messages.push([event]),
    sendMany: async (events) => {
      messages.push([...events]);
      return events.length;
    },
  };
}

/** Paid orders of the card, made while the autopilot runs (a first run's catch-up says no sale: it is not news). */
async function buy(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await world.buy(card));
  return ids;
}

async function run(statePath: string, channel: NotifyChannel, count: number) {
  const events: AutopilotEvent[] = [];
  const stop = new AbortController();
  const config = { pollSeconds: 0.1, deliver: [{ match: { card }, action: { command: 'true' } }], notify: { telegram: { chats: [1] }, sales: true } };
  const running = runAutopilot(world.client, config, { statePath, signal: stop.signal, onEvent: (e) => events.push(e), channels: [channel] });
  await waitFor('the start', () => events.some((e) => e.type === 'started'));
  const ids = await buy(count);
  await waitFor('the deliveries', () => ids.every((id) => events.some((e) => e.type === 'delivered' && e.order === id)), { ms: 30_000 });
  stop.abort();
  await running;
  return ids;
}

describe('sales lines', () => {
  it('a burst: each order said once paid and once delivered, joined at the pace; no mark per sale; a restart says none again', async () => {
    const statePath = join(world.dir, 'sales.state.json');
    const first = phone();
    const ids = await run(statePath, first, 20);

    const said = first.messages.flat();
    for (const id of ids) {
      const lines = said.filter((e) => e.order === id).map((e) => `${e.rule}.${e.type}`);
      expect(lines, id).toEqual(['orders.paid', 'deliver.delivered']);
    }
    // 40 lines in far fewer messages: what came within the pace went together.
    expect(first.messages.length).toBeLessThan(said.length / 2);

    const state = JSON.parse(readFileSync(statePath, 'utf8')) as { moved: Record<string, string>; outbox?: unknown };
    expect(state).not.toHaveProperty('outbox');
    expect(Object.keys(state.moved).filter((id) => ids.includes(id))).toEqual([]);
    expect(existsSync(`${statePath}.outbox`)).toBe(true);
    expect((await fileAutopilotStore(statePath).load()).outbox).toEqual([]);

    // A restart reads the same orders again (delivered now): no sale is said twice.
    const again = phone();
    const [next] = await run(statePath, again, 1);
    expect(again.messages.flat().filter((e) => e.order !== undefined).map((e) => `${e.order === next ? 'next' : e.order}: ${e.rule}.${e.type}`)).toEqual(['next: orders.paid', 'next: deliver.delivered']);
  }, 60_000);
});
