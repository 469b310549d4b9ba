// Bundles the three faces with esbuild (TypeScript 7 has no JS emit API).
// The CLI is split into chunks so that command modules load lazily and `seller --help` stays fast.
import { build } from 'esbuild';
import { existsSync, rmSync } from 'node:fs';

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: 'linked',
  packages: 'external',
  logLevel: 'warning',
};

rmSync('dist', { recursive: true, force: true });

const entries = {
  'sdk/index': 'sdk/index.ts',
  'sdk/webhooks/index': 'sdk/webhooks/index.ts',
  'sdk/webhooks/web': 'sdk/webhooks/web.ts',
  'server/index': 'server/index.ts',
  'server/main': 'server/main.ts',
  'cli/main': 'cli/main.ts',
};
const present = Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(file)));

await build({
  ...common,
  entryPoints: present,
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
