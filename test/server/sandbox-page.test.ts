/**
 * `GET /sandbox` as served (the browser walk is test/e2e/sandbox-page.browser.test.ts): its
 * language by `?lang`, else Accept-Language; a Content-Security-Policy that lets it reach this server
 * only; within its weight budget; nothing secret in it; its catalogues a pair (same keys, the plural
 * forms each language needs, the same placeholders); the page's formats (roubles, times with zone).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../server/sandbox-page/locales/en.json' with { type: 'json' };
import ru from '../../server/sandbox-page/locales/ru.json' with { type: 'json' };
import { PAGE_BUDGET_GZIP } from '../../server/sandbox-page/bundle.derived.ts';
import { money, t, time, useLanguage, valueName } from '../../server/sandbox-page/i18n.ts';
import { problemLine } from '../../server/sandbox-page/problem-words.ts';
import { reconnectDelayMs } from '../../server/sandbox-page/live.ts';
import { RejectedError } from '../../sdk/errors.ts';
import { DELIVERY_METHODS, ERROR_STATUS, KEY_MODES, PRODUCT_TYPES } from '../../sdk/contract/constants.ts';
import { Hooks } from '../../sdk/contract/hooks.ts';
import { HOOK_CHAOS } from '../../sdk/contract/routes/sandbox-faults.ts';
import { apiRoutes, sandboxRoutes } from '../../sdk/contract/routes/index.ts';
import { pageLanguageOf } from '../../server/sandbox-page-route.ts';
import { ADMIN, makeApp } from './helpers.ts';
import { ORDER_ACTIONS, Mover } from '../../sdk/contract/sandbox-inspect.ts';
import { ORDER_STATUSES } from '../../sdk/contract/enums.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp();
});
afterAll(async () => {
  await app.close();
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('GET /sandbox', () => {
  it('serves the page in the language asked: ?lang first, then Accept-Language, else English', async () => {
    const lang = async (url: string, headers?: Record<string, string>) => /<html lang="(\w+)"/.exec((await get(url, headers)).body)?.[1];
    expect(await lang('/sandbox')).toBe('en');
    expect(await lang('/sandbox?lang=ru')).toBe('ru');
    expect(await lang('/sandbox', { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' })).toBe('ru');
    expect(await lang('/sandbox?lang=en', { 'accept-language': 'ru-RU' })).toBe('en');
    expect(await lang('/sandbox', { 'accept-language': 'de-DE, en;q=0.5, ru;q=0.7' })).toBe('ru');
    expect(await lang('/sandbox?lang=de', { 'accept-language': 'fr' })).toBe('en');
    expect(pageLanguageOf({ query: {}, headers: { 'accept-language': 'ru;q=0, en' } })).toBe('en');
  });

  it('lets the page reach this server only: script and style by hash, no other source', async () => {
    const res = await get('/sandbox');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp).not.toContain('unsafe');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // no address beyond the page's own: no CDN, no font
    expect(res.body).not.toMatch(/(?:src|href)=["']?https?:/);
    expect(res.body).not.toMatch(/@import|url\(\s*["']?https?:/);
  });

  it(`weighs at most ${PAGE_BUDGET_GZIP / 1024} KiB gzip, all in`, async () => {
    for (const lang of ['en', 'ru']) {
      const body = (await get(`/sandbox?lang=${lang}`)).rawPayload;
      expect(gzipSync(body).length).toBeLessThanOrEqual(PAGE_BUDGET_GZIP);
    }
  });

  it('holds nothing secret: the same page for everyone, no token in it', async () => {
    const a = (await get('/sandbox')).body;
    expect((await get('/sandbox', { authorization: `Bearer ${ADMIN}` })).body).toBe(a);
    expect(a).not.toContain(ADMIN);
  });

  it("the page's reads answer 401 without the admin token, as the sandbox does", async () => {
    for (const url of ['/sandbox/v1/sellers', '/sandbox/v1/changes', '/sandbox/v1/clock']) {
      expect((await get(url)).statusCode).toBe(401);
      expect((await get(url, { authorization: 'Bearer wrong' })).statusCode).toBe(401);
    }
  });
});

type Tree = { [key: string]: string | Tree };
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of leaves(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}
const PLURAL = /_(zero|one|two|few|many|other)$/;
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe("the page's catalogues", () => {
  const e = leaves(en as Tree);
  const r = leaves(ru as Tree);
  const base = (keys: Map<string, string>) => new Set([...keys.keys()].map((k) => k.replace(PLURAL, '')));

  it('name the same texts in English and Russian', () => {
    expect([...base(r)].sort()).toEqual([...base(e)].sort());
  });

  it('give every plural the forms its language needs (Intl.PluralRules)', () => {
    for (const [keys, locale] of [
      [e, 'en'],
      [r, 'ru'],
    ] as const) {
      const forms = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      const plurals = new Set([...keys.keys()].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
      for (const p of plurals) for (const form of forms) expect(keys.has(`${p}_${form}`), `${locale} ${p}_${form}`).toBe(true);
    }
  });

  it('hold every text the page names', () => {
    const dir = path.join(import.meta.dirname, '../../server/sandbox-page');
    const used = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      for (const m of readFileSync(path.join(dir, file), 'utf8').matchAll(/\bt\(\s*'([\w.]+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((key) => !base(e).has(key))).toEqual([]);
  });

  it("have words for every order status, move and mover of the contract (no raw value on the page)", () => {
    const dynamic = [
      ...ORDER_STATUSES.map((s) => `status.${s}`),
      ...ORDER_ACTIONS.map((a) => `action.${a}`),
      ...Mover.options.map((m) => `by.${m}`),
    ];
    expect(dynamic.filter((key) => !e.has(key) || !r.has(key))).toEqual([]);
  });

  it('have words for every value the page shows and every refusal it can meet (issue 35: no English, no raw value)', () => {
    const refusals = new Set([...apiRoutes, ...sandboxRoutes].flatMap((route) => route.refusals ?? []));
    const dynamic = [
      ...PRODUCT_TYPES.map((p) => `cards.productTypes.${p}`),
      ...DELIVERY_METHODS.map((m) => `cards.deliveryMethods.${m}`),
      ...KEY_MODES.map((m) => `sellers.modes.${m}`),
      ...Hooks.shape.status.options.map((s) => `hooks.statuses.${s}`),
      ...HOOK_CHAOS.map((c) => `faults.chaos.${c}`),
      ...['seller', 'buyer', 'marketplace'].map((f) => `timeline.from.${f}`),
      ...['seller', 'buyer'].map((o) => `timeline.vaultOf.${o}`),
      ...Object.keys(ERROR_STATUS).map((code) => `problem.codes.${code}`),
      ...[...refusals].map((kind) => `problem.kinds.${kind}`),
    ];
    expect(refusals.size).toBeGreaterThan(20);
    expect(dynamic.filter((key) => !e.has(key) || !r.has(key))).toEqual([]);
  });

  it('say a refusal in the words of the page, its code and kind after them, the English only for what it does not know', () => {
    useLanguage('ru');
    const moved = new RejectedError({ status: 409, code: 'rejected', detail: { message: 'the subscription is off' }, refusal: { kind: 'state_moved', reason: 'hooks_off' } });
    expect(problemLine(moved)).toBe(`Отказ: ${ru.problem.kinds.state_moved} (rejected: state_moved)`);
    const newer = new RejectedError({ status: 409, code: 'rejected', detail: { message: 'a newer rule' }, refusal: { kind: 'newer_kind' } });
    expect(problemLine(newer)).toBe(`Отказ: ${ru.problem.codes.rejected} (rejected)`);
    expect(problemLine({ code: 'seller_frozen', detail: { message: 'frozen' } })).toBe('Отказ: frozen');
    expect(valueName('hooks.statuses', 'active')).toBe('активна');
    expect(valueName('hooks.statuses', 'sleeping')).toBe('sleeping');
    useLanguage('en');
  });

  it('waits 1, 2, 4 … 30 s before each try to reconnect the stream', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(reconnectDelayMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('keep the same placeholders in both languages', () => {
    for (const [key, text] of e) {
      const twin = r.get(key) ?? r.get(key.replace(PLURAL, '_many')) ?? r.get(key.replace(PLURAL, '_other'));
      expect(twin, key).toBeDefined();
      expect(placeholders(twin!), key).toEqual(placeholders(text));
    }
  });

  it('write roubles, plurals and times as each language does', () => {
    useLanguage('ru');
    expect(money(1299)).toBe('1\u00a0299\u00a0₽');
    expect(t('orders.count', { count: 1 })).toBe('1 заказ');
    expect(t('orders.count', { count: 3 })).toBe('3 заказа');
    expect(t('orders.count', { count: 5 })).toBe('5 заказов');
    expect(t('orders.count', { count: 21 })).toBe('21 заказ');
    expect(time('2026-11-26T09:05:00Z')).toMatch(/^26\.11\.2026, \d\d:05:00 \S+/);
    useLanguage('en');
    expect(money(1299)).toBe('₽1,299');
    expect(t('orders.count', { count: 1 })).toBe('1 order');
    expect(t('orders.count', { count: 2 })).toBe('2 orders');
    expect(time('2026-11-26T09:05:00Z')).toMatch(/^26\/11\/2026, \d\d:05:00 \S+/);
  });
});
