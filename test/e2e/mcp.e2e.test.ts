/**
 * The tool endpoint with the official MCP client (`@modelcontextprotocol/sdk`, Streamable HTTP)
 * against a real server: connect, list tools (against the operation table), typed structured
 * results (validated by the client against each tool's outputSchema), refusals as isError, a
 * revoked key refused at once, resources.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations, type ApiOperationId } from '../../sdk/contract/index.ts';
import { TOOL_NAMES } from '../../server/mcp/names.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await server.close();
});

const transports = new WeakMap<Client, StreamableHTTPClientTransport>();

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'mcp-e2e', version: '0.0.1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  clients.push(client);
  transports.set(client, transport);
  return client;
}

async function http(method: string, path: string, apiKey: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(method === 'GET' ? {} : { 'idempotency-key': crypto.randomUUID() }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** The JSON text of a tool result's one content item. */
const textOf = (result: unknown) => JSON.parse((result as { content: Array<{ type: string; text: string }> }).content[0]!.text);

describe('the official client over Streamable HTTP', () => {
  it('connects: the server reports protocol 2025-06-18, its name and version, tools and resources, and instructions', async () => {
    const seller = await server.newSeller();
    const client = await connect(seller.apiKey);
    expect(transports.get(client)!.protocolVersion).toBe('2025-06-18');
    expect(client.getServerVersion()).toEqual({ name: 'service-seller', version: '1.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false }, resources: {} });
    expect(client.getInstructions()).toContain('switched off');
    expect(await client.ping()).toEqual({});
  });

  it('lists one tool per operation of the table for an all-scopes key', async () => {
    const seller = await server.newSeller();
    const client = await connect(seller.apiKey);
    const { tools } = await client.listTools();
    const expected = Object.keys(apiOperations).map((id) => TOOL_NAMES[id as ApiOperationId]);
    expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
    const orders = tools.find((t) => t.name === 'service_orders')!;
    expect(orders.inputSchema.properties).toHaveProperty('needsAction');
    expect(orders.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(orders.outputSchema?.type).toBe('object');
  });

  it('calls service_orders with needsAction and gets structured content matching the output schema', async () => {
    const seller = await server.newSeller({ admission: 'complete' });
    const client = await connect(seller.apiKey);
    await client.listTools(); // the client validates structuredContent against the listed outputSchema
    const card = await client.callTool({
      name: 'service_listings_create',
      arguments: { service: 'spotify', tariff: 'individual', productType: 'code', deliveryMethod: 'code', priceRub: 300, slaMinutes: 60, guaranteeDays: 7 },
    });
    expect(card.isError).toBe(false);
    const number = (card.structuredContent as { number: number }).number;
    expect((await client.callTool({ name: 'service_listings_set_state', arguments: { number, active: true } })).isError).toBe(false);
    const order = await server.sandbox<{ id: string }>('POST', '/orders', { number });
    await server.sandbox('POST', `/orders/${order.id}/pay`, {});

    const result = await client.callTool({ name: 'service_orders', arguments: { needsAction: true } });
    expect(result.isError).toBe(false);
    const page = result.structuredContent as { items: Array<{ id: string; status: string; needsAction: boolean }>; nextCursor: string | null };
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ id: order.id, status: 'awaiting_delivery', needsAction: true });
    expect(page.nextCursor).toBeNull();
    expect(textOf(result)).toEqual(page);
  });

  it('a refusal comes back as isError: deliver on a missing order → rejected not_found; a scope escalation → rejected scope_escalation', async () => {
    const seller = await server.newSeller();
    const client = await connect(seller.apiKey);
    await client.listTools();
    const missing = await client.callTool({ name: 'service_orders_deliver', arguments: { id: 'ord_doesnotexist' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatchObject({ error: 'rejected', refusal: { kind: 'not_found' } });

    const narrow = await http('POST', '/keys', seller.apiKey, { name: 'narrow', scopes: ['keys'] });
    expect(narrow.status).toBe(201);
    const narrowClient = await connect(narrow.body.key);
    const { tools } = await narrowClient.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['service_keys', 'service_keys_create', 'service_keys_revoke', 'service_me']);
    const escalation = await narrowClient.callTool({ name: 'service_keys_create', arguments: { name: 'wider', scopes: ['orders'] } });
    expect(escalation.isError).toBe(true);
    expect(textOf(escalation)).toMatchObject({ error: 'rejected', refusal: { kind: 'scope_escalation' } });
  });

  it('a revoked key is refused at once: the next call fails', async () => {
    const seller = await server.newSeller();
    const extra = await http('POST', '/keys', seller.apiKey, { name: 'agent', scopes: ['orders'] });
    const client = await connect(extra.body.key);
    expect((await client.callTool({ name: 'service_orders', arguments: {} })).isError).toBe(false);
    expect((await http('DELETE', `/keys/${extra.body.id}`, seller.apiKey)).body).toMatchObject({ revoked: true });
    await expect(client.callTool({ name: 'service_orders', arguments: {} })).rejects.toThrow(/401|revoked/);
    await expect(client.listTools()).rejects.toThrow(/revoked/);
  });

  it('reads resources: the catalogue list and one position', async () => {
    const seller = await server.newSeller();
    const client = await connect(seller.apiKey);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('service://orders/{id}');
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThanOrEqual(20);
    const read = await client.readResource({ uri: resources[0]!.uri });
    const content = read.contents[0] as { text: string; mimeType?: string };
    expect(content.mimeType).toBe('application/json');
    expect(JSON.parse(content.text).slug).toBe(resources[0]!.name);
  });

  it('an unknown tool is a protocol error (-32602)', async () => {
    const seller = await server.newSeller();
    const client = await connect(seller.apiKey);
    await expect(client.callTool({ name: 'service_nothing', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
});
