/**
 * docs/mcp.md (issue 15, item 9) as written: its commands are read from the document and run with the
 * transports the MCP Inspector uses (the MCP SDK's stdio and Streamable HTTP clients) against a real
 * server. The stdio recipe (`-e SERVICE_API_KEY=… -e SERVICE_BASE_URL=… node bin/seller.js mcp`) needs
 * no header and lists the tools; the HTTP recipe works with its `Authorization` header, and without it
 * the endpoint answers 401 (why an Inspector that cannot send a header fails).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const doc = readFileSync(join(ROOT, 'docs/mcp.md'), 'utf8');
const commands = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
const INSPECTOR = 'npx @modelcontextprotocol/inspector';

let server: TestServer;
let apiKey: string;
const clients: Client[] = [];

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer();
  apiKey = (await server.newSeller({ admission: 'complete' })).apiKey;
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await server?.close();
});

/** The document's placeholders filled in for this server. */
const filled = (text: string) => text.replaceAll('<key>', apiKey).replaceAll('http://127.0.0.1:8787', server.url);

describe('docs/mcp.md', () => {
  it('the stdio recipe (any Node, any Inspector): the env and the command it names connect and list the tools', async () => {
    const line = commands.find((c) => c.startsWith(INSPECTOR) && !c.includes('--cli') && c.includes(' mcp'));
    expect(line).toBeDefined();
    const words = filled(line!).slice(INSPECTOR.length).trim().split(/\s+/);
    const env: Record<string, string> = {};
    while (words[0] === '-e') {
      const [name, ...value] = words[1]!.split('=');
      env[name!] = value.join('=');
      words.splice(0, 2);
    }
    expect(Object.keys(env).sort()).toEqual(['SERVICE_API_KEY', 'SERVICE_BASE_URL']);
    expect(words).toEqual(['node', 'bin/seller.js', 'mcp']);
    const client = new Client({ name: 'inspector-like', version: '0.0.1' });
    clients.push(client);
    const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', SELLER_CONFIG_DIR: join(ROOT, 'node_modules/.mcp-docs-config'), ...env };
    await client.connect(new StdioClientTransport({ command: process.execPath, args: words.slice(1), cwd: ROOT, env: childEnv }));
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
  }, 60_000);

  it('the HTTP recipe: the URL with the Authorization header it names lists the tools; without the header, 401', async () => {
    const line = commands.find((c) => c.includes('--transport http'));
    expect(line).toBeDefined();
    const url = /--cli (\S+)/.exec(filled(line!))![1]!;
    expect(new URL(url).pathname).toBe('/api/mcp');
    const header = /--header "([^:]+): ([^"]+)"/.exec(filled(line!))!;
    const client = new Client({ name: 'inspector-like', version: '0.0.1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { [header[1]!]: header[2]! } } }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);

    const bare = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(bare.status).toBe(401);
  }, 60_000);
});
