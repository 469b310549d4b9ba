/**
 * Entry point of the `seller` binary. The build bundles this file into one CommonJS script that
 * bin/seller.js runs through a small loader with V8's code cache (scripts/build.mjs), so it must
 * not use top-level await.
 */
import { processIO } from './lib/io.ts';
import { runCli } from './program.ts';

// `seller keys list | head -1`: a reader that stops early is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

void runCli(process.argv.slice(2), { io: processIO() }).then((code) => {
  process.exitCode = code;
});
