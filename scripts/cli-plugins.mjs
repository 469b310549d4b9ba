// The esbuild plugins of the `seller` bundle, shared by scripts/build.mjs and the tests that bundle
// the CLI the way the build does (test/helpers/bundle.ts).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// zod's `z.locales` namespace holds ~60 translations of its messages (more than half of zod's
// code); the CLI prints English only. English itself is registered by zod's schemas module.
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '../locales/index.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * The CLI's clients check answers without zod: sdk/routes.ts (the tables' routes, answers checked
 * by zod) is replaced by the module `plainRoutesModule` (sdk/contract/plain-compile.ts) generates
 * from the same tables, whose checks walk plain descriptions of the schemas
 * (sdk/contract/plain-check.ts). A command then neither loads zod nor builds the contract's
 * schemas before its request. `workDir`: where the generator is compiled for a moment.
 */
export async function plainRoutes(workDir) {
  const generator = join(workDir, `.plain-compile-${process.pid}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'sdk/contract/plain-compile.ts')],
    outfile: generator,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    logLevel: 'warning',
  });
  let plainRoutesModule;
  try {
    ({ plainRoutesModule } = await import(pathToFileURL(generator).href));
  } finally {
    rmSync(generator, { force: true });
  }
  const routes = join(ROOT, 'sdk/routes.ts');
  const contents = plainRoutesModule(join(ROOT, 'sdk/contract/plain-check.ts'));
  return {
    name: 'plain-routes',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]sdk[\\/]routes\.ts$/ }, (args) =>
        args.path === routes ? { contents, loader: 'js', resolveDir: dirname(routes) } : undefined,
      );
    },
  };
}

// commander requires node:child_process when it loads (~1.5 ms, with net and dgram), for
// executable subcommands, which `seller` has none of: it gets `spawn` on first use instead.
export const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(builder) {
    builder.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
  },
};
