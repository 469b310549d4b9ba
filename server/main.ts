/**
 * The `seller-server` command line (gaps.md):
 * seller-server [--port 8787] [--host 127.0.0.1] [--data DIR | --memory] [--admin-token T]
 *               [--allow-local-hooks] [--no-demo] [--log] [--no-fsync] [--rate-limit off|N/min[,burst]]
 * (`--log` and `--no-fsync` are this server's additions: docs/decisions.md, "Server command line",
 * "The store keeps its promise".)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { keptAdminToken } from './demo.ts';
import { DOCS_PATH } from './docs.ts';
import { OPENAPI_PATH } from './docs-page.ts';
import { SANDBOX_PAGE_PATH } from './sandbox-page-route.ts';
import { StoreError } from './store/store.ts';
import { startServer } from './index.ts';
import { describeRateLimit, parseRateLimit, RATE_LIMIT_ENV } from './http/rate-limit-option.ts';
import type { RateLimitOptions } from './http/rate-limit.ts';

const USAGE = `usage: seller-server [--port 8787] [--host 127.0.0.1] [--data DIR | --memory]
                     [--admin-token T] [--allow-local-hooks] [--no-demo] [--log]
                     [--no-fsync] [--rate-limit off|N/min[,burst]]

  --port N             port to listen on; 0 takes a free port (default 8787)
  --host H             address to bind (default 127.0.0.1)
  --data DIR           keep the store in DIR (default ./.seller-data)
  --memory             keep the store in memory only
  --admin-token T      sandbox admin token (default SERVICE_ADMIN_TOKEN, else generated; with --data
                       kept in DIR/admin.token, mode 0600, so a restart keeps it)
  --allow-local-hooks  allow http:// webhook addresses on loopback (local development only)
  --no-demo            do not create the demo seller
  --log                log every request on stderr (JSON lines: method, URL, status, time, request
                       id; never a header or a body); without it only unexpected errors are logged
  --no-fsync           do not flush data files to the disk before answering (throwaway servers:
                       a killed process loses nothing, a power cut may lose answered writes)
  --rate-limit L       requests per key: off, or N/min[,burst] (default 600/min,100, the real one;
                       else SELLER_SERVER_RATE_LIMIT); a seller's keys together get twice a key's
`;

function fail(message: string, code = 2): never {
  process.stderr.write(`seller-server: ${message}\n`);
  process.exit(code);
}

/**
 * How to run this package's `seller` from any folder: `node <absolute path>/bin/seller.js` (found by
 * walking up from this file to the clone's root); `npx -p service-seller-cli seller` when it cannot be found
 * (an installed service-seller-server has no `seller` of its own).
 */
function sellerCommand(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const bin = path.join(dir, 'bin', 'seller.js');
    if (existsSync(bin) && existsSync(path.join(dir, 'package.json'))) {
      return `node ${/^[\w@%+=:,./-]+$/.test(bin) ? bin : `'${bin.replace(/'/g, `'\\''`)}'`}`;
    }
    if (path.dirname(dir) === dir) return 'npx -p service-seller-cli seller';
  }
}

function parse() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        data: { type: 'string' },
        memory: { type: 'boolean', default: false },
        'admin-token': { type: 'string' },
        'allow-local-hooks': { type: 'boolean', default: false },
        'no-demo': { type: 'boolean', default: false },
        log: { type: 'boolean', default: false },
        'no-fsync': { type: 'boolean', default: false },
        'rate-limit': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  const args = parse();
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port takes a number from 0 to 65535, got ${args.port}`);
  if (args.memory && args.data) fail('--data and --memory exclude each other');
  const limitText = args['rate-limit'] ?? process.env[RATE_LIMIT_ENV];
  let rateLimit: RateLimitOptions | undefined;
  try {
    rateLimit = limitText === undefined || limitText === '' ? undefined : parseRateLimit(limitText);
  } catch (err) {
    fail(`${(err as Error).message}${args['rate-limit'] === undefined ? ` (from ${RATE_LIMIT_ENV})` : ''}`);
  }
  const dataDir = args.memory ? undefined : (args.data ?? './.seller-data');
  // A generated token is kept beside the data (like the demo key); a given one is never written.
  const adminToken = args['admin-token'] ?? process.env.SERVICE_ADMIN_TOKEN ?? (dataDir ? await keptAdminToken(dataDir) : undefined);
  const server = await startServer({
    port,
    host: args.host,
    memory: args.memory,
    dataDir,
    adminToken,
    allowLocalHooks: args['allow-local-hooks'],
    demo: !args['no-demo'],
    fsync: !args['no-fsync'],
    ...(rateLimit ? { rateLimit } : {}),
    // On stderr, so that stdout keeps only the lines above; an internal error's answer names its request id.
    logger: { level: args.log ? 'info' : 'error', stream: process.stderr },
  });
  const out = (line = '') => process.stdout.write(`${line}\n`);
  out(`store: ${args.memory ? 'memory (lost on exit)' : (args.data ?? './.seller-data')}`);
  out(`admin token (sandbox): ${server.adminToken}`);
  if (server.demo) {
    out(`demo seller: ${server.demo.sellerId}`);
    out(`demo key: ${server.demo.apiKey}`);
    // A line that works from any folder (`npx seller` works only inside the clone).
    out(`point the CLI at it: echo ${server.demo.apiKey} | ${sellerCommand()} login --base-url ${server.url} --with-key-stdin`);
  }
  // The sandbox commands (`seller sandbox …`, the sandbox page) take the admin token, not the key.
  out(`for the sandbox commands: export SERVICE_ADMIN_TOKEN=${server.adminToken}`);
  if (rateLimit) out(`rate limit: ${describeRateLimit(rateLimit)}`);
  if (args['no-fsync'] && !args.memory) out('warning: --no-fsync: answered writes may be lost on a power cut');
  if (args['allow-local-hooks']) out('warning: webhook addresses on loopback over http are allowed (local development only)');
  out(`API reference: ${server.url}${DOCS_PATH} (the OpenAPI document: ${server.url}${OPENAPI_PATH})`);
  out(`sandbox page: ${server.url}${SANDBOX_PAGE_PATH} (sign in with the admin token)`);
  out(`listening on ${server.url}`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  if (err instanceof StoreError) fail(err.message, 1);
  if ((err as { code?: string }).code === 'EADDRINUSE') fail(`${(err as Error).message}; choose another --port (0 takes a free one)`, 1);
  fail(`cannot start: ${(err as Error).message}`, 1);
});
