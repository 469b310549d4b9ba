// An esbuild plugin: a module named `*.derived.ts` is run at build time and replaced by the data it
// exports (JSON), so that what a runtime needs of the contract (a JSON Schema, a table) is derived
// from the one contract while the schema library that derives it stays out of the bundle.
// In the sources (tests, tsc) the module simply computes its data when it loads.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const derived = new Map();

export const buildTimeData = {
  name: 'build-time-data',
  setup(builder) {
    builder.onLoad({ filter: /\.derived\.ts$/ }, async (args) => {
      // Once per build process: the SDK, the server and the CLI builds share the data.
      if (!derived.has(args.path)) derived.set(args.path, derivedModule(args.path));
      return { contents: await derived.get(args.path), loader: 'js' };
    });
  },
};

/** The module at `file` evaluated now, as an ES module of `export const name = <JSON>` lines. */
export async function derivedModule(file) {
  // Inside node_modules, so that the module's own imports (zod) resolve from the project.
  mkdirSync(join('node_modules', '.cache'), { recursive: true });
  const dir = mkdtempSync(join('node_modules', '.cache', 'seller-derived-'));
  try {
    const outfile = join(dir, 'derived.mjs');
    await build({ entryPoints: [file], outfile, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning' });
    const exports = await import(pathToFileURL(resolve(outfile)).href);
    return Object.entries(exports)
      .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`)
      .join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
