/**
 * The guardrails of `seller mcp` (--read-only, --allow, --confirm): the pure checks, and the bridge
 * in-process against a real server: hidden tools are not listed, refused calls are answered by the
 * bridge and never reach the service, a confirmed call reaches it without the `confirm` argument.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_TOOLS, checkCall, guardToolList, type Guard } from '../../cli/commands/mcp-guard.ts';
import { toolCatalogue } from '../../server/mcp/tools.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bufferIO, run, tempConfigDir } from './helpers.ts';

let server: TestServer;
let apiKey: string;
const config = tempConfigDir();

beforeAll(async () => {
  server = await startTestServer();
  apiKey = (await server.newSeller()).apiKey;
});
afterAll(async () => {
  await server.close();
  config.cleanup();
});

const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

async function bridge(args: string[], messages: unknown[]): Promise<Map<unknown, any>> {
  const io = bufferIO({ stdin: messages.map(line).join(''), env: { SERVICE_BASE_URL: server.url, SELLER_CONFIG_DIR: config.dir, SERVICE_API_KEY: apiKey } });
  const { code, out, err } = await run(['mcp', ...args], io);
  expect(code, err).toBe(0);
  return new Map(out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).map((m) => [m.id, m]));
}

const textOf = (answer: any) => JSON.parse(answer.result.content[0].text);

describe('the guard rules', () => {
  const catalogue = toolCatalogue();
  it('every tool that needs a confirmation exists and changes data', () => {
    for (const name of CONFIRM_TOOLS) {
      expect(catalogue.get(name), name).toBeDefined();
      expect(catalogue.get(name)!.annotations.readOnlyHint, name).toBe(false);
    }
  });

  it('read-only hides every changing tool and keeps every reading one', () => {
    const tools = [...catalogue.values()].map(({ name, annotations, inputSchema, description }) => ({ name, annotations, inputSchema, description }));
    const shown = guardToolList({ readOnly: true, confirm: false }, tools);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(shown.length).toBe(tools.filter((t) => t.annotations.readOnlyHint).length);
  });

  it('an allow-list with a prefix pattern, and a confirmation that is stripped once given', () => {
    const guard: Guard = { readOnly: false, allow: ['service_orders*', 'service_me'], confirm: true };
    const deliver = { name: 'service_orders_deliver', annotations: { readOnlyHint: false } };
    expect(checkCall(guard, undefined, 'service_listings_update', {})).toMatchObject({ ok: false, error: 'tool_not_allowed' });
    expect(checkCall(guard, deliver, 'service_orders_deliver', { id: 'ord_x' })).toMatchObject({ ok: false, error: 'confirmation_required' });
    expect(checkCall(guard, deliver, 'service_orders_deliver', { id: 'ord_x', confirm: 'yes' })).toMatchObject({ ok: false, error: 'confirmation_required' });
    expect(checkCall(guard, deliver, 'service_orders_deliver', { id: 'ord_x', confirm: true })).toEqual({ ok: true, arguments: { id: 'ord_x' } });
    expect(checkCall(guard, { name: 'service_orders', annotations: { readOnlyHint: true } }, 'service_orders', { limit: 1 })).toEqual({ ok: true, arguments: { limit: 1 } });
  });
});

describe('seller mcp with guardrails (against a real server)', () => {
  it('--read-only lists only reading tools and refuses a changing call without sending it', async () => {
    const answers = await bridge(['--read-only'], [LIST, call(2, 'service_orders_deliver', { id: 'ord_AAAAAAAAAAAAAAAA' }), call(3, 'service_me')]);
    const names: string[] = answers.get(1).result.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('service_orders');
    expect(names).not.toContain('service_orders_deliver');
    expect(names).not.toContain('service_listings_update');
    expect(answers.get(2).result.isError).toBe(true);
    expect(textOf(answers.get(2))).toMatchObject({ error: 'tool_not_allowed' });
    expect(answers.get(3).result.isError).toBe(false);
    expect(textOf(answers.get(3)).key.prefix).toBeDefined();
  });

  it('--allow keeps the listed tools only', async () => {
    const answers = await bridge(['--allow', 'service_me,service_orders'], [LIST, call(2, 'service_stats')]);
    expect(answers.get(1).result.tools.map((t: { name: string }) => t.name).sort()).toEqual(['service_me', 'service_orders']);
    expect(textOf(answers.get(2))).toMatchObject({ error: 'tool_not_allowed' });
  });

  it('--confirm requires confirm: true on a tool that writes to a buyer, then forwards the call without it', async () => {
    const answers = await bridge(['--confirm'], [LIST, call(2, 'service_orders_message', { id: 'ord_AAAAAAAAAAAAAAAA', text: 'hi' }), call(3, 'service_orders_message', { id: 'ord_AAAAAAAAAAAAAAAA', text: 'hi', confirm: true })]);
    const message = answers.get(1).result.tools.find((t: { name: string }) => t.name === 'service_orders_message');
    expect(message.inputSchema.required).toContain('confirm');
    expect(textOf(answers.get(2))).toMatchObject({ error: 'confirmation_required' });
    // Forwarded: the service answers for the (unknown) order, not about an unexpected argument.
    expect(answers.get(3).result.isError).toBe(true);
    expect(JSON.stringify(textOf(answers.get(3)))).toMatch(/not_found/);
  });
});
