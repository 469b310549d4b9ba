// The esbuild plugins of the `seller` bundle, shared by scripts/build.mjs and the tests that bundle
// the CLI the way the build does (test/helpers/bundle.ts).
import { dirname, join } from 'node:path';

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
