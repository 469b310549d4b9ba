// Writes docs/scenarios.md, the reference of the scenario steps, from the scenario schema
// (sdk/scenario/verbs.ts via sdk/scenario/reference.ts): `node scripts/scenario-reference.mjs`.
// With `--check` it writes nothing and exits 1 when the file is not what the schema says
// (test/sdk/scenario-reference.test.ts holds the same).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const target = join(root, 'docs/scenarios.md');
const outDir = join(root, 'node_modules/.cache/scenario-reference');
const out = join(outDir, `reference-${process.pid}.mjs`);
mkdirSync(outDir, { recursive: true });
await build({ entryPoints: [join(root, 'sdk/scenario/reference.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: out, logLevel: 'warning' });
let text;
try {
  text = (await import(pathToFileURL(out).href)).renderReference();
} finally {
  rmSync(out, { force: true });
}

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== text) {
    console.error('docs/scenarios.md is out of date with the scenario schema: run node scripts/scenario-reference.mjs');
    process.exit(1);
  }
  console.error('docs/scenarios.md is up to date');
} else {
  writeFileSync(target, text);
  console.error('wrote docs/scenarios.md');
}
