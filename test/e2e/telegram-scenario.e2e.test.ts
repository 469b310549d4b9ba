/**
 * Scenario steps for the seller's phone (issue #36) through the SDK's `runScenario` and `seller
 * sandbox run`, against a real seller-server: `telegram: {as}` makes a bot, `say` and `press` play
 * the person, `expect: {telegram, chat, text}` waits for the bot's message, a `fault:` step may name
 * a bot; a stand-in for the autopilot (grammY, long polling the emulator) answers. Malformed steps
 * are refused before anything runs, naming their paths.
 */
import { Bot, InlineKeyboard } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario, ScenarioFailedError, ScenarioInvalidError } from '../../sdk/scenario/index.ts';
import { ensureBuilt, runSeller } from '../helpers/cli.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

let server: TestServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer({ rateLimit: NO_RATE_LIMIT });
}, 180_000);

afterAll(async () => {
  const closing = server?.close();
  server?.app.server.closeAllConnections();
  await closing;
});

const sdkOptions = () => ({ baseUrl: server.url, adminToken: server.adminToken, strict: true });

/**
 * A stand-in for the autopilot: once the scenario has made the bot named `username`, it polls it;
 * `/pause` is answered with a Resume button, the press with an edit and `Running`.
 */
async function standIn(username: string): Promise<Bot> {
  const made = await waitFor('the scenario to make its bot', () => server.app.service.telegram.list().find((b) => b.username === username));
  const bot = new Bot(made.token, { client: { apiRoot: `${server.url}/sandbox/telegram` } });
  bot.command('pause', (ctx) => ctx.reply('Paused: ord_x waits', { reply_markup: new InlineKeyboard().text('Resume', 'resume') }));
  bot.callbackQuery('resume', async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.reply('Running');
  });
  await new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
  return bot;
}

const scenario = (username: string) => `name: the phone
steps:
  - telegram: { as: phone, username: ${username} }
  - telegram: { bot: phone, chat: 1, say: /pause }
  - expect: { telegram: phone, chat: 1, text: "ord_", button: resume }
  - telegram: { bot: phone, chat: 1, press: resume }
  - expect: { telegram: phone, chat: 1, text: Running }
  - expect: { telegram: phone, chat: 1, from: user, count: 1 }
  - fault: { as: slow, bot: phone, op: telegram.sendMessage, status: 429, times: 1 }
`;

describe('telegram steps', () => {
  it('runScenario: a bot made, the person says and presses, the bot\'s answers expected; the result names the bot', async () => {
    const [result, bot] = await Promise.all([runScenario(scenario('scen_sdk_bot'), sdkOptions()), standIn('scen_sdk_bot')]);
    await bot.stop();
    expect(result.stepsRun).toBe(7);
    expect(result.results.phone).toMatchObject({ kind: 'bot', id: expect.any(Number), username: 'scen_sdk_bot', token: expect.stringMatching(/^\d+:/) });
    expect(result.results.slow).toMatchObject({ kind: 'fault', seller: 'phone' });
  });

  it('seller sandbox run: exit 0 and the bot in the table (its username, never its token)', async () => {
    const file = scenario('scen_cli_bot');
    const [run, bot] = await Promise.all([
      runSeller(['sandbox', 'run', '-'], { env: { SERVICE_BASE_URL: server.url, SERVICE_ADMIN_TOKEN: server.adminToken, LANG: 'C' }, input: file }),
      standIn('scen_cli_bot'),
    ]);
    await bot.stop();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Telegram bot\s+phone\s+\d+\s+@scen_cli_bot/);
    const token = server.app.service.telegram.list().find((b) => b.username === 'scen_cli_bot')!.token;
    expect(run.stdout + run.stderr).not.toContain(token.split(':')[1]);
  });

  it('an expectation that does not hold names the chat and the last message; a press of no button fails the step', async () => {
    const failed = await runScenario(
      `steps:
  - telegram: { as: phone }
  - telegram: { bot: phone, chat: 3, say: hello }
  - expect: { telegram: phone, chat: 3, from: user, text: bye, within: 0s }
`,
      sdkOptions(),
    ).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ScenarioFailedError);
    expect((failed as ScenarioFailedError).failure).toMatchObject({ kind: 'expectation', subject: { kind: 'telegram', name: 'phone', id: 3 }, found: expect.stringContaining('"hello"') });
    const pressed = await runScenario(`steps:\n  - telegram: { as: phone }\n  - telegram: { bot: phone, chat: 3, say: hi }\n  - telegram: { bot: phone, chat: 3, press: nothing }\n`, sdkOptions()).catch((e: unknown) => e);
    expect((pressed as ScenarioFailedError).failure).toMatchObject({ kind: 'error', code: 'not_found' });
    expect((pressed as ScenarioFailedError).step.number).toBe(3);
  });

  it('malformed telegram steps are refused before anything runs, each by its path', async () => {
    const before = server.app.service.telegram.list().length;
    const invalid = await runScenario(
      `steps:
  - telegram: { as: phone, chat: 1 }
  - telegram: { bot: phone, say: hi }
  - telegram: { bot: phone, chat: 1, say: hi, press: x }
  - telegram: { bot: nobody, chat: 1, say: hi }
  - expect: { telegram: phone, chat: 1, txt: x }
  - fault: { bot: phone, op: orders.list, status: 500 }
`,
      sdkOptions(),
    ).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ScenarioInvalidError);
    expect((invalid as ScenarioInvalidError).issues.map((i) => i.path)).toEqual([
      'steps[0].telegram.chat',
      'steps[1].telegram.chat',
      'steps[2].telegram.say',
      'steps[3].telegram.bot',
      'steps[4].expect.txt',
      'steps[5].fault.bot',
    ]);
    expect(server.app.service.telegram.list()).toHaveLength(before);
  });
});
