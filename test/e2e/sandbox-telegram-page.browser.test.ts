/**
 * The sandbox page's phone panel (issue #36) in a real headless Chromium against a real
 * seller-server: create a bot from the page (its token shown once), write as the person, see the
 * bot's answer (a stand-in for the autopilot through the Bot API) appear live with its buttons,
 * press one and see the bot's edit, in English and in Russian. No request leaves the server, no
 * console error, and no answer the page read after the creation carries the token. A link button
 * (the autopilot's Timeline, `notify.telegram.orderUrl` pointed at this page) shows as a link, and
 * the page it opens (`/sandbox?order=ID`) shows that order's timeline once signed in.
 * TELEGRAM_PANEL_SHOT=docs/sandbox-telegram.png makes the README's picture of the panel.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../server/sandbox-page/locales/en.json' with { type: 'json' };
import ru from '../../server/sandbox-page/locales/ru.json' with { type: 'json' };
import { SandboxClient } from '../../sdk/sandbox.ts';
import { SellerClient } from '../../sdk/client.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { newCard } from '../helpers/seller-world.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

type Catalogue = typeof en;
const SEEN = { timeout: 20_000 };

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const button = (scope: Page | ReturnType<Page['locator']>, name: string) => scope.getByRole('button', { name, exact: true });
const fill = (s: string, vars: Record<string, string | number>) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));

/** A Bot API call of the stand-in autopilot. */
async function botApi(token: string, method: string, body: unknown = {}): Promise<any> {
  const res = await fetch(`${server.url}/sandbox/telegram/bot${token}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return ((await res.json()) as { result: unknown }).result;
}

async function phoneWalk(lang: 'en' | 'ru', c: Catalogue, shot?: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  const problems: string[] = [];
  const answers: { url: string; text: string }[] = [];
  page.on('request', (req) => requests.push(req.url()));
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.url().includes('/sandbox/v1/changes')) return;
    void res.text().then((text) => answers.push({ url: `${res.request().method()} ${res.url()}`, text }), () => undefined);
  });
  await page.goto(`${server.url}/sandbox?lang=${lang}`);
  await page.getByLabel(c.signIn.token).fill(server.adminToken);
  await button(page, c.signIn.submit).click();
  await page.getByText(c.live.on, { exact: true }).waitFor(SEEN);

  // a bot from the page, its token shown once
  await button(page, c.telegram.create).click();
  const once = page.locator('[data-bot-created]');
  await once.waitFor(SEEN);
  const token = (await once.locator('[data-token]').textContent())!;
  const botId = Number(await once.getAttribute('data-bot-created'));
  expect(token).toMatch(new RegExp(`^${botId}:`));
  await botApi(token, 'setMyCommands', { commands: [{ command: 'status', description: 'Status' }, { command: 'pause', description: 'Pause' }] });

  // the person opens chat 1 and writes /status
  const bot = page.locator(`[data-bot="${botId}"]`);
  await bot.getByText('/pause').waitFor(SEEN);
  await button(bot, c.telegram.openChat).click();
  await bot.getByLabel(fill(c.telegram.write, { chat: 1 })).fill('/status');
  await button(bot, c.telegram.send).click();
  const chat = bot.locator('[data-chat="1"]');
  await chat.locator('li.from-user', { hasText: '/status' }).waitFor(SEEN);

  // the stand-in autopilot reads the update and answers with buttons: it appears without a reload
  const [update] = await botApi(token, 'getUpdates');
  expect(update.message.text).toBe('/status');
  const sent = await botApi(token, 'sendMessage', {
    chat_id: 1,
    text: '<b>Running</b>\nOrder ord_demo paid, 1 299 ₽: no rule delivers it',
    parse_mode: 'HTML',
    reply_markup: { inline_keyboard: [[{ text: 'Deliver', callback_data: 'deliver:ord_demo' }, { text: 'Pause', callback_data: 'pause' }]] },
    reply_parameters: { message_id: update.message.message_id },
  });
  const answer = chat.locator(`li[data-message="${sent.message_id}"]`);
  await answer.getByText('Order ord_demo paid').waitFor(SEEN);
  expect(await answer.getAttribute('class')).toBe('from-bot');
  // a reply quotes the message it answers, as Telegram shows it
  const quoted = answer.locator('blockquote.reply');
  expect(await quoted.textContent()).toBe('/status');
  expect(await quoted.getAttribute('title')).toBe(fill(c.telegram.replyTo, { id: update.message.message_id }));

  // a button pressed on the page is the bot's callback_query; the bot's edit shows
  if (shot) {
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.locator('section[aria-labelledby="telegram-h"]').screenshot({ path: shot });
    expect(readFileSync(shot).subarray(1, 4).toString('latin1')).toBe('PNG');
  }
  await answer.locator('[data-press="deliver:ord_demo"]').click();
  await page.getByText(fill(c.telegram.pressed, { data: 'deliver:ord_demo' })).waitFor(SEEN);
  const pressed = await waitFor('the press', async () => (await botApi(token, 'getUpdates', { offset: update.update_id + 1 })).find((u: any) => u.callback_query));
  expect(pressed.callback_query).toMatchObject({ data: 'deliver:ord_demo', message: { message_id: sent.message_id } });
  await botApi(token, 'answerCallbackQuery', { callback_query_id: pressed.callback_query.id });
  await botApi(token, 'editMessageText', { chat_id: 1, message_id: sent.message_id, text: 'Send the text for ord_demo' });
  await answer.getByText('Send the text for ord_demo').waitFor(SEEN);
  await answer.getByText(c.telegram.edited, { exact: false }).waitFor(SEEN);
  expect(await answer.locator('[data-press]').count()).toBe(0);

  expect(requests.filter((url) => !url.startsWith(`${server.url}/`))).toEqual([]);
  expect(problems).toEqual([]);
  const read = answers.filter((a) => !a.url.startsWith(`POST ${server.url}/sandbox/v1/telegram/bots`)).map((a) => a.text);
  expect(read.filter((text) => text.includes(token.split(':')[1]!))).toEqual([]);
  await page.close();
}

describe('the phone panel', () => {
  it("shows a Timeline link button as a link; the page it opens shows the order's timeline after sign-in", async () => {
    const key = await server.newSeller();
    const card = await newCard(new SellerClient({ apiKey: key.apiKey, baseUrl: server.url }));
    const sb = new SandboxClient({ baseUrl: server.url, adminToken: server.adminToken });
    const order = await sb.createOrder({ number: card });
    await sb.pay(order.id);
    const bot = await sb.createTelegramBot({});
    await sb.telegramSay(bot.id, 1, { text: '/start' });
    const link = `${server.url}/sandbox?order=${order.id}`;
    await botApi(bot.token, 'sendMessage', { chat_id: 1, text: `${order.id} is paid`, reply_markup: { inline_keyboard: [[{ text: 'Reply', callback_data: `reply:${order.id}` }, { text: 'Timeline', url: link }]] } });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    await page.goto(`${server.url}/sandbox?lang=en`);
    await page.getByLabel(en.signIn.token).fill(server.adminToken);
    await button(page, en.signIn.submit).click();
    const panel = page.locator(`[data-bot="${bot.id}"]`);
    await button(panel, en.telegram.openChat).click();
    const shown = panel.locator('[data-chat="1"]').getByRole('link', { name: 'Timeline', exact: true });
    await shown.waitFor(SEEN);
    expect(await shown.getAttribute('href')).toBe(link);
    expect(await panel.locator('[data-chat="1"] [data-press]').count()).toBe(1);
    await page.close();

    // the link opened in a new tab: signed out there (the token is the tab's), then the timeline at once
    const opened = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    opened.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    await opened.goto(link);
    await opened.getByLabel(en.signIn.token).fill(server.adminToken);
    await button(opened, en.signIn.submit).click();
    const timeline = opened.locator(`[data-timeline="${order.id}"]`);
    await timeline.waitFor(SEEN);
    expect(await timeline.textContent()).toContain(fill(en.timeline.heading, { id: order.id }));
    await button(timeline, en.timeline.close).click();
    await timeline.waitFor({ state: 'detached', timeout: 20_000 });
    expect(new URL(opened.url()).searchParams.get('order')).toBeNull();
    expect(problems).toEqual([]);
    await opened.close();
  }, 120_000);

  it('in English: a bot, the person writes, the bot answers live, a button pressed, the edit shown', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'telegram-shot-'));
    try {
      // TELEGRAM_PANEL_SHOT=docs/sandbox-telegram.png makes the README's picture; otherwise a scratch file
      await phoneWalk('en', en, process.env.TELEGRAM_PANEL_SHOT ?? path.join(scratch, 'panel.png'));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);

  it('in Russian', async () => {
    await phoneWalk('ru', ru);
  }, 120_000);
});
