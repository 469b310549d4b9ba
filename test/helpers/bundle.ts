/**
 * esbuild bundles made the way `npm run build` makes them, for tests that run the real binaries
 * from a private directory (inside the repository, so bare imports resolve from its node_modules).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Bundles `server/main.ts` into `outDir`; returns the path of `main.js`. */
export async function bundleServerMain(outDir: string): Promise<string> {
  await build({
    entryPoints: { main: path.join(repoRoot, 'server/main.ts') },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    logLevel: 'warning',
  });
  return path.join(outDir, 'main.js');
}

/**
 * Bundles `cli/main.ts` with code splitting into `outdir` (entry `cli/main.js`, chunks under
 * `chunks/`), its dependencies external so that a trace sees each one load.
 */
export async function bundleCli(outdir: string): Promise<void> {
  await build({
    entryPoints: { 'cli/main': path.join(repoRoot, 'cli/main.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'silent',
  });
}
