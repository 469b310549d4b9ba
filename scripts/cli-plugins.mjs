// The esbuild plugins of the `seller` bundle (scripts/build.mjs).
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

// ky reads fetch's classes from globalThis (`new globalThis.Request(…)` per attempt, `Headers` to
// merge, `Response`/`FormData` for instanceof, a `Request`+`ReadableStream` feature probe as it
// loads). On Node 20 the first touch of any of them loads undici (~25 ms a command), although the
// CLI sends through its own node:http fetch. In the `seller` bundle only, ky's `globalThis.<Class>`
// are the light classes of cli/lib/fetch-classes.ts; every other global ky reads stays real.
const FETCH_CLASSES = { Request: 'LiteRequest', Headers: 'LiteHeaders', Response: 'LiteResponse', FormData: 'LiteFormData', ReadableStream: 'LiteReadableStream' };
const fetchClassesFile = join(dirname(new URL(import.meta.url).pathname), '..', 'cli', 'lib', 'fetch-classes.ts');
export const kyWithoutUndici = {
  name: 'ky-without-undici',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]node_modules[\\/]ky[\\/]distribution[\\/].*\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const used = new Set();
      const contents = source.replace(/\bglobalThis\.(Request|Headers|Response|FormData|ReadableStream)\b/g, (_, name) => {
        used.add(name);
        return `__fetchClasses.${FETCH_CLASSES[name]}`;
      });
      if (used.size === 0) return undefined;
      return { contents: `import * as __fetchClasses from ${JSON.stringify(fetchClassesFile)};\n${contents}`, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

// The contact filter (sdk/contacts.ts, sdk/contact-phones.ts) writes Russian words into its regexes, in String.raw pieces
// and `u` regex literals, which esbuild leaves as they are (escaping a String.raw would change its
// text). The `seller` bundle is then read as latin1 when it is all ASCII (scripts/cli-loader.mjs:
// ~1.5 ms sooner than UTF-8 for 1.1 MB). In those files every non-ASCII character stands in a comment,
// a string, or a regex source read with the `u` flag, where `\u{…}` is the same character.
const ESCAPED_FILES = /[\\/]sdk[\\/]contact(s|-phones)\.ts$/;
export const asciiRegexSources = {
  name: 'ascii-regex-sources',
  setup(builder) {
    builder.onLoad({ filter: ESCAPED_FILES }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replace(/[^\x00-\x7f]/gu, (ch) => `\\u{${ch.codePointAt(0).toString(16)}}`), loader: 'ts' };
    });
  },
};
