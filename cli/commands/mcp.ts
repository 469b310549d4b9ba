/**
 * `seller mcp`: a stdio bridge to the service's tool endpoint, for MCP hosts that launch a command.
 * Reads one JSON-RPC message per line from stdin, POSTs each to `<base URL>/api/mcp` with the
 * profile's key (or SERVICE_API_KEY / SERVICE_BASE_URL), and writes each JSON-RPC answer as one
 * line to stdout. Nothing else goes to stdout; diagnostics go to stderr.
 *
 * - Notifications (answered 202) produce no line.
 * - A refusal of the whole POST (401/403 key problems, 429 rate limit, ...) answers a request with a
 *   JSON-RPC error line: code -32001, `data` = `{status, error, detail?}` (the API's error body).
 * - The service unreachable: code -32000 for each request.
 * - Messages are forwarded concurrently; answers may come out of order (JSON-RPC matches them by
 *   id). When stdin ends, the bridge waits for the answers still due and exits.
 */
import { createInterface } from 'node:readline';
import type { Register } from '../lib/command.ts';
import type { Deps } from '../lib/deps.ts';
import { note } from '../lib/output.ts';

export type McpOptions = Record<string, never>;

/** JSON-RPC error codes of the bridge (server-defined range). */
export const BRIDGE_CODES = { unreachable: -32000, refused: -32001 } as const;

export const register: Register = (command, app) => {
  command
    .addHelpText(
      'after',
      `
Reads JSON-RPC messages (one per line) on stdin and answers each on stdout, talking to
<base URL>/api/mcp with the profile's API key. For an MCP host's configuration:

  { "command": "seller", "args": ["mcp"], "env": { "SERVICE_PROFILE": "default" } }`,
    )
    .action(app.run((): McpOptions => ({}), runMcp));
};

type Id = string | number;

interface Forward {
  endpoint: string;
  apiKey: string | undefined;
}

export async function runMcp(_opts: McpOptions, deps: Deps): Promise<void> {
  const settings = deps.settings();
  const target: Forward = { endpoint: `${settings.baseUrl}/api/mcp`, apiKey: settings.apiKey };
  if (!settings.apiKey) note(deps.io, `seller mcp: no API key for profile "${settings.profile}"; requests will be refused (no_key)`);
  const pending = new Set<Promise<void>>();
  const lines = createInterface({ input: deps.io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const task = forward(target, line)
      .then((answer) => {
        if (answer !== undefined) deps.io.stdout.write(`${answer}\n`);
      })
      .catch((error: unknown) => note(deps.io, `seller mcp: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => pending.delete(task));
    pending.add(task);
  }
  await Promise.all(pending);
}

/** The id of a request (undefined for notifications, answers and what cannot be read). */
function requestId(line: string): Id | undefined {
  try {
    const message = JSON.parse(line) as unknown;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
    const { id, method } = message as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
  } catch {
    return undefined;
  }
}

const errorLine = (id: Id, code: number, message: string, data?: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });

/** POSTs one line; answers the line to write, if any. */
async function forward(target: Forward, line: string): Promise<string | undefined> {
  const id = requestId(line);
  let res: Response;
  try {
    res = await fetch(target.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'seller-cli mcp',
        ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
      },
      body: line,
    });
  } catch (error) {
    const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    if (id === undefined) throw new Error(`cannot reach ${target.endpoint}: ${why}`);
    return errorLine(id, BRIDGE_CODES.unreachable, `cannot reach ${target.endpoint}: ${why}`);
  }
  if (res.status === 202) {
    await res.body?.cancel();
    return undefined;
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (typeof body === 'object' && body !== null && (body as { jsonrpc?: unknown }).jsonrpc === '2.0') {
    return JSON.stringify(body);
  }
  // A refusal of the whole POST: the API's error body.
  const api = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; detail?: unknown };
  const code = typeof api.error === 'string' ? api.error : `http_${res.status}`;
  const detail = typeof api.detail === 'string' ? `: ${api.detail}` : '';
  if (id === undefined) throw new Error(`${code}${detail} (HTTP ${res.status})`);
  return errorLine(id, BRIDGE_CODES.refused, `${code}${detail}`, { status: res.status, ...api, error: code });
}
