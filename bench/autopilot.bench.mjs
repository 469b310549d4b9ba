/**
 * The autopilot's throughput: `seller autopilot` (the built CLI, a child process) delivers a burst
 * of paid orders (1,000; one sandbox burst before it starts) with a deliver rule whose command is a
 * no-op (`true`), from its start to the last `delivered` event. Baseline: `seller orders watch
 * --json --since all` reading the same stream of orders, from its start to the last order printed.
 * Target (issue 16): at least 50 orders/s; the ratio to the plain watch says what the rules cost.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, DIST_SERVER, fmt, log, NO_RATE_LIMIT, nowMs, pick, row, ROOT, tempDir } from './lib.mjs';
import { api, newSeller, sandbox } from './seed.mjs';

export const name = 'autopilot';

const ORDERS = pick(40, 1000);
const TARGET = 50;

/** Runs `seller ARGS` until `done(line)` has been true `count` times; answers the seconds it took. */
function timeUntil(args, env, count, done) {
  return new Promise((resolve, reject) => {
    const started = nowMs();
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'seller.js'), ...args], { cwd: ROOT, env });
    let seen = 0;
    let buffer = '';
    let stderr = '';
    let finished = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`seller ${args.join(' ')}: ${seen}/${count} after 300 s; stderr: ${stderr.slice(0, 500)}`));
    }, 300_000);
    child.stderr.setEncoding('utf8').on('data', (t) => (stderr += t));
    child.stdout.setEncoding('utf8').on('data', (text) => {
      buffer += text;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!finished && done(JSON.parse(line)) && ++seen === count) {
          finished = true;
          const seconds = (nowMs() - started) / 1000;
          clearTimeout(timer);
          child.once('close', () => resolve(seconds));
          child.kill('SIGINT');
        }
      }
    });
    child.once('close', (code) => {
      if (!finished) {
        clearTimeout(timer);
        reject(new Error(`seller ${args.join(' ')} ended (${code}) after ${seen}/${count}; stderr: ${stderr.slice(0, 500)}`));
      }
    });
  });
}

export async function run() {
  const { startServer } = await import(DIST_SERVER);
  const server = await startServer({ port: 0, memory: true, adminToken: ADMIN_TOKEN, rateLimit: NO_RATE_LIMIT });
  const dir = tempDir('autopilot');
  try {
    const seller = await newSeller(server.app);
    const card = await api(server.app, seller.apiKey, 'POST', '/listings', {
      service: 'spotify',
      tariff: 'individual',
      productType: 'code',
      deliveryMethod: 'code',
      priceRub: 300,
      slaMinutes: 720,
      guaranteeDays: 7,
    });
    await api(server.app, seller.apiKey, 'POST', `/listings/${card.number}/state`, { active: true });
    log(`  ${ORDERS} paid orders…`);
    for (let i = 0; i < ORDERS; i++) {
      const order = await sandbox(server.app, 'POST', '/orders', { number: card.number });
      await sandbox(server.app, 'POST', `/orders/${order.id}/pay`);
    }
    const env = { ...process.env, SERVICE_API_KEY: seller.apiKey, SERVICE_BASE_URL: server.url, SELLER_CONFIG_DIR: dir.dir, XDG_CONFIG_HOME: dir.dir, NO_COLOR: '1' };
    const config = path.join(dir.dir, 'autopilot.json');
    writeFileSync(config, JSON.stringify({ pollSeconds: 0.2, deliver: [{ match: { card: card.number }, action: { command: 'true' } }] }));

    const watchSeconds = await timeUntil(['orders', 'watch', '--json', '--since', 'all', '--interval', '1'], env, ORDERS, (o) => o.status === 'awaiting_delivery');
    const pilotSeconds = await timeUntil(['autopilot', '--config', config, '--json'], env, ORDERS, (e) => e.rule === 'deliver' && e.type === 'delivered');
    const pilotRate = ORDERS / pilotSeconds;
    const watchRate = ORDERS / watchSeconds;
    return [
      row(
        `autopilot: ${fmt.int(ORDERS)} paid orders, no-op delivery command: orders/s (vs orders watch --json)`,
        fmt.rate(pilotRate, 'orders/s'),
        fmt.rate(watchRate, 'orders/s'),
        pilotRate / watchRate,
        `>= ${TARGET} orders/s`,
        pilotRate >= TARGET ? 'PASS' : 'MISS',
      ),
    ];
  } finally {
    await server.close();
    dir.remove();
  }
}
