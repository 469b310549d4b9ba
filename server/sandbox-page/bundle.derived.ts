/**
 * The sandbox page's script and style, bundled from page.ts (Preact + htm and the SDK's
 * SandboxClient) by esbuild, minified, for the browsers of the last few years. The build runs this
 * module and ships only the text it exports (scripts/build-time-data.mjs), so the server package
 * carries the page, not esbuild; from the sources (tests) it is bundled when first served.
 * The page's weight has a budget, {@link PAGE_BUDGET_GZIP}: a bundle over it fails here, so the build
 * fails (and test/server/sandbox-page.test.ts measures the page as served).
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** At most 100 KiB gzip: the HTML, the style and the script together. */
export const PAGE_BUDGET_GZIP = 100 * 1024;

// The project's root: the build and the tests run there (this module is run from a bundle elsewhere).
const DIR = path.resolve('server', 'sandbox-page');

const out = await build({
  entryPoints: [path.join(DIR, 'page.ts')],
  bundle: true,
  write: false,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome111', 'firefox111', 'safari16'],
  legalComments: 'none',
  logLevel: 'warning',
  // The SDK's build-time switches (scripts/build.mjs): no strict mode in the page.
  define: { SELLER_STRICT_MODULE: '"service-seller/strict"', 'process.env.NODE_ENV': '"production"' },
  external: ['service-seller/strict', 'zod', 'zod/*', 'ajv', 'ajv/*'],
});

/** The page's script (one IIFE). */
export const PAGE_SCRIPT: string = out.outputFiles[0]!.text;
/** The page's style. */
export const PAGE_STYLE: string = readFileSync(path.join(DIR, 'style.css'), 'utf8');
/** The gzip size of script and style, for the budget (the HTML around them is a few hundred bytes). */
export const PAGE_GZIP_BYTES: number = gzipSync(PAGE_SCRIPT + PAGE_STYLE).length;

if (PAGE_GZIP_BYTES > PAGE_BUDGET_GZIP - 2048) {
  throw new Error(`sandbox page: ${PAGE_GZIP_BYTES} bytes gzip, over its budget of ${PAGE_BUDGET_GZIP} (server/sandbox-page/bundle.derived.ts)`);
}
