/**
 * `npm run bench` (after `npm run build`): runs the benchmarks and prints one table of ratios
 * against baselines measured in the same run.
 *
 *   node bench/run.mjs                 every bench
 *   node bench/run.mjs server sdk      only these (server, writes, cli, sdk, webhooks, autopilot, market, stock, scenario, inspector, mock)
 *   BENCH_QUICK=1 node bench/run.mjs   a few iterations of each (smoke test; numbers mean nothing)
 *   BENCH_JSON=out.json                also write the rows as JSON
 *
 * Progress goes to stderr, the table to stdout. The exit code is 0 whether targets pass or miss
 * (a bench reports, it does not gate); it is 1 when a bench fails to run.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { log, machine, QUICK, table } from './lib.mjs';

const BENCHES = ['server', 'writes', 'cli', 'sdk', 'webhooks', 'autopilot', 'market', 'stock', 'scenario', 'inspector', 'mock'];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((n) => !BENCHES.includes(n));
if (unknown.length > 0) {
  log(`unknown bench ${unknown.join(', ')}; choose from ${BENCHES.join(', ')}`);
  process.exit(2);
}
if (!existsSync(fileURLToPath(new URL('../server/dist/esm/index.js', import.meta.url)))) {
  log('the build is missing: run `npm run build` first (npm run bench does)');
  process.exit(1);
}

const selected = wanted.length > 0 ? BENCHES.filter((n) => wanted.includes(n)) : BENCHES;
const rows = [];
const started = performance.now();
log(`machine: ${machine()}${QUICK ? ' (BENCH_QUICK: few iterations, numbers mean nothing)' : ''}`);
for (const name of selected) {
  const t0 = performance.now();
  log(`${name}…`);
  const bench = await import(`./${name}.bench.mjs`);
  rows.push(...(await bench.run()));
  log(`${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

process.stdout.write(`\n${table(rows)}\n`);
log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify({ machine: machine(), quick: QUICK, rows }, null, 2));
// Keep-alive sockets of fetch and servers' timers must not hold the process.
process.exit(0);
