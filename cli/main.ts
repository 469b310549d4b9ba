/** Entry point of the `seller` binary (bin/seller.js imports the bundle of this file). */
import { processIO } from './lib/io.ts';
import { runCli } from './program.ts';

// `seller keys list | head -1`: a reader that stops early is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await runCli(process.argv.slice(2), { io: processIO() });
