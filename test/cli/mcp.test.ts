/**
 * `seller mcp`, the stdio bridge to `POST /api/mcp`: in-process (line handling, refusals mapped to
 * JSON-RPC error lines, notifications silent), and as the built binary spawned with stdin/stdout
 * pipes. The CLI is bundled as the build does into a private directory, so this test neither
 * depends on a stale `dist/` nor races another test rebuilding it.
 */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli } from '../helpers/bundle.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bufferIO, run, tempConfigDir } from './helpers.ts';

const root = resolve(import.meta.dirname, '../..');
// Inside the repository so that bare imports resolve from node_modules; `.vitest-*` is git-ignored.
const outdir = join(root, `.vitest-cli-mcp-${process.pid}`);

let server: TestServer;
let apiKey: string;
const config = tempConfigDir();

beforeAll(async () => {
  server = await startTestServer();
  apiKey = (await server.newSeller()).apiKey;
  mkdirSync(outdir, { recursive: true });
  await bundleCli(outdir);
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(outdir, { recursive: true, force: true });
  config.cleanup();
});

const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

const env = (key: string | undefined) => ({ SERVICE_BASE_URL: server.url, SELLER_CONFIG_DIR: config.dir, ...(key ? { SERVICE_API_KEY: key } : {}) });

/** stdout as JSON lines, by id. */
function answers(out: string): Map<unknown, any> {
  const lines = out.split('\n').filter(Boolean);
  return new Map(lines.map((l) => JSON.parse(l)).map((m) => [m.id, m]));
}

describe('seller mcp (in-process)', () => {
  it('answers each request with one JSON line; notifications and blank lines give none', async () => {
    const io = bufferIO({ stdin: line(INIT) + line(INITIALIZED) + '\n' + line(LIST), env: env(apiKey) });
    const { code, out, err } = await run(['mcp'], io);
    expect(code, err).toBe(0);
    expect(err).toBe('');
    const lines = out.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    const byId = answers(out);
    expect(byId.get(1).result.protocolVersion).toBe('2025-06-18');
    expect(byId.get(2).result.tools.map((t: { name: string }) => t.name)).toContain('service_orders');
  });

  it('a refused key becomes a JSON-RPC error line (-32001) with the API error in data', async () => {
    const io = bufferIO({ stdin: line(INIT) + line(INITIALIZED), env: env(`service_live_${'q'.repeat(40)}`) });
    const { code, out, err } = await run(['mcp'], io);
    expect(code).toBe(0);
    const lines = out.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const answer = JSON.parse(lines[0]!);
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32001, data: { status: 401, error: 'bad_key' } } });
    expect(answer.error.message).toMatch(/^bad_key/);
    expect(err).toMatch(/bad_key/); // the refused notification is reported on stderr
  });

  it('no key at all: a note on stderr, requests answered no_key', async () => {
    const io = bufferIO({ stdin: line(LIST), env: env(undefined) });
    const { out, err } = await run(['mcp'], io);
    expect(JSON.parse(out.trim())).toMatchObject({ id: 2, error: { code: -32001, data: { status: 401, error: 'no_key' } } });
    expect(err).toMatch(/no API key/);
  });

  it('the server’s JSON-RPC errors pass through unchanged (a line that is not JSON → -32700)', async () => {
    const io = bufferIO({ stdin: '{not json\n' + line({ jsonrpc: '2.0', id: 5, method: 'nope' }), env: env(apiKey) });
    const { out } = await run(['mcp'], io);
    const lines = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(lines.map((l) => l.error.code as number).sort((a, b) => a - b)).toEqual([-32700, -32601]);
  });

  it('an unreachable service: -32000 per request', async () => {
    const io = bufferIO({ stdin: line(LIST), env: { ...env(apiKey), SERVICE_BASE_URL: 'http://127.0.0.1:9' } });
    const { out } = await run(['mcp'], io);
    expect(JSON.parse(out.trim())).toMatchObject({ id: 2, error: { code: -32000, message: expect.stringMatching(/cannot reach/) } });
  });
});

describe('seller mcp (the built binary)', () => {
  it('reads initialize and tools/list from stdin, writes two JSON lines, exits when stdin ends', async () => {
    const child = spawn(process.execPath, [join(outdir, 'cli/main.js'), 'mcp'], {
      env: { PATH: process.env.PATH, ...env(apiKey) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    child.stdin.write(line(INIT));
    child.stdin.write(line(INITIALIZED));
    child.stdin.end(line(LIST));
    const code = await exited;
    expect(code, err).toBe(0);
    const lines = out.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    const byId = answers(out);
    expect(byId.get(1).result.serverInfo).toEqual({ name: 'service-seller', version: '1.0.0' });
    expect(byId.get(2).result.tools.length).toBeGreaterThan(50);
  });

  it('works as a stdio server for the official MCP client', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(outdir, 'cli/main.js'), 'mcp'],
      env: { PATH: process.env.PATH ?? '', ...env(apiKey) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-host', version: '1' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toEqual({ name: 'service-seller', version: '1.0.0' });
      await client.listTools();
      const me = await client.callTool({ name: 'service_me', arguments: {} });
      expect(me.isError).toBe(false);
      expect(me.structuredContent).toMatchObject({ mode: 'live' });
    } finally {
      await client.close();
    }
  });
});
