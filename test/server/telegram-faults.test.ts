/**
 * Faults reach the Telegram emulator (issue #36): `telegram.{method}` and `telegram.*` take the
 * status (in Telegram's shape), latency and drop faults, for one bot or every bot; `*` stays the
 * seller API's. And the bot token, part of every Bot API path, never reaches the request log.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TelegramBot } from '../../sdk/contract/index.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';
import { makeApp } from './helpers.ts';

const world = useSellerWorld();

afterEach(async () => {
  await world.sandbox.clearFaults();
});

async function send(bot: TelegramBot, text = 'hi'): Promise<{ status: number; headers: Headers; text: string } | 'dropped'> {
  try {
    const res = await fetch(`${world.server.url}/sandbox/telegram/bot${bot.token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 1, text }),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch {
    return 'dropped';
  }
}

async function startedBot(): Promise<TelegramBot> {
  const bot = await world.sandbox.createTelegramBot({});
  await world.sandbox.telegramSay(bot.id, 1, { text: '/start' });
  return bot;
}

const botTexts = async (bot: TelegramBot) => (await world.sandbox.telegramMessages(bot.id, 1)).items.filter((m) => m.from === 'bot').map((m) => m.text);

describe('status faults answer in Telegram\'s shape, the call not made', () => {
  it('429 twice on sendMessage: retry_after 1 s by default, nothing sent, then ok', async () => {
    const bot = await startedBot();
    await world.sandbox.addFault({ op: 'telegram.sendMessage', status: 429, times: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await send(bot);
      expect(r).toMatchObject({ status: 429 });
      expect(JSON.parse((r as { text: string }).text)).toEqual({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } });
    }
    expect(await botTexts(bot)).toEqual([]);
    expect(await send(bot, 'third')).toMatchObject({ status: 200 });
    expect(await botTexts(bot)).toEqual(['third']);
  });

  it('retryAfterMs sets retry_after, in whole seconds rounded up', async () => {
    const bot = await startedBot();
    await world.sandbox.addFault({ op: 'telegram.sendMessage', bot: bot.id, status: 429, retryAfterMs: 2500, times: 1 });
    const r = (await send(bot)) as { status: number; headers: Headers; text: string };
    expect(JSON.parse(r.text)).toEqual({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } });
    expect(r.headers.get('retry-after')).toBe('3');
  });

  it('500 and 503 are Telegram envelopes; 502 is a proxy page', async () => {
    const bot = await startedBot();
    await world.sandbox.addFault({ op: 'telegram.*', status: 500, times: 1 });
    expect(JSON.parse(((await send(bot)) as { text: string }).text)).toEqual({ ok: false, error_code: 500, description: 'Internal Server Error' });
    await world.sandbox.addFault({ op: 'telegram.sendMessage', status: 503, times: 1 });
    expect(await send(bot)).toMatchObject({ status: 503 });
    await world.sandbox.addFault({ op: 'telegram.sendMessage', status: 502, times: 1 });
    const page = await send(bot);
    expect(page).toMatchObject({ status: 502, text: expect.stringContaining('502 Bad Gateway') });
    expect(await botTexts(bot)).toEqual([]);
  });

  it('a fault for one bot leaves the others alone; `*` (the seller API\'s) never reaches Telegram', async () => {
    const [one, two] = [await startedBot(), await startedBot()];
    await world.sandbox.addFault({ op: 'telegram.sendMessage', bot: one.id, status: 500, times: 5 });
    await world.sandbox.addFault({ op: '*', status: 500, times: 5 });
    expect(await send(two)).toMatchObject({ status: 200 });
    expect(await send(one)).toMatchObject({ status: 500 });
    // The other method of the same bot is untouched by a sendMessage fault.
    const me = await fetch(`${world.server.url}/sandbox/telegram/bot${one.token}/getMe`);
    expect(me.status).toBe(200);
  });

  it('getUpdates faults too: the updates stay for the next poll', async () => {
    const bot = await startedBot();
    await world.sandbox.addFault({ op: 'telegram.getUpdates', bot: bot.id, status: 429, times: 1 });
    const url = `${world.server.url}/sandbox/telegram/bot${bot.token}/getUpdates`;
    expect((await fetch(url)).status).toBe(429);
    expect(((await (await fetch(url)).json()) as { result: unknown[] }).result).toHaveLength(1);
  });
});

describe('drops and latency', () => {
  it('drop: the connection is cut and nothing is sent; dropAfter: cut after the message is sent', async () => {
    const bot = await startedBot();
    await world.sandbox.addFault({ op: 'telegram.sendMessage', drop: true, times: 1 });
    expect(await send(bot, 'lost')).toBe('dropped');
    expect(await botTexts(bot)).toEqual([]);
    await world.sandbox.addFault({ op: 'telegram.sendMessage', dropAfter: true, times: 1 });
    expect(await send(bot, 'sent, answer lost')).toBe('dropped');
    expect(await botTexts(bot)).toEqual(['sent, answer lost']);
  });

  it('a latency delays the answer, then the call runs', async () => {
    const bot = await startedBot();
    const fault = await world.sandbox.addFault({ op: 'telegram.sendMessage', latencyMs: 50, times: 1 });
    expect(await send(bot, 'late')).toMatchObject({ status: 200 });
    expect(await botTexts(bot)).toEqual(['late']);
    expect(fault.op).toBe('telegram.sendMessage');
    expect((await world.sandbox.listFaults()).items).toEqual([expect.objectContaining({ id: fault.id, hits: 1, endedAt: expect.any(String) })]);
  });
});

describe('refused fault bodies', () => {
  it.each([
    [{ op: 'telegram.sendMessage', sellerId: 'sel_x', status: 500 }, 'sellerId'],
    [{ op: 'orders.list', bot: 1, status: 500 }, 'bot'],
    [{ op: 'telegram.sendPoll', status: 500 }, 'op'],
  ] as const)('%j is refused naming %s', async (body, field) => {
    await expect(world.sandbox.addFault(body as never)).rejects.toMatchObject({ code: 'bad_request', detail: { issues: [expect.objectContaining({ path: ['body', field] })] } });
  });
});

describe('the token never reaches the log', () => {
  it('the request log writes the Bot API path with the token redacted', async () => {
    const lines: string[] = [];
    const app = await makeApp({ logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
    try {
      const create = await app.inject({ method: 'POST', url: '/sandbox/v1/telegram/bots', headers: { authorization: `Bearer ${app.service.adminToken}`, 'content-type': 'application/json' }, payload: '{}' });
      const { token } = create.json() as TelegramBot;
      const me = await app.inject({ method: 'GET', url: `/sandbox/telegram/bot${token}/getMe` });
      expect(me.statusCode).toBe(200);
      const log = lines.join('');
      expect(log).toContain('/sandbox/telegram/bot<redacted>/getMe');
      expect(log).not.toContain(token.split(':')[1]);
    } finally {
      await app.close();
    }
  });
});
