/**
 * grammY, the library the autopilot talks to Telegram with, against the sandbox's emulator (issue
 * #36): its `apiRoot` pointed at `{base}/sandbox/telegram`, a bot long-polls, hears a command and a
 * button press, answers with HTML and an inline keyboard, edits its message; its refusals are
 * grammY's `GrammyError` with Telegram's code and words; stopping it ends its poll; and closing the
 * server while a poll waits is not held up by it.
 */
import { Bot, GrammyError, InlineKeyboard } from 'grammy';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.ts';
import { useSellerWorld } from '../helpers/seller-world.ts';
import { waitFor } from '../helpers/wait.ts';

const world = useSellerWorld();

const grammyBot = (token: string, url = world.server.url) => new Bot(token, { client: { apiRoot: `${url}/sandbox/telegram` } });

describe('grammY against the emulator', () => {
  it('polls, hears /pause and a button, answers with HTML and a keyboard, edits; the person reads it all', async () => {
    const { id, token } = await world.sandbox.createTelegramBot({});
    const bot = grammyBot(token);
    bot.command('pause', (ctx) => ctx.reply('<b>Paused</b> by you', { parse_mode: 'HTML', reply_markup: new InlineKeyboard().text('Resume', 'resume') }));
    bot.callbackQuery('resume', async (ctx) => {
      await ctx.answerCallbackQuery({ text: 'Resumed' });
      await ctx.editMessageText('Running', { reply_markup: new InlineKeyboard() });
    });
    await bot.api.setMyCommands([{ command: 'pause', description: 'Pause deliveries' }]);
    const started = new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
    await started;
    try {
      await world.sandbox.telegramSay(id, 5, { text: '/pause' });
      const asked = await waitFor('the answer', async () => (await world.sandbox.telegramMessages(id, 5)).items.find((m) => m.from === 'bot'));
      expect(asked).toMatchObject({ text: 'Paused by you', buttons: [[{ text: 'Resume', data: 'resume' }]] });
      await world.sandbox.telegramPress(id, 5, { messageId: asked.messageId, data: 'resume' });
      const edited = await waitFor('the edit', async () => (await world.sandbox.telegramMessages(id, 5)).items.find((m) => m.text === 'Running'));
      expect(edited).toMatchObject({ messageId: asked.messageId, buttons: [], editedAt: expect.any(String) });
      expect((await world.sandbox.listTelegramBots()).items.find((b) => b.id === id)?.commands).toEqual([{ command: 'pause', description: 'Pause deliveries' }]);
    } finally {
      await bot.stop();
    }
    expect(world.server.app.service.telegram.get(id)?.poll).toBeNull();
  });

  it("a refusal is grammY's GrammyError with Telegram's code and description; a wrong token 401", async () => {
    const { token } = await world.sandbox.createTelegramBot({});
    const bot = grammyBot(token);
    const refused = await bot.api.sendMessage(1, 'nobody started me').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GrammyError);
    expect(refused).toMatchObject({ error_code: 400, description: 'Bad Request: chat not found' });
    const stranger = await grammyBot(`${token.split(':')[0]}:${'x'.repeat(35)}`).api.getMe().catch((e: unknown) => e);
    expect(stranger).toMatchObject({ error_code: 401, description: 'Unauthorized' });
  });

  it('a 429 fault is read by grammY as Telegram\'s, retry_after included', async () => {
    const { id, token } = await world.sandbox.createTelegramBot({});
    await world.sandbox.telegramSay(id, 1, { text: '/start' });
    await world.sandbox.addFault({ op: 'telegram.sendMessage', bot: id, status: 429, times: 1 });
    const refused = await grammyBot(token).api.sendMessage(1, 'hi').catch((e: unknown) => e);
    expect(refused).toMatchObject({ error_code: 429, parameters: { retry_after: 1 } });
    expect((await grammyBot(token).api.sendMessage(1, 'hi')).text).toBe('hi');
  });

  it('closing the server ends a waiting long poll at once', async () => {
    const server = await startTestServer();
    const { token, id } = await server.sandbox<{ token: string; id: number }>('POST', '/telegram/bots', {});
    const poll = fetch(`${server.url}/sandbox/telegram/bot${token}/getUpdates?timeout=600`).then(
      (res) => res.status,
      () => 'cut',
    );
    await waitFor('the long poll', () => server.app.service.telegram.get(id)?.poll !== null);
    await server.close();
    // Closed with the poll's 600 s still to run: the server did not wait for it.
    expect(await poll).toBeDefined();
    expect(server.app.service.telegram.get(id)?.poll).toBeNull();
  });
});
