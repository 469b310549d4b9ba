/**
 * The benchmarks' code works: each bench runs in quick mode (BENCH_QUICK=1, a few iterations) and
 * prints its lines of the ratio table. Nothing here looks at a time or a verdict: quick numbers
 * mean nothing, and a bench reports, it does not gate.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'seller-bench-smoke-'));

interface BenchRow {
  measure: string;
  value: string;
  baseline: string;
  ratio: number | null;
  target: string;
  verdict: string;
}

beforeAll(() => {
  // The benches import the built server and SDK (npm test builds first; a lone run may not have).
  if (!existsSync(join(root, 'server', 'dist', 'esm', 'index.js'))) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The lines each bench must print (a part of each measure's name). */
const EXPECTED: Record<string, string[]> = {
  server: ['GET /orders?limit=50, 10k orders, 50 conns: req/s', 'GET /orders?limit=50, 10k orders, 50 conns: p99'],
  writes: ['card update, 1 seller', 'card update, 200 cards / 2 sellers', 'card creation, 2,000 cards / 20 sellers', 'card creation after 1,000 writes of one seller', 'fsync per write'],
  cli: ['seller --help: wall time', 'seller cards list --json', "import 'service-seller'"],
  sdk: ['SDK orders.list() (50 orders): per call', 'ky alone'],
  autopilot: ['autopilot: ', 'autopilot with notify.telegram and sales', "of which grammY's floor", 'our code over that floor'],
  webhooks: ['webhook pay → 2xx at receiver: median', 'webhook pay → 2xx at receiver: p99', 'webhook deliveries sustained'],
  market: ['GET /catalog/demand, ', 'GET /me p99 of 20 sellers while one key hammers demand'],
  inspector: ['change stream: pay → its order event, median', 'change stream: pay → its order event, p99'],
  scenario: ['runScenario, 50 steps'],
  stock: ['1,000-unit refill at', 'paid order delivered from', "other seller's GET /me p99", 'SIGKILL in a 1,000-unit refill'],
  mock: ['msw mock orders.list() (50 orders): per call'],
};

describe('npm run bench, in quick mode', () => {
  it.each(Object.keys(EXPECTED))('%s runs and prints ratios', async (name) => {
    const json = join(dir, `${name}.json`);
    const { stdout } = await run(process.execPath, ['bench/run.mjs', name], {
      cwd: root,
      env: { ...process.env, BENCH_QUICK: '1', BENCH_JSON: json },
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toMatch(/\| measure +\| value +\| baseline +\| ratio +\| target +\| PASS\/MISS \|/);

    const rows = (JSON.parse(readFileSync(json, 'utf8')) as { quick: boolean; rows: BenchRow[] }).rows;
    for (const part of EXPECTED[name]!) {
      const line = rows.find((r) => r.measure.includes(part));
      expect(line, `a line for "${part}"`).toBeDefined();
      expect(stdout).toContain(line!.measure);
    }
    for (const line of rows) {
      expect(['PASS', 'MISS', 'info']).toContain(line.verdict);
      // Every line with a baseline carries a ratio, printed as N.NN× (two significant digits below 0.1).
      if (line.ratio !== null) {
        // Quick mode on a loaded machine may finish no request in its one-second window (ratio 0):
        // this test proves the bench code runs, never how fast anything is.
        expect(Number.isFinite(line.ratio) && line.ratio >= 0, `${line.measure}: ratio ${line.ratio}`).toBe(true);
        if (line.ratio > 0) expect(stdout).toContain(`${line.ratio < 0.1 ? line.ratio.toPrecision(2) : line.ratio.toFixed(2)}×`);
      }
    }
  }, 120_000);
});
