/**
 * Shared pieces of the benchmarks: quick mode, statistics, child-process servers, timed spawns,
 * result rows and the final table. Every bench compares against a baseline measured in the same run
 * and reports a ratio; nothing here asserts a time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `BENCH_QUICK=1`: a few iterations of everything, to prove the bench code works (smoke test). */
export const QUICK = process.env.BENCH_QUICK === '1';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST_SERVER = new URL('../server/dist/esm/index.js', import.meta.url).href;
export const DIST_SDK = new URL('../sdk/dist/esm/index.js', import.meta.url).href;
export const ADMIN_TOKEN = 'bench-admin-token';
/** The rate limit would refuse most of a load test's requests (600 a minute per key): lifted for benches. */
export const NO_RATE_LIMIT = { perMinute: 1e9, burst: 1e9 };

/** Picks the quick or the full value. */
export const pick = (quick, full) => (QUICK ? quick : full);

// ---------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values) => percentile(values, 50);

/** Milliseconds since an arbitrary origin, sub-millisecond. */
export const nowMs = () => performance.now();

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Result rows and the table
// ---------------------------------------------------------------------------------------------

/**
 * One line of the table. `verdict`: 'PASS' | 'MISS' | 'info' (no target stated by the issue).
 * `ratio` is a number (or null when the line has no baseline).
 */
export function row(measure, value, baseline, ratio, target, verdict) {
  return { measure, value, baseline, ratio, target, verdict };
}

/** A ratio line: passes when `ratio` is at most (`atMost`) or at least (`atLeast`) the target. */
export function ratioRow(measure, value, baseline, ratio, { atMost, atLeast } = {}) {
  let target = '—';
  let verdict = 'info';
  if (atMost !== undefined) {
    target = `<= ${atMost}×`;
    verdict = ratio <= atMost ? 'PASS' : 'MISS';
  } else if (atLeast !== undefined) {
    target = `>= ${atLeast}×`;
    verdict = ratio >= atLeast ? 'PASS' : 'MISS';
  }
  return row(measure, value, baseline, ratio, target, verdict);
}

export const fmt = {
  ms: (v) => (v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`),
  rate: (v, unit = 'req/s') => `${v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1)}${unit.startsWith('/') ? '' : ' '}${unit}`,
  /** Two decimals; two significant digits below 0.1 (so 0.0036× does not print as 0.00×). */
  ratio: (v) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : `${v < 0.1 ? v.toPrecision(2) : v.toFixed(2)}×`),
  int: (v) => Math.round(v).toLocaleString('en-US'),
  mb: (bytes) => `${(bytes / 1e6).toFixed(1)} MB`,
};

/** The table `measure | value | baseline | ratio | target | PASS/MISS`, as text. */
export function table(rows) {
  const head = ['measure', 'value', 'baseline', 'ratio', 'target', 'PASS/MISS'];
  const cells = rows.map((r) => [r.measure, r.value, r.baseline, fmt.ratio(r.ratio), r.target, r.verdict]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => String(c[i]).length)));
  const line = (c) => `| ${c.map((v, i) => String(v).padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

/** A line of progress, on stderr so that stdout keeps only the table. */
export const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);

/** The machine the numbers come from. */
export function machine() {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.versions.node}`;
}

// ---------------------------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------------------------

/** A temporary directory, removed by the returned function. */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `seller-bench-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts bench/serve.mjs in a child process (so that the load generator and the server do not share
 * an event loop) and waits for the JSON line it prints when it listens.
 */
export async function startChild(config) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'serve.mjs')], {
    cwd: ROOT,
    env: { ...process.env, BENCH_SERVE: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const info = await new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk) => {
      buffered += chunk;
      const nl = buffered.indexOf('\n');
      if (nl < 0) return;
      child.stdout.off('data', onData);
      try {
        resolve(JSON.parse(buffered.slice(0, nl)));
      } catch (err) {
        reject(new Error(`bench server printed ${buffered.slice(0, nl)}: ${err.message}`));
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', onData);
    exited.then(({ code, signal }) => reject(new Error(`bench server (${config.mode}) exited early: ${code ?? signal}`)));
  });
  child.stdout.resume();
  return {
    ...info,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * User + system CPU time of a process in ms, from /proc (Linux; clock ticks at 100 Hz), or undefined
 * where there is no /proc. CPU per request moves less from run to run than requests per second,
 * which the load generator shares the cores for.
 */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Times each of `runs` (name → async function) in interleaved rounds, the order rotated each round
 * so that no run always follows another; the first `warmup` rounds are not kept. Answers the times
 * (ms) of each name: the call's own, or with `timesItself` the number each call answers.
 */
export async function interleaved(runs, warmup, rounds, { timesItself = false } = {}) {
  const names = Object.keys(runs);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < warmup + rounds; i++) {
    for (let j = 0; j < names.length; j++) {
      const which = names[(i + j) % names.length];
      const t0 = nowMs();
      const own = await runs[which]();
      if (i >= warmup) times[which].push(timesItself ? own : nowMs() - t0);
    }
  }
  return times;
}

/** Runs a command to its end; answers the wall time in ms. Throws when it fails. */
export function timedRun(command, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const started = nowMs();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = nowMs() - started;
      if (code === 0) resolve({ ms, out });
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
    });
  });
}
