/**
 * The sandbox page (`/sandbox`, issue "See the sandbox") in a real headless Chromium
 * (test/helpers/browser.ts) against a real seller-server: sign in; create a seller (admission
 * complete) and a card switched on without auto-delivery through the page; buy and pay from the
 * page; see the order appear and then change without a reload (the live stream); see its webhook
 * delivery with its attempts and resend it; advance the clock past the undelivered order's deadline
 * and see it refunded. The same walk in Russian. No request leaves the server, no console error;
 * a wrong token is refused; no page or stream answer carries a stock unit or a secret.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../server/sandbox-page/locales/en.json' with { type: 'json' };
import ru from '../../server/sandbox-page/locales/ru.json' with { type: 'json' };
import { SellerClient } from '../../sdk/client.ts';
import type { ChangeEventRead } from '../../sdk/sandbox-changes.ts';
import { SandboxClient } from '../../sdk/sandbox.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { CODE_CARD } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/wait.ts';

type Catalogue = typeof en;
const WAIT = { ms: 20_000 };
const SEEN = { timeout: 20_000 };

let server: TestServer;
let browser: Browser;
/** Every stream event of the whole run, read beside the page (for the secrets check). */
const streamed: ChangeEventRead[] = [];
const stopStream = new AbortController();
let streaming: Promise<void>;
/** Secrets the run made: keys, signing secrets, stock units. None may appear in what the page reads. */
const secrets: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const sb = new SandboxClient({ baseUrl: server.url, adminToken: server.adminToken });
  streaming = (async () => {
    for await (const ev of sb.changes({ signal: stopStream.signal })) streamed.push(ev);
  })().catch(() => undefined);
});

afterAll(async () => {
  stopStream.abort();
  await streaming;
  await browser?.close();
  await server?.close();
});

interface Watched {
  page: Page;
  requests: string[];
  problems: string[];
  /** The text of every answer the page read (the stream's excepted: it never ends; read beside). */
  answers: { url: string; text: string }[];
}

async function openPage(lang: 'en' | 'ru'): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const w: Watched = { page, requests: [], problems: [], answers: [] };
  page.on('request', (req) => w.requests.push(req.url()));
  page.on('pageerror', (err) => w.problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') w.problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.url().includes('/sandbox/v1/changes')) return;
    void res.text().then(
      (text) => w.answers.push({ url: `${res.request().method()} ${res.url()}`, text }),
      () => undefined,
    );
  });
  const res = await page.goto(`${server.url}/sandbox?lang=${lang}`);
  expect(res?.status()).toBe(200);
  return w;
}

const button = (scope: Page | ReturnType<Page['locator']>, name: string) => scope.getByRole('button', { name, exact: true });
const fill = (s: string, vars: Record<string, string | number>) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));

async function signIn(page: Page, c: Catalogue, token: string): Promise<void> {
  await page.getByLabel(c.signIn.token).fill(token);
  await button(page, c.signIn.submit).click();
}

/** The walk of the issue, in the catalogue's language; answers what it made. */
async function walk(w: Watched, c: Catalogue) {
  const { page } = w;
  await signIn(page, c, server.adminToken);
  await page.getByText(c.live.on, { exact: true }).waitFor(SEEN);

  // a seller, admission complete, its key shown once
  await button(page, c.sellers.create).click();
  const once = page.locator('[data-created]');
  await once.waitFor(SEEN);
  const key = (await once.locator('[data-key]').textContent())!;
  const sellerId = (await once.getAttribute('data-created'))!;
  secrets.push(key);
  expect(key.length).toBeGreaterThan(20);
  const sellerRow = page.locator(`tr[data-seller="${sellerId}"]`);
  await sellerRow.locator('td', { hasText: c.sellers.complete }).waitFor(SEEN);
  // the listing shows the key's prefix, never the key
  expect(await sellerRow.textContent()).not.toContain(key);

  // the seller (not the page) subscribes to its probe receiver and puts units in stock
  const seller = new SellerClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
  const { url: probeUrl } = await seller.hooks.createProbe();
  const set = await seller.hooks.set({ url: probeUrl, events: ['order.new', 'order.paid'] });
  if (set.secret) secrets.push(set.secret);

  // a card, then switched on without auto-delivery
  await button(page, c.cards.create).click();
  const cardRow = page.locator('tr[data-card]').first();
  await cardRow.waitFor(SEEN);
  const number = Number(await cardRow.getAttribute('data-card'));
  const unit = `UNIT-${sellerId}-SECRET-CODE`;
  secrets.push(unit);
  await seller.stock.refill(number, { items: [unit] });
  await button(cardRow, fill(c.cards.switchOnNamed, { number })).click();
  await waitFor('the card switched on', async () => (await cardRow.locator('[data-state]').textContent())?.startsWith(c.cards.on), WAIT);
  expect(await cardRow.locator('[data-state]').textContent()).not.toContain(c.cards.auto);
  // refilled with generated units (never shown): only the counts move
  await cardRow.getByLabel(fill(c.cards.refillCount, { number })).fill('2');
  await button(cardRow, fill(c.cards.refillNamed, { number })).click();
  await cardRow.getByText(fill(c.cards.stockLine, { free: 3, issued: 0 })).waitFor(SEEN);

  // buy: the order appears without a reload
  await button(cardRow, fill(c.cards.buyNamed, { number })).click();
  const orderRow = page.locator(`tr[data-order][data-number="${number}"]`);
  await orderRow.waitFor(SEEN);
  const orderId = (await orderRow.getAttribute('data-order'))!;
  const row = page.locator(`tr[data-order="${orderId}"]`);
  expect(await row.getAttribute('data-status')).toBe('awaiting_payment');
  expect(await row.locator('td.status').textContent()).toBe(c.status.awaiting_payment);
  expect(await row.textContent()).toContain(new Intl.NumberFormat(c === ru ? 'ru-RU' : 'en-GB', { style: 'currency', currency: 'RUB', currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0 }).format(1299));

  // its timeline, and Pay: the row changes without a reload
  await button(row, fill(c.orders.open, { id: orderId })).click();
  const timeline = page.locator(`[data-timeline="${orderId}"]`);
  // it opens beside its row, and takes the focus there (issue 35)
  await timeline.waitFor(SEEN);
  expect(await row.evaluate((el) => el.nextElementSibling?.querySelector('[data-timeline]')?.getAttribute('data-timeline'))).toBe(orderId);
  await waitFor('the focus in the timeline', () => page.evaluate(() => document.activeElement?.closest('[data-timeline]')?.getAttribute('data-timeline')), WAIT);
  expect(await page.evaluate(() => document.activeElement?.closest('[data-timeline]')?.getAttribute('data-timeline'))).toBe(orderId);
  await button(timeline, c.timeline.pay).click();
  await waitFor('the order paid', async () => (await row.getAttribute('data-status')) === 'awaiting_delivery', WAIT);
  expect(await row.locator('td.status').textContent()).toBe(c.status.awaiting_delivery);
  await waitFor('the timeline paid', async () => (await timeline.textContent())?.includes(c.timeline.paid), WAIT);

  // the webhook delivery with its attempts, then Resend
  const delivery = page.locator('tr[data-delivery][data-event="order.new"]');
  await delivery.waitFor(SEEN);
  const deliveryId = (await delivery.getAttribute('data-delivery'))!;
  const dRow = page.locator(`tr[data-delivery="${deliveryId}"]`);
  await waitFor('the first attempt', async () => (await dRow.getAttribute('data-attempts')) === '1', WAIT);
  await button(dRow, fill(c.hooks.show, { id: deliveryId })).click();
  const detail = page.locator(`tr[data-detail="${deliveryId}"]`);
  await detail.locator('tr[data-attempt="1"]').waitFor(SEEN);
  expect(await detail.locator('tr[data-attempt]').count()).toBe(1);
  expect(await detail.locator('pre.body').textContent()).toContain(deliveryId);
  await button(dRow, fill(c.hooks.resendNamed, { id: deliveryId })).click();
  await waitFor('the second attempt', async () => (await dRow.getAttribute('data-attempts')) === '2', WAIT);
  await waitFor('two attempts listed', async () => (await detail.locator('tr[data-attempt]').count()) === 2, WAIT);
  // the probe inbox got them
  await waitFor('the probe inbox', async () => (await page.locator('ol.inbox > li').count()) >= 3, WAIT);

  // the clock past the delivery deadline: refunded, and the advance says which orders moved
  await button(page, c.clock.by1d).click();
  await waitFor('the order refunded', async () => (await row.getAttribute('data-status')) === 'refunded', WAIT);
  expect(await row.locator('td.status').textContent()).toBe(c.status.refunded);
  await page.locator(`[data-moved-order="${orderId}"]`).waitFor(SEEN);
  // the seller's counts follow: one card switched on, one order
  await sellerRow.locator('td[data-counts="1 / 1 · 1"]').waitFor(SEEN);
  await waitFor('the timeline refunded', async () => (await timeline.textContent())?.includes(c.by.clock), WAIT);

  // faults: add one for this seller from the form, see it listed, clear it
  const faults = page.locator('section[aria-labelledby="faults-h"]');
  await faults.locator('select[name="seller"]').selectOption(sellerId);
  await faults.locator('select[name="status"]').selectOption('503');
  await faults.getByLabel(c.faults.times).fill('2');
  await button(faults, c.faults.add).click();
  const faultRow = faults.locator('tr[data-fault]').filter({ hasText: sellerId });
  await faultRow.waitFor(SEEN);
  expect(await faultRow.textContent()).toContain('* → 503');
  const faultId = (await faultRow.getAttribute('data-fault'))!;
  await button(faultRow, fill(c.faults.clear, { id: faultId })).click();
  await faultRow.waitFor({ state: 'detached', timeout: 20_000 });
  await page.getByText(fill(c.faults.cleared_one, { count: 1 })).waitFor(SEEN);

  return { sellerId, number, orderId, deliveryId };
}

/** The moves that apply (and only those) on a new order, a message, Cancel; the orders' filters. */
async function movesAndFilters(w: Watched, c: Catalogue, made: { sellerId: string; number: number; orderId: string }): Promise<void> {
  const { page } = w;
  const orders = page.locator('section[aria-labelledby="orders-h"]');
  const ids = () => orders.locator('tr[data-order]').evaluateAll((els) => els.map((e) => e.getAttribute('data-order')!));
  const statuses = new Map<string, string>();
  const before = new Set(await ids());
  await button(page.locator(`tr[data-card="${made.number}"]`), fill(c.cards.buyNamed, { number: made.number })).click();
  const id = await waitFor('the new order', async () => (await ids()).find((x) => !before.has(x)), WAIT);
  const row = orders.locator(`tr[data-order="${id}"]`);
  await button(row, fill(c.orders.open, { id })).click();
  const tl = page.locator(`[data-timeline="${id}"]`);
  await button(tl, c.timeline.pay).waitFor(SEEN);
  expect(await button(tl, c.timeline.cancel).count()).toBe(1);
  expect(await button(tl, c.timeline.accept).count()).toBe(0);
  expect(await button(tl, c.timeline.review).count()).toBe(0);
  await tl.getByLabel(c.timeline.messageText).fill('Where is my code?');
  await button(tl, c.timeline.sendMessage).click();
  await tl.getByText('Where is my code?').waitFor(SEEN);
  await button(tl, c.timeline.cancel).click();
  await waitFor('the order cancelled', async () => (await row.getAttribute('data-status')) === 'cancelled', WAIT);
  for (const [x, st] of await orders.locator('tr[data-order]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-order')!, e.getAttribute('data-status')!] as const))) statuses.set(x, st);
  await button(tl, c.timeline.pay).waitFor({ state: 'detached', timeout: 20_000 });

  // filters: by status, by seller
  const shown = (want: string[]) => waitFor(`orders ${want.join(', ')}`, async () => (await ids()).sort().join() === [...want].sort().join(), WAIT);
  const all = await ids();
  await orders.locator('select[name="status"]').selectOption('refunded');
  await shown(all.filter((x) => x === made.orderId || (x !== id && statuses.get(x) === 'refunded')));
  await orders.locator('select[name="status"]').selectOption('cancelled');
  await shown(all.filter((x) => x === id || (x !== made.orderId && statuses.get(x) === 'cancelled')));
  await orders.locator('select[name="status"]').selectOption('');
  await shown(all);
  await orders.locator('select[name="seller"]').selectOption(made.sellerId);
  await shown([id, made.orderId]);
  await orders.locator('select[name="seller"]').selectOption('');
  await shown(all);
}

function expectClean(w: Watched): void {
  const foreign = w.requests.filter((url) => !url.startsWith(`${server.url}/`));
  expect(foreign).toEqual([]);
  expect(w.problems).toEqual([]);
}

function expectNoSecret(w: Watched): void {
  // the seller's creation answers its key once, by design; nothing else may carry a secret
  const read = w.answers.filter((a) => !a.url.startsWith(`POST ${server.url}/sandbox/v1/sellers`)).map((a) => a.text);
  // what was read: the sellers, the timeline, the deliveries with their bodies and headers, the probe inbox, the hooks
  const parts = ['/sandbox/v1/sellers?', '/timeline', '/deliveries?', '/probe?', '/hooks'];
  expect(parts.filter((part) => !w.answers.some((a) => a.url.includes(part)))).toEqual([]);
  const texts = [...read, JSON.stringify(streamed)];
  for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
  expect(streamed.length).toBeGreaterThan(10);
}

describe('/sandbox in a browser', () => {
  it('names its controls as the issue says (English)', () => {
    expect([en.signIn.submit, en.sellers.create, en.cards.buy, en.timeline.pay, en.clock.advance, en.hooks.resend]).toEqual([
      'Sign in',
      'Create seller',
      'Buy',
      'Pay',
      'Advance clock',
      'Resend',
    ]);
  });

  it('refuses a wrong token and keeps the right one out of the URL and cookies', async () => {
    const w = await openPage('en');
    await signIn(w.page, en, 'not-the-token');
    await w.page.getByRole('alert').getByText(en.signIn.refused).waitFor(SEEN);
    expect(await w.page.getByLabel(en.signIn.token).isVisible()).toBe(true);
    // from the keyboard: type the token, Enter
    await w.page.getByLabel(en.signIn.token).fill('');
    await w.page.getByLabel(en.signIn.token).focus();
    await w.page.keyboard.type(server.adminToken);
    await w.page.keyboard.press('Enter');
    await w.page.getByText(en.live.on, { exact: true }).waitFor(SEEN);
    // and on: Tab reaches the buttons, Enter presses them
    await w.page.getByRole('button', { name: en.clock.by15m }).focus();
    await w.page.keyboard.press('Enter');
    await w.page.locator('[data-moved="0"]').waitFor(SEEN);
    expect(w.page.url()).not.toContain(server.adminToken);
    expect(await w.page.context().cookies()).toEqual([]);
    expect(w.requests.some((url) => url.includes(server.adminToken))).toBe(false);
    // the tab keeps it: a reload stays signed in
    await w.page.reload();
    await w.page.getByText(en.live.on, { exact: true }).waitFor(SEEN);
    await button(w.page, en.signIn.signOut).click();
    expect(await w.page.evaluate(() => sessionStorage.length)).toBe(0);
    await w.page.close();
  });

  it('shows the clock lease of a scenario run; its buttons are refused in the page\'s words, and move the clock with "Move it anyway"', async () => {
    const sb = new SandboxClient({ baseUrl: server.url, adminToken: server.adminToken });
    const lease = await sb.leaseClock({ holder: 'the day run', ttlSeconds: 120 });
    try {
      const w = await openPage('en');
      await signIn(w.page, en, server.adminToken);
      await w.page.getByText(en.live.on, { exact: true }).waitFor(SEEN);
      const shown = w.page.locator('[data-lease="the day run"]');
      await shown.waitFor(SEEN);
      expect(await shown.textContent()).toContain('A scenario run (the day run) holds the clock until');
      const before = (await sb.clock()).now;
      await button(w.page, en.clock.by1h).click();
      await w.page.getByRole('status').getByText('The clock is held by a scenario run (the day run) until', { exact: false }).waitFor(SEEN);
      expect(Date.parse((await sb.clock()).now) - Date.parse(before)).toBeLessThan(3_600_000);
      await w.page.getByLabel(en.clock.force).check();
      await button(w.page, en.clock.by1h).click();
      await w.page.locator('[data-moved]').waitFor(SEEN);
      expect(Date.parse((await sb.clock()).now) - Date.parse(before)).toBeGreaterThanOrEqual(3_600_000);
      expect(w.problems.filter((p) => !p.includes('409'))).toEqual([]);
      await w.page.close();
    } finally {
      await sb.releaseClock(lease.id);
    }
  }, 60_000);

  it('walks the sandbox in English: seller, card, buy, pay, live changes, webhook resend, the clock refunds', async () => {
    const w = await openPage('en');
    expect(await w.page.locator('html').getAttribute('lang')).toBe('en');
    const made = await walk(w, en);
    // each row's buttons are named for their row: no bare "Buy", "Switch off", "Refill" or "Resend" (issue 35)
    for (const bare of [en.cards.buy, en.cards.switchOff, en.cards.refill, en.hooks.resend]) expect(await button(w.page, bare).count(), bare).toBe(0);
    expect(await button(w.page, fill(en.cards.switchOffNamed, { number: made.number })).count()).toBe(1);
    // SANDBOX_PAGE_SHOT=docs/sandbox-page.png makes the README's picture; otherwise a scratch file
    const shot = process.env.SANDBOX_PAGE_SHOT ?? path.join(mkdtempSync(path.join(tmpdir(), 'sandbox-shot-')), 'page.png');
    await w.page.setViewportSize({ width: 1280, height: 1500 });
    await w.page.evaluate(() => window.scrollTo(0, 0));
    await w.page.screenshot({ path: shot });
    expect(readFileSync(shot).subarray(1, 4).toString('latin1')).toBe('PNG');
    if (!process.env.SANDBOX_PAGE_SHOT) rmSync(path.dirname(shot), { recursive: true, force: true });
    await movesAndFilters(w, en, made);
    expectClean(w);
    expectNoSecret(w);
    await w.page.close();
  }, 120_000);

  it('shows faults set elsewhere, their hits and their end, live and without a clock move', async () => {
    const w = await openPage('en');
    await signIn(w.page, en, server.adminToken);
    await w.page.getByText(en.live.on, { exact: true }).waitFor(SEEN);
    const sb = new SandboxClient({ baseUrl: server.url, adminToken: server.adminToken });
    const shop = await server.newSeller();
    const seller = new SellerClient({ apiKey: shop.apiKey, baseUrl: server.url, maxRetries: 0 });
    const fault = await sb.addFault({ sellerId: shop.sellerId, op: 'orders.list', status: 500, times: 2 });
    const row = w.page.locator(`section[aria-labelledby="faults-h"] tr[data-fault="${fault.id}"]`);
    await row.waitFor(SEEN);
    expect(await row.getAttribute('data-hits')).toBe('0');
    await expect(seller.orders.list()).rejects.toMatchObject({ status: 500 });
    await waitFor('its hit shown', async () => (await row.getAttribute('data-hits')) === '1', WAIT);
    await expect(seller.orders.list()).rejects.toMatchObject({ status: 500 });
    // Used up, it is listed as ended, with its hits: the proof that it fired.
    await waitFor('its end shown', async () => (await row.getAttribute('data-ended')) !== null && (await row.getAttribute('data-hits')) === '2', WAIT);
    expect(await row.textContent()).toContain('ended');
    expectClean(w);
    await w.page.close();
  });

  it('walks it in Russian', async () => {
    const w = await openPage('ru');
    expect(await w.page.locator('html').getAttribute('lang')).toBe('ru');
    expect(await w.page.title()).toContain('Песочница');
    const made = await walk(w, ru);
    // values in words, never raw (issue 35): the subscription's state, the seller's mode, the card's kind
    expect(await w.page.locator('section[aria-labelledby="hooks-h"] ul.facts').textContent()).toContain(ru.hooks.statuses.active);
    expect(await w.page.locator(`tr[data-seller="${made.sellerId}"] [data-mode]`).textContent()).toContain(ru.sellers.modes.live);
    expect(await w.page.locator(`tr[data-card="${made.number}"] [data-kind]`).textContent()).toBe(`${ru.cards.productTypes.code}, ${ru.cards.deliveryMethods.code}`);
    expectClean(w);
    expectNoSecret(w);
    await w.page.close();
  }, 120_000);

  it('says why the sign-in is back when a restarted server no longer takes the token', async () => {
    const first = await startTestServer({ adminToken: 'first-admin-token' });
    const port = Number(new URL(first.url).port);
    const page = await browser.newPage();
    let second: TestServer | undefined;
    try {
      await page.goto(`${first.url}/sandbox?lang=en`);
      await signIn(page, en, 'first-admin-token');
      await page.getByText(en.live.on, { exact: true }).waitFor(SEEN);
      await first.close();
      second = await startTestServer({ port, adminToken: 'second-admin-token' }); // a --memory restart: a new token
      await page.locator('[data-why="expired"]').waitFor({ timeout: 40_000 });
      expect(await page.getByRole('alert').textContent()).toBe(en.signIn.expired);
      expect(await page.getByLabel(en.signIn.token).isVisible()).toBe(true);
    } finally {
      await page.close();
      await second?.close();
    }
  }, 60_000);

  it("pages on past a seller's first 100 orders", async () => {
    const sb = new SandboxClient({ baseUrl: server.url, adminToken: server.adminToken });
    const shop = await server.newSeller();
    const card = await sb.createCard(shop.sellerId, CODE_CARD);
    await sb.setCardState(card.number, { active: true });
    for (let i = 0; i < 102; i++) await sb.createOrder({ number: card.number });
    const w = await openPage('en');
    await signIn(w.page, en, server.adminToken);
    await w.page.getByText(en.live.on, { exact: true }).waitFor(SEEN);
    const orders = w.page.locator('section[aria-labelledby="orders-h"]');
    await orders.locator('select[name="seller"]').selectOption(shop.sellerId);
    const shown = () => orders.locator(`tr[data-order][data-number="${card.number}"]`).count();
    await waitFor('the first page', async () => (await shown()) === 100, WAIT);
    await button(orders, fill(en.orders.more, { id: shop.sellerId })).click();
    await waitFor('all 102 orders', async () => (await shown()) === 102, WAIT);
    expect(await button(orders, fill(en.orders.more, { id: shop.sellerId })).count()).toBe(0);
    expectClean(w);
    await w.page.close();
  }, 60_000);

  it("pages on past a seller's first 100 webhook deliveries", async () => {
    const sb = new SandboxClient({ baseUrl: server.url, adminToken: server.adminToken });
    const shop = await server.newSeller();
    const seller = new SellerClient({ apiKey: shop.apiKey, baseUrl: server.url, maxRetries: 0 });
    const { url } = await seller.hooks.createProbe();
    await seller.hooks.set({ url, events: ['order.new'] });
    const card = await sb.createCard(shop.sellerId, CODE_CARD);
    await sb.setCardState(card.number, { active: true });
    for (let i = 0; i < 101; i++) await sb.createOrder({ number: card.number });
    // every order.new is one delivery; the oldest is the 101st the page reads
    const all = await waitFor('101 deliveries', async () => {
      const first = await sb.sellerDeliveries(shop.sellerId, { limit: 100 });
      const rest = first.nextCursor ? await sb.sellerDeliveries(shop.sellerId, { limit: 100, cursor: first.nextCursor }) : { items: [] };
      const ids = [...first.items, ...rest.items].map((d) => d.id);
      return ids.length === 101 ? ids : undefined;
    }, WAIT);
    const oldest = all[100]!;
    const w = await openPage('en');
    await signIn(w.page, en, server.adminToken);
    await w.page.getByText(en.live.on, { exact: true }).waitFor(SEEN);
    await button(w.page, fill(en.sellers.open, { id: shop.sellerId })).click();
    const hooks = w.page.locator('section[aria-labelledby="hooks-h"]');
    const shown = () => hooks.locator('tr[data-delivery]').count();
    await waitFor('the first page', async () => (await shown()) === 100, WAIT);
    expect(await hooks.locator(`tr[data-delivery="${oldest}"]`).count()).toBe(0);
    await button(hooks, fill(en.hooks.more, { id: shop.sellerId })).click();
    await hooks.locator(`tr[data-delivery="${oldest}"]`).waitFor(SEEN);
    expect(await shown()).toBe(101);
    expect(await button(hooks, fill(en.hooks.more, { id: shop.sellerId })).count()).toBe(0);
    expectClean(w);
    await w.page.close();
  }, 90_000);
});
