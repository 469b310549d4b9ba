// Builds the three packages of the workspace, each into its own `dist/` beside its sources
// (docs/decisions.md, "Three packages from one repo"): sdk/dist (`service-seller`), cli/dist
// (`service-seller-cli`), server/dist (`service-seller-server`). esbuild bundles (TypeScript 7 has
// no JS emit API); tsc emits the declarations.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asciiRegexSources, kyWithoutUndici, lazyChildProcess, zodEnglishOnly } from './cli-plugins.mjs';
import { codeCacheLoader } from './cli-loader.mjs';
import { buildTimeData } from './build-time-data.mjs';
import { contractTypes } from './contract-types.mjs';

const PACKAGES = ['sdk', 'cli', 'server'];
/** `import.meta.url` in a CommonJS build: the file's own URL. */
const importMetaUrl = {
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: 'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
};
const common = { bundle: true, target: 'node20.19', logLevel: 'warning', legalComments: 'none' };

// Built aside, then swapped in: tests and benches running a `dist/` meanwhile never see it half-built.
const OUT = `.build-${process.pid}`;
rmSync(OUT, { recursive: true, force: true });
process.on('exit', () => rmSync(OUT, { recursive: true, force: true }));
const out = (pkg, ...rest) => join(OUT, pkg, ...rest);

const present = (entries) => Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(file)));

// --- service-seller (the SDK) ---------------------------------------------------------------
// One runtime dependency, ky. zod (strict mode, the contract's schemas, autopilot's config) and ajv
// (the doctor) are optional peers, loaded by the entries that need them; everything else the SDK
// uses (unhomoglyph's table, yaml) is bundled. What a browser needs of the contract is data derived
// here, at build time (scripts/build-time-data.mjs), so that no schema library rides along.
const sdkEntries = present({
  index: 'sdk/index.ts',
  'webhooks/index': 'sdk/webhooks/index.ts',
  'webhooks/web': 'sdk/webhooks/web.ts',
  contract: 'sdk/contract/public.ts',
  // Strict mode's check, loaded by its package name (sdk/answers.ts) when a client is strict.
  strict: 'sdk/strict.ts',
  'doctor/index': 'sdk/doctor/index.ts',
  'autopilot/index': 'sdk/autopilot/index.ts',
  // Test helpers: Web Crypto and plain data only (no zod, no Node built-ins).
  'testing/index': 'sdk/testing/index.ts',
  // Scenario files against the sandbox (zod loaded on first use, yaml bundled as for the autopilot).
  'scenario/index': 'sdk/scenario/index.ts',
});
const peers = ['zod', 'zod/*', 'ajv', 'ajv/*'];
const strictByName = { SELLER_STRICT_MODULE: '"service-seller/strict"' };
await build({
  ...common,
  platform: 'neutral',
  mainFields: ['module', 'main'],
  format: 'esm',
  define: strictByName,
  entryPoints: sdkEntries,
  external: ['ky', ...peers, 'node:*'],
  plugins: [buildTimeData],
  outdir: out('sdk', 'dist', 'esm'),
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
// CommonJS: one script per entry. ky is ES-only, so it is bundled here: a `require()` of the SDK
// then needs no require(esm) (a warning on Node 20.19) and its types never name ky.
// The Node-only entries (doctor, autopilot) read `import.meta.url`, which CommonJS spells otherwise.
const nodeOnly = new Set(['doctor/index', 'autopilot/index']);
const pick = (keep) => Object.fromEntries(Object.entries(sdkEntries).filter(([name]) => keep(nodeOnly.has(name))));
for (const [entries, meta] of [[pick((node) => !node), {}], [pick((node) => node), importMetaUrl]]) {
  await build({
    ...common,
    ...meta,
    platform: 'node',
    format: 'cjs',
    define: { ...strictByName, ...meta.define },
    entryPoints: entries,
    external: [...peers],
    plugins: [buildTimeData],
    outdir: out('sdk', 'dist', 'cjs'),
    outExtension: { '.js': '.cjs' },
  });
}

// --- service-seller-server ------------------------------------------------------------------
// Its dependencies (fastify, lowdb, zod, …) stay external: server/package.json declares them.
// `service-seller-server/msw` (server/msw/): msw and the SDK are the user's, optional peers, never
// bundled; its `../../sdk/index.ts` is the package `service-seller` (sdkAsPeer), and so is the scenario runner.
const serverEntries = present({ index: 'server/index.ts', main: 'server/main.ts', 'msw/index': 'server/msw/index.ts' });
await build({
  ...common,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  plugins: [sdkAsPeer(), buildTimeData],
  entryPoints: serverEntries,
  outdir: out('server', 'dist', 'esm'),
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
await build({
  ...common,
  platform: 'node',
  format: 'cjs',
  // lowdb and steno are ES-only: bundled into the CommonJS build, the CommonJS ones stay external
  // (bundleOnly marks them; esbuild's `packages: 'external'` would win over it and leave
  // `require("lowdb")`, a require of an ES module).
  plugins: [sdkAsPeer(), bundleOnly(['lowdb', 'steno']), buildTimeData],
  entryPoints: present({ index: 'server/index.ts', 'msw/index': 'server/msw/index.ts' }),
  outdir: out('server', 'dist', 'cjs'),
  outExtension: { '.js': '.cjs' },
});
const serverMain = out('server', 'dist', 'esm', 'main.js');
if (existsSync(serverMain)) {
  writeFileSync(serverMain, `#!/usr/bin/env node\n${readFileSync(serverMain, 'utf8')}`);
  chmodSync(serverMain, 0o755);
}

// --- service-seller-cli ---------------------------------------------------------------------
// The CLI is a program, started once per command, so its start-up time is what a person waits
// for. It is built differently from the library faces:
// - its dependencies (commander, zod, ky) are bundled and minified: Node's ESM loader costs more per
//   file than the code costs to compile (zod alone is ~100 files);
// - it is one CommonJS script (`cli/dist/seller-bundle-<hash>.cjs`; command modules are still evaluated
//   only when their noun is invoked, and `import()` becomes `require()`: Node ≥ 20.19 requires ES
//   modules such as @inquirer/prompts, which stays external since it is loaded only to ask), run by
//   a small loader (`cli/dist/seller.cjs`, the package's bin, what bin/seller.js requires) through
//   `vm.Script` with V8's code cache (scripts/cli-loader.mjs): the cache lives in the user's cache
//   directory, written by the first run, never inside the installed package.
const cli = await build({
  ...common,
  ...importMetaUrl,
  platform: 'node',
  entryPoints: present({ 'seller-bundle': 'cli/main.ts' }),
  entryNames: '[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  supported: { 'dynamic-import': false },
  // ajv is loaded only by `seller doctor`, grammy (its `grammy/web` build) only by `seller autopilot` with notify.telegram:
  // required from node_modules then, not carried in the bundle.
  external: ['@inquirer/*', 'ajv', 'ajv/*', 'grammy', 'grammy/*'],
  // English-only zod (for strict mode and the doctor, loaded when used) and commander's child_process on first use.
  plugins: [zodEnglishOnly, lazyChildProcess, kyWithoutUndici, asciiRegexSources, buildTimeData],
  minify: true,
  keepNames: true,
  outdir: out('cli', 'dist'),
  metafile: true,
});
const bundle = Object.keys(cli.metafile.outputs).find((file) => file.endsWith('.cjs'));
if (bundle) {
  const loader = out('cli', 'dist', 'seller.cjs');
  const ascii = !/[^\x00-\x7f]/.test(readFileSync(bundle, 'utf8'));
  // The nouns as cli/nouns.ts names them, with `help` and the completion word (test/cli/code-cache.test.ts checks the list).
  const nouns = [...readFileSync('cli/nouns.ts', 'utf8').matchAll(/^\s+noun\('([a-z-]+)'/gm)].map((m) => m[1]);
  nouns.push('help', readFileSync('cli/complete-word.ts', 'utf8').match(/COMPLETE_WORD = '([^']+)'/)[1]);
  writeFileSync(loader, codeCacheLoader(bundle.split('/').pop(), { ascii, nouns }));
  chmodSync(loader, 0o755);
}

// --- Declarations ---------------------------------------------------------------------------
// For the packages' entries (`exports.*.types`), so that applications type-check against `.d.ts`
// files under their own compiler options, never against this project's sources (and, for the
// browser-safe entries, without zod: sdk/contract/types.ts is written out). tsc keeps the
// sources' `.ts` specifiers; they are rewritten to `.js`, and a `.d.cts` twin of every file (its
// specifiers `.cjs`) types the CommonJS build.
const types = join(OUT, 'types');
const tsc = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json', '--outDir', types], { stdio: 'inherit' });
// Meanwhile, the contract's types written out (sdk/contract/types.ts): the SDK's entries then
// declare themselves without zod, an optional peer an application may not have.
const written = contractTypes();
const [status] = await once(tsc, 'exit');
if (status !== 0) throw new Error('build: declaration emit failed');
// The types of the schemas themselves cannot be written without zod: they are declared by
// `service-seller/contract` only. A new one must be named here, so that it is a decision.
const SCHEMA_TYPES = ['ApiOperations', 'Operation'];
if (written.omitted.join() !== SCHEMA_TYPES.join()) {
  throw new Error(`build: the root entry's types would leave out ${written.omitted.join(', ') || 'nothing'}; expected ${SCHEMA_TYPES.join(', ')} (scripts/build.mjs SCHEMA_TYPES)`);
}
writeFileSync(join(types, 'sdk', 'contract', 'types.d.ts'), written.text);
rewriteSpecifiers(types);
cpSync(join(types, 'sdk'), out('sdk', 'dist', 'types'), { recursive: true });
cpSync(types, out('server', 'dist', 'types'), { recursive: true, filter: (src) => !src.includes(`${join(types, 'sdk')}/doctor`) && !src.includes(`${join(types, 'sdk')}/autopilot`) && !src.includes(`${join(types, 'sdk')}/scenario`) });
ctsTwins(out('sdk', 'dist', 'types'));
ctsTwins(out('server', 'dist', 'types'));

for (const pkg of PACKAGES) {
  const built = out(pkg, 'dist');
  if (!existsSync(built)) continue;
  const old = `${pkg}/dist.old-${process.pid}`;
  if (existsSync(`${pkg}/dist`)) renameSync(`${pkg}/dist`, old);
  renameSync(built, `${pkg}/dist`);
  rmSync(old, { recursive: true, force: true });
}
// The layout before the packages (one dist/ at the root) is gone: a stale one would only mislead.
rmSync('dist', { recursive: true, force: true });

/** An esbuild plugin: the SDK's root and its scenario runner, imported by server/msw/, are the package `service-seller` (an external peer). */
function sdkAsPeer() {
  return {
    name: 'sdk-as-peer',
    setup(builder) {
      builder.onResolve({ filter: /\/sdk\/(index|scenario\/index)\.ts$/ }, (args) => {
        if (!/[\\/]server[\\/]msw[\\/]/.test(args.importer)) return undefined;
        return { path: args.path.endsWith('scenario/index.ts') ? 'service-seller/scenario' : 'service-seller', external: true };
      });
    },
  };
}

/** An esbuild plugin that bundles `names` while `packages: 'external'` keeps the others out. */
function bundleOnly(names) {
  return {
    name: 'bundle-only',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'bundle-only') return undefined;
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        if (args.path.startsWith('node:') || !names.includes(name)) return { path: args.path, external: true };
        return builder.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'bundle-only' });
      });
    },
  };
}

/** `from './x.ts'` → `from './x.js'` in every declaration file under `dir`. */
function rewriteSpecifiers(dir) {
  for (const file of declarations(dir, '.d.ts')) {
    const text = readFileSync(file, 'utf8');
    const fixed = text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.ts(['"])/g, '$1$2.js$3');
    if (fixed !== text) writeFileSync(file, fixed);
  }
}

/** Beside every `x.d.ts` under `dir`, `x.d.cts` whose relative specifiers end in `.cjs`. */
function ctsTwins(dir) {
  for (const file of declarations(dir, '.d.ts')) {
    const text = readFileSync(file, 'utf8').replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.js(['"])/g, '$1$2.cjs$3');
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text);
  }
}

function declarations(dir, suffix) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(suffix)) files.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return files;
}
