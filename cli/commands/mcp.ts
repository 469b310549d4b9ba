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
 * - Guardrails (mcp-guard.ts): `--read-only`, `--allow`, `--confirm` filter `tools/list` and check
 *   each `tools/call` before it is sent; the bridge reads the tool list itself once to know which
 *   tools are read-only.
 */
import { createInterface } from 'node:readline';
import { t } from '../i18n/index.ts';
import { collect, type Register } from '../lib/command.ts';
import { checkCall, guarding, guardToolList, type Guard, type ToolInfo } from './mcp-guard.ts';
import type { Deps } from '../lib/deps.ts';
import { note } from '../lib/output.ts';
import { detailMessage, errorFromResponse, type ErrorDetail } from '../../sdk/errors.ts';
import { CliError, errorLine } from '../lib/errors.ts';

export type McpOptions = Guard;

/** JSON-RPC error codes of the bridge (server-defined range). */
export const BRIDGE_CODES = { unreachable: -32000, refused: -32001 } as const;

export const register: Register = (command, app) => {
  command
    .option('--read-only', t('mcp.options.readOnly'))
    .option('--allow <tools>', t('mcp.options.allow'), collect)
    .option('--confirm', t('mcp.options.confirm'))
    .addHelpText('after', t('mcp.help'))
    .action(
      app.run(
        (o: { readOnly?: boolean; allow?: string[]; confirm?: boolean }): McpOptions => ({
          readOnly: o.readOnly === true,
          allow: o.allow?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean),
          confirm: o.confirm === true,
        }),
        runMcp,
      ),
    );
};

type Id = string | number;

interface Forward {
  endpoint: string;
  apiKey: string | undefined;
  guard: Guard;
  /** The service's tool list, read once (for the guard). */
  tools?: Promise<Map<string, ToolInfo>> | undefined;
}

export async function runMcp(opts: McpOptions, deps: Deps): Promise<void> {
  const settings = deps.settings();
  // i18next-instrument-ignore-next-line: an address, not text
  const target: Forward = { endpoint: `${settings.baseUrl}/api/mcp`, apiKey: settings.apiKey, guard: { readOnly: opts.readOnly === true, allow: opts.allow, confirm: opts.confirm === true } };
  if (!settings.apiKey) note(deps.io, t('mcp.noKey', { profile: settings.profile }));
  const pending = new Set<Promise<void>>();
  const lines = createInterface({ input: deps.io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const task = forward(target, line)
      .then((answer) => {
        if (answer !== undefined) deps.io.stdout.write(`${answer}\n`);
      })
      .catch((error: unknown) => note(deps.io, t('mcp.failed', { message: errorLine(error) })))
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

const rpcErrorLine = (id: Id, code: number, message: string, data?: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });

/** A tool-call answer given by the bridge itself (a guard refusal), shaped as the service's failed tool. */
const refusalLine = (id: Id, error: string, detail: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify({ error, detail }) }], isError: true } });

/** The service's tools by name, read once with the bridge's own `tools/list`. */
function toolsOf(target: Forward): Promise<Map<string, ToolInfo>> {
  target.tools ??= post(target, JSON.stringify({ jsonrpc: '2.0', id: 'seller-mcp-guard', method: 'tools/list' })).then((answer) => {
    const tools = (JSON.parse(answer ?? '{}') as { result?: { tools?: ToolInfo[] } }).result?.tools ?? [];
    return new Map(tools.map((t) => [t.name, t]));
  });
  return target.tools;
}

/** Applies the guard to one line: an answer of the bridge's own, or the line to forward and how to rewrite its answer. */
async function guardLine(target: Forward, line: string): Promise<{ answer: string } | { line: string; rewrite?: (answer: string) => string }> {
  if (!guarding(target.guard)) return { line };
  let message: { id?: Id; method?: unknown; params?: { name?: unknown; arguments?: unknown } };
  try {
    message = JSON.parse(line);
  } catch {
    return { line };
  }
  if (typeof message !== 'object' || message === null) return { line };
  if (message.method === 'tools/list') {
    return {
      line,
      rewrite: (answer) => {
        const parsed = JSON.parse(answer) as { result?: { tools?: ToolInfo[] } };
        if (parsed.result?.tools) parsed.result.tools = guardToolList(target.guard, parsed.result.tools);
        return JSON.stringify(parsed);
      },
    };
  }
  if (message.method === 'tools/call' && message.id !== undefined) {
    const name = typeof message.params?.name === 'string' ? message.params.name : '';
    const args = typeof message.params?.arguments === 'object' && message.params.arguments !== null ? (message.params.arguments as Record<string, unknown>) : {};
    let tool: ToolInfo | undefined;
    try {
      tool = (await toolsOf(target)).get(name);
    } catch {
      target.tools = undefined;
      tool = undefined; // unknown: the read-only guard refuses it
    }
    const checked = checkCall(target.guard, tool, name, args);
    if (!checked.ok) return { answer: refusalLine(message.id, checked.error, checked.detail) };
    return { line: JSON.stringify({ ...message, params: { ...message.params, arguments: checked.arguments } }) };
  }
  return { line };
}

/** Guards and POSTs one line; answers the line to write, if any. */
async function forward(target: Forward, line: string): Promise<string | undefined> {
  const guarded = await guardLine(target, line);
  if ('answer' in guarded) return guarded.answer;
  const answer = await post(target, guarded.line);
  if (answer === undefined || !guarded.rewrite) return answer;
  try {
    return guarded.rewrite(answer);
  } catch {
    return answer;
  }
}

/** POSTs one line; answers the line to write, if any. */
async function post(target: Forward, line: string): Promise<string | undefined> {
  const id = requestId(line);
  let res: Response;
  try {
    res = await fetch(target.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'seller-cli mcp',
        // i18next-instrument-ignore-next-line: an HTTP header, not text
        ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
      },
      body: line,
    });
  } catch (error) {
    const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    // Said on stderr from data (the address and the system's code), in the run's language.
    const errno = (error as { cause?: { code?: unknown } }).cause?.code;
    if (id === undefined) throw new CliError(typeof errno === 'string' ? t('mcp.unreachableWhy', { endpoint: target.endpoint, errno }) : t('mcp.unreachable', { endpoint: target.endpoint }));
    return rpcErrorLine(id, BRIDGE_CODES.unreachable, `cannot reach ${target.endpoint}: ${why}`);
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
  // i18next-instrument-ignore-next-line: the JSON-RPC answer to the MCP host (machine output, as --json)
  const message = typeof api.detail === 'string' || (typeof api.detail === 'object' && api.detail !== null) ? detailMessage(api.detail as ErrorDetail) : undefined;
  // i18next-instrument-ignore-next-line: the JSON-RPC answer to the MCP host (machine output, as --json)
  const detail = message ? `: ${message}` : '';
  // The service's refusal on stderr as every CLI error is said (code and words from the catalogue).
  if (id === undefined) throw errorFromResponse(res.status, body ?? text, res.headers, 'mcp');
  return rpcErrorLine(id, BRIDGE_CODES.refused, `${code}${detail}`, { status: res.status, ...api, error: code });
}
