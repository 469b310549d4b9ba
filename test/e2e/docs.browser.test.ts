/**
 * The `/docs` reference page in a real headless Chromium (test/helpers/browser.ts, driven by playwright-core):
 * find an operation from the sidebar, read its path and refusal kinds, filter the sidebar, and
 * check the page stays offline (no request beyond itself, no CSP violation, no script error).
 *
 * A browser is required, not optional: when none is found this file FAILS with a message naming the
 * three ways to have one (test/helpers/browser-finder.ts); it never skips.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations } from '../../sdk/contract/index.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let browser: Browser;
let page: Page;
let shots: string;
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  shots = mkdtempSync(path.join(tmpdir(), 'docs-shot-'));
  server = await startTestServer();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (req) => requests.push(req.url()));
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  const res = await page.goto(`${server.url}/docs`, { waitUntil: 'load' });
  expect(res?.status()).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (shots) rmSync(shots, { recursive: true, force: true });
});

describe('/docs in a browser', () => {
  it('lists every operation in the sidebar, by section', async () => {
    expect(await page.title()).toContain('Seller API');
    const ids = await page.locator('nav a[data-target^="op-"] code').allTextContents();
    expect(ids.sort()).toEqual(Object.keys(apiOperations).sort());
    const sections = await page.locator('nav .group h2').allTextContents();
    expect(sections).toEqual(expect.arrayContaining(['Orders', 'Cards', 'Webhook events', 'Schemas']));
  });

  it('finds orders.deliver from the sidebar: path, scope and refusal kinds', async () => {
    await page.locator('nav a[data-target="op-orders.deliver"]').click();
    await page.waitForFunction(() => location.hash === '#op-orders.deliver');

    const article = page.locator('article[id="op-orders.deliver"]');
    expect(await article.locator('h3 .path').textContent()).toBe('/api/v1/orders/{id}/deliver');
    expect(await article.locator('h3 .m').textContent()).toBe('POST');
    const text = await article.textContent();
    expect(text).toContain('Scope orders');
    expect(text).toContain('Idempotency-Key');
    expect(await article.locator('[data-status="409"] code.kind').allTextContents()).toEqual(['not_found', 'state_moved', 'need_next_charge']);
    expect(await article.locator('.resp').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '409', '422', '429', '500']),
    );
    // the request body names its fields
    expect(await article.locator('table.fields code').allTextContents()).toEqual(expect.arrayContaining(['nextChargeDay', 'note']));

    // scrolled into view, marked as the current entry
    const top = await article.evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(100);
    expect(await page.locator('nav a.current').getAttribute('data-target')).toBe('op-orders.deliver');

    const file = path.join(shots, 'orders-deliver.png');
    await page.screenshot({ path: file });
    const png = readFileSync(file);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.length).toBeGreaterThan(10_000);
  });

  it('filters the sidebar as you type', async () => {
    await page.locator('#filter').fill('deliver');
    const visible = await page.locator('nav a[data-target^="op-"]:visible code').allTextContents();
    expect(visible).toContain('orders.deliver');
    expect(visible).not.toContain('orders.list');
    await page.locator('#filter').fill('');
    expect(await page.locator('nav a[data-target="op-orders.list"]').isVisible()).toBe(true);
  });

  it('follows a schema link to the shared schema', async () => {
    await page.locator('article[id="op-orders.get"] a[href="#schema-OrderWithMessages"]').first().click();
    await page.waitForFunction(() => location.hash === '#schema-OrderWithMessages');
    expect(await page.locator('article[id="schema-OrderWithMessages"] table.fields code').allTextContents()).toEqual(
      expect.arrayContaining(['id', 'status', 'messages']),
    );
  });

  it('stays offline: no request beyond the page, no CSP violation, no script error', () => {
    const foreign = requests.filter((url) => !url.startsWith(`${server.url}/`));
    expect(foreign).toEqual([]);
    expect(requests.filter((url) => !url.endsWith('/favicon.ico'))).toEqual([`${server.url}/docs`]);
    expect(problems).toEqual([]);
  });
});
