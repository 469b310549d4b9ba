/**
 * `GET /sandbox`: the sandbox page (server/sandbox-page/, issue "See the sandbox"), served by the same
 * process and port as the API. The page itself holds nothing secret (it is the same for everyone);
 * what it shows comes from the sandbox operations with the admin token the person signs in with.
 * One HTML answer with its script and style inline; its Content-Security-Policy lets it talk to this
 * server only (no CDN, no font, no request elsewhere), so it works offline. The language is
 * `?lang=ru|en`, else the first of ru/en in Accept-Language, else English.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import en from './sandbox-page/locales/en.json' with { type: 'json' };
import ru from './sandbox-page/locales/ru.json' with { type: 'json' };

export const SANDBOX_PAGE_PATH = '/sandbox';

type Lang = 'en' | 'ru';

/** The page's language for a request. */
export function pageLanguageOf(req: Pick<FastifyRequest, 'query' | 'headers'>): Lang {
  const asked = (req.query as Record<string, unknown> | undefined)?.lang;
  if (asked === 'ru' || asked === 'en') return asked;
  const header = String(req.headers['accept-language'] ?? '');
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: tag.split('-')[0], q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((x) => (x.lang === 'ru' || x.lang === 'en') && x.q > 0)
    .sort((a, b) => b.q - a.q);
  return (ranked[0]?.lang as Lang | undefined) ?? 'en';
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

interface Built {
  html: Record<Lang, string>;
  csp: string;
}

async function buildPage(): Promise<Built> {
  const { PAGE_SCRIPT, PAGE_STYLE } = await import('./sandbox-page/bundle.derived.ts');
  // An inline script ends at the first `</script`: none may stand in the bundle's text.
  const script = PAGE_SCRIPT.replace(/<\/(script)/gi, '<\\/$1');
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(PAGE_STYLE)}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const page = (lang: Lang): string =>
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${(lang === 'ru' ? ru : en).title} — seller-server</title>` +
    `<style>${PAGE_STYLE}</style></head><body><div id="app"></div><script>${script}</script></body></html>`;
  return { html: { en: page('en'), ru: page('ru') }, csp };
}

export function registerSandboxPage(app: FastifyInstance): void {
  let built: Promise<Built> | undefined;
  app.get(SANDBOX_PAGE_PATH, async (req, reply) => {
    built ??= buildPage();
    const { html, csp } = await built;
    reply.header('cache-control', 'no-store');
    reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('vary', 'accept-language');
    return reply.type('text/html; charset=utf-8').send(html[pageLanguageOf(req)]);
  });
}
