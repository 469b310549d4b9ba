/**
 * A diagnostic, not part of `npm run bench`: the server's CPU time per request of
 * `GET /api/v1/orders?limit=50` (10,000 orders) against the bare fastify route answering the same
 * bytes, each in its own child process (bench/serve.mjs), loaded by autocannon with 50 connections
 * for a fixed number of requests, CPU read from /proc/<pid>/stat (Linux). CPU per request moves
 * less from run to run than requests per second, which the load generator shares the cores for.
 *
 *   node bench/server-cpu.mjs [requests=150000] [rounds=3]     (dist/ must be built)
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { cpuMs, ROOT, tempDir } from './lib.mjs';

const REQUESTS = Number(process.argv[2] ?? 150_000);
const ROUNDS = Number(process.argv[3] ?? 3);

function start(config) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bench/serve.mjs')], {
      env: { ...process.env, BENCH_SERVE: JSON.stringify(config) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.once('exit', (code) => reject(new Error(`bench/serve.mjs exited with ${code}`)));
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ child, info: JSON.parse(out.split('\n')[0]) });
    });
  });
}

const load = (url, headers) => new Promise((resolve) => autocannon({ url, connections: 50, amount: REQUESTS, headers }, (_err, result) => resolve(result)));

const tmp = tempDir('server-cpu');
const api = await start({ mode: 'api', orders: 10_000 });
const headers = { authorization: `Bearer ${api.info.apiKey}` };
const url = `${api.info.url}/api/v1/orders?limit=50`;
const bodyFile = path.join(tmp.dir, 'body.json');
writeFileSync(bodyFile, Buffer.from(await (await fetch(url, { headers })).arrayBuffer()));
const bare = await start({ mode: 'bare', path: '/api/v1/orders', bodyFile, contentType: 'application/json; charset=utf-8' });
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const line = [];
    for (const [name, server, target] of [['bare route', bare, `${bare.info.url}/api/v1/orders?limit=50`], ['reference server', api, url]]) {
      await load(target, headers); // warm-up
      const before = cpuMs(server.child.pid);
      const result = await load(target, headers);
      const perRequest = ((cpuMs(server.child.pid) - before) * 1000) / REQUESTS;
      line.push(`${name} ${perRequest.toFixed(1)} µs CPU/request${result.non2xx ? ` (${result.non2xx} non-2xx)` : ''}`);
    }
    console.log(`round ${round}: ${line.join(', ')}`);
  }
} finally {
  for (const s of [api, bare]) {
    s.child.removeAllListeners('exit');
    s.child.kill('SIGTERM');
  }
  tmp.remove();
}
